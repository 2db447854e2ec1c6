// brook_math.h compiled as C++ (this file is built with -ffp-contract=off, so
// its double arithmetic is the same bits as the OpenCL copy's), with the
// extern "C" entry points the JIT calls per element (the gang forms are in
// brook_math_gang.cpp).
#include "stdlib/brook_math.hpp"

#include <array>

#include "stdlib/brook_math_gang.hpp"

namespace brook::stdlib::cr {
#include "stdlib/brook_math.h"
#include "stdlib/brook_math_double.h"
}  // namespace brook::stdlib::cr

// brook_math.h writes its fused multiply-adds out (BROOK_M_FMA): on a CPU
// with FMA each entry point runs a clone whose fma is one instruction; the
// default clone calls libm's fma, which computes the same correctly rounded
// value, only slower. GCC only: clang 15 emits no symbol under the extern "C"
// name of a target_clones function, so the gang forms' fallback calls would
// not link; a clang build calls libm's fma here.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define BROOK_CR_SCALAR __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define BROOK_CR_SCALAR
#endif
// pow's definition is too large for GCC to inline into both clones on its
// own; a clone that calls it out of line runs the baseline code, whose every
// fma is a libm call (3x slower, measured): flatten inlines it into each.
#if defined(__GNUC__)
#define BROOK_CR_FLAT __attribute__((flatten))
#else
#define BROOK_CR_FLAT
#endif

extern "C" {
BROOK_CR_SCALAR float brook_cr_expf(float x) {
  return brook::stdlib::cr::brook_expf(x);
}
BROOK_CR_SCALAR float brook_cr_exp2f(float x) {
  return brook::stdlib::cr::brook_exp2f(x);
}
BROOK_CR_SCALAR float brook_cr_logf(float x) {
  return brook::stdlib::cr::brook_logf(x);
}
BROOK_CR_SCALAR float brook_cr_log2f(float x) {
  return brook::stdlib::cr::brook_log2f(x);
}
BROOK_CR_SCALAR float brook_cr_log10f(float x) {
  return brook::stdlib::cr::brook_log10f(x);
}
BROOK_CR_SCALAR float brook_cr_sinhf(float x) {
  return brook::stdlib::cr::brook_sinhf(x);
}
BROOK_CR_SCALAR float brook_cr_coshf(float x) {
  return brook::stdlib::cr::brook_coshf(x);
}
BROOK_CR_SCALAR float brook_cr_tanhf(float x) {
  return brook::stdlib::cr::brook_tanhf(x);
}
BROOK_CR_SCALAR float brook_cr_atanf(float x) {
  return brook::stdlib::cr::brook_atanf(x);
}
BROOK_CR_SCALAR float brook_cr_asinf(float x) {
  return brook::stdlib::cr::brook_asinf(x);
}
BROOK_CR_SCALAR float brook_cr_acosf(float x) {
  return brook::stdlib::cr::brook_acosf(x);
}
BROOK_CR_SCALAR float brook_cr_sinf(float x) {
  return brook::stdlib::cr::brook_sinf(x);
}
BROOK_CR_SCALAR float brook_cr_cosf(float x) {
  return brook::stdlib::cr::brook_cosf(x);
}
BROOK_CR_SCALAR float brook_cr_tanf(float x) {
  return brook::stdlib::cr::brook_tanf(x);
}
BROOK_CR_SCALAR float brook_cr_atan2f(float y, float x) {
  return brook::stdlib::cr::brook_atan2f(y, x);
}
BROOK_CR_SCALAR BROOK_CR_FLAT float brook_cr_powf(float x, float y) {
  return brook::stdlib::cr::brook_powf(x, y);
}
// The double functions (stdlib/brook_math_double.h), one entry point each.
#define BROOK_CR_DOUBLE(F)                                      \
  BROOK_CR_SCALAR BROOK_CR_FLAT double brook_cr_##F(double x) { \
    return brook::stdlib::cr::brook_##F(x);                     \
  }
