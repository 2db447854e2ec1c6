#include "interp/recipe_nodes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <type_traits>

#include "stdlib/brook_math.hpp"
#include "stdlib/reference.hpp"

namespace brook::interp {
namespace {

using stdlib::Builtin;
using stdlib::StepOp;

// The recipe's operations on numbers of the component type T, each rounded to
// T on its own as C computes them. Flags are T(1) and T(0).
template <class T>
struct Lowering {
  bool own_math;  // in a kernel, calling a transcendental: brook_math.h's float one

  static constexpr bool kInt = std::is_integral_v<T>;
  using U = std::make_unsigned_t<std::conditional_t<kInt, T, int>>;

  // Integers wrap (two's complement) instead of overflowing into UB.
  static T wrap(U v) { return static_cast<T>(v); }

  T constant(double v) const {
    if constexpr (kInt)
      return static_cast<T>(static_cast<int64_t>(v));  // -1 wraps for unsigned
    else
      return static_cast<T>(v);
  }
  T neg(T x) const {
    if constexpr (kInt)
      return wrap(U(0) - static_cast<U>(x));
    else
      return -x;
  }
  T binary(StepOp op, T x, T y) const {
    switch (op) {
      case StepOp::add:
        if constexpr (kInt)
          return wrap(static_cast<U>(x) + static_cast<U>(y));
        else
          return x + y;
      case StepOp::sub:
        if constexpr (kInt)
          return wrap(static_cast<U>(x) - static_cast<U>(y));
        else
          return x - y;
      case StepOp::mul:
        if constexpr (kInt)
          return wrap(static_cast<U>(x) * static_cast<U>(y));
        else
          // Never fused into a following add: each step is its own function,
          // called through a pointer, its result stored in the register file.
          return x * y;
      case StepOp::div:
        // No table recipe divides integers; should one, 0 beats a SIGFPE.
        if constexpr (kInt)
          return y == 0 ? T(0) : x / y;
        else
          return x / y;
      case StepOp::lt:
        return x < y ? T(1) : T(0);
      case StepOp::le:
        return x <= y ? T(1) : T(0);
      case StepOp::gt:
        return x > y ? T(1) : T(0);
      case StepOp::ge:
        return x >= y ? T(1) : T(0);
      case StepOp::eq:
        return x == y ? T(1) : T(0);
      case StepOp::ne:
        return x != y ? T(1) : T(0);
      default:
        return T(0);
    }
  }
  // Without a branch: min, max and clamp select on data the branch predictor
  // cannot guess, and a mispredicted branch costs more than the arithmetic.
  T select(T flag, T x, T y) const {
    using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
    const Bits mask = Bits(0) - static_cast<Bits>(flag != T(0));
    const Bits r = (std::bit_cast<Bits>(x) & mask) | (std::bit_cast<Bits>(y) & ~mask);
    return std::bit_cast<T>(r);
  }
  T either(T f, T g) const { return f != T(0) || g != T(0) ? T(1) : T(0); }
  T both(T f, T g) const { return f != T(0) && g != T(0) ? T(1) : T(0); }
  // A primitive builtin exactly as a call of it computes (math_nodes.cpp).
  T call(Builtin fn, std::span<const T> xs) const {
    if constexpr (std::is_same_v<T, float>) {
      if (own_math && xs.size() == 1) {
        if (stdlib::BrookMathFn f = stdlib::brook_math_fn(fn)) return f(xs[0]);
      }
      if (own_math && xs.size() == 2) {
        if (stdlib::BrookMathFn2 f = stdlib::brook_math_fn2(fn)) return f(xs[0], xs[1]);
      }
      return stdlib::ref_math_f32(fn, xs);
    } else if constexpr (std::is_same_v<T, double>) {
      if (own_math && xs.size() == 1) {
        if (stdlib::BrookMathFnD f = stdlib::brook_math_fn_f64(fn)) return f(xs[0]);
      }
      if (own_math && xs.size() == 2) {
        if (stdlib::BrookMathFn2D f = stdlib::brook_math_fn2_f64(fn)) return f(xs[0], xs[1]);
      }
      return stdlib::ref_math_f64(fn, xs);
    } else {
      return stdlib::ref_math_int<T>(fn, xs);
    }
  }
};

// One step compiled for one call site, whose argument widths are known: the
// components it computes, and where its operands' components lie in the
// register file (component k of an operand at register in + k * stride;
// stride 0 for a one-value operand, so it is read for every component).
// The steps and their order are stdlib::evaluate()'s; compiling them once
// keeps its per-call bookkeeping out of every builtin call.
template <class T>
struct Instr {
  void (*run)(const Instr&, T* r, const Lowering<T>& low) = nullptr;
  uint8_t n = 1;  // components computed; for a fold, its operand's
  uint16_t out = 0;
  std::array<uint16_t, 4> in{};
  std::array<uint8_t, 4> stride{};
  uint8_t count = 0;
  Builtin fn = Builtin::none;
};

template <class T>
const T& operand(const Instr<T>& i, const T* r, unsigned j, unsigned k) {
  return r[i.in[j] + k * i.stride[j]];
}

template <class T>
void run_copy(const Instr<T>& i, T* r, const Lowering<T>&) {  // component, vec
  for (unsigned k = 0; k < i.count; ++k) r[i.out + k] = r[i.in[k]];
}
template <class T>
void run_neg(const Instr<T>& i, T* r, const Lowering<T>& low) {
  for (unsigned k = 0; k < i.n; ++k) r[i.out + k] = low.neg(operand(i, r, 0, k));
}
// N > 0: exactly N components, every operand a full vector (unrolled, no
// strides); N == 0: any shape.
template <class T, StepOp op, unsigned N = 0>
void run_binary(const Instr<T>& i, T* r, const Lowering<T>& low) {
  if constexpr (N > 0) {
    const T* x = r + i.in[0];
    const T* y = r + i.in[1];
    for (unsigned k = 0; k < N; ++k) r[i.out + k] = low.binary(op, x[k], y[k]);
  } else {
    for (unsigned k = 0; k < i.n; ++k)
      r[i.out + k] = low.binary(op, operand(i, r, 0, k), operand(i, r, 1, k));
  }
}
template <class T>
void run_select(const Instr<T>& i, T* r, const Lowering<T>& low) {
  for (unsigned k = 0; k < i.n; ++k)
    r[i.out + k] = low.select(operand(i, r, 0, k), operand(i, r, 1, k), operand(i, r, 2, k));
}
// A comparison and the select that alone reads it, as one instruction: half
// the dispatches for min, max, clamp, step and sign. Same operations, same order.
template <class T, StepOp op>
void run_compare_select(const Instr<T>& i, T* r, const Lowering<T>& low) {
  for (unsigned k = 0; k < i.n; ++k) {
    T flag = low.binary(op, operand(i, r, 0, k), operand(i, r, 1, k));
    r[i.out + k] = low.select(flag, operand(i, r, 2, k), operand(i, r, 3, k));
  }
}

template <class T>
void run_call(const Instr<T>& i, T* r, const Lowering<T>& low) {
  for (unsigned k = 0; k < i.n; ++k) {
    std::array<T, 4> xs;
    for (unsigned j = 0; j < i.count; ++j) xs[j] = operand(i, r, j, k);
    r[i.out + k] = low.call(i.fn, std::span<const T>(xs.data(), i.count));
  }
}
template <class T, StepOp op>
void run_fold(const Instr<T>& i, T* r, const Lowering<T>& low) {
  // Left to right: ((x0 + x1) + x2) + x3.
  T acc = r[i.in[0]];
  for (unsigned k = 1; k < i.n; ++k) {
    const T& x = r[i.in[0] + k];
    if constexpr (op == StepOp::sum)
      acc = low.binary(StepOp::add, acc, x);
    else if constexpr (op == StepOp::any_of)
      acc = low.either(acc, x);
    else
      acc = low.both(acc, x);
  }
  r[i.out] = acc;
}

// The instruction for a binary step, or (`with_select`) for a comparison
// fused with its select.
template <class T, unsigned N>
auto binary_runner_n(StepOp op, bool with_select) -> decltype(&run_binary<T, StepOp::add>) {
  switch (op) {
    case StepOp::add:
      return run_binary<T, StepOp::add, N>;
    case StepOp::sub:
      return run_binary<T, StepOp::sub, N>;
    case StepOp::mul:
      return run_binary<T, StepOp::mul, N>;
    case StepOp::div:
      return run_binary<T, StepOp::div, N>;
    case StepOp::lt:
      return with_select ? run_compare_select<T, StepOp::lt> : run_binary<T, StepOp::lt, N>;
    case StepOp::le:
      return with_select ? run_compare_select<T, StepOp::le> : run_binary<T, StepOp::le, N>;
    case StepOp::gt:
      return with_select ? run_compare_select<T, StepOp::gt> : run_binary<T, StepOp::gt, N>;
    case StepOp::ge:
      return with_select ? run_compare_select<T, StepOp::ge> : run_binary<T, StepOp::ge, N>;
    case StepOp::eq:
      return with_select ? run_compare_select<T, StepOp::eq> : run_binary<T, StepOp::eq, N>;
    default:
      return with_select ? run_compare_select<T, StepOp::ne> : run_binary<T, StepOp::ne, N>;
  }
}

// The instruction for a binary step, or (`with_select`) for a comparison
// fused with its select; `wide4` when it works on two full 4-vectors.
template <class T>
auto binary_runner(StepOp op, bool with_select, bool wide4 = false)
    -> decltype(&run_binary<T, StepOp::add>) {
  return wide4 ? binary_runner_n<T, 4>(op, with_select) : binary_runner_n<T, 0>(op, with_select);
}

// What every instantiation below shares, filled in by make_recipe.
struct RecipeBase : Node {
  std::vector<NodePtr> args;
  std::vector<uint32_t> widths;   // 1 for a scalar argument
  std::vector<uint16_t> arg_reg;  // each argument's register
  uint32_t n = 1;                 // the result's components
  uint16_t result_reg = 0;
  uint8_t result_stride = 1;
  bool own_math = false;  // see Lowering
  virtual void compile(const stdlib::Recipe& recipe) = 0;
};

// A call of a composed builtin over arguments of component type T; R is the
// result's component type (T, or int for a result of flags: any, all).
template <class T, class R>
struct RecipeNode : RecipeBase {
  std::vector<Instr<T>> prog;
  std::vector<T> consts;

