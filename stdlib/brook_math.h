// The project's own float math (LANGUAGE.md §10), written ONCE in the common
// subset of C++ and OpenCL C: the interpreter and the JIT call these functions
// (stdlib/brook_math.cpp compiles this file as C++), and the OpenCL printer
// pastes this very text into every program that calls one of them, so PoCL's
// or a GPU driver's library is never used for them. Every function returns the
// correctly rounded float (checked over all 2^32 inputs by tests/math/
// check_math, see stdlib/MATH.md); a NaN result is always 0x7fc00000. The
// JIT's SPMD kernels call gang forms built from this same text (the _plain and
// _core parts below, stdlib/brook_math_gang.cpp).
//
// Technique: the float argument is reduced and a polynomial is evaluated in
// double (cl_khr_fp64 on OpenCL), whose error (below 2^-50 relative) is far
// smaller than a float's half ulp; the few inputs whose exact result lies
// closer than that to a rounding boundary were found by the exhaustive check
// and are answered from the small tables of "hard cases" (exact results from
// MPFR). Strict IEEE double arithmetic only: no contraction (the C++ side is
// compiled with -ffp-contract=off, the OpenCL program has FP_CONTRACT OFF),
// so the double intermediates are the same bits everywhere. Fused
// multiply-adds are written out where they are wanted (BROOK_M_FMA): both C
// and OpenCL C define fma as one correctly rounded operation, so they are the
// same bits on every backend too (hardware FMA where the CPU has it: see
// brook_math.cpp and brook_math_gang.cpp), and they halve the work of the
// polynomials of exp and log.
//
// Tables: tests/math/gen_tables.py prints them (mpmath at 200 bits).
// This file includes nothing; it must stay valid OpenCL C 1.2 and C++20.
#ifdef __OPENCL_VERSION__
typedef uint brook_m_u32;
typedef int brook_m_i32;
typedef ulong brook_m_u64;
#define BROOK_M_F2U(x) as_uint(x)
#define BROOK_M_U2F(x) as_float(x)
#define BROOK_M_U2D(x) as_double(x)
#define BROOK_M_D2U(x) as_ulong(x)
#define BROOK_M_TABLE __constant
#define BROOK_M_SQRT(x) sqrt(x)
#define BROOK_M_FMA(a, b, c) fma(a, b, c)
#define BROOK_M_MULHI64(a, b) mul_hi((ulong)(a), (ulong)(b))
#define BROOK_M_CLZ64(x) clz((ulong)(x))
#else
typedef unsigned int brook_m_u32;
typedef int brook_m_i32;
typedef unsigned long long brook_m_u64;
#define BROOK_M_F2U(x) __builtin_bit_cast(brook_m_u32, (float)(x))
#define BROOK_M_U2F(x) __builtin_bit_cast(float, (brook_m_u32)(x))
#define BROOK_M_U2D(x) __builtin_bit_cast(double, (brook_m_u64)(x))
#define BROOK_M_D2U(x) __builtin_bit_cast(brook_m_u64, (double)(x))
#define BROOK_M_TABLE static const
#define BROOK_M_SQRT(x) __builtin_sqrt(x)
#define BROOK_M_FMA(a, b, c) __builtin_fma(a, b, c)
// The high 64 bits of a 64 x 64-bit product, and the count of leading zeros.
#define BROOK_M_MULHI64(a, b) ((brook_m_u64)(((unsigned __int128)(a) * (b)) >> 64))
#define BROOK_M_CLZ64(x) __builtin_clzll(x)
#endif
#define BROOK_M_FN static inline
#define BROOK_M_NAN BROOK_M_U2F(0x7fc00000u)
#define BROOK_M_INF BROOK_M_U2F(0x7f800000u)
#define BROOK_M_NAN_D BROOK_M_U2D(0x7ff8000000000000ul)
#define BROOK_M_INF_D BROOK_M_U2D(0x7ff0000000000000ul)

// 2^(j/64), j = 0..63.
BROOK_M_TABLE double brook_m_exp2_64[64] = {
    0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
    0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
    0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
    0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
    0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
    0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
    0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
    0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
    0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
    0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
    0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
    0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
    0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
    0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
    0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0};

// exp(r) - 1 for |r| <= ln2/128 (Taylor to r^6; its error is below 2^-65).
BROOK_M_FN double brook_m_expm1_small(double r) {
  double q = BROOK_M_FMA(r, 0x1.6c16c16c16c17p-10, 0x1.1111111111111p-7);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-5);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-3);
  q = BROOK_M_FMA(r, q, 0x1.0000000000000p-1);
  return BROOK_M_FMA(r * r, q, r);
}

// 2^(k/64) * exp(r) in double, for -151*64 <= k <= 131*64.
BROOK_M_FN double brook_m_exp_finish(brook_m_i32 k, double r) {
  brook_m_i32 j = k & 63;
  // floor(k / 64), with an unsigned shift (k + 2^14 > 0): no signed shift.
  brook_m_i32 e = (brook_m_i32)(((brook_m_u32)(k + 16384)) >> 6) - 256;
  double tj = brook_m_exp2_64[j];
  double y = BROOK_M_FMA(tj, brook_m_expm1_small(r), tj);
  return y * BROOK_M_U2D((brook_m_u64)(e + 1023) << 52);
}

// k = nearest integer to t (|t| < 2^31), through the 1.5 * 2^52 trick.
BROOK_M_FN brook_m_i32 brook_m_round_int(double t, double* kd) {
  double s = t + 0x1.8p52;
  *kd = s - 0x1.8p52;
  return (brook_m_i32)(brook_m_u32)BROOK_M_D2U(s);
}

// exp(x) in double for a float -110 < x < 95 (rounded once by the caller).
BROOK_M_FN double brook_m_exp_d(float x) {
  double kd;
  brook_m_i32 k = brook_m_round_int((double)x * 0x1.71547652b82fep+6, &kd);
  // Cody-Waite: x - k * hi is exact (hi has 38 bits), then one rounding.
  double r = BROOK_M_FMA(-kd, 0x1.62e42fefa0000p-7, (double)x);
  r = BROOK_M_FMA(-kd, 0x1.cf79abc9e3b3ap-46, r);
  return brook_m_exp_finish(k, r);
}

// Each function F below comes in three parts, so that the JIT can run it on a
// gang of lanes (stdlib/brook_math_gang.cpp): brook_m_F_plain(x) says whether
// x is an ordinary argument (no special value, no hard case),
// brook_m_F_core(x) is F on those, with no early return and only conditions
// a vectoriser turns into selects, and brook_F(x) is plain ? core : the rest.
// The gang form computes core on every lane at once and calls brook_F only on
// the lanes that are not plain, so both forms give the same bits by
// construction (and check_math --gang compares them on all 2^32 inputs).
// exp's own reduction: 2^(j/16) from sixteen entries (a table the JIT's
// AVX-512 gang form keeps in two registers, one permute per eight lanes
// instead of a gather), so |r| <= ln2/32 and expm1(r) needs Taylor to r^7
// (truncation below 2^-59). Over every plain argument it gives the same
// float as brook_m_exp_d (check_math and a comparison of both on all
// 2,239,889,440 arguments in [-104, 89]: 0 differences).
BROOK_M_TABLE double brook_m_exp2_16[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};

BROOK_M_FN int brook_m_expf_plain(float x) {
  return (x >= -104.0f) & (x <= 89.0f);  // NaN is not plain
}
// The steps below are the ones brook_math_gang.cpp's AVX-512 form spells in
// intrinsics, operation for operation: change both or neither.
BROOK_M_FN float brook_m_expf_core(float x) {
  double s = BROOK_M_FMA((double)x, 0x1.71547652b82fep+4, 0x1.8p52);  // k = round(x * 16/ln2)
  double kd = s - 0x1.8p52;
  brook_m_i32 k = (brook_m_i32)(brook_m_u32)BROOK_M_D2U(s);
  // Cody-Waite with ln2/16 = hi + lo, hi of 38 bits: kd * hi is exact.
  double r = BROOK_M_FMA(-kd, 0x1.62e42fefa0000p-5, (double)x);
  r = BROOK_M_FMA(-kd, 0x1.cf79abc9e3b3ap-44, r);
  double q = BROOK_M_FMA(r, 0x1.a01a01a01a01ap-13, 0x1.6c16c16c16c17p-10);
  q = BROOK_M_FMA(r, q, 0x1.1111111111111p-7);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-5);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-3);
  q = BROOK_M_FMA(r, q, 0x1.0000000000000p-1);
  double p = BROOK_M_FMA(r * r, q, r);
  double tj = brook_m_exp2_16[k & 15];
  // floor(k / 16), with an unsigned shift (k + 2^14 > 0): no signed shift.
  brook_m_i32 e = (brook_m_i32)(((brook_m_u32)(k + 16384)) >> 4) - 1024;
  double y = BROOK_M_FMA(tj, p, tj);
  return (float)(y * BROOK_M_U2D((brook_m_u64)(e + 1023) << 52));
}
BROOK_M_FN float brook_expf(float x) {
  if (brook_m_expf_plain(x)) return brook_m_expf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  if (x > 89.0f) return BROOK_M_INF;
  return 0.0f;  // x < -104
}

BROOK_M_FN int brook_m_exp2f_plain(float x) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  return (x >= -151.0f) & (x < 128.0f) & (ix != 0x3b429d37u) & (ix != 0xbcf3a937u);
}
BROOK_M_FN float brook_m_exp2f_core(float x) {
  double kd;
  brook_m_i32 k = brook_m_round_int((double)x * 64.0, &kd);
  double r = ((double)x - kd * 0x1p-6) * 0x1.62e42fefa39efp-1;  // the subtraction is exact
  return (float)brook_m_exp_finish(k, r);
}
BROOK_M_FN float brook_exp2f(float x) {
  if (brook_m_exp2f_plain(x)) return brook_m_exp2f_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  if (x >= 128.0f) return BROOK_M_INF;
  if (x < -151.0f) return 0.0f;
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if (ix == 0x3b429d37u) return BROOK_M_U2F(0x3f804385u);
  if (ix == 0xbcf3a937u) return BROOK_M_U2F(0x3f7ac6b1u);
  return brook_m_exp2f_core(x);
}

