// The gang forms of brook_math.h's functions, for the JIT's SPMD path: F on n
// lanes at once, the same bits as the scalar brook_cr_F on every lane.
//
// brook_math.h splits each function into plain(x) (an ordinary argument) and
// core(x) (the function on ordinary arguments, branch-free): here core runs
// on all lanes in a loop that GCC's vectoriser turns into vector code (four
// doubles per AVX2 instruction, table lookups as gathers), a lane that is not
// plain computing core(0.5f) there (an argument every core takes without
// reading a table out of range); then those lanes, rare, call the scalar
// function. tests/math/check_math --gang compares both forms on all 2^32
// inputs.
//
// Built with -ffp-contract=off (no fused operations: the same IEEE double
// operations as the scalar form, so the same bits), -fno-trapping-math, which
// lets GCC if-convert a conditional multiplication (log's subnormal scaling)
// into a select, and -fno-math-errno, which makes sqrt one instruction (no
// call that sets errno for a negative argument, which never comes). Neither
// changes a value, only what GCC assumes about floating-point exceptions and
// errno, which brook never reads.
#include "stdlib/brook_math_gang.hpp"

namespace brook::stdlib::cr {
#include "stdlib/brook_math.h"
}  // namespace brook::stdlib::cr

namespace {

namespace cr = brook::stdlib::cr;

constexpr int kChunk = 64;  // lanes per pass (a gang has at most 32)

template <int (*Plain)(float), float (*Core)(float), float (*Full)(float)>
[[gnu::always_inline]] inline void gang(const float* in, float* out, int n) {
  for (int base = 0; base < n; base += kChunk) {
    const int m = n - base < kChunk ? n - base : kChunk;
    const float* __restrict x = in + base;
    float* __restrict y = out + base;
    float xc[kChunk];
    int rest = 0;
    for (int i = 0; i < m; ++i) {
      int p = Plain(x[i]);
      xc[i] = p ? x[i] : 0.5f;
      rest |= p ^ 1;
    }
    for (int i = 0; i < m; ++i) y[i] = Core(xc[i]);
    if (rest)
      for (int i = 0; i < m; ++i)
        if (!Plain(x[i])) y[i] = Full(x[i]);
  }
}

}  // namespace

// The baseline build's form (SSE2 on x86-64) and, on x86-64, AVX2's and
// AVX-512's. Tuned
// for Haswell: GCC's generic tuning declines gathers, and without them it
// does not vectorise the table lookups at all.
#define BROOK_GANG_BASE(F)                                                           \
  void brook_cr_##F##_gang_base(const float* in, float* out, int n) {                \
    gang<cr::brook_m_##F##_plain, cr::brook_m_##F##_core, brook_cr_##F>(in, out, n); \
  }
#if defined(__x86_64__) && defined(__GNUC__)
#define BROOK_GANG_AVX2(F)                                                                    \
  [[gnu::target("avx2,fma")]] void brook_cr_##F##_gang_avx2(const float* in, float* out, int n) { \
    gang<cr::brook_m_##F##_plain, cr::brook_m_##F##_core, brook_cr_##F>(in, out, n);          \
  }
// AVX-512: eight doubles per instruction, and masked gathers.
#define BROOK_GANG_AVX512(F)                                                             \
  [[gnu::target("avx512f,avx512dq,avx512vl,avx512bw")]] void brook_cr_##F##_gang_avx512( \
      const float* in, float* out, int n) {                                              \
    gang<cr::brook_m_##F##_plain, cr::brook_m_##F##_core, brook_cr_##F>(in, out, n);     \
  }
#else
#define BROOK_GANG_AVX2(F)
#define BROOK_GANG_AVX512(F)
#endif

extern "C" {
#define BROOK_GANG(F) BROOK_GANG_BASE(F) BROOK_GANG_AVX2(F) BROOK_GANG_AVX512(F)
BROOK_GANG(expf)
BROOK_GANG(exp2f)
BROOK_GANG(logf)
BROOK_GANG(log2f)
BROOK_GANG(log10f)
BROOK_GANG(sinhf)
BROOK_GANG(coshf)
BROOK_GANG(tanhf)
BROOK_GANG(atanf)
BROOK_GANG(asinf)
BROOK_GANG(acosf)
BROOK_GANG(sinf)
BROOK_GANG(cosf)
BROOK_GANG(tanf)
}
