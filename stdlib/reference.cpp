#include "stdlib/reference.hpp"

#include "stdlib/recipe.hpp"

namespace brook::stdlib {
namespace {

template <class T>
T compute(Builtin id, std::span<const T> args) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  if (static_cast<int>(args.size()) != componentwise_arity(id)) return nan;
  auto a = [&](std::size_t k) { return args[k]; };
  switch (id) {
    case Builtin::abs:
      return ref_abs(a(0));
    case Builtin::fabs:
      return ref_fabs(a(0));
    case Builtin::sqrt:
      return ref_sqrt(a(0));
    case Builtin::rsqrt:
      return ref_rsqrt(a(0));
    case Builtin::sin:
      return ref_sin(a(0));
    case Builtin::cos:
      return ref_cos(a(0));
    case Builtin::tan:
      return ref_tan(a(0));
    case Builtin::asin:
      return ref_asin(a(0));
    case Builtin::acos:
      return ref_acos(a(0));
    case Builtin::atan:
      return ref_atan(a(0));
    case Builtin::atan2:
      return ref_atan2(a(0), a(1));
    case Builtin::sinh:
      return ref_sinh(a(0));
    case Builtin::cosh:
      return ref_cosh(a(0));
    case Builtin::tanh:
      return ref_tanh(a(0));
    case Builtin::exp:
      return ref_exp(a(0));
    case Builtin::exp2:
      return ref_exp2(a(0));
    case Builtin::log:
      return ref_log(a(0));
    case Builtin::log2:
      return ref_log2(a(0));
    case Builtin::log10:
      return ref_log10(a(0));
    case Builtin::pow:
      return ref_pow(a(0), a(1));
    case Builtin::floor:
      return ref_floor(a(0));
    case Builtin::ceil:
      return ref_ceil(a(0));
    case Builtin::round:
      return ref_round(a(0));
    case Builtin::trunc:
      return ref_trunc(a(0));
    case Builtin::frac:
      return ref_frac(a(0));
    case Builtin::fmod:
      return ref_fmod(a(0), a(1));
    case Builtin::min:
      return ref_min(a(0), a(1));
    case Builtin::max:
      return ref_max(a(0), a(1));
    case Builtin::clamp:
      return ref_clamp(a(0), a(1), a(2));
    case Builtin::saturate:
      return ref_saturate(a(0));
    case Builtin::lerp:
      return ref_lerp(a(0), a(1), a(2));
    case Builtin::step:
      return ref_step(a(0), a(1));
    case Builtin::smoothstep:
      return ref_smoothstep(a(0), a(1), a(2));
    case Builtin::sign:
      return ref_sign(a(0));
    case Builtin::mad:
      return ref_mad(a(0), a(1), a(2));
    case Builtin::fma:
      return ref_fma(a(0), a(1), a(2));
    case Builtin::isnan:
      return static_cast<T>(ref_isnan(a(0)));
    case Builtin::isinf:
      return static_cast<T>(ref_isinf(a(0)));
    case Builtin::isfinite:
      return static_cast<T>(ref_isfinite(a(0)));
    case Builtin::fmin:
      return ref_fmin(a(0), a(1));
    case Builtin::fmax:
      return ref_fmax(a(0), a(1));
    case Builtin::hypot:
      return ref_hypot(a(0), a(1));
    case Builtin::cbrt:
      return ref_cbrt(a(0));
    default:
      return nan;
  }
}

}  // namespace

int componentwise_arity(Builtin id) {
  // A composed builtin that mixes components (faceforward) is typed like a
  // component-wise one but is a vector function. (Primitive builtins never
  // look at recipes: the recipe parser asks about them while it builds the table.)
  if (!builtin_info(id).recipe.empty() && !recipe_of(id)->per_component) return 0;
  switch (builtin_info(id).sig) {
    case Sig::FloatUnary:
    case Sig::AnyUnary:
    case Sig::Classify:
      return 1;
    case Sig::FloatBinary:
    case Sig::AnyBinary:
      return 2;
    case Sig::FloatTernary:
    case Sig::AnyTernary:
    case Sig::Lerp:
      return 3;
    default:
      return 0;
  }
}

bool is_componentwise(Builtin id) {
  return id != Builtin::none && componentwise_arity(id) != 0;
}

double ref_math_f64(Builtin id, std::span<const double> args) {
  return compute(id, args);
}
float ref_math_f32(Builtin id, std::span<const float> args) {
  return compute(id, args);
}

}  // namespace brook::stdlib