  void compile(const stdlib::Recipe& recipe) override {
    std::array<uint8_t, stdlib::kMaxRecipeSteps> w{};     // each step's components
    std::array<uint16_t, stdlib::kMaxRecipeSteps> reg{};  // and its first register
    // Constants first, one register each, copied in by one loop per call.
    uint16_t next = 0;
    for (size_t s = 0; s < recipe.steps.size(); ++s) {
      if (recipe.steps[s].op != StepOp::constant) continue;
      reg[s] = next++;
      consts.push_back(Lowering<T>{false}.constant(recipe.steps[s].value));
    }
    for (size_t s = 0; s < recipe.steps.size(); ++s) {
      if (recipe.steps[s].op == StepOp::constant) continue;
      reg[s] = next;
      next = static_cast<uint16_t>(next + 4);
    }
    arg_reg.assign(args.size(), 0);
    auto stride = [&](uint8_t step) -> uint8_t { return w[step] == 1 ? 0 : 1; };
    // Comparisons read only by one select, as that select's condition.
    std::array<int, stdlib::kMaxRecipeSteps> uses{};
    for (const stdlib::Step& st : recipe.steps)
      for (unsigned j = 0; j < st.count; ++j) ++uses[st.in[j]];
    std::array<bool, stdlib::kMaxRecipeSteps> fusable{};
    for (const stdlib::Step& st : recipe.steps) {
      const stdlib::Step& c = recipe.steps[st.in[0]];
      if (st.op == StepOp::select && c.flag && c.count == 2 && uses[st.in[0]] == 1 &&
          c.op >= StepOp::lt && c.op <= StepOp::ne)
        fusable[st.in[0]] = true;
    }
    for (size_t s = 0; s < recipe.steps.size(); ++s) {
      const stdlib::Step& st = recipe.steps[s];
      Instr<T> i;
      i.out = reg[s];
      i.count = st.count;
      i.fn = st.fn;
      uint8_t n = 1;
      for (unsigned j = 0; j < st.count; ++j) {
        i.in[j] = reg[st.in[j]];
        i.stride[j] = w[st.in[j]] == 1 ? 0 : 1;
        n = std::max(n, w[st.in[j]]);
      }
      i.n = n;
      if (fusable[s]) {
        w[s] = n;
        continue;  // computed by its select
      }
      switch (st.op) {
        case StepOp::arg:
          w[s] = static_cast<uint8_t>(widths[st.index]);
          arg_reg[st.index] = i.out;
          continue;  // the call writes it
        case StepOp::constant:
          w[s] = 1;
          continue;  // in `consts`
        case StepOp::component:
          i.in[0] = static_cast<uint16_t>(i.in[0] + st.index * i.stride[0]);
          i.count = 1;
          i.run = run_copy<T>;
          n = 1;
          break;
        case StepOp::vec:
          i.run = run_copy<T>;
          n = st.count;
          break;
        case StepOp::neg:
          i.run = run_neg<T>;
          break;
        case StepOp::select:
          if (fusable[st.in[0]]) {
            // in: the comparison's operands, then the two choices.
            const stdlib::Step& c = recipe.steps[st.in[0]];
            i.in = {reg[c.in[0]], reg[c.in[1]], reg[st.in[1]], reg[st.in[2]]};
            i.stride = {stride(c.in[0]), stride(c.in[1]), stride(st.in[1]), stride(st.in[2])};
            i.run = binary_runner<T>(c.op, true);
          } else {
            i.run = run_select<T>;
          }
          break;
        case StepOp::call:
          i.run = run_call<T>;
          break;
        case StepOp::sum:
          i.run = run_fold<T, StepOp::sum>;
          break;
        case StepOp::any_of:
          i.run = run_fold<T, StepOp::any_of>;
          break;
        case StepOp::all_of:
          i.run = run_fold<T, StepOp::all_of>;
          break;
        default:
          i.run = binary_runner<T>(st.op, false, n == 4 && i.stride[0] && i.stride[1]);
          break;
      }
      const bool fold = st.op == StepOp::sum || st.op == StepOp::any_of || st.op == StepOp::all_of;
      w[s] = fold ? 1 : n;
      prog.push_back(i);
    }
    const size_t last = recipe.steps.size() - 1;
    result_reg = reg[last];
    result_stride = w[last] == 1 ? 0 : 1;
  }

