#include "interp/math_nodes.hpp"

#include <span>

#include "interp/recipe_nodes.hpp"
#include "stdlib/brook_math.hpp"
#include "stdlib/reference.hpp"

namespace brook::interp {
namespace {

using stdlib::Builtin;

// Arguments gathered as vectors (scalars fill every component).
struct MathBase : Node {
  std::vector<NodePtr> args;
  std::vector<uint32_t> widths;
  Builtin id;
  uint32_t n;  // components of the computation
  void gather(Machine& m, Vec* out) {
    for (size_t a = 0; a < args.size(); ++a) {
      if (widths[a] == 1) {
        Scalar s = args[a]->eval(m);
        for (uint32_t i = 0; i < 4; ++i) out[a].c[i] = s;
      } else {
        args[a]->eval_vec(m, out[a]);
      }
    }
  }
};

template <class T>
T component(Builtin id, const Vec* in, size_t arity, uint32_t i) {
  T a[3] = {};
  for (size_t k = 0; k < arity && k < 3; ++k) a[k] = get<T>(in[k].c[i]);
  std::span<const T> s(a, arity);
  if constexpr (std::is_same_v<T, float>) {
    return stdlib::ref_math_f32(id, s);
  } else if constexpr (std::is_same_v<T, double>) {
    return stdlib::ref_math_f64(id, s);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a[0];
  } else {
    return stdlib::ref_math_int<T>(id, s);
  }
}

// Host code's isinf, as glibc's <math.h> defines it under gcc
// (__builtin_isinf_sign): -1 for -infinity, so that printing it gives gcc's
// output. Kernels keep §9's 1 (OpenCL's scalar isinf).
template <class T>
struct HostIsinf : MathBase {
  Scalar eval(Machine& m) override {
    T x = get<T>(args[0]->eval(m));
    return put<int32_t>(std::isinf(x) ? (std::signbit(x) ? -1 : 1) : 0);
  }
  void eval_vec(Machine& m, Vec& out) override { out.c[0] = eval(m); }
};

// Component-wise: result component type R, computation type T.
template <class T, class R>
struct Componentwise : MathBase {
  Scalar eval(Machine& m) override {
    Vec v[3];
    gather(m, v);
    return put<R>(static_cast<R>(component<T>(id, v, args.size(), 0)));
  }
  void eval_vec(Machine& m, Vec& out) override {
    Vec v[3];
    gather(m, v);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = put<R>(static_cast<R>(component<T>(id, v, args.size(), i)));
  }
};

// A kernel's float or double transcendental: stdlib/brook_math.h, per component.
template <class T>
struct KernelMath : MathBase {
  T (*fn)(T) = nullptr;
  Scalar eval(Machine& m) override { return put<T>(fn(get<T>(args[0]->eval(m)))); }
  void eval_vec(Machine& m, Vec& out) override {
    Vec v[3];
    gather(m, v);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = put<T>(fn(get<T>(v[0].c[i])));
  }
};

// The same for a two-argument one (atan2, pow).
template <class T>
struct KernelMath2 : MathBase {
  T (*fn)(T, T) = nullptr;
  Scalar eval(Machine& m) override {
    T a = get<T>(args[0]->eval(m));
    return put<T>(fn(a, get<T>(args[1]->eval(m))));
  }
  void eval_vec(Machine& m, Vec& out) override {
    Vec v[3];
    gather(m, v);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = put<T>(fn(get<T>(v[0].c[i]), get<T>(v[1].c[i])));
  }
};

template <class Fn>
NodePtr with_math_type(TypeKind k, Fn&& f) {
  switch (k) {
    case TypeKind::Float: return f(Tag<float>{});
    case TypeKind::Double: return f(Tag<double>{});
    case TypeKind::Int: return f(Tag<int32_t>{});
    case TypeKind::UInt: return f(Tag<uint32_t>{});
    case TypeKind::Long: return f(Tag<int64_t>{});
    case TypeKind::ULong: return f(Tag<uint64_t>{});
    case TypeKind::Char: return f(Tag<int8_t>{});
    case TypeKind::UChar: return f(Tag<uint8_t>{});
    case TypeKind::Short: return f(Tag<int16_t>{});
    case TypeKind::UShort: return f(Tag<uint16_t>{});
    default: return f(Tag<int32_t>{});
  }
}

}  // namespace

NodePtr make_math(Builtin id, std::vector<NodePtr> args, std::vector<const Type*> arg_types,
                  const Type* result, SourceLoc loc, bool in_kernel) {
  if (args.empty()) return nullptr;
  // Composed builtins (lerp, dot, …): built from their recipe.
  if (const stdlib::Recipe* r = stdlib::recipe_of(id))
    return make_recipe(*r, args, arg_types, result, loc, in_kernel);
  const Type* first = arg_types[0];
  TypeKind ck = first->scalar_of()->kind;
  uint32_t n = 1;
  for (const Type* t : arg_types) n = std::max(n, t->width());
  NodePtr node;
  // A kernel's float or double transcendental is stdlib/brook_math.h's.
  auto kernel_math = [&](TypeKind k, size_t arity) {
    return in_kernel && ck == k && args.size() == arity && result->scalar_of()->kind == k;
  };
  stdlib::BrookMathFn own = kernel_math(TypeKind::Float, 1) ? stdlib::brook_math_fn(id) : nullptr;
  stdlib::BrookMathFn2 own2 =
      kernel_math(TypeKind::Float, 2) ? stdlib::brook_math_fn2(id) : nullptr;
  stdlib::BrookMathFnD own_d =
      kernel_math(TypeKind::Double, 1) ? stdlib::brook_math_fn_f64(id) : nullptr;
  stdlib::BrookMathFn2D own2_d =
      kernel_math(TypeKind::Double, 2) ? stdlib::brook_math_fn2_f64(id) : nullptr;
  if (own) {
    auto k = std::make_unique<KernelMath<float>>();
    k->fn = own;
    node = std::move(k);
  } else if (own_d) {
    auto k = std::make_unique<KernelMath<double>>();
    k->fn = own_d;
    node = std::move(k);
  } else if (own2) {
    auto k = std::make_unique<KernelMath2<float>>();
    k->fn = own2;
    node = std::move(k);
  } else if (own2_d) {
    auto k = std::make_unique<KernelMath2<double>>();
    k->fn = own2_d;
    node = std::move(k);
  } else if (!in_kernel && id == Builtin::isinf && n == 1 && result->kind == TypeKind::Int &&
             (ck == TypeKind::Float || ck == TypeKind::Double)) {
    if (ck == TypeKind::Float)
      node = std::make_unique<HostIsinf<float>>();
    else
      node = std::make_unique<HostIsinf<double>>();
  } else if (stdlib::is_componentwise(id) || id == Builtin::popcount || id == Builtin::clz ||
             id == Builtin::ctz) {
    TypeKind rk = result->scalar_of()->kind;
    node = with_math_type(ck, [&]<class T>(Tag<T>) -> NodePtr {
      return with_math_type(rk, [&]<class R>(Tag<R>) -> NodePtr {
        return std::make_unique<Componentwise<T, R>>();
      });
    });
  }
  if (!node) return nullptr;
  auto* base = static_cast<MathBase*>(node.get());
  base->loc = loc;
  base->id = id;
  base->n = n;
  for (size_t i = 0; i < args.size(); ++i) base->widths.push_back(arg_types[i]->width());
  base->args = std::move(args);
  return node;
}

}  // namespace brook::interp
