// stdlib: the builtin table, the reference semantics, glibc's rand() and
// streamPrint's component format.
#include <doctest/doctest.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "stdlib/builtins.hpp"
#include "stdlib/host_rand.hpp"
#include "stdlib/reference.hpp"
#include "stdlib/stream_print.hpp"

namespace sl = brook::stdlib;
using sl::Builtin;

TEST_CASE("builtins: one row per enum entry, in enum order") {
  auto all = sl::all_builtins();
  CHECK(all.size() == static_cast<std::size_t>(Builtin::count_) - 1);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const sl::BuiltinInfo& info = all[i];
    CHECK(static_cast<std::size_t>(info.id) == i + 1);
    CHECK(&sl::builtin_info(info.id) == &info);
    CHECK_FALSE(info.name.empty());
    CHECK(names.insert(info.name).second);
    CHECK(info.name.back() != '_');
    // Prototypes exactly for the host library, and they name the function.
    CHECK((info.sig == sl::Sig::Prototype) == !info.prototype.empty());
    if (!info.prototype.empty()) {
      CHECK(info.prototype.find("const") == std::string_view::npos);
      std::string callee = std::string(info.id == Builtin::assert_ ? "assert_" : info.name) + "(";
      CHECK(info.prototype.find(callee) != std::string_view::npos);
    }
    // A canonical name always finds its own row.
    const sl::BuiltinName* found = sl::find_builtin(info.name);
    REQUIRE(found != nullptr);
    CHECK(found->id == info.id);
    CHECK_FALSE(found->force_float);
  }
  CHECK(sl::builtin_info(Builtin::none).id == Builtin::none);
  CHECK(sl::builtin_info(static_cast<Builtin>(9999)).id == Builtin::none);
}

TEST_CASE("builtins: signatures and spellings") {
  CHECK(sl::builtin_info(Builtin::sin).sig == sl::Sig::FloatUnary);
  CHECK(sl::builtin_info(Builtin::sin).c_float_name == "sinf");
  CHECK(sl::builtin_info(Builtin::sin).c_double_name == "sin");
  CHECK(sl::builtin_info(Builtin::sin).opencl_name == "sin");
  CHECK(sl::builtin_info(Builtin::atan2).sig == sl::Sig::FloatBinary);
  CHECK(sl::builtin_info(Builtin::min).sig == sl::Sig::AnyBinary);
  CHECK(sl::builtin_info(Builtin::clamp).sig == sl::Sig::AnyTernary);
  CHECK(sl::builtin_info(Builtin::lerp).sig == sl::Sig::Lerp);
  CHECK(sl::builtin_info(Builtin::abs).sig == sl::Sig::AnyUnary);
  CHECK(sl::builtin_info(Builtin::isnan).sig == sl::Sig::Classify);
  CHECK(sl::builtin_info(Builtin::dot).sig == sl::Sig::Dot);
  CHECK(sl::builtin_info(Builtin::popcount).sig == sl::Sig::IntUnary);
  CHECK(sl::builtin_info(Builtin::instance).where == sl::Where::kernel);
  CHECK(sl::builtin_info(Builtin::streamRead).where == sl::Where::host);
  CHECK(sl::builtin_info(Builtin::streamRead).sig == sl::Sig::Stream);
  CHECK(sl::builtin_info(Builtin::printf).where == sl::Where::both);
  CHECK(sl::builtin_info(Builtin::printf).prototype == "int printf(char* format, ...)");
  CHECK(sl::builtin_info(Builtin::fprintf).prototype ==
        "int fprintf(void* stream, char* format, ...)");
  CHECK(sl::builtin_info(Builtin::memcpy).prototype ==
        "void* memcpy(void* dst, void* src, unsigned long n)");
  CHECK(sl::builtin_info(Builtin::rand).prototype == "int rand(void)");
  CHECK(sl::builtin_info(Builtin::srand).prototype == "void srand(unsigned int seed)");
  CHECK(sl::builtin_info(Builtin::assert_).prototype == "void assert_(int condition)");
  CHECK(sl::builtin_info(Builtin::malloc).where == sl::Where::host);
  // Inline-only operations have no libm spelling.
  CHECK(sl::builtin_info(Builtin::frac).c_float_name.empty());
  CHECK(sl::builtin_info(Builtin::mad).opencl_name.empty());
}

