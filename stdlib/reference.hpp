// The reference semantics of every builtin (LANGUAGE.md §9): what the
// interpreter computes and what the JIT and OpenCL backends must match.
//
// Float versions call the float libm functions (std::sin(float) is sinf), so
// the interpreter agrees with C code computing in float.
//
// Strict floating point (§10): a*b+c must never become a fused multiply-add
// here, whatever flags an includer compiles with (-mfma, -ffp-contract=fast,
// clang's default "on"). Every product that is then added or subtracted goes
// through unfused(), a volatile round trip the compiler cannot contract
// across. fma() is the one builtin that does fuse.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "stdlib/builtins.hpp"

namespace brook::stdlib {

// Forces `v` to be rounded to T on its own, so `unfused(a * b) + c` is two
// roundings, never one fused operation.
template <class T>
inline T unfused(T v) {
  volatile T rounded = v;
  return rounded;
}

// ---- per-component math (float, double; integers where the Sig allows) ----

// abs of the most negative integer wraps to itself (two's complement), not UB.
template <class T>
T ref_abs(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(x);
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return x < 0 ? static_cast<T>(U(0) - static_cast<U>(x)) : x;
  } else {
    return x;
  }
}
template <class T>
T ref_fabs(T x) {
  return std::fabs(x);
}
template <class T>
T ref_sqrt(T x) {
  return std::sqrt(x);
}
template <class T>
T ref_rsqrt(T x) {
  return T(1) / std::sqrt(x);
}
template <class T>
T ref_sin(T x) {
  return std::sin(x);
}
template <class T>
T ref_cos(T x) {
  return std::cos(x);
}
template <class T>
T ref_tan(T x) {
  return std::tan(x);
}
template <class T>
T ref_asin(T x) {
  return std::asin(x);
}
template <class T>
T ref_acos(T x) {
  return std::acos(x);
}
template <class T>
T ref_atan(T x) {
  return std::atan(x);
}
template <class T>
T ref_atan2(T y, T x) {
  return std::atan2(y, x);
}
template <class T>
T ref_sinh(T x) {
  return std::sinh(x);
}
template <class T>
T ref_cosh(T x) {
  return std::cosh(x);
}
template <class T>
T ref_tanh(T x) {
  return std::tanh(x);
}
template <class T>
T ref_exp(T x) {
  return std::exp(x);
}
template <class T>
T ref_exp2(T x) {
  return std::exp2(x);
}
template <class T>
T ref_log(T x) {
  return std::log(x);
}
template <class T>
T ref_log2(T x) {
  return std::log2(x);
}
template <class T>
T ref_log10(T x) {
  return std::log10(x);
}
template <class T>
T ref_pow(T x, T y) {
  return std::pow(x, y);
}
template <class T>
T ref_floor(T x) {
  return std::floor(x);
}
template <class T>
T ref_ceil(T x) {
  return std::ceil(x);
}
// C round: halves away from zero (2.5 → 3, -2.5 → -3).
template <class T>
T ref_round(T x) {
  return std::round(x);
}
template <class T>
T ref_trunc(T x) {
  return std::trunc(x);
}
template <class T>
T ref_frac(T x) {
  return x - std::floor(x);
}
template <class T>
T ref_fmod(T x, T y) {
  return std::fmod(x, y);
}
template <class T>
T ref_fmin(T a, T b) {
  return std::fmin(a, b);
}
template <class T>
T ref_fmax(T a, T b) {
  return std::fmax(a, b);
}
template <class T>
T ref_hypot(T a, T b) {
  return std::hypot(a, b);
}
template <class T>
T ref_cbrt(T x) {
  return std::cbrt(x);
}

// min/max are HLSL's, not fmin/fmax: a NaN in either operand returns `a`
// (min(NaN, 1) = NaN, min(1, NaN) = 1), because the comparison is false.
template <class T>
T ref_min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
T ref_max(T a, T b) {
  return a < b ? b : a;
}
template <class T>
T ref_clamp(T x, T lo, T hi) {
  return ref_min(ref_max(x, lo), hi);
}
template <class T>
T ref_saturate(T x) {
  return ref_clamp(x, T(0), T(1));
}
template <class T>
T ref_lerp(T a, T b, T t) {
  return a + unfused(t * (b - a));
}
template <class T>
T ref_step(T edge, T x) {
  return x >= edge ? T(1) : T(0);
}
// HLSL: t = saturate((x - e0) / (e1 - e0)); t * t * (3 - 2 * t).
template <class T>
T ref_smoothstep(T edge0, T edge1, T x) {
  T t = ref_saturate((x - edge0) / (edge1 - edge0));
  return t * t * (T(3) - unfused(T(2) * t));
}
// -1, 0 or 1 (as T); NaN and -0.0 give +0.
template <class T>
T ref_sign(T x) {
  return x > T(0) ? T(1) : x < T(0) ? T(-1) : T(0);
}
template <class T>
T ref_mad(T a, T b, T c) {
  return unfused(a * b) + c;
}
template <class T>
T ref_fma(T a, T b, T c) {
  return std::fma(a, b, c);
}
template <class T>
int ref_isnan(T x) {
  return std::isnan(x) ? 1 : 0;
}
template <class T>
int ref_isinf(T x) {
  return std::isinf(x) ? 1 : 0;
}
template <class T>
int ref_isfinite(T x) {
  return std::isfinite(x) ? 1 : 0;
}