// log: x = 2^e * z with z in [0x3f330000, 2 * 0x3f330000) as bits (about
// [0.7, 1.4)), split into 128 subintervals; invc ~ 1/z there, a float, so
// z * invc - 1 is exact in double; beside 1 invc is 1 (no cancellation).
BROOK_M_TABLE double brook_m_log_invc[128] = {
    0x1.6d1a620000000p+0, 0x1.6b14900000000p+0, 0x1.6914740000000p+0, 0x1.6719f40000000p+0,
    0x1.6524f80000000p+0, 0x1.63356c0000000p+0, 0x1.614b360000000p+0, 0x1.5f66440000000p+0,
    0x1.5d867c0000000p+0, 0x1.5babcc0000000p+0, 0x1.59d6200000000p+0, 0x1.5805600000000p+0,
    0x1.56397c0000000p+0, 0x1.54725e0000000p+0, 0x1.52aff60000000p+0, 0x1.50f22e0000000p+0,
    0x1.4f38f60000000p+0, 0x1.4d843c0000000p+0, 0x1.4bd3ee0000000p+0, 0x1.4a27fa0000000p+0,
    0x1.4880520000000p+0, 0x1.46dce40000000p+0, 0x1.453d9e0000000p+0, 0x1.43a2740000000p+0,
    0x1.420b520000000p+0, 0x1.40782e0000000p+0, 0x1.3ee8f40000000p+0, 0x1.3d5d9a0000000p+0,
    0x1.3bd60e0000000p+0, 0x1.3a52440000000p+0, 0x1.38d22e0000000p+0, 0x1.3755be0000000p+0,
    0x1.35dce60000000p+0, 0x1.34679a0000000p+0, 0x1.32f5ce0000000p+0, 0x1.3187760000000p+0,
    0x1.301c820000000p+0, 0x1.2eb4ea0000000p+0, 0x1.2d50a00000000p+0, 0x1.2bef980000000p+0,
    0x1.2a91ca0000000p+0, 0x1.2937260000000p+0, 0x1.27dfa40000000p+0, 0x1.268b380000000p+0,
    0x1.2539d80000000p+0, 0x1.23eb7a0000000p+0, 0x1.22a0120000000p+0, 0x1.2157980000000p+0,
    0x1.2012020000000p+0, 0x1.1ecf440000000p+0, 0x1.1d8f560000000p+0, 0x1.1c52300000000p+0,
    0x1.1b17c60000000p+0, 0x1.19e0120000000p+0, 0x1.18ab080000000p+0, 0x1.1778a20000000p+0,
    0x1.1648d60000000p+0, 0x1.151b9a0000000p+0, 0x1.13f0e80000000p+0, 0x1.12c8b80000000p+0,
    0x1.11a3020000000p+0, 0x1.107fbc0000000p+0, 0x1.0f5ee00000000p+0, 0x1.0e40660000000p+0,
    0x1.0d24460000000p+0, 0x1.0c0a780000000p+0, 0x1.0af2f80000000p+0, 0x1.09ddba0000000p+0,
    0x1.08cabc0000000p+0, 0x1.07b9f20000000p+0, 0x1.06ab5a0000000p+0, 0x1.059eea0000000p+0,
    0x1.04949c0000000p+0, 0x1.038c6c0000000p+0, 0x1.0286500000000p+0, 0x1.0182440000000p+0,
    0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.fa11ca0000000p-1, 0x1.f6310a0000000p-1,
    0x1.f25f640000000p-1, 0x1.ee9c800000000p-1, 0x1.eae8080000000p-1, 0x1.e741aa0000000p-1,
    0x1.e3a9180000000p-1, 0x1.e01e020000000p-1, 0x1.dca01e0000000p-1, 0x1.d92f220000000p-1,
    0x1.d5cac80000000p-1, 0x1.d272ca0000000p-1, 0x1.cf26e60000000p-1, 0x1.cbe6da0000000p-1,
    0x1.c8b2660000000p-1, 0x1.c5894e0000000p-1, 0x1.c26b540000000p-1, 0x1.bf583e0000000p-1,
    0x1.bc4fd60000000p-1, 0x1.b951e20000000p-1, 0x1.b65e2e0000000p-1, 0x1.b374840000000p-1,
    0x1.b094b40000000p-1, 0x1.adbe880000000p-1, 0x1.aaf1d20000000p-1, 0x1.a82e660000000p-1,
    0x1.a574100000000p-1, 0x1.a2c2a80000000p-1, 0x1.a01a020000000p-1, 0x1.9d79f20000000p-1,
    0x1.9ae24e0000000p-1, 0x1.9852f00000000p-1, 0x1.95cbb00000000p-1, 0x1.934c680000000p-1,
    0x1.90d4f20000000p-1, 0x1.8e65280000000p-1, 0x1.8bfce80000000p-1, 0x1.899c100000000p-1,
    0x1.87427c0000000p-1, 0x1.84f00c0000000p-1, 0x1.82a4a00000000p-1, 0x1.8060180000000p-1,
    0x1.7e22560000000p-1, 0x1.7beb3a0000000p-1, 0x1.79baa60000000p-1, 0x1.7790820000000p-1,
    0x1.756cac0000000p-1, 0x1.734f0c0000000p-1, 0x1.7137860000000p-1, 0x1.6f26020000000p-1};
// -log(invc).
BROOK_M_TABLE double brook_m_log_logc[128] = {-0x1.6b85b3abfa3fap-2,
                                              -0x1.65d556f4ce004p-2,
                                              -0x1.602d09a7091eap-2,
                                              -0x1.5a8caf83edf9bp-2,
                                              -0x1.54f430c7be1a7p-2,
                                              -0x1.4f638013a980cp-2,
                                              -0x1.49da7dbfcc41ap-2,
                                              -0x1.4459202d39f3fp-2,
                                              -0x1.3edf45841683dp-2,
                                              -0x1.396ce231bbf51p-2,
                                              -0x1.3401e3eaecb92p-2,
                                              -0x1.2e9e2b8e12286p-2,
                                              -0x1.2941b0b986b7ap-2,
                                              -0x1.23ec584deba46p-2,
                                              -0x1.1e9e183c899eep-2,
                                              -0x1.1956d385bc2fap-2,
                                              -0x1.14167e6767782p-2,
                                              -0x1.0edd064378081p-2,
                                              -0x1.09aa57a26c6d4p-2,
                                              -0x1.047e5e31e83aap-2,
                                              -0x1.feb22276a07ccp-3,
                                              -0x1.f474b5c4df214p-3,
                                              -0x1.ea4448d84aaf3p-3,
                                              -0x1.e020d27235a90p-3,
                                              -0x1.d60a15710350ep-3,
                                              -0x1.cc001295b3c2fp-3,
                                              -0x1.c20289a17f9b3p-3,
                                              -0x1.b81178d3823b1p-3,
                                              -0x1.ae2ca9be72bcdp-3,
                                              -0x1.a4540b3e6aafcp-3,
                                              -0x1.9a877e06baa1ep-3,
                                              -0x1.90c6e177cbcb7p-3,
                                              -0x1.8712139d0e994p-3,
                                              -0x1.7d68fe72f5ab3p-3,
                                              -0x1.73cb8adcfd12dp-3,
                                              -0x1.6a39a0a3bd37bp-3,
                                              -0x1.60b30b8309461p-3,
                                              -0x1.5737cbb818cddp-3,
                                              -0x1.4dc7b817bc1c7p-3,
                                              -0x1.4462b3bc9b3b6p-3,
                                              -0x1.3b08bc0d7f28ap-3,
                                              -0x1.31b996aba4f81p-3,
                                              -0x1.28753ef11ab9ap-3,
                                              -0x1.1f3b93bf25d3fp-3,
                                              -0x1.160c80c4b27b0p-3,
                                              -0x1.0ce7f0c4cc27dp-3,
                                              -0x1.03cdbf7d1ec0cp-3,
                                              -0x1.f57bc799005dbp-4,
                                              -0x1.e3708b530482ep-4,
                                              -0x1.d1797ba21935fp-4,
                                              -0x1.bf9680f9fc9fcp-4,
                                              -0x1.adc78265aea86p-4,
                                              -0x1.9c0c2ba4d252ep-4,
                                              -0x1.8a647d391dc19p-4,
                                              -0x1.78d01f23d82cep-4,
                                              -0x1.674f0ee365a66p-4,
                                              -0x1.55e10e20e0324p-4,
                                              -0x1.4485dc8dbdfa6p-4,
                                              -0x1.333d734183f00p-4,
                                              -0x1.2207ac8785473p-4,
                                              -0x1.10e4612cae81fp-4,
                                              -0x1.ffa694dab92fdp-5,
                                              -0x1.dda8b7c67ee35p-5,
                                              -0x1.bbced3a68f3bdp-5,
                                              -0x1.9a188df73de25p-5,
                                              -0x1.7885892357793p-5,
                                              -0x1.5715df403ce3fp-5,
                                              -0x1.35c8b2ca13042p-5,
                                              -0x1.149e5680059fap-5,
                                              -0x1.e72bccc13cd9fp-6,
                                              -0x1.a55f624c5c427p-6,
                                              -0x1.63d615c690bd6p-6,
                                              -0x1.228f827ea2d0ep-6,
                                              -0x1.c3177b4c75deep-7,
                                              -0x1.4192bb96832bfp-7,
                                              -0x1.8121bb458686fp-8,
                                              0x0.0p+0,
                                              0x0.0p+0,
                                              0x1.7dc49e7810addp-7,
                                              0x1.3cea5df46a5c8p-6,
                                              0x1.b9fc0afaf91a1p-6,
                                              0x1.1b0d90923d990p-5,
                                              0x1.58a5b57c8e4dcp-5,
                                              0x1.95c836cc8e3f4p-5,
                                              0x1.d276b22db0b5dp-5,
                                              0x1.075982498e472p-4,
                                              0x1.253f6120a1419p-4,
                                              0x1.42edcd9a646f2p-4,
                                              0x1.60658ad3750c4p-4,
                                              0x1.7da76907b12cfp-4,
                                              0x1.9ab42252033afp-4,
                                              0x1.b78c7d2b0edb1p-4,
                                              0x1.d4313a96cb361p-4,
                                              0x1.f0a30391162cap-4,
                                              0x1.06714f3ca5972p-3,
                                              0x1.14785c6e742bep-3,
                                              0x1.2266f328a5acep-3,
                                              0x1.303d74c647fddp-3,
                                              0x1.3dfc2c26cc62bp-3,
                                              0x1.4ba37269a55f0p-3,
                                              0x1.5933896982097p-3,
                                              0x1.66acd4072ad51p-3,
                                              0x1.740f93fc037bap-3,
                                              0x1.815c059c357ffp-3,
                                              0x1.8e92902886d46p-3,
                                              0x1.9bb36547dfb89p-3,
                                              0x1.a8becdf082f1cp-3,
                                              0x1.b5b51740fb5abp-3,
                                              0x1.c2968890c18cbp-3,
                                              0x1.cf6359209c5eep-3,
                                              0x1.dc1bcdcabec8bp-3,
                                              0x1.e8c0250aa5a60p-3,
                                              0x1.f550a0ecb7b4bp-3,
                                              0x1.00e6c38ad501ep-2,
                                              0x1.071b860cd590dp-2,
                                              0x1.0d46b3d9ab750p-2,
                                              0x1.13686fa13a8b1p-2,
                                              0x1.1980d34542370p-2,
                                              0x1.1f8ffa248a2f3p-2,
                                              0x1.2596011df763ap-2,
                                              0x1.2b93013789d31p-2,
                                              0x1.31871a4144190p-2,
                                              0x1.37726827fd863p-2,
                                              0x1.3d54f7e81f71cp-2,
                                              0x1.432ef2f84e814p-2,
                                              0x1.490068ec009d2p-2,
                                              0x1.4ec9758200275p-2,
                                              0x1.548a2aa6dd268p-2};

