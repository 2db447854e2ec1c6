// check_math --double F: brook's (or glibc's) double F against MPFR on its
// special values and N random inputs of each of the kinds below (chosen per
// function: the whole range, the common range, arguments near the
// function's hard places). LANGUAGE.md §10 asks doubles within one ulp: it
// counts results that are not correctly rounded and those more than one ulp
// off. stdlib/MATH.md has the recorded runs.
#include "tests/math/check_double.hpp"

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "stdlib/brook_math.hpp"

namespace brook::math_check {
namespace {

using stdlib::Builtin;
using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

struct Fn {
  const char* name;
  Builtin id;
  double (*glibc1)(double);
  double (*glibc2)(double, double);
  MpfrUnary mpfr1;
  MpfrBinary mpfr2;
};

// mpfr_exp10 has a different type; log10 etc. fit MpfrUnary.
const Fn kFns[] = {
    {"exp", Builtin::exp, [](double x) { return std::exp(x); }, nullptr, mpfr_exp, nullptr},
    {"exp2", Builtin::exp2, [](double x) { return std::exp2(x); }, nullptr, mpfr_exp2, nullptr},
    {"log", Builtin::log, [](double x) { return std::log(x); }, nullptr, mpfr_log, nullptr},
    {"log2", Builtin::log2, [](double x) { return std::log2(x); }, nullptr, mpfr_log2, nullptr},
    {"log10", Builtin::log10, [](double x) { return std::log10(x); }, nullptr, mpfr_log10, nullptr},
    {"sin", Builtin::sin, [](double x) { return std::sin(x); }, nullptr, mpfr_sin, nullptr},
    {"cos", Builtin::cos, [](double x) { return std::cos(x); }, nullptr, mpfr_cos, nullptr},
    {"tan", Builtin::tan, [](double x) { return std::tan(x); }, nullptr, mpfr_tan, nullptr},
    {"asin", Builtin::asin, [](double x) { return std::asin(x); }, nullptr, mpfr_asin, nullptr},
    {"acos", Builtin::acos, [](double x) { return std::acos(x); }, nullptr, mpfr_acos, nullptr},
    {"atan", Builtin::atan, [](double x) { return std::atan(x); }, nullptr, mpfr_atan, nullptr},
    {"sinh", Builtin::sinh, [](double x) { return std::sinh(x); }, nullptr, mpfr_sinh, nullptr},
    {"cosh", Builtin::cosh, [](double x) { return std::cosh(x); }, nullptr, mpfr_cosh, nullptr},
    {"tanh", Builtin::tanh, [](double x) { return std::tanh(x); }, nullptr, mpfr_tanh, nullptr},
    {"atan2", Builtin::atan2, nullptr, [](double y, double x) { return std::atan2(y, x); }, nullptr,
     mpfr_atan2},
    {"pow", Builtin::pow, nullptr, [](double x, double y) { return std::pow(x, y); }, nullptr,
     mpfr_pow},
};

// The double nearest MPFR's value of f at (x, y), subnormals rounded once.
double exact(const Fn& f, double x, double y) {
  mpfr_t a, b, r, d;
  mpfr_inits2(256, a, b, r, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(d, 53);
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  if (f.mpfr1)
    f.mpfr1(r, a, MPFR_RNDN);
  else
    f.mpfr2(r, a, b, MPFR_RNDN);
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-1073);
  mpfr_set_emax(1024);
  int t = mpfr_set(d, r, MPFR_RNDN);
  t = mpfr_check_range(d, t, MPFR_RNDN);
  mpfr_subnormalize(d, t, MPFR_RNDN);
  const double out = mpfr_get_d(d, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  mpfr_clears(a, b, r, d, static_cast<mpfr_ptr>(nullptr));
  return out;
}

double bits(uint64_t b) {
  return std::bit_cast<double>(b);
}

}  // namespace

int run_double(const DoubleCheck& o) {
  const Fn* f = nullptr;
  for (const Fn& c : kFns)
    if (o.fn == c.name) f = &c;
  if (!f) return 2;
  const std::string name = f->name;
  const bool binary = f->mpfr2 != nullptr;
  stdlib::BrookMathFnD own1 = o.brook && !binary ? stdlib::brook_math_fn_f64(f->id) : nullptr;
  stdlib::BrookMathFn2D own2 = o.brook && binary ? stdlib::brook_math_fn2_f64(f->id) : nullptr;
  if (o.brook && !own1 && !own2) {
    std::printf("%s (double) brook: not in stdlib/brook_math_double.h\n", f->name);
    return 0;
  }
  uint64_t inputs = 0, not_cr = 0, over_one = 0, bad_nan = 0;
  auto check = [&](double x, double y) {
    ++inputs;
    const double got = own1 ? own1(x) : own2 ? own2(x, y) : binary ? f->glibc2(x, y) : f->glibc1(x);
    const double want = exact(*f, x, y);
    const uint64_t a = std::bit_cast<uint64_t>(got), b = std::bit_cast<uint64_t>(want);
    if (std::isnan(want)) {
      if (!std::isnan(got) || (o.brook && a != 0x7ff8000000000000ull)) ++bad_nan;
      return;
    }
    if (a == b) return;
    ++not_cr;
    // Doubles of one sign are ordered as their bit patterns: ulps apart.
    const bool same_sign = (a >> 63) == (b >> 63);
    const int64_t d = static_cast<int64_t>(a - b);
    const bool over = !same_sign || d > 1 || d < -1;
    if (over) ++over_one;
    if (over ? over_one <= static_cast<uint64_t>(o.list + 5)
             : not_cr <= static_cast<uint64_t>(o.list)) {
      if (binary)
        std::printf("  %s(%a, %a) = %a, correctly rounded %a\n", f->name, x, y, got, want);
      else
        std::printf("  %s(%a) = %a, correctly rounded %a\n", f->name, x, got, want);
    }
  };
  std::mt19937_64 rng(o.seed);
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto signed_ = [&](double x) { return (rng() & 1) ? -x : x; };
  auto any_finite = [&] { return bits(rng() & 0xffefffffffffffffull); };          // either sign
  auto below_one = [&] { return signed_(bits(rng() & 0x3fefffffffffffffull)); };  // |x| < 1
  const std::vector<double> specials = {0.0,       -0.0,       1.0,         -1.0,
                                        0.5,       -0.5,       2.0,         -2.0,
                                        3.0,       -3.0,       0x1p-1074,   -0x1p-1074,
                                        0x1p-1022, -0x1p-1022, 0x1p-30,     -0x1p-30,
                                        0x1p-60,   1e300,      -1e300,      0x1.fffffffffffffp+1023,
                                        HUGE_VAL,  -HUGE_VAL,  std::nan("")};
  // The kinds of input, each drawn o.pairs times.
  std::vector<std::function<void()>> kinds;
  auto unary = [&](std::function<double()> g) {
    kinds.push_back([&check, g] { check(g(), 0.0); });
  };
  if (binary) {
    for (double x : specials)
      for (double y : specials) check(x, y);
  } else {
    for (double x : specials) check(x, 0.0);
  }
  if (name == "exp" || name == "exp2") {
    const double k = name == "exp2" ? 1.0 / std::log(2.0) : 1.0;
    for (double x :
         {0x1.62e42fefa39efp+9, 0x1.62e42fefa39f0p+9, -0x1.74910d52d3052p+9, -0x1.74910d52d3051p+9,
          -0x1.6232bdd7abcd2p+9, -0x1.6232bdd7abcd3p+9, 709.0, -708.0, -745.0, 1024.0,
          std::nextafter(1024.0, 0.0), -1075.0, std::nextafter(-1075.0, 0.0), -1074.0, -1022.5})
      check(x, 0.0);
    // k by value: these run after this block, once per pair.
    unary([&, k] { return uniform(-746.0 * k, 710.0 * k); });
    unary([&] { return uniform(-1.0, 1.0); });
    unary([&, k] { return uniform(-745.2 * k, -707.5 * k); });  // subnormal results
  } else if (name.rfind("log", 0) == 0) {
    for (double x : {0x1.0000000000001p+0, 0x1.fffffffffffffp-1, 0.69921875, 1.3984375, M_E, 10.0})
      check(x, 0.0);
    unary([&] { return bits(rng() & 0x7fefffffffffffffull); });  // every positive double alike
    unary([&] { return 1.0 + uniform(-0x1p-6, 0x1p-6); });       // beside 1
    unary([&] { return bits(rng() & 0x000fffffffffffffull); });  // subnormal
  } else if (name == "sin" || name == "cos" || name == "tan") {
    // The double nearest a multiple of pi/2 (Kahan and McDonald's
    // 6381956970095103 2^797), and pi/4's neighbours.
    for (double x : {0x1.6ac5b262ca1ffp+849, 0x1.921fb54442d18p-1, 0x1.921fb54442d19p-1,
                     0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1})
      check(x, 0.0);
    unary(any_finite);
    unary([&] { return uniform(-10.0, 10.0); });
    unary([&] {  // beside a multiple of pi/2
      const double k = static_cast<double>(rng() % (1u << 20));
      return signed_(bits(std::bit_cast<uint64_t>(k * 0x1.921fb54442d18p+0) + rng() % 7 - 3));
    });
    unary(below_one);
  } else if (name == "asin" || name == "acos") {
    unary([&] { return uniform(-1.0, 1.0); });
    unary([&] {
      return signed_(1.0 - std::ldexp(uniform(0.0, 1.0), -static_cast<int>(rng() % 53)));
    });
    unary(below_one);
  } else if (name == "atan") {
    unary(any_finite);
    unary([&] { return uniform(-4.0, 4.0); });
    unary(below_one);
  } else if (name == "sinh" || name == "cosh") {
    for (double x :
         {710.4758600739439, 710.475860073944, 711.0, 40.0, 0x1p-26, 0x1.fffffffffffffp-27})
      check(x, 0.0);
    unary([&] { return uniform(-711.0, 711.0); });
    unary([&] { return uniform(-2.0, 2.0); });
    unary(below_one);
  } else if (name == "tanh") {
    for (double x : {22.0, 19.0, 0x1p-27, 0x1.fffffffffffffp-28}) check(x, 0.0);
    unary([&] { return uniform(-25.0, 25.0); });
    unary([&] { return uniform(-1.0, 1.0); });
    unary(below_one);
  } else if (name == "atan2") {
    kinds.push_back([&] { check(any_finite(), any_finite()); });
    kinds.push_back([&] { check(uniform(-10.0, 10.0), uniform(-10.0, 10.0)); });
    kinds.push_back([&] {  // ratios near 1, any magnitude
      const double x = any_finite();
      check(x * uniform(-2.0, 2.0), x);
    });
    kinds.push_back([&] {  // ratios near 2^+-60
      const double x = any_finite();
      check(x * std::ldexp(uniform(0.5, 2.0), (rng() & 1) ? 60 : -60), x);
    });
  } else if (name == "pow") {
    // Exact results (integers to integer powers, 4^0.5) and midpoints.
    for (int b = 2; b <= 40; ++b)
      for (int e = -30; e <= 30; ++e) check(b, e);
    for (double x : {4.0, 0.25, 16.0, 2.0, 134217727.0})
      for (double y : {0.5, 1.5, -0.5, 0.25, 2.0}) check(x, y);
    kinds.push_back([&] { check(uniform(0.0, 10.0), uniform(-50.0, 50.0)); });
    kinds.push_back([&] { check(1.0 + uniform(-0x1p-20, 0x1p-20), uniform(-1e8, 1e8)); });
    kinds.push_back([&] {  // negative bases to integer powers
      check(-uniform(0.0, 10.0), static_cast<double>(static_cast<int>(rng() % 81) - 40));
    });
    kinds.push_back([&] {  // results near overflow and in the subnormal range
      const double x = uniform(0.5, 4.0);
      const double e = (rng() & 1) ? 1023.9 : -1060.0;
      check(x, e / std::log2(x) * (1.0 + uniform(-1e-3, 1e-3)));
    });
    kinds.push_back([&] { check(any_finite(), any_finite()); });
  }
  for (uint64_t i = 0; i < o.pairs; ++i)
    for (auto& k : kinds) k();
  std::printf(
      "%s (double) %s: %llu inputs, %llu not correctly rounded, %llu more than one ulp off, %llu "
      "bad NaN\n",
      f->name, o.brook ? "brook" : "glibc", static_cast<unsigned long long>(inputs),
      static_cast<unsigned long long>(not_cr), static_cast<unsigned long long>(over_one),
      static_cast<unsigned long long>(bad_nan));
  return over_one || bad_nan ? 1 : 0;
}

}  // namespace brook::math_check
