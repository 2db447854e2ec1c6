// exp and log on sixteen float lanes as LLVM bitcode, for the JIT to inline
// into SPMD kernels (jit/compiler.cpp links it into each module that calls
// them). Not part of the library: clang compiles this file to bitcode at build
// time (stdlib/CMakeLists.txt) and the bitcode is embedded in brook.
//
// The gang forms the JIT otherwise calls (brook_math_gang.cpp) compute the
// same cores, brook_math_avx512.hpp; what inlining saves is the call around
// them: the lanes stored to memory and loaded back, the tables loaded again,
// the loop and its masks, on every call of sixteen lanes. black_scholes calls
// exp three times and log once per element.
//
// Compiled with -ffp-contract=off, as brook_math_gang.cpp is: every value is
// the same IEEE operation in the same order as the scalar brook_cr_expf, so the
// same bits (tests/math/check_math --inline compares all 2^32 inputs).
#include "stdlib/brook_math_gang.hpp"

#include <immintrin.h>

namespace brook::stdlib::cr {
#include "stdlib/brook_math.h"
}  // namespace brook::stdlib::cr

#include "stdlib/brook_math_avx512.hpp"

namespace {

using brook::stdlib::avx512::ExpLanes;
using brook::stdlib::avx512::LogLanes;

// The lanes that are not plain (rare: out of range, NaN, a hard case), one
// scalar call each; out of line, so the inlined part stays small.
template <class Lanes>
[[BROOK_AVX512, gnu::noinline, gnu::cold]] __m512 rest_lanes(__m512 x, __m512 y, unsigned rest) {
  alignas(64) float xs[16], ys[16];
  _mm512_store_ps(xs, x);
  _mm512_store_ps(ys, y);
  for (; rest; rest &= rest - 1) {
    const int i = __builtin_ctz(rest);
    ys[i] = Lanes::full(xs[i]);
  }
  return _mm512_load_ps(ys);
}

template <class Lanes>
[[BROOK_AVX512, gnu::always_inline]] inline __m512 lanes16(__m512 x) {
  const Lanes f;
  const __m512i bits = _mm512_castps_si512(x);
  const __mmask16 plain = f.plain(bits);
  __m512 y = f.core(_mm512_mask_blend_epi32(plain, _mm512_set1_epi32(Lanes::kOrdinary), bits));
  if (plain != 0xffff) [[unlikely]]
    y = rest_lanes<Lanes>(x, y, ~static_cast<unsigned>(plain) & 0xffffu);
  return y;
}

}  // namespace

// The names jit/ declares (brook_math_inline_symbol in brook_math.cpp).
extern "C" [[BROOK_AVX512]] __m512 brook_inline_expf_16(__m512 x) {
  return lanes16<ExpLanes>(x);
}
extern "C" [[BROOK_AVX512]] __m512 brook_inline_logf_16(__m512 x) {
  return lanes16<LogLanes>(x);
}
#undef BROOK_AVX512