typedef struct {
  double e;  // the exponent
  double l;  // log(z), |l| < 0.36
} brook_m_log_parts;

// x = 2^e z for a finite float x > 0 (a subnormal scaled exactly into the
// normal range first), z in [0.699, 1.398): returns z, *e and *ux, x's bits
// less those of 0.699, whose bits from 16 up pick z's subinterval in the
// tables. Every float log starts here (log, log2, log10, pow).
BROOK_M_FN float brook_m_log_reduce_f(float x, brook_m_u32* ux, double* e) {
  brook_m_i32 adj = 0;
  if (BROOK_M_F2U(x) < 0x00800000u) {  // subnormal: scale into the normal range
    x = x * 0x1p23f;
    adj = -23;
  }
  brook_m_u32 ix = BROOK_M_F2U(x);
  *ux = ix - 0x3f330000u;
  brook_m_u32 top = *ux & 0xff800000u;
  *e = (double)((brook_m_i32)top / 0x800000 + adj);  // exact: top is a multiple of 2^23
  return BROOK_M_U2F(ix - top);
}
// r = z invc - 1 for z's subinterval *i of 128 (exact: invc are floats),
// |r| < 2^-7 (|r| < 2^-8 outside the two subintervals beside 1, where
// invc = 1 and logc = 0).
BROOK_M_FN double brook_m_log_reduce128(float x, brook_m_i32* i, double* e) {
  brook_m_u32 ux;
  float z = brook_m_log_reduce_f(x, &ux, e);
  *i = (brook_m_i32)((ux >> 16) & 127u);
  return BROOK_M_FMA((double)z, brook_m_log_invc[*i], -1.0);
}
// q with log1p(r) = r + r^2 q: Taylor to r^9, -1/2 + r/3 - ... + r^7/9
// (for |r| < 2^-7 the rest is below 2^-63 relative).
BROOK_M_FN double brook_m_log1p_q9(double r) {
  double q = BROOK_M_FMA(r, 0x1.c71c71c71c71cp-4, -0x1.0000000000000p-3);
  q = BROOK_M_FMA(r, q, 0x1.2492492492492p-3);
  q = BROOK_M_FMA(r, q, -0x1.5555555555555p-3);
  q = BROOK_M_FMA(r, q, 0x1.999999999999ap-3);
  q = BROOK_M_FMA(r, q, -0x1.0000000000000p-2);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-2);
  return BROOK_M_FMA(r, q, -0x1.0000000000000p-1);
}

// For finite x > 0.
BROOK_M_FN brook_m_log_parts brook_m_log_split(float x) {
  brook_m_i32 i;
  brook_m_log_parts out;
  double r = brook_m_log_reduce128(x, &i, &out.e);
  double p = BROOK_M_FMA(r * r, brook_m_log1p_q9(r), r);
  out.l = brook_m_log_logc[i] + p;
  return out;
}

// NaN, negative, zero and infinite arguments; 1 when x is finite and > 0.
BROOK_M_FN int brook_m_log_special(float x, float* out) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) == 0) {
    *out = -BROOK_M_INF;
    return 0;
  }
  if (ix == 0x7f800000u) {
    *out = BROOK_M_INF;
    return 0;
  }
  if (ix > 0x7f800000u) {  // NaN or negative
    *out = BROOK_M_NAN;
    return 0;
  }
  return 1;
}

// Finite, positive and normal.
BROOK_M_FN int brook_m_log_normal(float x) {
  return BROOK_M_F2U(x) - 0x00800000u < 0x7f000000u;
}

BROOK_M_FN int brook_m_logf_plain(float x) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  return brook_m_log_normal(x) & (ix != 0x3c413d3au) & (ix != 0x41178febu) & (ix != 0x4c5d65a5u) &
         (ix != 0x65d890d3u) & (ix != 0x6f31a8ecu);
}
// log's own split: the same z, in 16 subintervals of 2^19 ulps (a table the
// JIT's AVX-512 gang form keeps in registers: one permute per eight lanes
// instead of a gather), so |r| < 0.033 and log1p(r) needs Taylor to r^11.
// invc are floats again (1 in the subinterval holding 1). Over every
// positive float it gives the same result as brook_m_log_split's 128
// subintervals except on the five hard cases, which brook_logf answers from
// its table either way (all 2,139,095,039 positive finite floats compared).
BROOK_M_TABLE double brook_m_log_invc16[16] = {
    0x1.661ec60000000p+0, 0x1.571ed40000000p+0, 0x1.49539e0000000p+0, 0x1.3c995a0000000p+0,
    0x1.30d1900000000p+0, 0x1.25e2280000000p+0, 0x1.1bb4a40000000p+0, 0x1.12358e0000000p+0,
    0x1.0953f40000000p+0, 0x1.0000000000000p+0, 0x1.e573ac0000000p-1, 0x1.ca4b300000000p-1,
    0x1.b203640000000p-1, 0x1.9c2d140000000p-1, 0x1.886e600000000p-1, 0x1.767dce0000000p-1};
BROOK_M_TABLE double brook_m_log_logc16[16] = {-0x1.57bf73648d1f4p-2, -0x1.2bef087dc9353p-2,
                                               -0x1.01eae4aa6c690p-2, -0x1.b31d83a5bce39p-3,
                                               -0x1.6574eb68c133ap-3, -0x1.1aa2bea23f6fcp-3,
                                               -0x1.a4e763cb1bc38p-4, -0x1.1973b6346554fp-4,
                                               -0x1.252f4078d1811p-5, 0x0.0p+0,
                                               0x1.b42de091971d5p-5,  0x1.c5e54bf5bc748p-4,
                                               0x1.526e5e5a1b438p-3,  0x1.bc286be2d8cecp-3,
                                               0x1.1058bd1ae4ae2p-2,  0x1.404309206a7e5p-2};

// For finite x > 0. brook_math_gang.cpp's AVX-512 form spells the same
// operations in intrinsics (for normal x): change both or neither.
BROOK_M_FN float brook_m_logf_core(float x) {
  brook_m_u32 ux;
  double e;
  double z = (double)brook_m_log_reduce_f(x, &ux, &e);
  brook_m_i32 i = (brook_m_i32)((ux >> 19) & 15u);
  double r = BROOK_M_FMA(z, brook_m_log_invc16[i], -1.0);  // exact
  double q = BROOK_M_FMA(r, 0x1.745d1745d1746p-4, -0x1.999999999999ap-4);
  q = BROOK_M_FMA(r, q, 0x1.c71c71c71c71cp-4);
  q = BROOK_M_FMA(r, q, -0x1.0000000000000p-3);
  q = BROOK_M_FMA(r, q, 0x1.2492492492492p-3);
  q = BROOK_M_FMA(r, q, -0x1.5555555555555p-3);
  q = BROOK_M_FMA(r, q, 0x1.999999999999ap-3);
  q = BROOK_M_FMA(r, q, -0x1.0000000000000p-2);
  q = BROOK_M_FMA(r, q, 0x1.5555555555555p-2);
  q = BROOK_M_FMA(r, q, -0x1.0000000000000p-1);
  double p = BROOK_M_FMA(r * r, q, r);
  double l = brook_m_log_logc16[i] + p;
  // ln2 = hi + lo, hi with 44 bits, so e * hi is exact.
  return (float)BROOK_M_FMA(e, 0x1.62e42fefa3800p-1, BROOK_M_FMA(e, 0x1.ef35793c76730p-45, l));
}
BROOK_M_FN float brook_logf(float x) {
  if (brook_m_logf_plain(x)) return brook_m_logf_core(x);
  float s;
  if (!brook_m_log_special(x, &s)) return s;
  brook_m_u32 ix = BROOK_M_F2U(x);
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if (ix == 0x3c413d3au) return BROOK_M_U2F(0xc08e158fu);
  if (ix == 0x41178febu) return BROOK_M_U2F(0x400fe5e7u);
  if (ix == 0x4c5d65a5u) return BROOK_M_U2F(0x418f034bu);
  if (ix == 0x65d890d3u) return BROOK_M_U2F(0x4254d1f9u);
  if (ix == 0x6f31a8ecu) return BROOK_M_U2F(0x42845a89u);
  return brook_m_logf_core(x);
}

BROOK_M_FN int brook_m_log2f_plain(float x) {
  return brook_m_log_normal(x);
}
// For finite x > 0.
BROOK_M_FN float brook_m_log2f_core(float x) {
  brook_m_log_parts q = brook_m_log_split(x);
  return (float)(q.e + q.l * 0x1.71547652b82fep+0);
}
BROOK_M_FN float brook_log2f(float x) {
  if (brook_m_log2f_plain(x)) return brook_m_log2f_core(x);
  float s;
  if (!brook_m_log_special(x, &s)) return s;
  return brook_m_log2f_core(x);
}

BROOK_M_FN int brook_m_log10f_plain(float x) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  return brook_m_log_normal(x) & (ix != 0x0efeee7au) & (ix != 0x120b93dcu) & (ix != 0x13ae78d3u);
}
// For finite x > 0.
BROOK_M_FN float brook_m_log10f_core(float x) {
  brook_m_log_parts q = brook_m_log_split(x);
  return (float)(q.e * 0x1.34413509f79ffp-2 + q.l * 0x1.bcb7b1526e50ep-2);
}
BROOK_M_FN float brook_log10f(float x) {
  if (brook_m_log10f_plain(x)) return brook_m_log10f_core(x);
  float s;
  if (!brook_m_log_special(x, &s)) return s;
  brook_m_u32 ix = BROOK_M_F2U(x);
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if (ix == 0x0efeee7au) return BROOK_M_U2F(0xc1e99d23u);
  if (ix == 0x120b93dcu) return BROOK_M_U2F(0xc1dad957u);
  if (ix == 0x13ae78d3u) return BROOK_M_U2F(0xc1d2d957u);
  return brook_m_log10f_core(x);
}

// sinh(x) for |x| < 1: Taylor to x^19 (error below 2^-60 relative).
BROOK_M_FN double brook_m_sinh_small(double x) {
  double t = x * x;
  return x + x * t *
                 (0x1.5555555555555p-3 +
                  t * (0x1.1111111111111p-7 +
                       t * (0x1.a01a01a01a01ap-13 +
                            t * (0x1.71de3a556c734p-19 +
                                 t * (0x1.ae64567f544e4p-26 +
                                      t * (0x1.6124613a86d09p-33 +
                                           t * (0x1.ae7f3e733b81fp-41 +
                                                t * (0x1.952c77030ad4ap-49 +
                                                     t * 0x1.2f49b46814157p-57))))))));
}

