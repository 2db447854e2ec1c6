// Throughput per core of each float function of stdlib/brook_math.h: brook's
// scalar function (what the interpreter and the JIT's scalar path call), its
// gang forms (the JIT's SPMD kernels, 16 lanes a call; AVX2's and, where the
// CPU has it, AVX-512's, which the JIT prefers), glibc's scalar float
// function and glibc's libmvec AVX2 version (_ZGVdN8v_*, what GCC calls for
// the C++ baselines); then each double function of stdlib/brook_math_double.h
// against glibc's (name it F_d on the command line, e.g. sin_d). One thread,
// 4096 arguments spread over a typical range, best of 5 rounds of ~0.1 s.
// bench/run_math.sh builds and runs it.
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#include "stdlib/brook_math.hpp"

extern "C" {
// libmvec's AVX2 forms (glibc's x86_64 vector ABI, 'd' = AVX2, 8 lanes).
__m256 _ZGVdN8v_expf(__m256);
__m256 _ZGVdN8v_exp2f(__m256);
__m256 _ZGVdN8v_logf(__m256);
__m256 _ZGVdN8v_log2f(__m256);
__m256 _ZGVdN8v_log10f(__m256);
__m256 _ZGVdN8v_sinhf(__m256);
__m256 _ZGVdN8v_coshf(__m256);
__m256 _ZGVdN8v_tanhf(__m256);
__m256 _ZGVdN8v_atanf(__m256);
__m256 _ZGVdN8v_asinf(__m256);
__m256 _ZGVdN8v_acosf(__m256);
__m256 _ZGVdN8v_sinf(__m256);
__m256 _ZGVdN8v_cosf(__m256);
__m256 _ZGVdN8v_tanf(__m256);
__m256 _ZGVdN8vv_atan2f(__m256, __m256);
__m256 _ZGVdN8vv_powf(__m256, __m256);
}

namespace {

using brook::stdlib::Builtin;

struct Func {
  const char* name;
  Builtin id;
  float lo, hi;  // the arguments' range
  float (*glibc)(float);
  __m256 (*mvec)(__m256);
};

const Func kFuncs[] = {
    {"exp", Builtin::exp, -10, 10, ::expf, _ZGVdN8v_expf},
    {"exp2", Builtin::exp2, -10, 10, ::exp2f, _ZGVdN8v_exp2f},
    {"log", Builtin::log, 1e-3f, 1e3f, ::logf, _ZGVdN8v_logf},
    {"log2", Builtin::log2, 1e-3f, 1e3f, ::log2f, _ZGVdN8v_log2f},
    {"log10", Builtin::log10, 1e-3f, 1e3f, ::log10f, _ZGVdN8v_log10f},
    {"sinh", Builtin::sinh, -10, 10, ::sinhf, _ZGVdN8v_sinhf},
    {"cosh", Builtin::cosh, -10, 10, ::coshf, _ZGVdN8v_coshf},
    {"tanh", Builtin::tanh, -5, 5, ::tanhf, _ZGVdN8v_tanhf},
    {"atan", Builtin::atan, -10, 10, ::atanf, _ZGVdN8v_atanf},
    {"asin", Builtin::asin, -1, 1, ::asinf, _ZGVdN8v_asinf},
    {"acos", Builtin::acos, -1, 1, ::acosf, _ZGVdN8v_acosf},
    {"sin", Builtin::sin, -10, 10, ::sinf, _ZGVdN8v_sinf},
    {"cos", Builtin::cos, -10, 10, ::cosf, _ZGVdN8v_cosf},
    {"tan", Builtin::tan, -10, 10, ::tanf, _ZGVdN8v_tanf},
};

// The two-argument functions.
struct Func2 {
  const char* name;
  Builtin id;
  float alo, ahi, blo, bhi;  // the arguments' ranges
  float (*glibc)(float, float);
  __m256 (*mvec)(__m256, __m256);
};

const Func2 kFuncs2[] = {
    {"atan2", Builtin::atan2, -10, 10, -10, 10, ::atan2f, _ZGVdN8vv_atan2f},
    {"pow", Builtin::pow, 1e-3f, 1e3f, -10, 10, ::powf, _ZGVdN8vv_powf},
};

constexpr int kN = 4096;

// Nanoseconds per element of run() over kN elements, best of 5 rounds.
template <class Run>
double ns_per_element(Run&& run) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    int reps = 0;
    auto t0 = std::chrono::steady_clock::now();
    double s = 0;
    do {
      run();
      ++reps;
      s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (s < 0.1);
    best = std::min(best, s * 1e9 / (double(reps) * kN));
  }
  return best;
}

