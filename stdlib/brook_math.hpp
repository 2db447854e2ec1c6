// The project's own correctly rounded float functions (LANGUAGE.md §10) for
// kernels: stdlib/brook_math.h is the one definition; this is its C++ face.
// Host code's <math.h> calls stay glibc's (stdlib/reference.hpp): only
// kernels use these (stdlib/MATH.md).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "stdlib/builtins.hpp"

namespace brook::stdlib {

// brook_math.h's float function for a one-argument builtin, or null when it
// has none yet (the kernel then uses libm's, as host code does).
using BrookMathFn = float (*)(float);
BrookMathFn brook_math_fn(Builtin id);
inline bool has_brook_math_f32(Builtin id) {
  return brook_math_fn(id) != nullptr;
}
// brook_math_fn(id)(x), or the NaN 0x7fc00000 when there is none.
float brook_math_f32(Builtin id, float x);

// The same for a two-argument builtin (atan2, pow), or null.
using BrookMathFn2 = float (*)(float, float);
BrookMathFn2 brook_math_fn2(Builtin id);

// The C symbol (a plain `float f(float)` or `float f(float, float)`, extern
// "C") the JIT calls for `id`, or empty; and every such symbol with its
// address, for the JIT's linker.
std::string_view brook_math_symbol(Builtin id);
struct BrookMathSymbol {
  std::string_view name;
  float (*fn)(float);
};
std::span<const BrookMathSymbol> brook_math_symbols();
struct BrookMathSymbol2 {
  std::string_view name;
  float (*fn)(float, float);
};
std::span<const BrookMathSymbol2> brook_math_binary_symbols();

// brook_math_double.h's double function for a one- or two-argument builtin
// (within one ulp, the same bits on every backend: all of §10's), or null;
// its extern "C" symbol for the JIT and its name in the OpenCL copy of
// brook_math_double.h (either arity), or empty; every such symbol with its
// address, for the JIT's linker.
using BrookMathFnD = double (*)(double);
using BrookMathFn2D = double (*)(double, double);
BrookMathFnD brook_math_fn_f64(Builtin id);
BrookMathFn2D brook_math_fn2_f64(Builtin id);
std::string_view brook_math_symbol_f64(Builtin id);
std::string_view brook_math_opencl_name_f64(Builtin id);
struct BrookMathSymbolD {
  std::string_view name;
  double (*fn)(double);
};
std::span<const BrookMathSymbolD> brook_math_double_symbols();
struct BrookMathSymbol2D {
  std::string_view name;
  double (*fn)(double, double);
};
std::span<const BrookMathSymbol2D> brook_math_double_binary_symbols();

// The gang form of `id`'s function, for the JIT's SPMD path:
// fn(in, out, n) sets out[i] to the scalar function of in[i] for i < n, bit for
// bit, computing the ordinary lanes with vector instructions (the best this
// CPU has: AVX-512, AVX2 or the baseline build's). Its extern "C"-like name for the
// JIT's linker, or empty; and every such name with this CPU's address.
using BrookGangFn = void (*)(const float* in, float* out, int n);
std::string_view brook_math_gang_symbol(Builtin id);
BrookGangFn brook_math_gang_fn(Builtin id);
struct BrookGangSymbol {
  std::string_view name;
  BrookGangFn fn;
};
std::span<const BrookGangSymbol> brook_math_gang_symbols();
// The name of `id`'s sixteen-lane form in stdlib/brook_math_inline.cpp,
// `<16 x float> (<16 x float>)`, which the JIT links into a kernel as bitcode
// and inlines; empty where there is none or this CPU lacks AVX-512.
std::string_view brook_math_inline_symbol(Builtin id);
// Every gang form of `id` this CPU can run, named by instruction set
// ("base", "avx2", "avx512"), for tests/math/check_math --gang.
std::vector<BrookGangSymbol> brook_math_gang_variants(Builtin id);
// The same for a two-argument builtin (atan2, pow): out[i] = F(a[i], b[i]).
// brook_math_gang_symbol names these too.
using BrookGang2Fn = void (*)(const float* a, const float* b, float* out, int n);
BrookGang2Fn brook_math_gang2_fn(Builtin id);
struct BrookGang2Symbol {
  std::string_view name;
  BrookGang2Fn fn;
};
std::span<const BrookGang2Symbol> brook_math_gang2_symbols();
std::vector<BrookGang2Symbol> brook_math_gang2_variants(Builtin id);

// The OpenCL C function the OpenCL printer calls for `id` on float (the same
// spelling as in brook_math.h), or empty.
std::string_view brook_math_opencl_name(Builtin id);
// The text of brook_math.h, pasted into OpenCL programs that call one of
// its functions, and of brook_math_double.h, pasted after it where a double
// function is called.
std::string_view brook_math_source();
std::string_view brook_math_double_source();

}  // namespace brook::stdlib