// cosh and sinh of |x| <= 90 in double, from E = exp(|x|).
BROOK_M_FN double brook_m_cosh_d(float ax) {
  double e = brook_m_exp_d(ax);
  return 0.5 * (e + 1.0 / e);
}
BROOK_M_FN double brook_m_sinh_d(float ax) {
  if (ax < 1.0f) return brook_m_sinh_small((double)ax);
  double e = brook_m_exp_d(ax);
  return 0.5 * (e - 1.0 / e);
}

BROOK_M_FN float brook_m_abs(float x) {
  return BROOK_M_U2F(BROOK_M_F2U(x) & 0x7fffffffu);
}
BROOK_M_FN float brook_m_sign(float x) {
  return (BROOK_M_F2U(x) >> 31) ? -1.0f : 1.0f;
}

BROOK_M_FN int brook_m_coshf_plain(float x) {
  return brook_m_abs(x) <= 90.0f;  // NaN is not plain
}
BROOK_M_FN float brook_m_coshf_core(float x) {
  return (float)brook_m_cosh_d(brook_m_abs(x));
}
BROOK_M_FN float brook_coshf(float x) {
  if (brook_m_coshf_plain(x)) return brook_m_coshf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  return BROOK_M_INF;  // |x| > 90
}

BROOK_M_FN int brook_m_sinhf_plain(float x) {
  // Hard cases (tests/math/check_math) are not plain.
  return (brook_m_abs(x) <= 90.0f) & ((BROOK_M_F2U(x) & 0x7fffffffu) != 0x3a1285ffu);
}
BROOK_M_FN float brook_m_sinhf_core(float x) {
  return brook_m_sign(x) * (float)brook_m_sinh_d(brook_m_abs(x));
}
BROOK_M_FN float brook_sinhf(float x) {
  if (brook_m_sinhf_plain(x)) return brook_m_sinhf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  float ax = BROOK_M_U2F(ix & 0x7fffffffu);
  float sign = (ix >> 31) ? -1.0f : 1.0f;
  if (ax > 90.0f) return sign * BROOK_M_INF;
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if ((ix & 0x7fffffffu) == 0x3a1285ffu) return sign * BROOK_M_U2F(0x3a1285ffu);
  return brook_m_sinhf_core(x);
}

BROOK_M_FN int brook_m_tanhf_plain(float x) {
  return brook_m_abs(x) <= 10.0f;
}
BROOK_M_FN float brook_m_tanhf_core(float x) {
  float ax = brook_m_abs(x);
  return brook_m_sign(x) * (float)(brook_m_sinh_d(ax) / brook_m_cosh_d(ax));
}
BROOK_M_FN float brook_tanhf(float x) {
  if (brook_m_tanhf_plain(x)) return brook_m_tanhf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  return brook_m_sign(x);  // |x| > 10: 1 - tanh(10) < 2^-27, rounds to 1
}

// atan(i/64), i = 0..64.
BROOK_M_TABLE double brook_m_atan_64[65] = {0x0.0p+0,
                                            0x1.fff555bbb729bp-7,
                                            0x1.ffd55bba97625p-6,
                                            0x1.7fb818430da2ap-5,
                                            0x1.ff55bb72cfdeap-5,
                                            0x1.3f59f0e7c559dp-4,
                                            0x1.7ee182602f10fp-4,
                                            0x1.be39ebe6f07c3p-4,
                                            0x1.fd5ba9aac2f6ep-4,
                                            0x1.1e1fafb043727p-3,
                                            0x1.3d6eee8c6626cp-3,
                                            0x1.5c9811e3ec26ap-3,
                                            0x1.7b97b4bce5b02p-3,
                                            0x1.9a6a8e96c8626p-3,
                                            0x1.b90d7529260a2p-3,
                                            0x1.d77d5df205736p-3,
                                            0x1.f5b75f92c80ddp-3,
                                            0x1.09dc597d86362p-2,
                                            0x1.18bf5a30bf178p-2,
                                            0x1.278372057ef46p-2,
                                            0x1.362773707ebccp-2,
                                            0x1.44aa436c2af0ap-2,
                                            0x1.530ad9951cd4ap-2,
                                            0x1.614840309cfe2p-2,
                                            0x1.6f61941e4def1p-2,
                                            0x1.7d5604b63b3f7p-2,
                                            0x1.8b24d394a1b25p-2,
                                            0x1.98cd5454d6b18p-2,
                                            0x1.a64eec3cc23fdp-2,
                                            0x1.b3a911da65c6cp-2,
                                            0x1.c0db4c94ec9f0p-2,
                                            0x1.cde53432c1351p-2,
                                            0x1.dac670561bb4fp-2,
                                            0x1.e77eb7f175a34p-2,
                                            0x1.f40dd0b541418p-2,
                                            0x1.0039c73c1a40cp-1,
                                            0x1.0657e94db30d0p-1,
                                            0x1.0c6145b5b43dap-1,
                                            0x1.1255d9bfbd2a9p-1,
                                            0x1.1835a88be7c13p-1,
                                            0x1.1e00babdefeb4p-1,
                                            0x1.23b71e2cc9e6ap-1,
                                            0x1.2958e59308e31p-1,
                                            0x1.2ee628406cbcap-1,
                                            0x1.345f01cce37bbp-1,
                                            0x1.39c391cd4171ap-1,
                                            0x1.3f13fb89e96f4p-1,
                                            0x1.445065b795b56p-1,
                                            0x1.4978fa3269ee1p-1,
                                            0x1.4e8de5bb6ec04p-1,
                                            0x1.538f57b89061fp-1,
                                            0x1.587d81f732fbbp-1,
                                            0x1.5d58987169b18p-1,
                                            0x1.6220d115d7b8ep-1,
                                            0x1.66d663923e087p-1,
                                            0x1.6b798920b3d99p-1,
                                            0x1.700a7c5784634p-1,
                                            0x1.748978fba8e0fp-1,
                                            0x1.78f6bbd5d315ep-1,
                                            0x1.7d528289fa093p-1,
                                            0x1.819d0b7158a4dp-1,
                                            0x1.85d69576cc2c5p-1,
                                            0x1.89ff5ff57f1f8p-1,
                                            0x1.8e17aa99cc05ep-1,
                                            0x1.921fb54442d18p-1};

// atan(u) in double for 0 <= u <= 1: atan(c) + atan((u - c) / (1 + u c))
// with c = i/64 the nearest (u - c is exact), |t| <= 1/128, Taylor to t^9.
BROOK_M_FN double brook_m_atan_core(double u) {
  double kd;
  brook_m_i32 i = brook_m_round_int(u * 64.0, &kd);
  double c = kd * 0x1p-6;
  double t = (u - c) / (1.0 + u * c);
  double t2 = t * t;
  double p =
      t +
      t * t2 *
          (-0x1.5555555555555p-2 +
           t2 * (0x1.999999999999ap-3 + t2 * (-0x1.2492492492492p-3 + t2 * 0x1.c71c71c71c71cp-4)));
  return brook_m_atan_64[i] + p;
}

// atan(u) when `direct`, else pi/2 - atan(u) (pi/2 = hi + lo), for
// 0 <= u <= 1: one table lookup either way, so a vector form makes one.
BROOK_M_FN double brook_m_atan_pick(int direct, double u) {
  double r = brook_m_atan_core(u);
  return direct ? r : (0x1.921fb54442d18p+0 - r) + 0x1.1a62633145c07p-54;
}

BROOK_M_FN int brook_m_atanf_plain(float x) {
  brook_m_u32 ax = BROOK_M_F2U(x) & 0x7fffffffu;
  return (ax <= 0x7f800000u) & (ax != 0x3d8d6b23u);  // not NaN, not the hard case
}
// For x not NaN.
BROOK_M_FN float brook_m_atanf_core(float x) {
  double a = (double)brook_m_abs(x);
  int direct = a <= 1.0;
  return brook_m_sign(x) * (float)brook_m_atan_pick(direct, direct ? a : 1.0 / a);
}
BROOK_M_FN float brook_atanf(float x) {
  if (brook_m_atanf_plain(x)) return brook_m_atanf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  if ((ix & 0x7fffffffu) > 0x7f800000u) return BROOK_M_NAN;
  float sign = (ix >> 31) ? -1.0f : 1.0f;
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if ((ix & 0x7fffffffu) == 0x3d8d6b23u) return sign * BROOK_M_U2F(0x3d8d31c3u);
  return brook_m_atanf_core(x);
}

// asin(x) = atan(x / s), s = sqrt(1 - x^2), where (1 - x)(1 + x) is exact
// for |x| >= 1/16 and s is correctly rounded (also in OpenCL's double).
BROOK_M_FN int brook_m_asinf_plain(float x) {
  return (BROOK_M_F2U(x) & 0x7fffffffu) <= 0x3f800000u;  // |x| <= 1
}
BROOK_M_FN float brook_m_asinf_core(float x) {
  double a = (double)brook_m_abs(x);
  double s = BROOK_M_SQRT((1.0 - a) * (1.0 + a));
  int direct = a <= s;
  return brook_m_sign(x) * (float)brook_m_atan_pick(direct, direct ? a / s : s / a);
}
BROOK_M_FN float brook_asinf(float x) {
  if (brook_m_asinf_plain(x)) return brook_m_asinf_core(x);
  return BROOK_M_NAN;  // |x| > 1 or NaN
}

// acos(x) = atan2(s, x), s = sqrt(1 - x^2).
BROOK_M_FN int brook_m_acosf_plain(float x) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  // |x| <= 1, not a hard case.
  return ((ix & 0x7fffffffu) <= 0x3f800000u) & (ix != 0x328885a3u) & (ix != 0x39826222u);
}
// For |x| <= 1.
BROOK_M_FN float brook_m_acosf_core(float x) {
  brook_m_u32 ix = BROOK_M_F2U(x);
  double a = (double)brook_m_abs(x);
  double s = BROOK_M_SQRT((1.0 - a) * (1.0 + a));
  int direct = s <= a;
  double r = brook_m_atan_pick(direct, direct ? s / a : a / s);          // acos(|x|), at most pi/2
  if (ix >> 31) r = (0x1.921fb54442d18p+1 - r) + 0x1.1a62633145c07p-53;  // pi - acos(|x|)
  return (float)r;
}
BROOK_M_FN float brook_acosf(float x) {
  if (brook_m_acosf_plain(x)) return brook_m_acosf_core(x);
  brook_m_u32 ix = BROOK_M_F2U(x);
  brook_m_u32 ax = ix & 0x7fffffffu;
  if (ax > 0x3f800000u) return BROOK_M_NAN;
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if (ix == 0x328885a3u) return BROOK_M_U2F(0x3fc90fdbu);
  return BROOK_M_U2F(0x3fc907b5u);  // ix == 0x39826222u
}