BROOK_CR_DOUBLE(exp)
BROOK_CR_DOUBLE(exp2)
BROOK_CR_DOUBLE(log)
BROOK_CR_DOUBLE(log2)
BROOK_CR_DOUBLE(log10)
BROOK_CR_DOUBLE(sin)
BROOK_CR_DOUBLE(cos)
BROOK_CR_DOUBLE(tan)
BROOK_CR_DOUBLE(asin)
BROOK_CR_DOUBLE(acos)
BROOK_CR_DOUBLE(atan)
BROOK_CR_DOUBLE(sinh)
BROOK_CR_DOUBLE(cosh)
BROOK_CR_DOUBLE(tanh)
#undef BROOK_CR_DOUBLE
BROOK_CR_SCALAR BROOK_CR_FLAT double brook_cr_atan2(double y, double x) {
  return brook::stdlib::cr::brook_atan2(y, x);
}
BROOK_CR_SCALAR BROOK_CR_FLAT double brook_cr_pow(double x, double y) {
  return brook::stdlib::cr::brook_pow(x, y);
}
}

namespace brook::stdlib {
namespace {

#if defined(__x86_64__) && defined(__GNUC__)
#define BROOK_GANG_AVX2_FN(F) brook_cr_##F##_gang_avx2
#define BROOK_GANG_AVX512_FN(F) brook_cr_##F##_gang_avx512
#else
#define BROOK_GANG_AVX2_FN(F) nullptr
#define BROOK_GANG_AVX512_FN(F) nullptr
#endif

struct Entry {
  Builtin id;
  std::string_view symbol;  // the JIT's extern "C" name
  std::string_view opencl;  // brook_math.h's own name
  float (*fn)(float);
  std::string_view gang_symbol;  // the JIT's name of the gang form
  BrookGangFn gang_base;
  BrookGangFn gang_avx2;    // null where the build has none
  BrookGangFn gang_avx512;  // likewise
};
// The functions brook_math.h defines so far; the rest of §10 still uses libm.
// One row per function: its builtin, then every name derived from F.
#define BROOK_MATH_ENTRY(ID, F)                                                     \
  Entry {                                                                           \
    Builtin::ID, "brook_cr_" #F, "brook_" #F, brook_cr_##F, "brook_cr_" #F "_gang", \
        brook_cr_##F##_gang_base, BROOK_GANG_AVX2_FN(F), BROOK_GANG_AVX512_FN(F)    \
  }
constexpr std::array kEntries{
    BROOK_MATH_ENTRY(exp, expf),   BROOK_MATH_ENTRY(exp2, exp2f),   BROOK_MATH_ENTRY(log, logf),
    BROOK_MATH_ENTRY(log2, log2f), BROOK_MATH_ENTRY(log10, log10f), BROOK_MATH_ENTRY(sinh, sinhf),
    BROOK_MATH_ENTRY(cosh, coshf), BROOK_MATH_ENTRY(tanh, tanhf),   BROOK_MATH_ENTRY(atan, atanf),
    BROOK_MATH_ENTRY(asin, asinf), BROOK_MATH_ENTRY(acos, acosf),   BROOK_MATH_ENTRY(sin, sinf),
    BROOK_MATH_ENTRY(cos, cosf),   BROOK_MATH_ENTRY(tan, tanf),
};
#undef BROOK_MATH_ENTRY

// The two-argument functions, whose gang forms take two input arrays.
struct Entry2 {
  Builtin id;
  std::string_view symbol;
  std::string_view opencl;
  float (*fn)(float, float);
  std::string_view gang_symbol;
  BrookGang2Fn gang_base;
  BrookGang2Fn gang_avx2;
  BrookGang2Fn gang_avx512;
};
#define BROOK_MATH_ENTRY2(ID, F)                                                    \
  Entry2 {                                                                          \
    Builtin::ID, "brook_cr_" #F, "brook_" #F, brook_cr_##F, "brook_cr_" #F "_gang", \
        brook_cr_##F##_gang_base, BROOK_GANG_AVX2_FN(F), BROOK_GANG_AVX512_FN(F)    \
  }
constexpr std::array kBinary{BROOK_MATH_ENTRY2(atan2, atan2f), BROOK_MATH_ENTRY2(pow, powf)};
#undef BROOK_MATH_ENTRY2

// The double functions (stdlib/brook_math_double.h: within one ulp, the same
// bits on every backend), every one of §10.
struct EntryD {
  Builtin id;
  std::string_view symbol;
  std::string_view opencl;
  double (*fn)(double);
};
#define BROOK_MATH_ENTRY_D(F)                             \
  EntryD {                                                \
    Builtin::F, "brook_cr_" #F, "brook_" #F, brook_cr_##F \
  }
constexpr std::array kDouble{
    BROOK_MATH_ENTRY_D(exp),  BROOK_MATH_ENTRY_D(exp2),  BROOK_MATH_ENTRY_D(log),
    BROOK_MATH_ENTRY_D(log2), BROOK_MATH_ENTRY_D(log10), BROOK_MATH_ENTRY_D(sin),
    BROOK_MATH_ENTRY_D(cos),  BROOK_MATH_ENTRY_D(tan),   BROOK_MATH_ENTRY_D(asin),
    BROOK_MATH_ENTRY_D(acos), BROOK_MATH_ENTRY_D(atan),  BROOK_MATH_ENTRY_D(sinh),
    BROOK_MATH_ENTRY_D(cosh), BROOK_MATH_ENTRY_D(tanh),
};
#undef BROOK_MATH_ENTRY_D
struct EntryD2 {
  Builtin id;
  std::string_view symbol;
  std::string_view opencl;
  double (*fn)(double, double);
};
constexpr std::array kDoubleBinary{
    EntryD2{Builtin::atan2, "brook_cr_atan2", "brook_atan2", brook_cr_atan2},
    EntryD2{Builtin::pow, "brook_cr_pow", "brook_pow", brook_cr_pow},
};

const EntryD* find_double(Builtin id) {
  for (const EntryD& e : kDouble)
    if (e.id == id) return &e;
  return nullptr;
}

const EntryD2* find_double2(Builtin id) {
  for (const EntryD2& e : kDoubleBinary)
    if (e.id == id) return &e;
  return nullptr;
}

const Entry* find(Builtin id) {
  for (const Entry& e : kEntries)
    if (e.id == id) return &e;
  return nullptr;
}

const Entry2* find2(Builtin id) {
  for (const Entry2& e : kBinary)
    if (e.id == id) return &e;
  return nullptr;
}

constexpr auto kSymbols = [] {
  std::array<BrookMathSymbol, kEntries.size()> out{};
  for (std::size_t i = 0; i < kEntries.size(); ++i) out[i] = {kEntries[i].symbol, kEntries[i].fn};
  return out;
}();

// The gang forms for this CPU, chosen once.
bool use_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2;
#else
  return false;
#endif
}

bool use_avx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx512 =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  return avx512;
#else
  return false;
#endif
}

