// The gang forms of brook_math.h's functions (stdlib/brook_math_gang.cpp),
// one per instruction set; stdlib/brook_math.cpp picks the one for this CPU.
#pragma once

extern "C" {
#define BROOK_GANG_DECL(F)                                           \
  void brook_cr_##F##_gang_base(const float* in, float* out, int n); \
  void brook_cr_##F##_gang_avx2(const float* in, float* out, int n); \
  void brook_cr_##F##_gang_avx512(const float* in, float* out, int n);
BROOK_GANG_DECL(expf)
BROOK_GANG_DECL(exp2f)
BROOK_GANG_DECL(logf)
BROOK_GANG_DECL(log2f)
BROOK_GANG_DECL(log10f)
BROOK_GANG_DECL(sinhf)
BROOK_GANG_DECL(coshf)
BROOK_GANG_DECL(tanhf)
BROOK_GANG_DECL(atanf)
BROOK_GANG_DECL(asinf)
BROOK_GANG_DECL(acosf)
BROOK_GANG_DECL(sinf)
BROOK_GANG_DECL(cosf)
BROOK_GANG_DECL(tanf)
#undef BROOK_GANG_DECL
// The two-argument ones: out[i] = F(a[i], b[i]).
#define BROOK_GANG2_DECL(F)                                                         \
  void brook_cr_##F##_gang_base(const float* a, const float* b, float* out, int n); \
  void brook_cr_##F##_gang_avx2(const float* a, const float* b, float* out, int n); \
  void brook_cr_##F##_gang_avx512(const float* a, const float* b, float* out, int n);
BROOK_GANG2_DECL(atan2f)
BROOK_GANG2_DECL(powf)
#undef BROOK_GANG2_DECL
// brook_math.cpp's scalar functions, which the gang forms call on the lanes
// that are not plain.
float brook_cr_expf(float);
float brook_cr_exp2f(float);
float brook_cr_logf(float);
float brook_cr_log2f(float);
float brook_cr_log10f(float);
float brook_cr_sinhf(float);
float brook_cr_coshf(float);
float brook_cr_tanhf(float);
float brook_cr_atanf(float);
float brook_cr_asinf(float);
float brook_cr_acosf(float);
float brook_cr_sinf(float);
float brook_cr_cosf(float);
float brook_cr_tanf(float);
float brook_cr_atan2f(float, float);
float brook_cr_powf(float, float);
}