// atan2(y, x) = +-atan(|y| / |x|), or +-(pi - atan(|y| / |x|)) when x is
// negative (or -0), with the sign of y. The quotient of the smaller by the
// larger magnitude is a double within 2^-53 of the exact one (no float ratio
// leaves double's range), so one table lookup in brook_m_atan_pick gives
// atan(|y| / |x|) in [0, pi/2]; pi - r is taken in two parts as in acos.
// Zeros take part (0 / 0 reads as 0: Annex F's atan2(+-0, +-0)); the
// infinities and NaN are answered by brook_atan2f.
BROOK_M_FN int brook_m_atan2f_plain(float y, float x) {
  brook_m_u32 ay = BROOK_M_F2U(y) & 0x7fffffffu, ax = BROOK_M_F2U(x) & 0x7fffffffu;
  return (ay < 0x7f800000u) & (ax < 0x7f800000u);  // both finite
}
// For finite y and x.
BROOK_M_FN float brook_m_atan2f_core(float y, float x) {
  double ay = (double)brook_m_abs(y), ax = (double)brook_m_abs(x);
  int direct = ay <= ax;
  double num = direct ? ay : ax, den = direct ? ax : ay;
  double q = num / (den == 0.0 ? 1.0 : den);
  // Below 2^-60, atan(q) = q (1 - q^2 / 3 ...) lies just under q, and q may be
  // a midpoint between two subnormal floats (an exact quotient; an inexact
  // one is never that close to one): one double ulp down rounds it right.
  if ((q < 0x1p-60) & (q > 0.0)) q = BROOK_M_U2D(BROOK_M_D2U(q) - 1u);
  double r = brook_m_atan_pick(direct, q);  // atan(|y| / |x|)
  if (BROOK_M_F2U(x) >> 31) r = (0x1.921fb54442d18p+1 - r) + 0x1.1a62633145c07p-53;
  float f = (float)r;
  return (BROOK_M_F2U(y) >> 31) ? -f : f;
}
BROOK_M_FN float brook_atan2f(float y, float x) {
  if (brook_m_atan2f_plain(y, x)) return brook_m_atan2f_core(y, x);
  brook_m_u32 iy = BROOK_M_F2U(y), ix = BROOK_M_F2U(x);
  brook_m_u32 ay = iy & 0x7fffffffu, ax = ix & 0x7fffffffu;
  if (ay > 0x7f800000u || ax > 0x7f800000u) return BROOK_M_NAN;
  // An infinity (Annex F): pi/4 or 3pi/4 for two, pi/2 for y's, 0 or pi for x's.
  float r;
  if (ay == 0x7f800000u && ax == 0x7f800000u) {
    r = (ix >> 31) ? BROOK_M_U2F(0x4016cbe4u) : BROOK_M_U2F(0x3f490fdbu);
  } else if (ay == 0x7f800000u) {
    r = BROOK_M_U2F(0x3fc90fdbu);
  } else {
    r = (ix >> 31) ? BROOK_M_U2F(0x40490fdbu) : 0.0f;
  }
  return (iy >> 31) ? -r : r;
}

// sin, cos, tan. |x| * 2/pi = q + f (q an integer taken mod 4, |f| <= 1/2
// + 2^-26) and then sin(x) is +-sin(pi/2 f) or +-cos(pi/2 f) by q.
// The reduction is Payne-Hanek's in double: 2/pi is cut into chunks of 28
// bits, C_i < 2^(-28 i), so |x| * C_i (24 + 28 bits) is exact; the products
// before chunk i0 are multiples of 4 and drop out, the next two are reduced
// mod 4 exactly, and the rest is summed with exact two-sums, leaving an
// absolute error below 2^-100 in f (and far below f's own size: no float lies
// within 2^-48 of a multiple of pi/2). For |x| < 2^53, i0 is 0 and the
// lookups are constant.
// 2/pi in 28-bit chunks (tests/math/gen_tables.py).
BROOK_M_TABLE double brook_m_2_pi_28[10] = {
    0x1.45f306c000000p-1,   0x1.c9c882a000000p-29,  0x1.4fe13a8000000p-59,  0x1.f47d4d0000000p-86,
    0x1.bb81b6c000000p-113, 0x1.4acc9e0000000p-143, 0x1.0e4107c000000p-170, 0x1.ca2c756000000p-197,
    0x1.bd778ac000000p-225, 0x1.b7246e0000000p-256};

// *s = a + b rounded, and the exact error a + b - *s (Knuth's two-sum).
BROOK_M_FN double brook_m_two_sum(double a, double b, double* s) {
  double r = a + b;
  double bb = r - a;
  *s = r;
  return (a - (r - bb)) + (b - bb);
}

// f for a = |x| finite and the first chunk i0 that matters; *q = q.
BROOK_M_FN double brook_m_trig_reduce(double a, brook_m_i32 i0, brook_m_i32* q) {
  double kd;
  double p0 = a * brook_m_2_pi_28[i0];  // below 2^53
  double p1 = a * brook_m_2_pi_28[i0 + 1];
  brook_m_round_int(p0 * 0.25, &kd);
  p0 = p0 - 4.0 * kd;  // exact: p0 mod 4, in [-2, 2]
  brook_m_round_int(p1 * 0.25, &kd);
  p1 = p1 - 4.0 * kd;
  double s;
  double e0 = brook_m_two_sum(p0, p1, &s);
  *q = brook_m_round_int(s, &kd);
  double t = s - kd;  // exact, |t| <= 1/2
  double h1;
  double h2;
  double e1 = brook_m_two_sum(t, a * brook_m_2_pi_28[i0 + 2], &h1);
  double e2 = brook_m_two_sum(h1, a * brook_m_2_pi_28[i0 + 3], &h2);
  return h2 + (((e0 + e1) + e2) + (a * brook_m_2_pi_28[i0 + 4] + a * brook_m_2_pi_28[i0 + 5]));
}

// sin(pi/2 f) and cos(pi/2 f) for |f| <= 1/2 + 2^-26: Taylor to f^17 and
// f^16 (the first omitted terms are below 2^-60 relative).
BROOK_M_FN double brook_m_sin_quarter(double f) {
  double f2 = f * f;
  return f * (0x1.921fb54442d18p+0 +
              f2 * (-0x1.4abbce625be53p-1 +
                    f2 * (0x1.466bc6775aae2p-4 +
                          f2 * (-0x1.32d2cce62bd86p-8 +
                                f2 * (0x1.50783487ee782p-13 +
                                      f2 * (-0x1.e3074fde8871fp-19 +
                                            f2 * (0x1.e8f434d018d63p-25 +
                                                  f2 * (-0x1.6fadb9f155744p-31 +
                                                        f2 * 0x1.aaec32af93359p-38))))))));
}
BROOK_M_FN double brook_m_cos_quarter(double f) {
  double f2 = f * f;
  return 0x1.0000000000000p+0 +
         f2 * (-0x1.3bd3cc9be45dep+0 +
               f2 * (0x1.03c1f081b5ac4p-2 +
                     f2 * (-0x1.55d3c7e3cbffap-6 +
                           f2 * (0x1.e1f506891babbp-11 +
                                 f2 * (-0x1.a6d1f2a204a8cp-16 +
                                       f2 * (0x1.f9d38a3763cc3p-22 +
                                             f2 * (-0x1.b6e24f44b128fp-28 +
                                                   f2 * 0x1.20c62c2f2d7f5p-34)))))));
}

// The first chunk of 2/pi that matters for a finite x: |x| = m 2^e with m
// below 2^24, and |x| C_i is a multiple of 4 while e - 28 (i + 1) >= 2.
BROOK_M_FN brook_m_i32 brook_m_trig_first_chunk(float x) {
  brook_m_i32 e = (brook_m_i32)((BROOK_M_F2U(x) >> 23) & 0xffu) - 150;
  return e >= 2 ? (e - 2) / 28 : 0;
}
// Which of sin, cos, tan brook_m_trig_d computes.
#define BROOK_M_SIN 0
#define BROOK_M_COS 1
#define BROOK_M_TAN 2
// sin, cos or tan of a finite x in double.
BROOK_M_FN double brook_m_trig_d(float x, brook_m_i32 i0, brook_m_i32 which) {
  brook_m_i32 q;
  double f = brook_m_trig_reduce((double)brook_m_abs(x), i0, &q);
  double s = brook_m_sin_quarter(f);
  double c = brook_m_cos_quarter(f);
  q = q + (which == BROOK_M_COS);  // cos(y) = sin(y + pi/2)
  double r = (q & 1) ? c : s;
  if (which == BROOK_M_TAN) r = (q & 1) ? -c / s : s / c;
  if ((which != BROOK_M_TAN) & ((q & 2) != 0)) r = -r;
  if ((which != BROOK_M_COS) & ((BROOK_M_F2U(x) >> 31) != 0)) r = -r;  // sin, tan are odd
  return r;
}
// |x| < 2^53, where the first chunk is always 0.
BROOK_M_FN int brook_m_trig_small(float x) {
  return (BROOK_M_F2U(x) & 0x7fffffffu) < 0x5a000000u;
}
// Finite x that is not plain: |x| >= 2^53 or a hard case.
BROOK_M_FN float brook_m_trig_rest(float x, brook_m_i32 which) {
  return (float)brook_m_trig_d(x, brook_m_trig_first_chunk(x), which);
}

BROOK_M_FN int brook_m_sinf_plain(float x) {
  return brook_m_trig_small(x);
}
BROOK_M_FN float brook_m_sinf_core(float x) {
  return (float)brook_m_trig_d(x, 0, BROOK_M_SIN);
}
BROOK_M_FN float brook_sinf(float x) {
  if (brook_m_sinf_plain(x)) return brook_m_sinf_core(x);
  if ((BROOK_M_F2U(x) & 0x7fffffffu) >= 0x7f800000u) return BROOK_M_NAN;  // NaN, +-inf
  return brook_m_trig_rest(x, BROOK_M_SIN);
}

BROOK_M_FN int brook_m_cosf_plain(float x) {
  return brook_m_trig_small(x);
}
BROOK_M_FN float brook_m_cosf_core(float x) {
  return (float)brook_m_trig_d(x, 0, BROOK_M_COS);
}
BROOK_M_FN float brook_cosf(float x) {
  if (brook_m_cosf_plain(x)) return brook_m_cosf_core(x);
  brook_m_u32 ax = BROOK_M_F2U(x) & 0x7fffffffu;
  if (ax >= 0x7f800000u) return BROOK_M_NAN;
  // Hard cases (tests/math/check_math, exact results from MPFR).
  if (ax == 0x6115cb11u) return BROOK_M_U2F(0x3f78142fu);
  if (ax == 0x5f18b878u) return BROOK_M_U2F(0x3f7f14bbu);
  return brook_m_trig_rest(x, BROOK_M_COS);
}

