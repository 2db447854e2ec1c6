// The AVX-512 cores of exp and log on sixteen float lanes, in intrinsics: the
// same IEEE double operations as brook_math.h's scalar brook_m_expf_core and
// brook_m_logf_core, in the same order, so the same bits. Two builds use them:
// stdlib/brook_math_gang.cpp (GCC, the gang forms the JIT calls) and
// stdlib/brook_math_inline.cpp (clang, LLVM bitcode that the JIT inlines into
// SPMD kernels). The includer has included <immintrin.h>, brook_math.h inside
// namespace brook::stdlib::cr, and brook_math_gang.hpp (brook_cr_expf,
// brook_cr_logf).
#pragma once

#include <initializer_list>

namespace brook::stdlib::avx512 {

namespace cr = brook::stdlib::cr;

#define BROOK_AVX512 gnu::target("avx512f,avx512dq,avx512vl,avx512bw")
// brook_m_expf_core on eight lanes, the same IEEE operations in the same
// order (so the same bits), with brook_m_exp2_16 held in two registers: the
// lookup is one two-source permute (vpermt2pd) instead of a gather. The
// scalar multiplies the result by 2^e, e = floor(k / 16); here the table
// entry is scaled first, by an integer add to its exponent field (the
// registers hold each entry j less j << 48, so adding k << 48 leaves
// 2^e * entry), and the last fused multiply-add works on 2^e * entry: the
// same double, as every value involved is a normal double for a plain
// argument (e in [-151, 128]), so scaling by 2^e is exact before or after.
// Two integer operations fewer than scaling after. GCC's own vectorisation
// of the scalar text gathers; this runs at 0.57 ns per element against 0.98
// (32-lane calls, one core of this Skylake-AVX512).
[[gnu::target("avx512f,avx512dq,avx512vl,avx512bw"), gnu::always_inline]] inline __m512d exp_core8(
    __m512d x, __m512i table_lo, __m512i table_hi) {
  const __m512d shifter = _mm512_set1_pd(0x1.8p52);
  const __m512d s = _mm512_fmadd_pd(x, _mm512_set1_pd(0x1.71547652b82fep+4), shifter);
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
  // k is the low bits of s (|k| < 2^15): its low four pick the entry, and
  // k << 48 adds (k - j) << 48 = e << 52 to the entry stored less j << 48.
  const __m512i bits = _mm512_castpd_si512(s);
  const __m512i entry = _mm512_permutex2var_epi64(table_lo, bits, table_hi);
  const __m512d scaled = _mm512_castsi512_pd(_mm512_add_epi64(entry, _mm512_slli_epi64(bits, 48)));
  return _mm512_fmadd_pd(scaled, p, scaled);
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

// exp on sixteen lanes: which are plain, and the core on all of them.
struct ExpLanes {
  __m512i table_lo, table_hi;  // brook_m_exp2_16's bits, entry j less j << 48 (exp_core8)
  [[BROOK_AVX512]] ExpLanes()
      : table_lo(_mm512_sub_epi64(_mm512_castpd_si512(_mm512_loadu_pd(cr::brook_m_exp2_16)),
                                  _mm512_slli_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), 48))),
        table_hi(_mm512_sub_epi64(
            _mm512_castpd_si512(_mm512_loadu_pd(cr::brook_m_exp2_16 + 8)),
            _mm512_slli_epi64(_mm512_set_epi64(15, 14, 13, 12, 11, 10, 9, 8), 48))) {}
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

}  // namespace brook::stdlib::avx512