// ---- integer bit functions (32- or 64-bit, signed or unsigned) ----
// The result has the argument's type; clz(0) and ctz(0) are the bit width.
template <class T>
T ref_popcount(T x) {
  return static_cast<T>(std::popcount(static_cast<std::make_unsigned_t<T>>(x)));
}
template <class T>
T ref_clz(T x) {
  return static_cast<T>(std::countl_zero(static_cast<std::make_unsigned_t<T>>(x)));
}
template <class T>
T ref_ctz(T x) {
  return static_cast<T>(std::countr_zero(static_cast<std::make_unsigned_t<T>>(x)));
}

// ---- vector functions, over the components of equal-length vectors (1 to 4) ----
// dot sums the products left to right: ((a0*b0 + a1*b1) + a2*b2) + a3*b3.
template <class T>
T ref_dot(std::span<const T> a, std::span<const T> b) {
  std::size_t n = a.size() < b.size() ? a.size() : b.size();
  if (n == 0) return T(0);
  T sum = unfused(a[0] * b[0]);
  for (std::size_t i = 1; i < n; ++i) sum = sum + unfused(a[i] * b[i]);
  return sum;
}
// out = a × b (3 components each).
template <class T>
void ref_cross(std::span<const T> a, std::span<const T> b, std::span<T> out) {
  T x = unfused(a[1] * b[2]) - unfused(a[2] * b[1]);
  T y = unfused(a[2] * b[0]) - unfused(a[0] * b[2]);
  T z = unfused(a[0] * b[1]) - unfused(a[1] * b[0]);
  out[0] = x;
  out[1] = y;
  out[2] = z;
}
template <class T>
T ref_length(std::span<const T> v) {
  return std::sqrt(ref_dot(v, v));
}
template <class T>
T ref_distance(std::span<const T> a, std::span<const T> b) {
  T d[4] = {};
  std::size_t n = a.size() < b.size() ? a.size() : b.size();
  if (n > 4) n = 4;  // vectors have at most 4 components
  for (std::size_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
  return ref_length(std::span<const T>(d, n));
}
// v / length(v) per component (HLSL); a zero vector gives NaNs.
template <class T>
void ref_normalize(std::span<const T> v, std::span<T> out) {
  T len = ref_length(v);
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] / len;
}
// i - 2 * dot(n, i) * n, evaluated as i[k] - ((2 * dot(n, i)) * n[k]).
template <class T>
void ref_reflect(std::span<const T> i, std::span<const T> n, std::span<T> out) {
  T twice = T(2) * ref_dot(n, i);
  for (std::size_t k = 0; k < i.size(); ++k) out[k] = i[k] - unfused(twice * n[k]);
}
// 1 when any / all components are nonzero (NaN counts as nonzero).
template <class T>
int ref_any(std::span<const T> v) {
  for (T x : v)
    if (x != T(0)) return 1;
  return 0;
}
template <class T>
int ref_all(std::span<const T> v) {
  for (T x : v)
    if (x == T(0)) return 0;
  return 1;
}

// ---- dispatch for scalar, per-component builtins ----

// True for the builtins ref_math_f32/f64 compute: the FloatUnary/Binary/
// Ternary, Lerp, AnyUnary/Binary/Ternary and Classify ones.
bool is_componentwise(Builtin id);
// The number of arguments a component-wise builtin takes (1 to 3), 0 otherwise.
int componentwise_arity(Builtin id);

// One component of builtin `id` over `args` (in call order: atan2(y, x),
// step(edge, x), smoothstep(e0, e1, x), lerp(a, b, t), clamp(x, lo, hi),
// mad(a, b, c)). Classify builtins return 1 or 0. NaN when `id` is not
// component-wise or `args` has the wrong size.
double ref_math_f64(Builtin id, std::span<const double> args);
float ref_math_f32(Builtin id, std::span<const float> args);

// Integer builtins: abs, sign, min, max, clamp, popcount, clz, ctz. Returns 0
// when `id` is none of them or `args` has the wrong size.
template <class I>
I ref_math_int(Builtin id, std::span<const I> args) {
  static_assert(std::is_integral_v<I>);
  auto arg = [&](std::size_t k) { return k < args.size() ? args[k] : I(0); };
  std::size_t need = 1;
  if (id == Builtin::min || id == Builtin::max) need = 2;
  if (id == Builtin::clamp) need = 3;
  if (args.size() != need) return I(0);
  switch (id) {
    case Builtin::abs:
      return ref_abs(arg(0));
    case Builtin::sign:
      return ref_sign(arg(0));
    case Builtin::min:
      return ref_min(arg(0), arg(1));
    case Builtin::max:
      return ref_max(arg(0), arg(1));
    case Builtin::clamp:
      return ref_clamp(arg(0), arg(1), arg(2));
    case Builtin::popcount:
      return ref_popcount(arg(0));
    case Builtin::clz:
      return ref_clz(arg(0));
    case Builtin::ctz:
      return ref_ctz(arg(0));
    default:
      return I(0);
  }
}

}  // namespace brook::stdlib