BROOK_M_FN int brook_m_tanf_plain(float x) {
  return brook_m_trig_small(x);
}
BROOK_M_FN float brook_m_tanf_core(float x) {
  return (float)brook_m_trig_d(x, 0, BROOK_M_TAN);
}
BROOK_M_FN float brook_tanf(float x) {
  if (brook_m_tanf_plain(x)) return brook_m_tanf_core(x);
  if ((BROOK_M_F2U(x) & 0x7fffffffu) >= 0x7f800000u) return BROOK_M_NAN;
  return brook_m_trig_rest(x, BROOK_M_TAN);
}

// pow(x, y): exp(y log|x|). A fast path in double, then, for the rare pairs
// whose result it leaves too close to a rounding boundary, an accurate path
// in double-double, then, where even that cannot decide, the exact cases
// (x^y exactly a float or a midpoint between two floats, e.g. 17^6). Each
// path ends in brook_m_pow_round, which rounds to float only when the proven
// error bound of the path keeps the exact value on one side of the nearest
// rounding boundary. The error bounds are argued below and measured in
// stdlib/MATH.md (pow).
//
// Double-double numbers: h + l with |l| <= ulp(h), value h + l.
typedef struct {
  double h;
  double l;
} brook_m_dd;

BROOK_M_FN brook_m_dd brook_m_dd_of(double h, double l) {
  brook_m_dd r;
  r.h = h;
  r.l = l;
  return r;
}
// h + l renormalised (|h| >= |l| or h == 0): Dekker's fast two-sum, exact.
BROOK_M_FN brook_m_dd brook_m_dd_norm(double h, double l) {
  double s = h + l;
  return brook_m_dd_of(s, l - (s - h));
}
// a * b exactly (the fma gives the rounding error of the product).
BROOK_M_FN brook_m_dd brook_m_dd_prod(double a, double b) {
  double p = a * b;
  return brook_m_dd_of(p, BROOK_M_FMA(a, b, -p));
}
// a + b, absolute error below 2^-106 (2 (|a| + |b|) + |a + b|): relative
// 2^-103.6 when |a| + |b| <= 2.2 |a + b|, the most cancellation in the sums
// of log and exp below (exp's reduction cancels more, but there only the
// absolute error counts).
BROOK_M_FN brook_m_dd brook_m_dd_add(brook_m_dd a, brook_m_dd b) {
  double s;
  double e = brook_m_two_sum(a.h, b.h, &s);
  return brook_m_dd_norm(s, e + (a.l + b.l));
}
// a * b and a * d, relative error below 2^-103.
BROOK_M_FN brook_m_dd brook_m_dd_mul(brook_m_dd a, brook_m_dd b) {
  brook_m_dd p = brook_m_dd_prod(a.h, b.h);
  return brook_m_dd_norm(p.h, p.l + (a.h * b.l + a.l * b.h));
}
BROOK_M_FN brook_m_dd brook_m_dd_mul_d(brook_m_dd a, double d) {
  brook_m_dd p = brook_m_dd_prod(a.h, d);
  return brook_m_dd_norm(p.h, p.l + a.l * d);
}

// -log(invc) - brook_m_log_logc and 2^(j/64) - brook_m_exp2_64, the low
// parts of those tables for the accurate path (tests/math/gen_tables.py).
BROOK_M_TABLE double brook_m_log_logc_lo[128] = {
    -0x1.a40d332ff2a3fp-57, 0x1.9605ad3e8483bp-56, -0x1.12edc8315e6bbp-59, 0x1.dbb0a7f5b7836p-56,
    0x1.659fb9add722fp-57, -0x1.a9a690bbcc2c5p-59, -0x1.92cdaaef39fddp-56, -0x1.a2edbb1647005p-56,
    -0x1.61d6805503b2ep-56, -0x1.b4ea63072b644p-57, 0x1.e6aaa4dce4fd4p-57, 0x1.e7dae5d9d17bep-58,
    0x1.44b72f6c32ba5p-56, 0x1.69914b323a107p-57, -0x1.82b0fa819e349p-58, -0x1.271d68d22dc07p-56,
    -0x1.a3024d732193fp-56, 0x1.2b5a4f75aeadap-56, 0x1.029e8c9cfbeacp-56, -0x1.000d0a1e6cfc0p-57,
    -0x1.a7de006adaa19p-57, -0x1.40e3058e4f930p-60, -0x1.63c6e5e4c4a36p-57, -0x1.fb529131e139ap-57,
    -0x1.3c40ecfb308e3p-58, 0x1.2d2e64f67d3d6p-57, -0x1.6d1aa31edfb45p-57, 0x1.7ce1f12bb0ebcp-57,
    0x1.45a34ee98423fp-57, 0x1.28df6f14320e7p-58, 0x1.9207531a8a38bp-59, -0x1.b112d8651d7f3p-59,
    -0x1.bd85f35f3d7f5p-57, -0x1.5be80a20c7057p-57, -0x1.84e5c59ceb9c0p-57, 0x1.aacccb728d6b2p-57,
    -0x1.316ccf0cb73cdp-57, 0x1.89b28f2355c72p-57, -0x1.6d82b87518f61p-57, -0x1.3eb19007120d3p-57,
    0x1.f5c9d7d45cf8dp-58, -0x1.84c74c26f6eebp-57, -0x1.f86b30d15ccbbp-57, -0x1.9164f985780d5p-58,
    -0x1.42a900b31295bp-57, -0x1.8dd6138866b88p-57, 0x1.f1d2c8b30d9b8p-61, 0x1.b361575007a38p-58,
    0x1.60c9cb56f4ba4p-60, -0x1.46d7c186c013ap-58, -0x1.b8d7724de6ee0p-61, -0x1.6fb1ee5d321f4p-59,
    -0x1.ab85d2f52749dp-58, -0x1.20be7db33464ep-58, -0x1.1794b0e70c647p-59, 0x1.4ccd763dd2594p-58,
    -0x1.2807057d9d5acp-58, -0x1.e9a3457d2d1b8p-58, -0x1.892a635ea15dcp-58, 0x1.d81ffdaab4b92p-59,
    0x1.3508bb009e147p-61, -0x1.13070c1be888fp-62, -0x1.4e6cad449a15cp-59, -0x1.eee84097532f6p-59,
    0x1.59d680ba78807p-61, -0x1.a5ef60dabcdbap-59, -0x1.5103600213f73p-59, 0x1.d9085d1ce7fbcp-59,
    0x1.934388bf4acb8p-61, -0x1.db665acb49c07p-61, -0x1.f306a56bda5b1p-60, 0x1.a0ed4d3ca1f1fp-60,
    0x1.06bfe19fe49f7p-60, 0x1.7f38df42be44ep-62, 0x1.c55162cf66d18p-61, 0x1.1f479ca8f73b5p-64,
    0x0.0p+0, 0x0.0p+0, 0x1.8494a240c11b8p-61, -0x1.765a22a70ef09p-61,
    0x1.ea334206f1a7fp-65, -0x1.e9ae9df101997p-60, 0x1.c6a8e74f1fcffp-61, 0x1.e683b0fa78541p-61,
    -0x1.7870f0ef4ab4bp-59, -0x1.fb25acff68f9dp-59, -0x1.8a1259e302f7ap-58, -0x1.5f1582feaf49bp-58,
    -0x1.188458ebcc614p-58, -0x1.73b7eff915a12p-60, -0x1.c99e337dce8bep-63, -0x1.fcf0f47751aabp-58,
    0x1.4b0dd7773d0fep-58, -0x1.80d0c48b83f68p-62, -0x1.4e7379db88c08p-59, -0x1.4477d42daf5b9p-57,
    0x1.e47c0717be8bbp-61, 0x1.6b5199274c898p-57, -0x1.93a8d9e3256b5p-62, -0x1.f367d96839876p-57,
    0x1.7116d231c3f5dp-57, -0x1.d201c9c47fc0fp-59, 0x1.dfce1e9130fd3p-57, -0x1.89e4bbf1dee80p-58,
    -0x1.169d814e56763p-57, -0x1.8a1c998d17394p-61, 0x1.493c82b98db76p-58, 0x1.f327f7825570fp-57,
    -0x1.6f6c364d84555p-64, 0x1.639a216c061e3p-57, 0x1.c34c632d8b75fp-57, -0x1.2e03a39ca7345p-59,
    -0x1.5057e10ede540p-64, 0x1.88d52b24cad58p-58, 0x1.f1707f98133d5p-58, 0x1.a1f63b293b43ap-56,
    -0x1.0a675a9140c2cp-58, -0x1.10c2e4dad040fp-56, -0x1.49fdf99b6f5b1p-56, -0x1.deed8ae041291p-59,
    -0x1.64eb73873ef99p-56, -0x1.7135ba3e86ad9p-57, -0x1.6c589289f1453p-57, -0x1.bea6701908e51p-56,
    -0x1.bc98b83e79d6fp-59, 0x1.c201e6ee8196ap-56, -0x1.7450d828f6d1ap-57, -0x1.a89d025e1c2ffp-57};
BROOK_M_TABLE double brook_m_exp2_64_lo[64] = {
    0x0.0p+0, -0x1.19083535b085dp-56, 0x1.d73e2a475b465p-55, 0x1.186be4bb284ffp-57,
    0x1.8a62e4adc610bp-54, 0x1.03a1727c57b53p-59, -0x1.6c51039449b3ap-54, -0x1.32fbf9af1369ep-54,
    -0x1.19041b9d78a76p-55, 0x1.e5b4c7b4968e4p-55, 0x1.e016e00a2643cp-54, 0x1.dc775814a8495p-55,
    0x1.9b07eb6c70573p-54, 0x1.2bd339940e9d9p-55, 0x1.612e8afad1255p-55, 0x1.0024754db41d5p-54,
    0x1.6f46ad23182e4p-55, 0x1.32721843659a6p-54, -0x1.63aeabf42eae2p-54, -0x1.5e436d661f5e3p-56,
    0x1.ada0911f09ebcp-55, -0x1.ef3691c309278p-58, 0x1.89b7a04ef80d0p-59, 0x1.3c1a3b69062f0p-56,
    0x1.d4397afec42e2p-56, -0x1.4b309d25957e3p-54, -0x1.07abe1db13cadp-55, 0x1.9bb2c011d93adp-54,
    0x1.6324c054647adp-54, 0x1.ba6f93080e65ep-54, -0x1.383c17e40b497p-54, -0x1.bb60987591c34p-54,
    -0x1.bdd3413b26456p-54, -0x1.bbe3a683c88abp-57, -0x1.16e4786887a99p-55, -0x1.0245957316dd3p-54,
    -0x1.41577ee04992fp-55, 0x1.05d02ba15797ep-56, -0x1.d4c1dd41532d8p-54, -0x1.fc6f89bd4f6bap-54,
    0x1.6e9f156864b27p-54, 0x1.5cc13a2e3976cp-55, -0x1.75fc781b57ebcp-57, -0x1.d185b7c1b85d1p-54,
    0x1.c7c46b071f2bep-56, -0x1.359495d1cd533p-54, -0x1.d2f6edb8d41e1p-54, 0x1.0fac90ef7fd31p-54,
    0x1.7a1cd345dcc81p-54, -0x1.2805e3084d708p-57, -0x1.5584f7e54ac3bp-56, 0x1.23dd07a2d9e84p-55,
    0x1.11065895048ddp-55, 0x1.2884dff483cadp-54, 0x1.503cbd1e949dbp-56, -0x1.cbc3743797a9cp-54,
    0x1.2ed02d75b3707p-55, 0x1.c2300696db532p-54, -0x1.1a5cd4f184b5cp-54, 0x1.39e8980a9cc8fp-55,
    -0x1.e9c23179c2893p-54, 0x1.dc7f486a4b6b0p-54, 0x1.9d3e12dd8a18bp-54, 0x1.74853f3a5931ep-55};

