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

#if defined(__x86_64__) && defined(__GNUC__)
namespace {

// brook_m_expf_core on eight lanes, the same IEEE operations in the same
// order (so the same bits), with brook_m_exp2_16 held in two registers: the
// lookup is one two-source permute (vpermt2pd) instead of a gather, and 2^e
// is added to the exponent field (exact, as the scalar's multiplication is:
// the product is a normal double for every plain argument). GCC's own
// vectorisation of the scalar text gathers; this runs at 0.57 ns per element
// against 0.98 (32-lane calls, one core of this Skylake-AVX512).
[[gnu::target("avx512f,avx512dq,avx512vl,avx512bw"), gnu::always_inline]] inline __m512d exp_core8(
    __m512d x, __m512d table_lo, __m512d table_hi) {
  const __m512d shifter = _mm512_set1_pd(0x1.8p52);
  const __m512d s = _mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(0x1.71547652b82fep+4)), shifter);
  const __m512d kd = _mm512_sub_pd(s, shifter);
  __m512d r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(0x1.62e42fefa0000p-5), x);
  r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(0x1.cf79abc9e3b3ap-44), r);
  __m512d q = _mm512_fmadd_pd(r, _mm512_set1_pd(0x1.a01a01a01a01ap-13),
                              _mm512_set1_pd(0x1.6c16c16c16c17p-10));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.1111111111111p-7));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.5555555555555p-5));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.5555555555555p-3));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.0000000000000p-1));
  const __m512d p = _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r);
  // k is the low 32 bits of s: its low four pick the entry, the rest is e.
  const __m512i bits = _mm512_castpd_si512(s);
  const __m512d tj = _mm512_permutex2var_pd(table_lo, bits, table_hi);
  const __m512d y = _mm512_fmadd_pd(tj, p, tj);
  const __m512i e = _mm512_srai_epi64(_mm512_slli_epi64(bits, 32), 36);  // floor(k / 16)
  return _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(y), _mm512_slli_epi64(e, 52)));
}

// brook_m_logf_core on eight normal lanes (ix: their bits), likewise the
// scalar's operations in order, both tables in registers.
[[gnu::target("avx512f,avx512dq,avx512vl,avx512bw"), gnu::always_inline]] inline __m512d log_core8(
    __m256i ix, __m512d invc_lo, __m512d invc_hi, __m512d logc_lo, __m512d logc_hi) {
  const __m256i ux = _mm256_sub_epi32(ix, _mm256_set1_epi32(0x3f330000));
  const __m256i top = _mm256_and_si256(ux, _mm256_set1_epi32(static_cast<int>(0xff800000u)));
  const __m512i i = _mm512_cvtepu32_epi64(_mm256_srli_epi32(ux, 19));  // the permutes read 4 bits
  const __m512d z = _mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_sub_epi32(ix, top)));
  const __m512d r =
      _mm512_fmadd_pd(z, _mm512_permutex2var_pd(invc_lo, i, invc_hi), _mm512_set1_pd(-1.0));
  __m512d q = _mm512_fmadd_pd(r, _mm512_set1_pd(0x1.745d1745d1746p-4),
                              _mm512_set1_pd(-0x1.999999999999ap-4));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.c71c71c71c71cp-4));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-0x1.0000000000000p-3));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.2492492492492p-3));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-0x1.5555555555555p-3));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.999999999999ap-3));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-0x1.0000000000000p-2));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(0x1.5555555555555p-2));
  q = _mm512_fmadd_pd(r, q, _mm512_set1_pd(-0x1.0000000000000p-1));
  const __m512d p = _mm512_fmadd_pd(_mm512_mul_pd(r, r), q, r);
  const __m512d e = _mm512_cvtepi32_pd(_mm256_srai_epi32(top, 23));
  const __m512d l = _mm512_add_pd(_mm512_permutex2var_pd(logc_lo, i, logc_hi), p);
  return _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.62e42fefa3800p-1),
                         _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.ef35793c76730p-45), l));
}

#define BROOK_AVX512 gnu::target("avx512f,avx512dq,avx512vl,avx512bw")

// exp on sixteen lanes: which are plain, and the core on all of them.
struct ExpLanes {
  __m512d table_lo, table_hi;
  [[BROOK_AVX512]] ExpLanes()
      : table_lo(_mm512_loadu_pd(cr::brook_m_exp2_16)),
        table_hi(_mm512_loadu_pd(cr::brook_m_exp2_16 + 8)) {}
  // brook_m_expf_plain: -104 <= x <= 89, false for NaN.
  [[BROOK_AVX512, gnu::always_inline]] __mmask16 plain(__m512i bits) const {
    const __m512 x = _mm512_castsi512_ps(bits);
    return _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(x, _mm512_set1_ps(-104.0f), _CMP_GE_OQ), x,
                                   _mm512_set1_ps(89.0f), _CMP_LE_OQ);
  }
  static constexpr int kOrdinary = 0x3f000000;  // 0.5f, plain
  [[BROOK_AVX512, gnu::always_inline]] __m512 core(__m512i bits) const {
    const __m512 x = _mm512_castsi512_ps(bits);
    const __m512d lo = exp_core8(_mm512_cvtps_pd(_mm512_castps512_ps256(x)), table_lo, table_hi);
    const __m512d hi =
        exp_core8(_mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1))),
                  table_lo, table_hi);
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
  }
  static float full(float x) { return brook_cr_expf(x); }
};

// log likewise.
struct LogLanes {
  __m512d invc_lo, invc_hi, logc_lo, logc_hi;
  [[BROOK_AVX512]] LogLanes()
      : invc_lo(_mm512_loadu_pd(cr::brook_m_log_invc16)),
        invc_hi(_mm512_loadu_pd(cr::brook_m_log_invc16 + 8)),
        logc_lo(_mm512_loadu_pd(cr::brook_m_log_logc16)),
        logc_hi(_mm512_loadu_pd(cr::brook_m_log_logc16 + 8)) {}
  // brook_m_logf_plain: normal, positive, finite, and not one of the hard cases.
  [[BROOK_AVX512, gnu::always_inline]] __mmask16 plain(__m512i x) const {
    __mmask16 p = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(x, _mm512_set1_epi32(0x00800000)),
                                          _mm512_set1_epi32(0x7f000000));
    for (unsigned hard : {0x3c413d3au, 0x41178febu, 0x4c5d65a5u, 0x65d890d3u, 0x6f31a8ecu})
      p = _mm512_mask_cmpneq_epi32_mask(p, x, _mm512_set1_epi32(static_cast<int>(hard)));
    return p;
  }
  static constexpr int kOrdinary = 0x3f800000;  // 1.0f, plain
  [[BROOK_AVX512, gnu::always_inline]] __m512 core(__m512i x) const {
    const __m512d lo = log_core8(_mm512_castsi512_si256(x), invc_lo, invc_hi, logc_lo, logc_hi);
    const __m512d hi =
        log_core8(_mm512_extracti64x4_epi64(x, 1), invc_lo, invc_hi, logc_lo, logc_hi);
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
  }
  static float full(float x) { return brook_cr_logf(x); }
};

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
}
