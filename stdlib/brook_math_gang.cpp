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

#include <initializer_list>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 reports the AVX-512 headers' deliberately undefined operands
// (_mm512_undefined_pd in the set and convert intrinsics) as maybe
// uninitialised once inlined: a false positive, silenced for the header only.
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

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

// The same for a two-argument function, whose core also says per lane
// whether it decided (pow's fast path may not: the scalar function goes on).
template <int (*Plain)(float, float), float (*Core)(float, float, int*),
          float (*Full)(float, float)>
[[gnu::always_inline]] inline void gang2(const float* in_a, const float* in_b, float* out, int n) {
  for (int base = 0; base < n; base += kChunk) {
    const int m = n - base < kChunk ? n - base : kChunk;
    const float* __restrict a = in_a + base;
    const float* __restrict b = in_b + base;
    float* __restrict y = out + base;
    float ac[kChunk], bc[kChunk];
    int done[kChunk];
    int rest = 0;
    for (int i = 0; i < m; ++i) {
      int p = Plain(a[i], b[i]);
      ac[i] = p ? a[i] : 0.5f;
      bc[i] = p ? b[i] : 0.5f;
      done[i] = p;
    }
    for (int i = 0; i < m; ++i) {
      int d;
      y[i] = Core(ac[i], bc[i], &d);
      done[i] &= d;
      rest |= done[i] ^ 1;
    }
    if (rest)
      for (int i = 0; i < m; ++i)
        if (!done[i]) y[i] = Full(a[i], b[i]);
  }
}

// atan2's core decides every plain pair.
inline float atan2f_core(float y, float x, int* done) {
  *done = 1;
  return cr::brook_m_atan2f_core(y, x);
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
// The two-argument forms, likewise (CORE: the core with its decided flag).
#define BROOK_GANG2_BODY(F, CORE) gang2<cr::brook_m_##F##_plain, CORE, brook_cr_##F>(a, b, out, n)
#define BROOK_GANG2_BASE(F, CORE)                                                    \
  void brook_cr_##F##_gang_base(const float* a, const float* b, float* out, int n) { \
    BROOK_GANG2_BODY(F, CORE);                                                       \
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
#define BROOK_GANG2_AVX2(F, CORE)                                                           \
  [[gnu::target("avx2,fma")]] void brook_cr_##F##_gang_avx2(const float* a, const float* b, \
                                                            float* out, int n) {            \
    BROOK_GANG2_BODY(F, CORE);                                                              \
  }
#define BROOK_GANG2_AVX512(F, CORE)                                                      \
  [[gnu::target("avx512f,avx512dq,avx512vl,avx512bw")]] void brook_cr_##F##_gang_avx512( \
      const float* a, const float* b, float* out, int n) {                               \
    BROOK_GANG2_BODY(F, CORE);                                                           \
  }
#else
#define BROOK_GANG_AVX2(F)
#define BROOK_GANG_AVX512(F)
#define BROOK_GANG2_AVX2(F, CORE)
#define BROOK_GANG2_AVX512(F, CORE)
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include "stdlib/brook_math_avx512.hpp"

namespace {

using brook::stdlib::avx512::ExpLanes;
using brook::stdlib::avx512::LogLanes;

// The gang form: sixteen lanes a pass (two passes of sixteen interleaved
// were no faster: 0.73 ns per exp either way, the two ports that run
// 512-bit operations are busy). Lanes that are not plain get the core on an
// ordinary value, then the scalar function.
template <class Lanes>
[[BROOK_AVX512, gnu::always_inline]] inline void gang_avx512(const float* in, float* out, int n) {
  const Lanes f;
  const __m512i ordinary = _mm512_set1_epi32(Lanes::kOrdinary);
  for (int base = 0; base < n; base += 16) {
    const int m = n - base < 16 ? n - base : 16;
    const __mmask16 live = static_cast<__mmask16>((1u << m) - 1u);
    const __m512i x = _mm512_maskz_loadu_epi32(live, in + base);
    const __mmask16 plain = f.plain(x);
    _mm512_mask_storeu_ps(out + base, live, f.core(_mm512_mask_blend_epi32(plain, ordinary, x)));
    for (unsigned r = live & ~static_cast<unsigned>(plain); r; r &= r - 1) {
      const int i = __builtin_ctz(r);
      out[base + i] = Lanes::full(in[base + i]);
    }
  }
}

}  // namespace

extern "C" [[BROOK_AVX512]] void brook_cr_expf_gang_avx512(const float* in, float* out, int n) {
  gang_avx512<ExpLanes>(in, out, n);
}
extern "C" [[BROOK_AVX512]] void brook_cr_logf_gang_avx512(const float* in, float* out, int n) {
  gang_avx512<LogLanes>(in, out, n);
}
#undef BROOK_AVX512
#endif

extern "C" {
#define BROOK_GANG(F) BROOK_GANG_BASE(F) BROOK_GANG_AVX2(F) BROOK_GANG_AVX512(F)
BROOK_GANG_BASE(expf)
BROOK_GANG_AVX2(expf)
BROOK_GANG(exp2f)
BROOK_GANG_BASE(logf)
BROOK_GANG_AVX2(logf)
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
#define BROOK_GANG2(F, CORE) \
  BROOK_GANG2_BASE(F, CORE) BROOK_GANG2_AVX2(F, CORE) BROOK_GANG2_AVX512(F, CORE)
BROOK_GANG2(atan2f, atan2f_core)
BROOK_GANG2(powf, cr::brook_m_powf_core)
}