// ln2 = LN2_HI + LN2_LO + LN2_LO2 (LN2_HI has 44 bits: e * LN2_HI is exact),
// ln2/64 = C1 + C2 + C3 (C1 has 38 bits: k * C1 is exact for |k| < 2^15).
#define BROOK_M_LN2_HI 0x1.62e42fefa3800p-1
#define BROOK_M_LN2_LO 0x1.ef35793c76730p-45
#define BROOK_M_LN2_LO2 0x1.f97b57a079a19p-103
#define BROOK_M_LN2_64_C1 0x1.62e42fefa0000p-7
#define BROOK_M_LN2_64_C2 0x1.cf79abc9e3b3ap-46
#define BROOK_M_LN2_64_C3 -0x1.ff0342542fc33p-100

// log(x) as h + l for a finite x > 0, relative error below 2^-57. Why: with
// e ln2 + logc = a + al + (e LN2_LO + logc_lo) (a + al exact by two-sum,
// the rest off by less than 2^-100 |a|) and log1p(r) = r + r^2 q (q the
// Taylor series of brook_m_log1p_q9, truncated below 2^-73 and rounded
// within 2^-52 r^2), s + sl = a + r exactly and every other term is at most
// 2^-15, so the absolute error is below 2^-52.4 r^2 + 2^-67; |log x| is at
// least 2^-8 unless logc = e = 0, where log x is r (1 - r / 2 ...) and the
// error below 2^-59 r.
BROOK_M_FN brook_m_dd brook_m_pow_log_fast(float x) {
  brook_m_i32 i;
  double e;
  double r = brook_m_log_reduce128(x, &i, &e);
  double q = brook_m_log1p_q9(r);
  double a;
  double al = brook_m_two_sum(e * BROOK_M_LN2_HI, brook_m_log_logc[i], &a);
  double s;
  double sl = brook_m_two_sum(a, r, &s);
  double lo = (al + sl) + (BROOK_M_FMA(e, BROOK_M_LN2_LO, brook_m_log_logc_lo[i]) + (r * r) * q);
  // Renormalised: lo (r^2 q) can exceed ulp(s) by far where r has few bits,
  // and y lo must stay below ulp(y s) for the exp reduction.
  return brook_m_dd_norm(s, lo);
}

// (-1)^(n+1) / n for n = 2..8 as double-doubles (hi, lo).
BROOK_M_TABLE double brook_m_pow_log1p_dd[14] = {
    -0x1.0000000000000p-1, 0x0.0p+0,  0x1.5555555555555p-2,  0x1.5555555555555p-56,
    -0x1.0000000000000p-2, 0x0.0p+0,  0x1.999999999999ap-3,  -0x1.999999999999ap-57,
    -0x1.5555555555555p-3, -0x1.5555555555555p-57, 0x1.2492492492492p-3, 0x1.2492492492492p-57,
    -0x1.0000000000000p-3, 0x0.0p+0};

// log(x) for a finite x > 0 in double-double, relative error below 2^-101.
// Why: log1p(r) is its Taylor series to r^15 (the rest is below 2^-109 r);
// the terms from r^9 on are summed in double (their rounding, times r^8,
// is below 2^-105 r), the rest by double-double Horner steps (each a
// brook_m_dd_mul_d and a brook_m_dd_add, relative error below 2^-103, and
// scaled down by r^2 in the sum). e ln2 + logc is exact to 2^-106 relative
// (the tables' and ln2's low parts) before its one double-double addition.
// The last addition, of e ln2 + logc (at least 2^-7.4 when not 0) and
// log1p(r) (at most 2^-7 and at most 2.2 times below the sum away from the
// subintervals beside 1), adds below 2^-103.6: about 2^-101.2 in all.
// The part after the reduction: log(2^e z) for r + rl = z invc_i - 1 (rl 0
// for a float z; for a double z, rl enters as rl (1 - r + r^2), the first
// terms of rl / (1 + r), off by below 2^-81 absolute, and rl is 0 in the two
// subintervals beside 1, where invc = 1 and r = z - 1). LN2_HI has 41 bits,
// so e LN2_HI is exact for |e| < 2^12: every double's exponent.
BROOK_M_FN brook_m_dd brook_m_log_acc_parts(double r, double rl, brook_m_i32 i, double e) {
  double t = BROOK_M_FMA(r, 0x1.1111111111111p-4, -0x1.2492492492492p-4);
  t = BROOK_M_FMA(r, t, 0x1.3b13b13b13b14p-4);
  t = BROOK_M_FMA(r, t, -0x1.5555555555555p-4);
  t = BROOK_M_FMA(r, t, 0x1.745d1745d1746p-4);
  t = BROOK_M_FMA(r, t, -0x1.999999999999ap-4);
  t = BROOK_M_FMA(r, t, 0x1.c71c71c71c71cp-4);
  brook_m_dd p = brook_m_dd_of(t, 0.0);
  for (brook_m_i32 n = 6; n >= 0; n--)
    p = brook_m_dd_add(brook_m_dd_of(brook_m_pow_log1p_dd[2 * n], brook_m_pow_log1p_dd[2 * n + 1]),
                       brook_m_dd_mul_d(p, r));
  brook_m_dd l1 = brook_m_dd_add(brook_m_dd_of(r, 0.0), brook_m_dd_mul(brook_m_dd_prod(r, r), p));
  if (rl != 0.0) l1 = brook_m_dd_add(l1, brook_m_dd_of(rl * (1.0 - r + r * r), 0.0));
  double a;
  double al = brook_m_two_sum(e * BROOK_M_LN2_HI, brook_m_log_logc[i], &a);
  brook_m_dd b = brook_m_dd_prod(e, BROOK_M_LN2_LO);
  brook_m_dd c = brook_m_dd_add(brook_m_dd_norm(a, al),
                                brook_m_dd_of(b.h, b.l + (brook_m_log_logc_lo[i] + e * BROOK_M_LN2_LO2)));
  return brook_m_dd_add(c, l1);
}
BROOK_M_FN brook_m_dd brook_m_pow_log_acc(float x) {
  brook_m_i32 i;
  double e;
  double r = brook_m_log_reduce128(x, &i, &e);
  return brook_m_log_acc_parts(r, 0.0, i, e);
}

// 1/n! for n = 2..5 as double-doubles (hi, lo).
BROOK_M_TABLE double brook_m_pow_expm1_dd[8] = {
    0x1.0000000000000p-1, 0x0.0p+0, 0x1.5555555555555p-3, 0x1.5555555555555p-57,
    0x1.5555555555555p-5, 0x1.5555555555555p-59, 0x1.1111111111111p-7, 0x1.1111111111111p-63};

// exp(t) for a double-double t, |t.h| <= 104, relative error below 2^-103
// (plus the error t carries). Why: t = k ln2/64 + r with |r| <= 2^-7.5,
// r.h + r.l exact to 2^-110 (t.h - k C1 is exact by Sterbenz's lemma, k C2
// is an exact product, t.l enters by a two-sum); exp(r) - 1 is the Taylor
// series to r^10 (the rest below 2^-108), the terms from r^6 on in double
// (rounding below 2^-107 after the factor r^6), the rest in double-double
// (errors below 2^-103 relative, scaled by r^2); r.l enters to first order
// (its square is below 2^-120); 2^(j/64) is a double-double exact to 2^-106,
// and the last multiplication and addition add below 2^-104.
// The unscaled part: returns 2^(j/64) exp(r) and sets *ex = floor(k / 64)
// (k = t.h 64/ln2 rounded, |k| < 2^19), so exp(t) = result 2^*ex.
BROOK_M_FN brook_m_dd brook_m_exp_acc_parts(brook_m_dd t, brook_m_i32* ex) {
  double kd;
  brook_m_i32 k = brook_m_round_int(t.h * 0x1.71547652b82fep+6, &kd);
  brook_m_dd r = brook_m_dd_add(brook_m_dd_of(BROOK_M_FMA(-kd, BROOK_M_LN2_64_C1, t.h), 0.0),
                                brook_m_dd_prod(-kd, BROOK_M_LN2_64_C2));
  r = brook_m_dd_add(r, brook_m_dd_of(t.l, -kd * BROOK_M_LN2_64_C3));
  double rh = r.h;
  double u = BROOK_M_FMA(rh, 0x1.27e4fb7789f5cp-22, 0x1.71de3a556c734p-19);
  u = BROOK_M_FMA(rh, u, 0x1.a01a01a01a01ap-16);
  u = BROOK_M_FMA(rh, u, 0x1.a01a01a01a01ap-13);
  u = BROOK_M_FMA(rh, u, 0x1.6c16c16c16c17p-10);
  brook_m_dd p = brook_m_dd_of(u, 0.0);
  for (brook_m_i32 n = 3; n >= 0; n--)
    p = brook_m_dd_add(brook_m_dd_of(brook_m_pow_expm1_dd[2 * n], brook_m_pow_expm1_dd[2 * n + 1]),
                       brook_m_dd_mul_d(p, rh));
  brook_m_dd em1 = brook_m_dd_add(brook_m_dd_of(rh, 0.0), brook_m_dd_mul(brook_m_dd_prod(rh, rh), p));
  // exp(rh + rl) - 1 = em1 + rl (1 + em1) to first order in rl.
  em1 = brook_m_dd_add(em1, brook_m_dd_of(r.l + r.l * em1.h, 0.0));
  brook_m_i32 j = k & 63;
  // floor(k / 64), with an unsigned shift (k + 2^20 > 0): no signed shift.
  *ex = (brook_m_i32)(((brook_m_u32)(k + 1048576)) >> 6) - 16384;
  brook_m_dd tj = brook_m_dd_of(brook_m_exp2_64[j], brook_m_exp2_64_lo[j]);
  return brook_m_dd_add(tj, brook_m_dd_mul(tj, em1));
}
BROOK_M_FN brook_m_dd brook_m_pow_exp_acc(brook_m_dd t) {
  brook_m_i32 ex;
  brook_m_dd res = brook_m_exp_acc_parts(t, &ex);
  double sc = BROOK_M_U2D((brook_m_u64)(ex + 1023) << 52);
  return brook_m_dd_of(res.h * sc, res.l * sc);
}