template <class E>
auto gang_for_cpu(const E& e) {
  if (e.gang_avx512 && use_avx512()) return e.gang_avx512;
  return e.gang_avx2 && use_avx2() ? e.gang_avx2 : e.gang_base;
}

// Every gang form of e this CPU can run, by instruction set.
template <class Symbol, class E>
std::vector<Symbol> variants(const E& e) {
  std::vector<Symbol> out{{"base", e.gang_base}};
  if (e.gang_avx2 && use_avx2()) out.push_back({"avx2", e.gang_avx2});
  if (e.gang_avx512 && use_avx512()) out.push_back({"avx512", e.gang_avx512});
  return out;
}

}  // namespace

BrookMathFn brook_math_fn(Builtin id) {
  const Entry* e = find(id);
  return e ? e->fn : nullptr;
}

float brook_math_f32(Builtin id, float x) {
  const Entry* e = find(id);
  return e ? e->fn(x) : __builtin_bit_cast(float, 0x7fc00000u);
}

BrookMathFn2 brook_math_fn2(Builtin id) {
  const Entry2* e = find2(id);
  return e ? e->fn : nullptr;
}

std::string_view brook_math_symbol(Builtin id) {
  if (const Entry* e = find(id)) return e->symbol;
  const Entry2* e = find2(id);
  return e ? e->symbol : std::string_view{};
}

std::span<const BrookMathSymbol> brook_math_symbols() {
  return kSymbols;
}