  // Evaluates the arguments once, in order, then the program; returns the
  // register file's result.
  const T* run(Machine& m, T* r) {
    for (size_t c = 0; c < consts.size(); ++c) r[c] = consts[c];
    for (size_t a = 0; a < args.size(); ++a) {
      T* at = r + arg_reg[a];
      if (widths[a] == 1) {
        at[0] = get<T>(args[a]->eval(m));
      } else {
        Vec v;
        args[a]->eval_vec(m, v);
        for (uint32_t k = 0; k < widths[a]; ++k) at[k] = get<T>(v.c[k]);
      }
    }
    const Lowering<T> low{own_math};
    for (const Instr<T>& i : prog) i.run(i, r, low);
    return r + result_reg;
  }
  Scalar eval(Machine& m) override {
    T r[4 * stdlib::kMaxRecipeSteps];
    return put<R>(static_cast<R>(run(m, r)[0]));
  }
  void eval_vec(Machine& m, Vec& out) override {
    T r[4 * stdlib::kMaxRecipeSteps];
    const T* x = run(m, r);
    for (uint32_t k = 0; k < n; ++k) out.c[k] = put<R>(static_cast<R>(x[k * result_stride]));
  }
};

template <class T>
std::unique_ptr<RecipeBase> node_for(bool flags) {
  if (flags) return std::make_unique<RecipeNode<T, int32_t>>();
  return std::make_unique<RecipeNode<T, T>>();
}

}  // namespace

NodePtr make_recipe(const stdlib::Recipe& recipe, std::vector<NodePtr>& args,
                    const std::vector<const Type*>& arg_types, const Type* result, SourceLoc loc,
                    bool in_kernel) {
  if (args.empty() || args.size() > 4) return nullptr;
  const TypeKind ck = arg_types[0]->scalar_of()->kind;
  const bool flags = recipe.steps.back().flag;
  // Sema gives the result the arguments' component type, or int for flags.
  if (result->scalar_of()->kind != (flags ? TypeKind::Int : ck)) return nullptr;
  std::unique_ptr<RecipeBase> node;
  switch (ck) {
    case TypeKind::Float:
      node = node_for<float>(flags);
      break;
    case TypeKind::Double:
      node = node_for<double>(flags);
      break;
    case TypeKind::UInt:
      node = node_for<uint32_t>(flags);
      break;
    case TypeKind::Long:
      node = node_for<int64_t>(flags);
      break;
    case TypeKind::ULong:
      node = node_for<uint64_t>(flags);
      break;
    // Sema promotes every argument of a composed builtin to int or wider,
    // except any/all's, and those were never evaluated on chars and shorts.
    case TypeKind::Char:
    case TypeKind::UChar:
    case TypeKind::Short:
    case TypeKind::UShort:
      return nullptr;
    default:
      node = node_for<int32_t>(flags);
      break;  // int, and bool read as int
  }
  node->loc = loc;
  node->n = result->width();
  // Looked up here once: only a recipe that calls a transcendental needs it.
  for (const stdlib::Step& st : recipe.steps) {
    if (st.op == stdlib::StepOp::call && in_kernel &&
        (stdlib::brook_math_fn(st.fn) || stdlib::brook_math_fn2(st.fn)))
      node->own_math = true;
  }
  for (const Type* t : arg_types) node->widths.push_back(t->width());
  node->args = std::move(args);
  node->compile(recipe);
  return node;
}

}  // namespace brook::interp