// The float nearest to v = h + l (> 0, below 2^129, |l| <= ulp(h)) when the
// exact value lies within err of v; *decided = 0 when the nearest rounding
// boundary (the midpoint between the float f nearest to h and its
// neighbour on v's side) lies within err of v, and the float on v's side of
// it is returned then. h - f and h - m are exact (Sterbenz's lemma) or, for
// results below 2^-149, off by less than their own 2^-53: the signs are right.
BROOK_M_FN float brook_m_pow_round(double h, double l, double err, int* decided) {
  brook_m_u32 fb = BROOK_M_F2U((float)h);
  if (fb == 0x7f800000u) fb = 0x7f7fffffu;  // above the largest float: its midpoint with 2^128
  float f = BROOK_M_U2F(fb);
  double d0 = (h - (double)f) + l;
  *decided = 1;
  if (d0 == 0.0) return f;
  brook_m_u32 gb = d0 > 0.0 ? fb + 1u : fb - 1u;  // v > 0, so f = 0 means d0 > 0
  double m = gb == 0x7f800000u ? 0x1.ffffffp127 : 0.5 * ((double)f + (double)BROOK_M_U2F(gb));
  double dist = (h - m) + l;
  *decided = (dist > err) | (dist < -err);
  return (dist > 0.0) == (d0 > 0.0) ? BROOK_M_U2F(gb) : f;
}

// x^y when it is exact in double: *out and 1, else 0 (x > 0 finite, y finite
// and not 0). A midpoint between two floats has at most 25 significant bits,
// so it can be x^y only when (a) x = 2^F and F y is an integer (x^y = 2^(F y));
// or (b) y = n / 2^k with n >= 1 and x's odd part c >= 3 a perfect 2^k-th
// power: then c^(2^k) < 2^24 gives k <= 3 and (c^(1/2^k))^n < 2^25 gives
// n <= 15; the square roots and products below are exact (checked by the
// fma remainder) exactly in that case. A negative y gives 1 / c^(...) with an
// odd c >= 3 again: not a binary fraction, never a midpoint.
BROOK_M_FN int brook_m_pow_exact(float x, float y, double* out) {
  double dx = (double)x;  // normal in double, even for a subnormal x
  brook_m_u64 bx = BROOK_M_D2U(dx);
  double kd;
  if ((bx << 12) == 0) {  // x = 2^F
    double g = (double)((brook_m_i32)(bx >> 52) - 1023) * (double)y;  // exact
    if ((g > 300.0) | (g < -300.0)) return 0;
    brook_m_i32 gi = brook_m_round_int(g, &kd);
    if (kd != g) return 0;
    *out = BROOK_M_U2D((brook_m_u64)(gi + 1023) << 52);
    return 1;
  }
  double n = (double)y;
  if ((n > 16.0) | (n < 0.0)) return 0;
  brook_m_i32 k = 0;
  brook_m_round_int(n, &kd);
  while ((kd != n) & (k < 3)) {
    n = 2.0 * n;
    k = k + 1;
    brook_m_round_int(n, &kd);
  }
  if ((kd != n) | (n > 15.0)) return 0;
  double s = dx;
  for (brook_m_i32 i = 0; i < k; i++) {
    double q = BROOK_M_SQRT(s);
    if (BROOK_M_FMA(q, q, -s) != 0.0) return 0;
    s = q;
  }
  double p = s;
  for (brook_m_i32 i = 1; i < (brook_m_i32)n; i++) {
    double q = p * s;
    if (BROOK_M_FMA(p, s, -q) != 0.0) return 0;
    p = q;
  }
  *out = p;
  return 1;
}

// The fast path of |x|^y for a finite x > 0, x != 1, and a finite y != 0,
// branch-free (the gang form runs it on every lane): *done = 1 and a double
// whose rounding to float is the result, or *done = 0 and the double v that
// brook_m_pow_abs's next steps decide from.
BROOK_M_FN double brook_m_pow_fast(float ax, float y, int* done) {
  // t = y log x as th + tl (y s exact by fma, y lo rounded), off
  // by at most 2^-57 |t| <= 2^-50.3 for |t| <= 104; exp in double as
  // brook_m_exp_d: r off by below 2^-59, 2^(j/64) rounded (2^-53), the fma
  // (2^-53), exp(r) - 1 within 2^-60: below 2^-49.5 relative in all, and
  // the rounding test allows 2^-47.
  brook_m_dd l = brook_m_pow_log_fast(ax);
  double th = (double)y * l.h;
  double tl = BROOK_M_FMA((double)y, l.h, -th) + (double)y * l.l;
  // Beyond these x^y rounds to infinity (e^89 > 2^128) or to 0 (e^-104 <
  // 2^-150, the midpoint between 0 and the least subnormal); the exp below
  // then runs on 0, so its table index stays in range.
  int over = th > 89.0;
  int under = th < -104.0;
  double tc = (over | under) ? 0.0 : th;
  double kd;
  brook_m_i32 k = brook_m_round_int(tc * 0x1.71547652b82fep+6, &kd);
  double r = BROOK_M_FMA(-kd, BROOK_M_LN2_64_C1, tc);  // exact
  r = BROOK_M_FMA(-kd, BROOK_M_LN2_64_C2, r) + ((over | under) ? 0.0 : tl);
  double v = brook_m_exp_finish(k, r);
  // A normal float result is decided by v's 29 bits below float precision:
  // the exact value is within 2^-47 v, i.e. 64 ulps of v, of v; more than
  // 128 ulps between v and the midpoint 2^28 ulps up keeps it on v's side
  // (also at 2^128 - 2^103, the midpoint to infinity). Subnormal results
  // and the rest go to brook_m_pow_round.
  brook_m_u64 off = (BROOK_M_D2U(v) + 128u - 0x10000000u) & 0x1fffffffu;
  *done = ((off > 256u) & (v >= 0x1p-126)) | over | under;
  return over ? BROOK_M_INF_D : under ? 0.0 : v;
}

// |x|^y for a finite x != 0, |x| != 1, and a finite y != 0.
BROOK_M_FN float brook_m_pow_abs(float ax, float y) {
  int fast;
  double v = brook_m_pow_fast(ax, y, &fast);
  if (fast) return (float)v;
  int decided;
  float f = brook_m_pow_round(v, 0.0, v * 0x1p-47, &decided);
  if (decided) return f;
  // Accurate path: log in double-double (2^-101), t = y log x (2^-103 more),
  // so t is off by less than 2^-100.6 |t| <= 2^-93.9, and exp (2^-103): the
  // result is within 2^-93.8 relative; the test allows 2^-92.
  brook_m_dd t = brook_m_dd_mul_d(brook_m_pow_log_acc(ax), (double)y);
  brook_m_dd w = brook_m_pow_exp_acc(t);
  f = brook_m_pow_round(w.h, w.l, w.h * 0x1p-92, &decided);
  if (decided) return f;
  // Within 2^-92 of a rounding boundary: the exact cases (midpoints such as
  // 17^6 and 2^-150). Any other pair that close would get the float on the
  // double-double's side; check_math has met none (stdlib/MATH.md).
  double p;
  if (brook_m_pow_exact(ax, y, &p)) return (float)p;
  return f;
}

// 0 when y (bits without the sign) is not an integer, 1 when odd, 2 when even.
BROOK_M_FN brook_m_i32 brook_m_pow_yclass(brook_m_u32 ay) {
  brook_m_i32 e = (brook_m_i32)(ay >> 23) - 127;
  if (e < 0) return 0;  // 0 < |y| < 1 (0 is answered before)
  if (e >= 24) return 2;  // every float from 2^24 on is an even integer
  brook_m_u32 frac = ay & ((1u << (23 - e)) - 1u);
  if (frac != 0) return 0;
  return ((ay >> (23 - e)) & 1u) ? 1 : 2;  // for e = 0 the exponent's low bit, 1
}

// pow(x, y) for the pairs that are not ordinary (brook_powf), C99 Annex F:
// pow(x, +-0) = 1 and pow(+1, y) = 1 even for NaN; pow(-1, +-inf) = 1; a
// negative x with a finite non-integer y is NaN; an odd integer y keeps x's
// sign (zeros and infinities too). Returns 0 with the result in *out, or 1
// when the result is *sign |x|^y, computed by brook_m_pow_abs.
BROOK_M_FN int brook_m_pow_special(float x, float y, float* out, float* sign) {
  brook_m_u32 ix = BROOK_M_F2U(x), iy = BROOK_M_F2U(y);
  brook_m_u32 ax = ix & 0x7fffffffu, ay = iy & 0x7fffffffu;
  *out = 1.0f;
  if ((ay == 0u) | (ix == 0x3f800000u)) return 0;
  *out = BROOK_M_NAN;
  if ((ax > 0x7f800000u) | (ay > 0x7f800000u)) return 0;
  if (ay == 0x7f800000u) {  // y = +-inf
    *out = ax == 0x3f800000u                                  ? 1.0f
           : ((ax > 0x3f800000u) == ((iy >> 31) == 0u)) ? BROOK_M_INF
                                                              : 0.0f;
    return 0;
  }
  brook_m_i32 yc = brook_m_pow_yclass(ay);
  *sign = (((ix >> 31) != 0u) & (yc == 1)) ? -1.0f : 1.0f;
  if (ax == 0u) {
    *out = *sign * ((iy >> 31) ? BROOK_M_INF : 0.0f);
    return 0;
  }
  if (ax == 0x7f800000u) {
    *out = *sign * ((iy >> 31) ? 0.0f : BROOK_M_INF);
    return 0;
  }
  if ((ix >> 31) & (yc == 0)) return 0;  // NaN
  *out = *sign;
  return ax != 0x3f800000u;  // x = -1 and y an integer: +-1
}

// Ordinary pairs: 0 < x < inf, x != 1, y finite and not 0.
BROOK_M_FN int brook_m_powf_plain(float x, float y) {
  brook_m_u32 ix = BROOK_M_F2U(x), ay = BROOK_M_F2U(y) & 0x7fffffffu;
  return (ix - 1u < 0x7f7fffffu) & (ay - 1u < 0x7f7fffffu) & (ix != 0x3f800000u);
}
// pow on an ordinary pair where the fast path decides (*done), for the gang
// form; brook_powf decides the rest.
BROOK_M_FN float brook_m_powf_core(float x, float y, int* done) {
  return (float)brook_m_pow_fast(x, y, done);
}

// Ordinary pairs (0 < x < inf, x != 1, y finite and not 0) go straight to
// the computation: no test on y's integrality, which only a negative x needs.
// One call of brook_m_pow_abs, so that the compiler inlines it (into each
// target clone of brook_math.cpp's entry point, with its fmas).
BROOK_M_FN float brook_powf(float x, float y) {
  float sign = 1.0f;
  if (!brook_m_powf_plain(x, y)) {
    float r;
    if (!brook_m_pow_special(x, y, &r, &sign)) return r;
    x = brook_m_abs(x);
  }
  return sign * brook_m_pow_abs(x, y);
}