TEST_CASE("builtins: aliases and lookup") {
  const char* float_spellings[] = {"sinf",   "cosf",   "tanf",   "asinf", "acosf", "atanf",
                                   "atan2f", "sinhf",  "coshf",  "tanhf", "expf",  "exp2f",
                                   "logf",   "log2f",  "log10f", "powf",  "sqrtf", "floorf",
                                   "ceilf",  "roundf", "truncf", "fmodf", "fabsf", "fminf",
                                   "fmaxf",  "hypotf", "cbrtf",  "fmaf"};
  for (const char* name : float_spellings) {
    INFO(name);
    const sl::BuiltinName* found = sl::find_builtin(name);
    REQUIRE(found != nullptr);
    CHECK(found->force_float);
    std::string canonical(name);
    canonical.pop_back();
    CHECK(sl::builtin_info(found->id).name == canonical);
  }
  CHECK(sl::find_builtin("brmalloc")->id == Builtin::malloc);
  CHECK(sl::find_builtin("brfree")->id == Builtin::free);
  CHECK(sl::find_builtin("assert")->id == Builtin::assert_);
  CHECK(sl::find_builtin("sqrt")->id == Builtin::sqrt);
  CHECK_FALSE(sl::find_builtin("sqrt")->force_float);
  CHECK(sl::find_builtin("streamGatherOp")->id == Builtin::streamGatherOp);
  CHECK(sl::find_builtin("") == nullptr);
  CHECK(sl::find_builtin("none") == nullptr);
  CHECK(sl::find_builtin("assert_") == nullptr);
  CHECK(sl::find_builtin("sinff") == nullptr);
  CHECK(sl::find_builtin("Sin") == nullptr);
  CHECK(sl::find_builtin("zzz") == nullptr);
  auto names = sl::all_builtin_names();
  for (std::size_t i = 1; i < names.size(); ++i) CHECK(names[i - 1].name < names[i].name);
  for (const auto& n : names) CHECK(sl::find_builtin(n.name) == &n);
}

TEST_CASE("reference: HLSL/Cg definitions") {
  CHECK(sl::ref_frac(2.75) == 0.75);
  CHECK(sl::ref_frac(-0.25) == 0.75);
  CHECK(sl::ref_lerp(2.0, 4.0, 0.25) == 2.5);
  CHECK(sl::ref_lerp(1.0f, 3.0f, 1.0f) == 3.0f);
  CHECK(sl::ref_clamp(5.0, 0.0, 1.0) == 1.0);
  CHECK(sl::ref_clamp(-5, 0, 3) == 0);
  CHECK(sl::ref_saturate(-0.5f) == 0.0f);
  CHECK(sl::ref_saturate(0.5f) == 0.5f);
  CHECK(sl::ref_saturate(1.5f) == 1.0f);
  CHECK(sl::ref_step(1.0, 1.0) == 1.0);
  CHECK(sl::ref_step(1.0, 0.999) == 0.0);
  CHECK(sl::ref_step(1.0, std::nan("")) == 0.0);
  CHECK(sl::ref_smoothstep(0.0, 1.0, 0.5) == 0.5);
  CHECK(sl::ref_smoothstep(0.0, 2.0, 0.5) == doctest::Approx(0.15625));
  CHECK(sl::ref_smoothstep(0.0, 1.0, -3.0) == 0.0);
  CHECK(sl::ref_smoothstep(0.0, 1.0, 3.0) == 1.0);
  CHECK(sl::ref_sign(-2.5) == -1.0);
  CHECK(sl::ref_sign(3.0f) == 1.0f);
  CHECK(sl::ref_sign(0.0) == 0.0);
  CHECK_FALSE(std::signbit(sl::ref_sign(-0.0)));
  CHECK(sl::ref_sign(std::nan("")) == 0.0);
  CHECK(sl::ref_sign(-7) == -1);
  CHECK(sl::ref_rsqrt(4.0) == 0.5);
  CHECK(sl::ref_round(2.5) == 3.0);
  CHECK(sl::ref_round(-2.5) == -3.0);
  CHECK(sl::ref_round(0.5f) == 1.0f);
  CHECK(sl::ref_trunc(-2.7) == -2.0);
  CHECK(sl::ref_isnan(std::nan("")) == 1);
  CHECK(sl::ref_isnan(1.0) == 0);
  CHECK(sl::ref_isinf(-INFINITY) == 1);
  CHECK(sl::ref_isfinite(INFINITY) == 0);
  CHECK(sl::ref_isfinite(1.0f) == 1);
}

