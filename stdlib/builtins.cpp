// The builtin table (LANGUAGE.md §9). One row per Builtin, in enum order; the
// name table adds the C aliases and is sorted at compile time so find_builtin
// is a binary search.
#include "stdlib/builtins.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

namespace brook::stdlib {
namespace {

using B = Builtin;
constexpr std::size_t kCount = static_cast<std::size_t>(B::count_);

// Shorthands keep the table one readable line per builtin.
constexpr BuiltinInfo math(B id, std::string_view name, Sig sig, std::string_view cf,
                           std::string_view cd, std::string_view cl) {
  return {id, name, sig, Where::both, {}, cf, cd, cl};
}
constexpr BuiltinInfo plain(B id, std::string_view name, Sig sig, Where where = Where::both) {
  return {id, name, sig, where, {}, {}, {}, {}};
}
constexpr BuiltinInfo proto(B id, std::string_view name, std::string_view prototype,
                            Where where = Where::host) {
  return {id, name, Sig::Prototype, where, prototype, {}, {}, {}};
}

// opencl_name is left empty where OpenCL's builtin differs from ours on some
// input (NaN in min/max/clamp/step, -0.0 in sign, -1 for true in vector
// isnan, possible fusion in mad/dot): the OpenCL printer expands those.
constexpr std::array<BuiltinInfo, kCount> kInfos{{
    plain(B::none, "", Sig::Prototype),
    // abs on floats is fabs; on integers it is inline.
    math(B::abs, "abs", Sig::AnyUnary, "fabsf", "fabs", ""),
    math(B::fabs, "fabs", Sig::FloatUnary, "fabsf", "fabs", "fabs"),
    math(B::sqrt, "sqrt", Sig::FloatUnary, "sqrtf", "sqrt", "sqrt"),
    math(B::rsqrt, "rsqrt", Sig::FloatUnary, "", "", "rsqrt"),
    math(B::sin, "sin", Sig::FloatUnary, "sinf", "sin", "sin"),
    math(B::cos, "cos", Sig::FloatUnary, "cosf", "cos", "cos"),
    math(B::tan, "tan", Sig::FloatUnary, "tanf", "tan", "tan"),
    math(B::asin, "asin", Sig::FloatUnary, "asinf", "asin", "asin"),
    math(B::acos, "acos", Sig::FloatUnary, "acosf", "acos", "acos"),
    math(B::atan, "atan", Sig::FloatUnary, "atanf", "atan", "atan"),
    math(B::atan2, "atan2", Sig::FloatBinary, "atan2f", "atan2", "atan2"),
    math(B::sinh, "sinh", Sig::FloatUnary, "sinhf", "sinh", "sinh"),
    math(B::cosh, "cosh", Sig::FloatUnary, "coshf", "cosh", "cosh"),
    math(B::tanh, "tanh", Sig::FloatUnary, "tanhf", "tanh", "tanh"),
    math(B::exp, "exp", Sig::FloatUnary, "expf", "exp", "exp"),
    math(B::exp2, "exp2", Sig::FloatUnary, "exp2f", "exp2", "exp2"),
    math(B::log, "log", Sig::FloatUnary, "logf", "log", "log"),
    math(B::log2, "log2", Sig::FloatUnary, "log2f", "log2", "log2"),
    math(B::log10, "log10", Sig::FloatUnary, "log10f", "log10", "log10"),
    math(B::pow, "pow", Sig::FloatBinary, "powf", "pow", "pow"),
    math(B::floor, "floor", Sig::FloatUnary, "floorf", "floor", "floor"),
    math(B::ceil, "ceil", Sig::FloatUnary, "ceilf", "ceil", "ceil"),
    math(B::round, "round", Sig::FloatUnary, "roundf", "round", "round"),
    math(B::trunc, "trunc", Sig::FloatUnary, "truncf", "trunc", "trunc"),
    plain(B::frac, "frac", Sig::FloatUnary),
    math(B::fmod, "fmod", Sig::FloatBinary, "fmodf", "fmod", "fmod"),
    plain(B::min, "min", Sig::AnyBinary),
    plain(B::max, "max", Sig::AnyBinary),
    plain(B::clamp, "clamp", Sig::AnyTernary),
    plain(B::saturate, "saturate", Sig::FloatUnary),
    plain(B::lerp, "lerp", Sig::Lerp),
    plain(B::step, "step", Sig::FloatBinary),
    plain(B::smoothstep, "smoothstep", Sig::FloatTernary),
    plain(B::sign, "sign", Sig::AnyUnary),
    plain(B::mad, "mad", Sig::FloatTernary),
    math(B::fma, "fma", Sig::FloatTernary, "fmaf", "fma", "fma"),
    plain(B::isnan, "isnan", Sig::Classify),
    plain(B::isinf, "isinf", Sig::Classify),
    plain(B::isfinite, "isfinite", Sig::Classify),
    math(B::fmin, "fmin", Sig::FloatBinary, "fminf", "fmin", "fmin"),
    math(B::fmax, "fmax", Sig::FloatBinary, "fmaxf", "fmax", "fmax"),
    math(B::hypot, "hypot", Sig::FloatBinary, "hypotf", "hypot", "hypot"),
    math(B::cbrt, "cbrt", Sig::FloatUnary, "cbrtf", "cbrt", "cbrt"),
    plain(B::dot, "dot", Sig::Dot),
    math(B::cross, "cross", Sig::Cross, "", "", "cross"),
    plain(B::length, "length", Sig::Length),
    plain(B::distance, "distance", Sig::Distance),
    plain(B::normalize, "normalize", Sig::Normalize),
    plain(B::reflect, "reflect", Sig::Reflect),
    plain(B::any, "any", Sig::AnyAll),
    plain(B::all, "all", Sig::AnyAll),
    math(B::popcount, "popcount", Sig::IntUnary, "", "", "popcount"),
    math(B::clz, "clz", Sig::IntUnary, "", "", "clz"),
    plain(B::ctz, "ctz", Sig::IntUnary),  // ctz is OpenCL 2.0 only
    plain(B::instance, "instance", Sig::Instance, Where::kernel),
    plain(B::push, "push", Sig::Push, Where::kernel),
    plain(B::streamRead, "streamRead", Sig::Stream, Where::host),
    plain(B::streamWrite, "streamWrite", Sig::Stream, Where::host),
    plain(B::streamSwap, "streamSwap", Sig::Stream, Where::host),
    plain(B::streamPrint, "streamPrint", Sig::Stream, Where::host),
    plain(B::streamSize, "streamSize", Sig::Stream, Where::host),
    plain(B::streamGatherOp, "streamGatherOp", Sig::Stream, Where::host),
    plain(B::streamScatterOp, "streamScatterOp", Sig::Stream, Where::host),
    // printf also works inside kernels (LANGUAGE.md §5, [ext]).
    proto(B::printf, "printf", "int printf(char* format, ...)", Where::both),
    // `stdout`/`stderr` are host globals of type void* that the runtime provides.
    proto(B::fprintf, "fprintf", "int fprintf(void* stream, char* format, ...)"),
    proto(B::puts, "puts", "int puts(char* s)"),
    proto(B::putchar, "putchar", "int putchar(int c)"),
    proto(B::sprintf, "sprintf", "int sprintf(char* buffer, char* format, ...)"),
    proto(B::snprintf, "snprintf",
          "int snprintf(char* buffer, unsigned long size, char* format, ...)"),
    proto(B::malloc, "malloc", "void* malloc(unsigned long size)"),
    proto(B::calloc, "calloc", "void* calloc(unsigned long count, unsigned long size)"),
    proto(B::realloc, "realloc", "void* realloc(void* pointer, unsigned long size)"),
    proto(B::free, "free", "void free(void* pointer)"),
    proto(B::memset, "memset", "void* memset(void* dst, int value, unsigned long n)"),
    proto(B::memcpy, "memcpy", "void* memcpy(void* dst, void* src, unsigned long n)"),
    proto(B::memcmp, "memcmp", "int memcmp(void* a, void* b, unsigned long n)"),
    proto(B::strlen, "strlen", "unsigned long strlen(char* s)"),
    proto(B::strcmp, "strcmp", "int strcmp(char* a, char* b)"),
    proto(B::strcpy, "strcpy", "char* strcpy(char* dst, char* src)"),
    proto(B::atoi, "atoi", "int atoi(char* s)"),
    proto(B::atof, "atof", "double atof(char* s)"),
    proto(B::rand, "rand", "int rand(void)"),
    proto(B::srand, "srand", "void srand(unsigned int seed)"),
    proto(B::exit, "exit", "void exit(int status)"),
    proto(B::abort, "abort", "void abort(void)"),
    proto(B::assert_, "assert", "void assert_(int condition)"),
    proto(B::clock, "clock", "long clock(void)"),
    proto(B::fopen, "fopen", "void* fopen(char* path, char* mode)"),
    proto(B::fclose, "fclose", "int fclose(void* stream)"),
    proto(B::fputc, "fputc", "int fputc(int c, void* stream)"),
    proto(B::fputs, "fputs", "int fputs(char* s, void* stream)"),
    proto(B::fwrite, "fwrite",
          "unsigned long fwrite(void* data, unsigned long size, unsigned long count, void* stream)"),
    proto(B::fgetc, "fgetc", "int fgetc(void* stream)"),
    proto(B::fread, "fread",
          "unsigned long fread(void* data, unsigned long size, unsigned long count, void* stream)"),
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kCount; ++i)
    if (static_cast<std::size_t>(kInfos[i].id) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "kInfos must list every Builtin in enum order");

struct Alias {
  std::string_view name;
  B id;
  bool force_float;
};
constexpr std::array kAliases{
    Alias{"sinf", B::sin, true},         Alias{"cosf", B::cos, true},
    Alias{"tanf", B::tan, true},         Alias{"asinf", B::asin, true},
    Alias{"acosf", B::acos, true},       Alias{"atanf", B::atan, true},
    Alias{"atan2f", B::atan2, true},     Alias{"sinhf", B::sinh, true},
    Alias{"coshf", B::cosh, true},       Alias{"tanhf", B::tanh, true},
    Alias{"expf", B::exp, true},         Alias{"exp2f", B::exp2, true},
    Alias{"logf", B::log, true},         Alias{"log2f", B::log2, true},
    Alias{"log10f", B::log10, true},     Alias{"powf", B::pow, true},
    Alias{"sqrtf", B::sqrt, true},       Alias{"floorf", B::floor, true},
    Alias{"ceilf", B::ceil, true},       Alias{"roundf", B::round, true},
    Alias{"truncf", B::trunc, true},     Alias{"fmodf", B::fmod, true},
    Alias{"fabsf", B::fabs, true},       Alias{"fminf", B::fmin, true},
    Alias{"fmaxf", B::fmax, true},       Alias{"hypotf", B::hypot, true},
    Alias{"cbrtf", B::cbrt, true},       Alias{"fmaf", B::fma, true},
    Alias{"brmalloc", B::malloc, false}, Alias{"brfree", B::free, false},
};

// Every canonical name (except `none`) plus the aliases, sorted by name.
constexpr std::size_t kNameCount = kCount - 1 + kAliases.size();
constexpr std::array<BuiltinName, kNameCount> make_names() {
  std::array<BuiltinName, kNameCount> names{};
  std::size_t n = 0;
  for (std::size_t i = 1; i < kCount; ++i) names[n++] = {kInfos[i].name, kInfos[i].id, false};
  for (const Alias& a : kAliases) names[n++] = {a.name, a.id, a.force_float};
  std::sort(names.begin(), names.end(),
            [](const BuiltinName& a, const BuiltinName& b) { return a.name < b.name; });
  return names;
}
constexpr std::array<BuiltinName, kNameCount> kNames = make_names();

constexpr bool names_unique() {
  for (std::size_t i = 1; i < kNameCount; ++i)
    if (kNames[i - 1].name == kNames[i].name) return false;
  return true;
}
static_assert(names_unique(), "a builtin name appears twice");

}  // namespace

const BuiltinInfo& builtin_info(Builtin id) {
  auto index = static_cast<std::size_t>(id);
  return kInfos[index < kCount ? index : 0];
}

const BuiltinName* find_builtin(std::string_view name) {
  auto it =
      std::lower_bound(kNames.begin(), kNames.end(), name,
                       [](const BuiltinName& n, std::string_view key) { return n.name < key; });
  if (it == kNames.end() || it->name != name) return nullptr;
  return &*it;
}

std::span<const BuiltinInfo> all_builtins() {
  return {kInfos.data() + 1, kCount - 1};
}

std::span<const BuiltinName> all_builtin_names() {
  return kNames;
}

}  // namespace brook::stdlib
