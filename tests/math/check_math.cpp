// The proof tool for LANGUAGE.md §10: counts the float results that are not
// correctly rounded, per function, over all 2^32 inputs (or a range, or a
// sample), for the project's library (stdlib/brook_math.h) or glibc's float
// functions. Each result is screened against glibc's double function (error
// below 1 double ulp): when the double value is far from every float
// rounding boundary, its rounding to float is the correct answer; MPFR
// decides the rest (inputs whose exact value is near a boundary, and every
// disagreement). stdlib/MATH.md has the commands and the recorded results.
//
//   check_math [--lib brook|glibc] [--func exp,log,...] [--threads N]
//              [--from 0xBITS --to 0xBITS] [--step K] [--list N]
//   check_math --binary pow|atan2 [--lib ...] [--pairs N] [--seed S] [--gang [--variant V]]
//   check_math --gang [--variant base|avx2|avx512] [--func ...] [--threads N] [--from/--to/--step]
//   check_math --double F [--lib brook|glibc] [--pairs N] [--seed S]
//
// --gang checks instead that every gang form of brook's functions (the JIT's
// vector forms, stdlib/brook_math_gang.cpp: each one this CPU can run) gives
// the scalar function's bits on every input, on gangs of 4 to 32 lanes
// (with --binary, on the pairs that check would judge).
//
// --double checks a double function against MPFR (tests/math/check_double.cpp
// says on which inputs; LANGUAGE.md §10 asks within one ulp).
//
// Exit status: 0 when every checked result is correctly rounded (and, for
// brook, every NaN is 0x7fc00000), 1 otherwise.
#include <mpfr.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "stdlib/brook_math.hpp"
#include "tests/math/check_double.hpp"

namespace {

// Runs work(0..n-1) on n threads; each frees MPFR's per-thread constant
// caches when it ends (LeakSanitizer reports them otherwise).
template <class Work>
void run_threads(unsigned n, Work& work) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t)
    pool.emplace_back([&work, t] {
      work(t);
      mpfr_free_cache();
    });
  for (auto& th : pool) th.join();
}

using brook::stdlib::Builtin;
using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

struct Unary {
  const char* name;
  Builtin id;
  float (*glibc)(float);
  double (*dref)(double);
  MpfrUnary exact;
};

const Unary kUnary[] = {
    {"exp", Builtin::exp, ::expf, ::exp, mpfr_exp},
    {"exp2", Builtin::exp2, ::exp2f, ::exp2, mpfr_exp2},
    {"log", Builtin::log, ::logf, ::log, mpfr_log},
    {"log2", Builtin::log2, ::log2f, ::log2, mpfr_log2},
    {"log10", Builtin::log10, ::log10f, ::log10, mpfr_log10},
    {"sinh", Builtin::sinh, ::sinhf, ::sinh, mpfr_sinh},
    {"cosh", Builtin::cosh, ::coshf, ::cosh, mpfr_cosh},
    {"tanh", Builtin::tanh, ::tanhf, ::tanh, mpfr_tanh},
    {"sin", Builtin::sin, ::sinf, ::sin, mpfr_sin},
    {"cos", Builtin::cos, ::cosf, ::cos, mpfr_cos},
    {"tan", Builtin::tan, ::tanf, ::tan, mpfr_tan},
    {"asin", Builtin::asin, ::asinf, ::asin, mpfr_asin},
    {"acos", Builtin::acos, ::acosf, ::acos, mpfr_acos},
    {"atan", Builtin::atan, ::atanf, ::atan, mpfr_atan},
};