TEST_CASE("reference: min/max keep `a` on NaN, unlike fmin/fmax") {
  double nan = std::nan("");
  CHECK(sl::ref_min(1.0, 2.0) == 1.0);
  CHECK(sl::ref_max(1.0, 2.0) == 2.0);
  CHECK(std::isnan(sl::ref_min(nan, 1.0)));
  CHECK(sl::ref_min(1.0, nan) == 1.0);
  CHECK(std::isnan(sl::ref_max(nan, 1.0)));
  CHECK(sl::ref_max(1.0, nan) == 1.0);
  CHECK(sl::ref_fmin(nan, 1.0) == 1.0);
  CHECK(sl::ref_fmax(1.0, nan) == 1.0);
}

TEST_CASE("reference: mad is not fused, fma is") {
  // a*b = 1 - 2^-60 exactly; rounded to double it is 1, so mad gives 0 while
  // fma keeps the -2^-60. The inputs are volatile so nothing is constant-folded.
  volatile double va = 1.0 + std::ldexp(1.0, -30), vb = 1.0 - std::ldexp(1.0, -30), vc = -1.0;
  double a = va, b = vb, c = vc;
  CHECK(sl::ref_mad(a, b, c) == 0.0);
  CHECK(sl::ref_fma(a, b, c) == -std::ldexp(1.0, -60));
  volatile float vaf = 1.0f + std::ldexp(1.0f, -13), vbf = 1.0f - std::ldexp(1.0f, -13),
                 vcf = -1.0f;
  float af = vaf, bf = vbf, cf = vcf;
  CHECK(sl::ref_mad(af, bf, cf) == 0.0f);
  CHECK(sl::ref_fma(af, bf, cf) == -std::ldexp(1.0f, -26));
  CHECK(sl::ref_math_f64(Builtin::mad, std::vector<double>{a, b, c}) == 0.0);
  CHECK(sl::ref_math_f32(Builtin::mad, std::vector<float>{af, bf, cf}) == 0.0f);
  // lerp(-1, b - 1, a) = -1 + a * b, also unfused: 0.
  CHECK(sl::ref_lerp(c, b + c, a) == 0.0);
}

TEST_CASE("reference: float versions compute in float like C's sinf") {
  volatile float x = 0.7f;
  CHECK(sl::ref_sin(static_cast<float>(x)) == sinf(x));
  CHECK(sl::ref_exp(static_cast<float>(x)) == expf(x));
  CHECK(sl::ref_pow(static_cast<float>(x), 3.3f) == powf(x, 3.3f));
  CHECK(sl::ref_atan2(static_cast<float>(x), 2.0f) == atan2f(x, 2.0f));
  CHECK(sl::ref_sqrt(2.0f) == sqrtf(2.0f));
}