volatile float sink;

}  // namespace

// Whether `name` was asked for: every function when the command line names none.
bool wanted(int argc, char** argv, const char* name) {
  if (argc < 2) return true;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == name) return true;
  return false;
}

int main(int argc, char** argv) {
  const bool avx2 = __builtin_cpu_supports("avx2");
  std::printf("%-6s %12s %12s %12s %12s %14s   (ns per element, one core; lower is faster)\n",
              "func", "brook scalar", "gang avx2", "gang avx512", "glibc scalar", "libmvec avx2");
  std::vector<float> in(kN), out(kN);
  for (const Func& f : kFuncs) {
    if (!wanted(argc, argv, f.name)) continue;
    for (int i = 0; i < kN; ++i) {
      // A fixed scramble of the range, so that no branch predictor learns it.
      unsigned k = (static_cast<unsigned>(i) * 2654435761u) % kN;
      in[i] = f.lo + (f.hi - f.lo) * (static_cast<float>(k) + 0.5f) / kN;
    }
    auto scalar = brook::stdlib::brook_math_fn(f.id);
    double bs = ns_per_element([&] {
      for (int i = 0; i < kN; ++i) out[i] = scalar(in[i]);
      sink = out[kN - 1];
    });
    // Each gang form this CPU runs (0: not built or not supported here).
    double bg[2] = {0.0, 0.0};
    for (const brook::stdlib::BrookGangSymbol& g : brook::stdlib::brook_math_gang_variants(f.id)) {
      const int slot = g.name == "avx2" ? 0 : g.name == "avx512" ? 1 : -1;
      if (slot < 0) continue;
      bg[slot] = ns_per_element([&] {
        for (int i = 0; i < kN; i += 16) g.fn(&in[i], &out[i], 16);
        sink = out[kN - 1];
      });
    }
    double gs = ns_per_element([&] {
      for (int i = 0; i < kN; ++i) out[i] = f.glibc(in[i]);
      sink = out[kN - 1];
    });
    double mv = !avx2 ? 0.0 : ns_per_element([&] {
      for (int i = 0; i < kN; i += 8) _mm256_storeu_ps(&out[i], f.mvec(_mm256_loadu_ps(&in[i])));
      sink = out[kN - 1];
    });
    std::printf("%-6s %12.2f %12.2f %12.2f %12.2f %14.2f\n", f.name, bs, bg[0], bg[1], gs, mv);
  }
  std::vector<float> in2(kN);
  for (const Func2& f : kFuncs2) {
    if (!wanted(argc, argv, f.name)) continue;
    for (int i = 0; i < kN; ++i) {
      unsigned k = (static_cast<unsigned>(i) * 2654435761u) % kN;
      unsigned m = (static_cast<unsigned>(i) * 40503u + 17u) % kN;
      in[i] = f.alo + (f.ahi - f.alo) * (static_cast<float>(k) + 0.5f) / kN;
      in2[i] = f.blo + (f.bhi - f.blo) * (static_cast<float>(m) + 0.5f) / kN;
    }
    auto scalar = brook::stdlib::brook_math_fn2(f.id);
    double bs = ns_per_element([&] {
      for (int i = 0; i < kN; ++i) out[i] = scalar(in[i], in2[i]);
      sink = out[kN - 1];
    });
    double bg[2] = {0.0, 0.0};
    for (const brook::stdlib::BrookGang2Symbol& g : brook::stdlib::brook_math_gang2_variants(f.id)) {
      const int slot = g.name == "avx2" ? 0 : g.name == "avx512" ? 1 : -1;
      if (slot < 0) continue;
      bg[slot] = ns_per_element([&] {
        for (int i = 0; i < kN; i += 16) g.fn(&in[i], &in2[i], &out[i], 16);
        sink = out[kN - 1];
      });
    }
    double gs = ns_per_element([&] {
      for (int i = 0; i < kN; ++i) out[i] = f.glibc(in[i], in2[i]);
      sink = out[kN - 1];
    });
    double mv = !avx2 ? 0.0 : ns_per_element([&] {
      for (int i = 0; i < kN; i += 8)
        _mm256_storeu_ps(&out[i], f.mvec(_mm256_loadu_ps(&in[i]), _mm256_loadu_ps(&in2[i])));
      sink = out[kN - 1];
    });
    std::printf("%-6s %12.2f %12.2f %12.2f %12.2f %14.2f\n", f.name, bs, bg[0], bg[1], gs, mv);
  }
  // The double functions (stdlib/brook_math_double.h, one call per element
  // on every backend) against glibc's double functions.
  struct FuncD {
    const char* name;
    Builtin id;
    double lo, hi, blo, bhi;  // the arguments' ranges (the second for pow, atan2)
    double (*glibc)(double);
    double (*glibc2)(double, double);
  };
#define BROOK_BENCH_D(F, LO, HI) {#F, Builtin::F, LO, HI, 0, 0, [](double x) { return ::F(x); }, nullptr}
  const FuncD kDouble[] = {
      BROOK_BENCH_D(exp, -700, 700), BROOK_BENCH_D(log, 1e-300, 1e300), BROOK_BENCH_D(sin, -10, 10),
      BROOK_BENCH_D(cos, -10, 10),   BROOK_BENCH_D(tan, -10, 10),       BROOK_BENCH_D(asin, -1, 1),
      BROOK_BENCH_D(acos, -1, 1),    BROOK_BENCH_D(atan, -10, 10),      BROOK_BENCH_D(sinh, -10, 10),
      BROOK_BENCH_D(cosh, -10, 10),  BROOK_BENCH_D(tanh, -10, 10),
      {"atan2", Builtin::atan2, -10, 10, -10, 10, nullptr, [](double y, double x) { return ::atan2(y, x); }},
      {"pow", Builtin::pow, 1e-3, 1e3, -10, 10, nullptr, [](double x, double y) { return ::pow(x, y); }},
  };
#undef BROOK_BENCH_D
  std::vector<double> din(kN), din2(kN), dout(kN);
  bool header = false;
  for (const FuncD& f : kDouble) {
    std::string wanted_name = std::string(f.name) + "_d";
    if (!wanted(argc, argv, wanted_name.c_str())) continue;
    if (!header) {
      std::printf("\n%-8s %12s %12s   (double: ns per element, one core)\n", "func", "brook",
                  "glibc");
      header = true;
    }
    for (int i = 0; i < kN; ++i) {
      unsigned k = (static_cast<unsigned>(i) * 2654435761u) % kN;
      unsigned m = (static_cast<unsigned>(i) * 40503u + 17u) % kN;
      din[i] = f.lo + (f.hi - f.lo) * (static_cast<double>(k) + 0.5) / kN;
      din2[i] = f.blo + (f.bhi - f.blo) * (static_cast<double>(m) + 0.5) / kN;
    }
    double bs = 0, gs = 0;
    if (auto own = brook::stdlib::brook_math_fn_f64(f.id)) {
      bs = ns_per_element([&] {
        for (int i = 0; i < kN; ++i) dout[i] = own(din[i]);
        sink = static_cast<float>(dout[kN - 1]);
      });
      gs = ns_per_element([&] {
        for (int i = 0; i < kN; ++i) dout[i] = f.glibc(din[i]);
        sink = static_cast<float>(dout[kN - 1]);
      });
    } else if (auto own2 = brook::stdlib::brook_math_fn2_f64(f.id)) {
      bs = ns_per_element([&] {
        for (int i = 0; i < kN; ++i) dout[i] = own2(din[i], din2[i]);
        sink = static_cast<float>(dout[kN - 1]);
      });
      gs = ns_per_element([&] {
        for (int i = 0; i < kN; ++i) dout[i] = f.glibc2(din[i], din2[i]);
        sink = static_cast<float>(dout[kN - 1]);
      });
    }
    std::printf("%-8s %12.2f %12.2f\n", wanted_name.c_str(), bs, gs);
  }
  return 0;
}
