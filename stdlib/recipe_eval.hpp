// The one generic lowering of recipes (stdlib/recipe.hpp). A backend supplies
// the primitive operations on its own component values (the interpreter's
// numbers, the JIT's llvm::Value*, the OpenCL printer's C expressions) and
// evaluate() walks the Steps in order, component by component, so every
// backend performs the same operations in the same order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "stdlib/recipe.hpp"

namespace brook::stdlib {

// The values of one step: n of them (1 to 4), or one shared by every
// component (n == 1: a scalar argument, a constant, a sum).
// Left uninitialised (every writer sets n and its values): the interpreter
// evaluates a recipe per call and should not clear a frame of steps each time.
template <class V>
struct Comps {
  std::array<V, 4> c;
  uint8_t n;
  const V& operator[](unsigned k) const { return c[n == 1 ? 0 : k]; }
};

// out = x op y per component, with `op` known at compile time so that the
// lowering's own switch on it folds away in the interpreter.
template <StepOp op, class L, class V>
void zip(L& low, Comps<V>& out, const Comps<V>& x, const Comps<V>& y) {
  for (unsigned k = 0; k < out.n; ++k) out.c[k] = low.binary(op, x[k], y[k]);
}

// L, the lowering, provides over its component type L::Value:
//   Value constant(double v);                     v in the arguments' component type T
//   Value neg(Value x);
//   Value binary(StepOp op, Value x, Value y);    add sub mul div in T; lt … ne give flags
//   Value select(Value flag, Value x, Value y);
//   Value call(Builtin fn, std::span<const Value> xs);   a primitive builtin in T
//   Value either(Value f, Value g), both(Value f, Value g);   flags
// `args` are the call's arguments, one Comps each.
template <class L>
Comps<typename L::Value> evaluate(const Recipe& r, L& low,
                                  std::span<const Comps<typename L::Value>> args) {
  using V = typename L::Value;
  std::array<Comps<V>, kMaxRecipeSteps> v;
  const size_t count = std::min(r.steps.size(), v.size());
  for (size_t s = 0; s < count; ++s) {
    const Step& st = r.steps[s];
    Comps<V>& out = v[s];
    auto in = [&](unsigned k) -> const Comps<V>& { return v[st.in[k]]; };
    // A component-wise step is as wide as its widest operand.
    uint8_t n = 1;
    for (unsigned k = 0; k < st.count; ++k) n = std::max(n, in(k).n);
    out.n = n;
    switch (st.op) {
      case StepOp::arg:
        out = args[st.index];
        break;
      case StepOp::constant:
        out.c[0] = low.constant(st.value);  // out.n is 1: no operands
        break;
      case StepOp::component:
        out.n = 1;
        out.c[0] = in(0)[st.index];
        break;
      case StepOp::vec:
        out.n = st.count;
        for (unsigned k = 0; k < st.count; ++k) out.c[k] = in(k)[0];
        break;
      case StepOp::neg:
        for (unsigned k = 0; k < n; ++k) out.c[k] = low.neg(in(0)[k]);
        break;
      case StepOp::select:
        for (unsigned k = 0; k < n; ++k) out.c[k] = low.select(in(0)[k], in(1)[k], in(2)[k]);
        break;
      case StepOp::call:
        for (unsigned k = 0; k < n; ++k) {
          std::array<V, 4> xs;
          for (unsigned j = 0; j < st.count; ++j) xs[j] = in(j)[k];
          out.c[k] = low.call(st.fn, std::span<const V>(xs.data(), st.count));
        }
        break;
      case StepOp::sum:
      case StepOp::any_of:
      case StepOp::all_of: {
        // Left to right: ((x0 + x1) + x2) + x3.
        const Comps<V>& x = in(0);
        V acc = x.c[0];
        for (unsigned k = 1; k < x.n; ++k) {
          acc = st.op == StepOp::sum      ? low.binary(StepOp::add, acc, x.c[k])
                : st.op == StepOp::any_of ? low.either(acc, x.c[k])
                                          : low.both(acc, x.c[k]);
        }
        out.n = 1;
        out.c[0] = acc;
        break;
      }
      case StepOp::add: zip<StepOp::add>(low, out, in(0), in(1)); break;
      case StepOp::sub: zip<StepOp::sub>(low, out, in(0), in(1)); break;
      case StepOp::mul: zip<StepOp::mul>(low, out, in(0), in(1)); break;
      case StepOp::div: zip<StepOp::div>(low, out, in(0), in(1)); break;
      case StepOp::lt: zip<StepOp::lt>(low, out, in(0), in(1)); break;
      case StepOp::le: zip<StepOp::le>(low, out, in(0), in(1)); break;
      case StepOp::gt: zip<StepOp::gt>(low, out, in(0), in(1)); break;
      case StepOp::ge: zip<StepOp::ge>(low, out, in(0), in(1)); break;
      case StepOp::eq: zip<StepOp::eq>(low, out, in(0), in(1)); break;
      case StepOp::ne: zip<StepOp::ne>(low, out, in(0), in(1)); break;
    }
  }
  return v[count - 1];
}

}  // namespace brook::stdlib