TEST_CASE("reference: integer builtins") {
  CHECK(sl::ref_abs(-5) == 5);
  CHECK(sl::ref_abs(INT_MIN) == INT_MIN);  // wraps, no UB
  CHECK(sl::ref_abs(int64_t{-9}) == 9);
  CHECK(sl::ref_abs(7u) == 7u);
  CHECK(sl::ref_min(-3, 2) == -3);
  CHECK(sl::ref_max(3u, 9u) == 9u);
  CHECK(sl::ref_popcount(0xF0F0u) == 8u);
  CHECK(sl::ref_popcount(-1) == 32);
  CHECK(sl::ref_popcount(int64_t{-1}) == 64);
  CHECK(sl::ref_clz(0u) == 32u);
  CHECK(sl::ref_clz(uint64_t{0}) == 64u);
  CHECK(sl::ref_clz(1) == 31);
  CHECK(sl::ref_clz(-1) == 0);
  CHECK(sl::ref_ctz(0) == 32);
  CHECK(sl::ref_ctz(8u) == 3u);
  CHECK(sl::ref_ctz(int64_t{1} << 40) == 40);

  std::vector<int32_t> one{-4}, two{5, -6}, three{10, 0, 7};
  CHECK(sl::ref_math_int<int32_t>(Builtin::abs, one) == 4);
  CHECK(sl::ref_math_int<int32_t>(Builtin::sign, one) == -1);
  CHECK(sl::ref_math_int<int32_t>(Builtin::min, two) == -6);
  CHECK(sl::ref_math_int<int32_t>(Builtin::max, two) == 5);
  CHECK(sl::ref_math_int<int32_t>(Builtin::clamp, three) == 7);
  CHECK(sl::ref_math_int<int32_t>(Builtin::clz, one) == 0);
  CHECK(sl::ref_math_int<int32_t>(Builtin::min, one) == 0);  // wrong arity
  CHECK(sl::ref_math_int<int32_t>(Builtin::sin, one) == 0);  // not an integer builtin
  std::vector<uint32_t> u{0};
  CHECK(sl::ref_math_int<uint32_t>(Builtin::clz, u) == 32u);
  CHECK(sl::ref_math_int<uint32_t>(Builtin::sign, u) == 0u);
  std::vector<uint64_t> u64{1};
  CHECK(sl::ref_math_int<uint64_t>(Builtin::ctz, u64) == 0u);
  CHECK(sl::ref_math_int<uint64_t>(Builtin::clz, u64) == 63u);
  std::vector<int64_t> i64{-1};
  CHECK(sl::ref_math_int<int64_t>(Builtin::popcount, i64) == 64);
}

TEST_CASE("reference: vector functions") {
  std::vector<float> a{1, 2, 3}, b{4, 5, 6}, out(3);
  CHECK(sl::ref_dot<float>(a, b) == 32.0f);
  sl::ref_cross<float>(a, b, out);
  CHECK(out == std::vector<float>{-3, 6, -3});
  std::vector<double> v{3, 4};
  CHECK(sl::ref_length<double>(v) == 5.0);
  std::vector<double> w{0, 0};
  CHECK(sl::ref_distance<double>(v, w) == 5.0);
  std::vector<double> n(2);
  sl::ref_normalize<double>(v, n);
  CHECK(n[0] == 0.6);
  CHECK(n[1] == 0.8);
  // reflect((1,-1), (0,1)) = (1, 1)
  std::vector<double> i{1, -1}, normal{0, 1}, r(2);
  sl::ref_reflect<double>(i, normal, r);
  CHECK(r == std::vector<double>{1, 1});
  std::vector<int> zeros{0, 0, 0}, some{0, 2, 0}, full{1, 2, 3};
  CHECK(sl::ref_any<int>(zeros) == 0);
  CHECK(sl::ref_any<int>(some) == 1);
  CHECK(sl::ref_all<int>(some) == 0);
  CHECK(sl::ref_all<int>(full) == 1);
}