std::span<const BrookMathSymbol2> brook_math_binary_symbols() {
  static constexpr auto symbols = [] {
    std::array<BrookMathSymbol2, kBinary.size()> out{};
    for (std::size_t i = 0; i < kBinary.size(); ++i) out[i] = {kBinary[i].symbol, kBinary[i].fn};
    return out;
  }();
  return symbols;
}

std::string_view brook_math_gang_symbol(Builtin id) {
  if (const Entry* e = find(id)) return e->gang_symbol;
  const Entry2* e = find2(id);
  return e ? e->gang_symbol : std::string_view{};
}

BrookMathFnD brook_math_fn_f64(Builtin id) {
  const EntryD* e = find_double(id);
  return e ? e->fn : nullptr;
}

BrookMathFn2D brook_math_fn2_f64(Builtin id) {
  const EntryD2* e = find_double2(id);
  return e ? e->fn : nullptr;
}

std::string_view brook_math_symbol_f64(Builtin id) {
  if (const EntryD* e = find_double(id)) return e->symbol;
  const EntryD2* e = find_double2(id);
  return e ? e->symbol : std::string_view{};
}

std::string_view brook_math_opencl_name_f64(Builtin id) {
  if (const EntryD* e = find_double(id)) return e->opencl;
  const EntryD2* e = find_double2(id);
  return e ? e->opencl : std::string_view{};
}

std::span<const BrookMathSymbolD> brook_math_double_symbols() {
  static constexpr auto symbols = [] {
    std::array<BrookMathSymbolD, kDouble.size()> out{};
    for (std::size_t i = 0; i < kDouble.size(); ++i) out[i] = {kDouble[i].symbol, kDouble[i].fn};
    return out;
  }();
  return symbols;
}

std::span<const BrookMathSymbol2D> brook_math_double_binary_symbols() {
  static constexpr auto symbols = [] {
    std::array<BrookMathSymbol2D, kDoubleBinary.size()> out{};
    for (std::size_t i = 0; i < kDoubleBinary.size(); ++i)
      out[i] = {kDoubleBinary[i].symbol, kDoubleBinary[i].fn};
    return out;
  }();
  return symbols;
}

std::string_view brook_math_inline_symbol(Builtin id) {
  // brook_math_inline.cpp's functions: brook_math_avx512.hpp's cores.
  if (!use_avx512()) return {};
  if (id == Builtin::exp) return "brook_inline_expf_16";
  if (id == Builtin::log) return "brook_inline_logf_16";
  return {};
}

BrookGangFn brook_math_gang_fn(Builtin id) {
  const Entry* e = find(id);
  return e ? gang_for_cpu(*e) : nullptr;
}

std::span<const BrookGangSymbol> brook_math_gang_symbols() {
  static const auto symbols = [] {
    std::array<BrookGangSymbol, kEntries.size()> out{};
    for (std::size_t i = 0; i < kEntries.size(); ++i)
      out[i] = {kEntries[i].gang_symbol, gang_for_cpu(kEntries[i])};
    return out;
  }();
  return symbols;
}

std::vector<BrookGangSymbol> brook_math_gang_variants(Builtin id) {
  const Entry* e = find(id);
  return e ? variants<BrookGangSymbol>(*e) : std::vector<BrookGangSymbol>{};
}

BrookGang2Fn brook_math_gang2_fn(Builtin id) {
  const Entry2* e = find2(id);
  return e ? gang_for_cpu(*e) : nullptr;
}

std::span<const BrookGang2Symbol> brook_math_gang2_symbols() {
  static const auto symbols = [] {
    std::array<BrookGang2Symbol, kBinary.size()> out{};
    for (std::size_t i = 0; i < kBinary.size(); ++i)
      out[i] = {kBinary[i].gang_symbol, gang_for_cpu(kBinary[i])};
    return out;
  }();
  return symbols;
}

std::vector<BrookGang2Symbol> brook_math_gang2_variants(Builtin id) {
  const Entry2* e = find2(id);
  return e ? variants<BrookGang2Symbol>(*e) : std::vector<BrookGang2Symbol>{};
}

std::string_view brook_math_opencl_name(Builtin id) {
  if (const Entry* e = find(id)) return e->opencl;
  const Entry2* e = find2(id);
  return e ? e->opencl : std::string_view{};
}

}  // namespace brook::stdlib