// The correctly rounded float of an MPFR computation: precision 24, the float
// exponent range, then subnormalised (MPFR's documented way to emulate binary32).
struct FloatRange {
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  FloatRange() {
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
  }
  ~FloatRange() {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
};

float exact_unary(MpfrUnary f, float x) {
  FloatRange range;
  mpfr_t a, y;
  mpfr_init2(a, 24);
  mpfr_init2(y, 24);
  mpfr_set_flt(a, x, MPFR_RNDN);
  int inex = f(y, a, MPFR_RNDN);
  inex = mpfr_check_range(y, inex, MPFR_RNDN);
  mpfr_subnormalize(y, inex, MPFR_RNDN);
  float r = mpfr_get_flt(y, MPFR_RNDN);
  mpfr_clear(a);
  mpfr_clear(y);
  return r;
}

using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
float exact_binary(MpfrBinary f, float x, float z) {
  FloatRange range;
  mpfr_t a, b, y;
  mpfr_init2(a, 24);
  mpfr_init2(b, 24);
  mpfr_init2(y, 24);
  mpfr_set_flt(a, x, MPFR_RNDN);
  mpfr_set_flt(b, z, MPFR_RNDN);
  int inex = f(y, a, b, MPFR_RNDN);
  inex = mpfr_check_range(y, inex, MPFR_RNDN);
  mpfr_subnormalize(y, inex, MPFR_RNDN);
  float r = mpfr_get_flt(y, MPFR_RNDN);
  mpfr_clear(a);
  mpfr_clear(b);
  mpfr_clear(y);
  return r;
}

// True when the double d (within a few double ulps of the exact value) may
// round to a different float than the exact value does: it lies within
// 2^-45 relative of a midpoint between f = (float)d and a neighbour.
bool near_boundary(double d, float f) {
  // The common case on bits: f and d normal, d's 29 bits below float
  // precision more than 2^8 double ulps (2^-44 relative) from one half.
  double ad = std::fabs(d);
  if (ad >= 0x1p-126 && ad < 0x1.fffffep127) {
    uint64_t low = std::bit_cast<uint64_t>(ad) & ((uint64_t(1) << 29) - 1);
    uint64_t half = uint64_t(1) << 28;
    return (low > half ? low - half : half - low) <= 256;
  }
  if (!std::isfinite(f)) return std::isfinite(d) && std::fabs(d) > 3.0e38;  // overflow threshold
  const double tol = std::fabs(d) * 0x1p-45 + 0x1p-1000;
  for (float dir : {INFINITY, -INFINITY}) {
    float g = std::nextafter(f, dir);
    double mid = std::isinf(g)
                     ? static_cast<double>(f) + std::copysign(0x1p103, static_cast<double>(f))
                     : (static_cast<double>(f) + static_cast<double>(g)) / 2;
    if (std::fabs(d - mid) <= tol) return true;
  }
  return false;
}

bool same(float a, float b) {
  return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// The verdict on one result y for input x: 0 right, 1 wrong, 2 a NaN other
// than 0x7fc00000 where `canonical` is asked for (counted apart).
template <class Exact>
int judge(float y, double d, bool canonical, Exact&& exact) {
  bool dnan = std::isnan(d);
  if (std::isnan(y) && dnan) return canonical && std::bit_cast<uint32_t>(y) != 0x7fc00000u ? 2 : 0;
  float f = static_cast<float>(d);
  if (!dnan && same(y, f) && !near_boundary(d, f)) return 0;
  float e = exact();
  if (std::isnan(e))
    return std::isnan(y) ? (canonical && std::bit_cast<uint32_t>(y) != 0x7fc00000u ? 2 : 0) : 1;
  return same(y, e) ? 0 : 1;
}

struct Options {
  bool brook = true;
  std::vector<const Unary*> funcs;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  uint64_t from = 0, to = 0xffffffffull, step = 1;
  int list = 10;
  std::string binary;
  std::string dbl;  // --double
  bool gang = false;
  std::string variant;  // --variant: one gang form only (base, avx2, avx512)
  uint64_t pairs = 1000000, seed = 1;
};

int run_unary(const Options& o) {
  bool all_ok = true;
  for (const Unary* u : o.funcs) {
    if (o.brook && !brook::stdlib::has_brook_math_f32(u->id)) {
      std::printf("%-6s brook: not in stdlib/brook_math.h yet\n", u->name);
      continue;
    }
    std::atomic<uint64_t> wrong{0}, nans{0}, checked{0};
    std::mutex print;
    std::atomic<int> listed{0};
    auto work = [&](unsigned t) {
      uint64_t w = 0, n = 0, c = 0;
      // Interleaved blocks, so every thread gets its share of the slow inputs.
      const uint64_t block = 1 << 16;
      for (uint64_t b = o.from + t * block * o.step; b <= o.to;
           b += uint64_t(o.threads) * block * o.step) {
        for (uint64_t i = b; i < b + block * o.step && i <= o.to; i += o.step) {
          float x = std::bit_cast<float>(static_cast<uint32_t>(i));
          float y = o.brook ? brook::stdlib::brook_math_f32(u->id, x) : u->glibc(x);
          int v = judge(y, u->dref(static_cast<double>(x)), o.brook,
                        [&] { return exact_unary(u->exact, x); });
          ++c;
          if (v == 0) continue;
          (v == 1 ? w : n)++;
          if (listed.fetch_add(1) < o.list) {
            std::lock_guard<std::mutex> lock(print);
            std::printf("  %s(0x%08x = %a) = 0x%08x (%a), correctly rounded 0x%08x (%a)\n", u->name,
                        static_cast<uint32_t>(i), x, std::bit_cast<uint32_t>(y), y,
                        std::bit_cast<uint32_t>(exact_unary(u->exact, x)),
                        exact_unary(u->exact, x));
          }
        }
      }
      wrong += w;
      nans += n;
      checked += c;
    };
    run_threads(o.threads, work);
    std::printf("%-6s %s: %llu inputs, %llu not correctly rounded", u->name,
                o.brook ? "brook" : "glibc", static_cast<unsigned long long>(checked.load()),
                static_cast<unsigned long long>(wrong.load()));
    if (o.brook)
      std::printf(", %llu non-canonical NaN", static_cast<unsigned long long>(nans.load()));
    std::printf("\n");
    std::fflush(stdout);
    all_ok = all_ok && wrong == 0 && nans == 0;
  }
  return all_ok ? 0 : 1;
}

// --gang: each gang form against the scalar function, bit for bit.
int run_gang(const Options& o) {
  bool all_ok = true;
  for (const Unary* u : o.funcs) {
    brook::stdlib::BrookMathFn scalar = brook::stdlib::brook_math_fn(u->id);
    if (!scalar) continue;
    for (const brook::stdlib::BrookGangSymbol& g : brook::stdlib::brook_math_gang_variants(u->id)) {
      if (!o.variant.empty() && g.name != o.variant) continue;
      std::atomic<uint64_t> differ{0}, checked{0};
      std::atomic<int> listed{0};
      std::mutex print;
      auto work = [&](unsigned t) {
        const uint64_t block = 1 << 16;
        // Gang widths the JIT uses, and one odd width for the loops' tails.
        const int widths[] = {16, 8, 4, 32, 13};
        std::vector<float> in(block), out(block);
        uint64_t d = 0, c = 0;
        for (uint64_t b = o.from + t * block * o.step; b <= o.to;
             b += uint64_t(o.threads) * block * o.step) {
          size_t n = 0;
          for (uint64_t i = b; i < b + block * o.step && i <= o.to; i += o.step)
            in[n++] = std::bit_cast<float>(static_cast<uint32_t>(i));
          for (size_t at = 0, k = 0; at < n; ++k) {
            int w = static_cast<int>(std::min<size_t>(widths[k % 5], n - at));
            g.fn(in.data() + at, out.data() + at, w);
            at += static_cast<size_t>(w);
          }
          for (size_t i = 0; i < n; ++i) {
            float y = scalar(in[i]);
            ++c;
            if (std::bit_cast<uint32_t>(y) == std::bit_cast<uint32_t>(out[i])) continue;
            ++d;
            if (listed.fetch_add(1) < o.list) {
              std::lock_guard<std::mutex> lock(print);
              std::printf("  %s gang %.*s (0x%08x) = 0x%08x, scalar 0x%08x\n", u->name,
                          static_cast<int>(g.name.size()), g.name.data(),
                          std::bit_cast<uint32_t>(in[i]), std::bit_cast<uint32_t>(out[i]),
                          std::bit_cast<uint32_t>(y));
            }
          }
        }
        differ += d;
        checked += c;
      };
      run_threads(o.threads, work);
      std::printf("%-6s gang %-4.*s: %llu inputs, %llu differ from the scalar function\n", u->name,
                  static_cast<int>(g.name.size()), g.name.data(),
                  static_cast<unsigned long long>(checked.load()),
                  static_cast<unsigned long long>(differ.load()));
      std::fflush(stdout);
      all_ok = all_ok && differ == 0;
    }
  }
  return all_ok ? 0 : 1;
}

// --binary F --gang: each gang form of F against the scalar function on the
// same pairs, bit for bit, in gangs of the JIT's widths.
int run_gang_binary(const Options& o, brook::stdlib::Builtin id,
                    const std::vector<std::pair<float, float>>& cases) {
  const brook::stdlib::BrookMathFn2 scalar = brook::stdlib::brook_math_fn2(id);
  const size_t n = cases.size();
  std::vector<float> a(n), b(n), out(n);
  for (size_t i = 0; i < n; ++i) a[i] = cases[i].first, b[i] = cases[i].second;
  bool all_ok = true;
  for (const brook::stdlib::BrookGang2Symbol& g : brook::stdlib::brook_math_gang2_variants(id)) {
    if (!o.variant.empty() && g.name != o.variant) continue;
    const int widths[] = {16, 8, 4, 32, 13};
    for (size_t at = 0, k = 0; at < n; ++k) {
      const int w = static_cast<int>(std::min<size_t>(widths[k % 5], n - at));
      g.fn(a.data() + at, b.data() + at, out.data() + at, w);
      at += static_cast<size_t>(w);
    }
    uint64_t differ = 0;
    for (size_t i = 0; i < n; ++i) {
      const float y = scalar(a[i], b[i]);
      if (std::bit_cast<uint32_t>(y) == std::bit_cast<uint32_t>(out[i])) continue;
      if (++differ <= static_cast<uint64_t>(o.list))
        std::printf("  %s gang %.*s (%a, %a) = %a, scalar %a\n", o.binary.c_str(),
                    static_cast<int>(g.name.size()), g.name.data(), a[i], b[i], out[i], y);
    }
    std::printf("%s gang %-6.*s: %zu pairs, %llu differ from the scalar function\n",
                o.binary.c_str(), static_cast<int>(g.name.size()), g.name.data(), n,
                static_cast<unsigned long long>(differ));
    all_ok = all_ok && differ == 0;
  }
  return all_ok ? 0 : 1;
}

// pow and atan2: specials and hard cases (exact powers, ties, boundaries of
// overflow and underflow), then random pairs of bit patterns and of moderate values.
int run_binary(const Options& o) {
  bool pw = o.binary == "pow";
  brook::stdlib::BrookMathFn2 own =
      o.brook ? brook::stdlib::brook_math_fn2(pw ? brook::stdlib::Builtin::pow
                                                 : brook::stdlib::Builtin::atan2)
              : nullptr;
  if (o.brook && !own) {
    std::printf("%s brook: not in stdlib/brook_math.h yet\n", o.binary.c_str());
    return 0;
  }
  std::vector<std::pair<float, float>> cases;
  const float specials[] = {0.0f, -0.0f,      1.0f,       -1.0f,           0.5f,
                            2.0f, -2.0f,      3.0f,       INFINITY,        -INFINITY,
                            NAN,  0x1p-149f,  0x1p-126f,  0x1.fffffep127f, 10.0f,
                            0.1f, 1.0000001f, 0.99999994f};
  for (float a : specials)
    for (float b : specials) cases.emplace_back(a, b);
  if (pw) {
    for (int b = 2; b <= 4096; ++b)  // exact results, and ties such as 3^k near 2^24
      for (int k = -30; k <= 30; ++k)
        cases.emplace_back(static_cast<float>(b), static_cast<float>(k));
    for (int k = 1; k <= 64; ++k)
      for (int b = 1; b < 64; ++b) cases.emplace_back(static_cast<float>(b * b), 0.5f * k);
    // The exact results brook_powf must recognise (x^y a float or a midpoint
    // between two, stdlib/brook_math.h): negative and reciprocal bases,
    // square, fourth and eighth roots of perfect powers (scaled by powers of
    // two, some into the subnormal range), and powers of two raised to
    // fractions (2^-150, the midpoint below the least subnormal, among them).
    for (int b = 2; b <= 300; ++b)
      for (int k = -20; k <= 20; ++k) {
        cases.emplace_back(-static_cast<float>(b), static_cast<float>(k));
        cases.emplace_back(1.0f / static_cast<float>(b), static_cast<float>(k));
      }
    for (int k = -70; k <= 70; ++k)
      for (int b = 1; b < 4096; b += (b < 300 ? 1 : 37))
        for (int s : {0, -40, -140, 60}) {
          const float sq = std::ldexp(static_cast<float>(b * b), s);
          if (sq != 0) cases.emplace_back(sq, 0.5f * k);
        }
    for (int k = -50; k <= 50; ++k) {
      for (int b = 1; b < 64; ++b)
        for (int s : {0, -100, 40}) {
          const float b4 = static_cast<float>(b * b * b * b);
          cases.emplace_back(std::ldexp(b4, s), 0.25f * k);
        }
      for (int b = 1; b < 8; ++b)
        for (int s : {0, -64, -120}) {
          float b8 = 1.0f;
          for (int i = 0; i < 8; ++i) b8 *= static_cast<float>(b);
          cases.emplace_back(std::ldexp(b8, s), 0.125f * k);
        }
    }
    for (int e = -149; e <= 127; ++e)
      for (int k = -320; k <= 320; ++k) {
        cases.emplace_back(std::ldexp(1.0f, e), 0.125f * k);
        cases.emplace_back(std::ldexp(1.0f, e), static_cast<float>(k) / 3.0f);
      }
  }
  std::mt19937_64 rng(o.seed);
  if (pw) {
    // Results near overflow (2^128), in the subnormal range and near 2^-150,
    // and x near 1 with huge |y|.
    for (uint64_t i = 0; i < o.pairs / 8 + 1000; ++i) {
      const float a = std::bit_cast<float>(static_cast<uint32_t>(rng()) & 0x7fffffffu);
      if (std::isfinite(a) && a != 0.0f && a != 1.0f) {
        const double la = std::log2(static_cast<double>(a));
        const double over = 127.0 + static_cast<double>(rng() % 2000) / 1000.0;
        const double under = -151.0 + static_cast<double>(rng() % 26000) / 1000.0;
        cases.emplace_back(a, static_cast<float>(over / la));
        cases.emplace_back(a, static_cast<float>(under / la));
        cases.emplace_back(-a, std::nearbyint(static_cast<float>(under / la)));
      }
      const int32_t d = static_cast<int32_t>(rng() % 8192) - 4096;
      const float near1 = std::bit_cast<float>(static_cast<uint32_t>(0x3f800000 + d));
      const float big = std::bit_cast<float>(0x46000000u + static_cast<uint32_t>(rng() % 0x0a000000u));
      cases.emplace_back(near1, (rng() & 1) ? big : -big);
    }
  }
  if (!pw) {
    // atan2: quotients near 1 (the diagonal), near 0 and huge (results near
    // 0, pi/2 and, for negative x, pi), subnormal results.
    for (uint64_t i = 0; i < o.pairs / 8 + 1000; ++i) {
      const float a = std::bit_cast<float>(static_cast<uint32_t>(rng()) & 0x7fffffffu);
      if (!std::isfinite(a)) continue;
      const int k = static_cast<int>(rng() % 64) - 32;
      const float near =
          std::bit_cast<float>(std::bit_cast<uint32_t>(a) + static_cast<uint32_t>(k));
      const float s = (rng() & 1) ? 1.0f : -1.0f, t = (rng() & 1) ? 1.0f : -1.0f;
      cases.emplace_back(s * a, t * near);
      const float small = std::ldexp(a, -static_cast<int>(rng() % 200));
      cases.emplace_back(s * small, t * a);
      cases.emplace_back(s * a, t * small);
      // An exact quotient on a midpoint between subnormal results: y / 2^k.
      const uint32_t m = static_cast<uint32_t>(rng()) & 0x00ffffffu;
      cases.emplace_back(s * std::bit_cast<float>(m),
                         std::ldexp(1.0f, 1 + static_cast<int>(rng() % 100)));
    }
  }
  for (uint64_t i = 0; i < o.pairs; ++i) {
    if (i & 1) {
      cases.emplace_back(std::bit_cast<float>(static_cast<uint32_t>(rng())),
                         std::bit_cast<float>(static_cast<uint32_t>(rng())));
    } else {
      std::uniform_real_distribution<float> base(0.0f, 8.0f), ex(-40.0f, 40.0f);
      cases.emplace_back(base(rng), ex(rng));
    }
  }
  if (o.gang)
    return run_gang_binary(o, pw ? brook::stdlib::Builtin::pow : brook::stdlib::Builtin::atan2,
                           cases);
  std::atomic<uint64_t> wrong{0};
  std::atomic<int> listed{0};
  std::mutex print;
  auto work = [&](unsigned t) {
    for (size_t i = t; i < cases.size(); i += o.threads) {
      // Not a structured binding: clang 15 cannot capture one in the lambda below.
      const float a = cases[i].first, b = cases[i].second;
      float y = own ? own(a, b) : pw ? ::powf(a, b) : ::atan2f(a, b);
      double d = pw ? std::pow(double(a), double(b)) : std::atan2(double(a), double(b));
      int v = judge(y, d, own != nullptr,
                    [&] { return exact_binary(pw ? mpfr_pow : mpfr_atan2, a, b); });
      if (!v) continue;
      ++wrong;
      if (listed.fetch_add(1) < o.list) {
        std::lock_guard<std::mutex> lock(print);
        float e = exact_binary(pw ? mpfr_pow : mpfr_atan2, a, b);
        std::printf("  %s(%a, %a) = %a, correctly rounded %a\n", o.binary.c_str(), a, b, y, e);
      }
    }
  };
  run_threads(o.threads, work);
  std::printf("%s %s: %zu pairs, %llu not correctly rounded%s\n", o.binary.c_str(),
              own ? "brook" : "glibc", cases.size(), static_cast<unsigned long long>(wrong.load()),
              own ? " (or a NaN other than 0x7fc00000)" : "");
  return wrong == 0 ? 0 : 1;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: check_math [--lib brook|glibc] [--func exp,log,...] [--threads N]\n"
               "                  [--from 0xBITS] [--to 0xBITS] [--step K] [--list N]\n"
               "       check_math --binary pow|atan2 [--lib brook|glibc] [--pairs N] [--seed S] "
               "[--gang [--variant V]]\n"
               "       check_math --gang [--variant base|avx2|avx512] [--func ...] [--threads N] "
               "[--from/--to/--step]\n"
               "       check_math --double F [--lib brook|glibc] [--pairs N] [--seed S]\n"
               "         (F: exp exp2 log log2 log10 sin cos tan asin acos atan sinh cosh tanh "
               "atan2 pow)\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string funcs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--lib") {
      std::string l = next();
      if (l != "brook" && l != "glibc") usage();
      o.brook = l == "brook";
    } else if (a == "--func") {
      funcs = next();
    } else if (a == "--threads") {
      o.threads = std::max(1ul, std::stoul(next()));
    } else if (a == "--from") {
      o.from = std::stoull(next(), nullptr, 0);
    } else if (a == "--to") {
      o.to = std::stoull(next(), nullptr, 0);
    } else if (a == "--step") {
      o.step = std::max(1ull, std::stoull(next(), nullptr, 0));
    } else if (a == "--list") {
      o.list = std::stoi(next());
    } else if (a == "--binary") {
      o.binary = next();
      if (o.binary != "pow" && o.binary != "atan2") usage();
    } else if (a == "--double") {
      o.dbl = next();
    } else if (a == "--gang") {
      o.gang = true;
    } else if (a == "--variant") {
      o.variant = next();
    } else if (a == "--pairs") {
      o.pairs = std::stoull(next());
    } else if (a == "--seed") {
      o.seed = std::stoull(next());
    } else {
      usage();
    }
  }
  if (!o.binary.empty()) return run_binary(o);
  if (!o.dbl.empty()) {
    int rc = brook::math_check::run_double({o.dbl, o.brook, o.pairs, o.seed, o.list});
    if (rc == 2) usage();
    return rc;
  }
  std::vector<std::string> names;
  for (size_t at = 0; !funcs.empty() && at <= funcs.size();) {
    size_t comma = std::min(funcs.find(',', at), funcs.size());
    names.push_back(funcs.substr(at, comma - at));
    at = comma + 1;
  }
  for (const Unary& u : kUnary) {
    bool want = names.empty();
    for (const std::string& n : names) want = want || n == u.name;
    if (want) o.funcs.push_back(&u);
  }
  if (o.funcs.size() < names.size()) usage();
  if (o.funcs.empty()) usage();
  return o.gang ? run_gang(o) : run_unary(o);
}