TEST_CASE("reference: dispatch matches the templates") {
  for (std::size_t k = 1; k < static_cast<std::size_t>(Builtin::count_); ++k) {
    auto id = static_cast<Builtin>(k);
    int arity = sl::componentwise_arity(id);
    CHECK(sl::is_componentwise(id) == (arity != 0));
    if (arity == 0) {
      std::vector<double> x{1.0};
      CHECK(std::isnan(sl::ref_math_f64(id, x)));
      continue;
    }
    // Wrong arity is NaN, never a read past the span.
    std::vector<double> too_many(4, 0.5);
    CHECK(std::isnan(sl::ref_math_f64(id, too_many)));
  }
  std::vector<double> d1{0.3}, d2{0.3, 0.7}, d3{0.2, 0.9, 0.5};
  CHECK(sl::ref_math_f64(Builtin::sin, d1) == std::sin(0.3));
  CHECK(sl::ref_math_f64(Builtin::atan2, d2) == std::atan2(0.3, 0.7));
  CHECK(sl::ref_math_f64(Builtin::pow, d2) == std::pow(0.3, 0.7));
  CHECK(sl::ref_math_f64(Builtin::lerp, d3) == sl::ref_lerp(0.2, 0.9, 0.5));
  CHECK(sl::ref_math_f64(Builtin::smoothstep, d3) == sl::ref_smoothstep(0.2, 0.9, 0.5));
  CHECK(sl::ref_math_f64(Builtin::clamp, d3) == 0.5);
  CHECK(sl::ref_math_f64(Builtin::step, d2) == 1.0);
  CHECK(sl::ref_math_f64(Builtin::mad, d3) == 0.2 * 0.9 + 0.5);
  CHECK(sl::ref_math_f64(Builtin::frac, d1) == sl::ref_frac(0.3));
  std::vector<double> nan{std::nan("")};
  CHECK(sl::ref_math_f64(Builtin::isnan, nan) == 1.0);
  CHECK(sl::ref_math_f64(Builtin::isfinite, nan) == 0.0);
  std::vector<float> f1{0.3f}, f2{2.0f, 0.5f};
  CHECK(sl::ref_math_f32(Builtin::cos, f1) == cosf(0.3f));
  CHECK(sl::ref_math_f32(Builtin::fmod, f2) == 0.0f);
  CHECK(sl::ref_math_f32(Builtin::min, f2) == 0.5f);
  CHECK(sl::ref_math_f32(Builtin::abs, std::vector<float>{-2.0f}) == 2.0f);
  CHECK(std::isnan(sl::ref_math_f32(Builtin::dot, f2)));
  CHECK(std::isnan(sl::ref_math_f32(Builtin::none, f1)));
}

TEST_CASE("host_rand: matches glibc's rand() after srand()") {
  for (unsigned seed : {1u, 42u, 0u, 12345u, 0x80000000u, 0xFFFFFFFFu}) {
    INFO("seed ", seed);
    sl::GlibcRand ours;
    ours.seed(seed);
    std::srand(seed);
    int mismatches = 0;
    for (int i = 0; i < 1000; ++i) mismatches += ours.next() != std::rand();
    CHECK(mismatches == 0);
  }
  // Unseeded is seed 1; seed 0 is seed 1.
  sl::GlibcRand fresh, zero;
  zero.seed(0);
  std::srand(1);
  for (int i = 0; i < 100; ++i) {
    int expected = std::rand();
    CHECK(fresh.next() == expected);
    CHECK(zero.next() == expected);
  }
  sl::GlibcRand g;
  for (int i = 0; i < 1000; ++i) {
    int32_t v = g.next();
    CHECK(v >= 0);
    CHECK(v <= sl::GlibcRand::kRandMax);
  }
  CHECK(sl::GlibcRand::kRandMax == RAND_MAX);
}

TEST_CASE("stream_print: BrookGPU's %3.2f with its special cases") {
  CHECK(sl::format_stream_component(1.0) == "1.00");
  CHECK(sl::format_stream_component(0.005) == "0.01");
  CHECK(sl::format_stream_component(-2.5) == "-2.50");
  CHECK(sl::format_stream_component(123.456) == "123.46");
  CHECK(sl::format_stream_component(0.0) == "0.00");
  CHECK(sl::format_stream_component(-0.0) == "0.00");
  CHECK(sl::format_stream_component(-1e-7) == "0.00");
  CHECK(sl::format_stream_component(9e-7) == "0.00");
  CHECK(sl::format_stream_component(-0.001) == "-0.00");  // only |v| < 1e-6 is zeroed
  CHECK(sl::format_stream_component(std::nan("")) == "NaN");
  CHECK(sl::format_stream_component(-std::nan("")) == "NaN");
  CHECK(sl::format_stream_component(INFINITY) == "inf");
  CHECK(sl::format_stream_component(-INFINITY) == "inf");
  CHECK(sl::format_stream_component(1e20) == "100000000000000000000.00");
  std::vector<double> scalar{0.5}, vec{1, -2, 0.125};
  CHECK(sl::format_stream_element(scalar, true) == "0.50 ");
  CHECK(sl::format_stream_element(vec, false) == "{1.00, -2.00, 0.12}");
}
