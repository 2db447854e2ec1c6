// The preprocessor driver: splits each file into lines, runs directives,
// tracks conditionals and includes, and hands text lines to the macro expander.
#include "lang/preprocess.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>

#include "lang/lexer.hpp"
#include "lang/preprocess_expr.hpp"
#include "lang/preprocess_macros.hpp"

namespace brook {
namespace {

using pp::is_name_token;
using pp::Macro;
using pp::MacroKind;

constexpr int kMaxIncludeDepth = 64;
// Files processed in one run; an include tree without guards can otherwise grow
// exponentially without ever nesting too deeply.
constexpr size_t kMaxIncludes = 10'000;

constexpr std::string_view kPredefined[] = {
    "__BROOK__ 1",
    // C99 6.10.8: host code is C99 (LANGUAGE.md §9).
    "__STDC__ 1",
    "__STDC_VERSION__ 199901L",
    "__STDC_HOSTED__ 1",
    // C99's `restrict` and `_Bool`, C11's `_Noreturn`, and GCC's spellings of
    // them and of attributes (no effect on what a program computes).
    "restrict",
    "__restrict",
    "__restrict__",
    "_Bool bool",
    "_Noreturn",
    "__inline inline",
    "__inline__ inline",
    "__extension__",
    "__attribute__(list)",
    "NULL ((void*)0)",
    "RAND_MAX 2147483647",
    "EXIT_SUCCESS 0",
    "EXIT_FAILURE 1",
    "M_PI 3.14159265358979323846",
    "M_E 2.7182818284590452354",
    "INFINITY (1.0f/0.0f)",
    "NAN (fabsf(0.0f / 0.0f))",  // a quiet NaN with the sign bit clear, as glibc's
    "FLT_MAX 3.40282347e+38F",
    "FLT_MIN 1.17549435e-38F",
    "INT_MAX 2147483647",
    "INT_MIN (-2147483647-1)",
    "UINT_MAX 4294967295U",
    // <float.h>, <limits.h>, <stdint.h> as glibc on x86-64 defines them.
    "FLT_EPSILON 1.19209290e-7F",
    "FLT_DIG 6",
    "FLT_MANT_DIG 24",
    "FLT_MAX_EXP 128",
    "FLT_MIN_EXP (-125)",
    "FLT_RADIX 2",
    "DBL_MAX 1.7976931348623157e+308",
    "DBL_MIN 2.2250738585072014e-308",
    "DBL_EPSILON 2.2204460492503131e-16",
    "DBL_DIG 15",
    "DBL_MANT_DIG 53",
    "DBL_MAX_EXP 1024",
    "DBL_MIN_EXP (-1021)",
    "CHAR_BIT 8",
    "CHAR_MAX 127",
    "CHAR_MIN (-128)",
    "SCHAR_MAX 127",
    "SCHAR_MIN (-128)",
    "UCHAR_MAX 255",
    "SHRT_MAX 32767",
    "SHRT_MIN (-32768)",
    "USHRT_MAX 65535",
    "LONG_MAX 9223372036854775807L",
    "LONG_MIN (-9223372036854775807L-1)",
    "ULONG_MAX 18446744073709551615UL",
    "LLONG_MAX 9223372036854775807L",
    "LLONG_MIN (-9223372036854775807L-1)",
    "ULLONG_MAX 18446744073709551615UL",
    "INT8_MAX 127",
    "INT8_MIN (-128)",
    "UINT8_MAX 255",
    "INT16_MAX 32767",
    "INT16_MIN (-32768)",
    "UINT16_MAX 65535",
    "INT32_MAX 2147483647",
    "INT32_MIN (-2147483647-1)",
    "UINT32_MAX 4294967295U",
    "INT64_MAX 9223372036854775807L",
    "INT64_MIN (-9223372036854775807L-1)",
    "UINT64_MAX 18446744073709551615UL",
    "SIZE_MAX 18446744073709551615UL",
    "INTMAX_MAX 9223372036854775807L",
    "INTMAX_MIN (-9223372036854775807L-1)",
    "UINTMAX_MAX 18446744073709551615UL",
    "INTPTR_MAX 9223372036854775807L",
    "INTPTR_MIN (-9223372036854775807L-1)",
    "UINTPTR_MAX 18446744073709551615UL",
    "PTRDIFF_MAX 9223372036854775807L",
    "PTRDIFF_MIN (-9223372036854775807L-1)",
    // <stdint.h>'s constant macros and <inttypes.h>'s format strings, as
    // glibc on x86-64 spells them (long is 64-bit).
    "INT8_C(c) c",
    "INT16_C(c) c",
    "INT32_C(c) c",
    "INT64_C(c) c ## L",
    "UINT8_C(c) c",
    "UINT16_C(c) c",
    "UINT32_C(c) c ## U",
    "UINT64_C(c) c ## UL",
    "INTMAX_C(c) c ## L",
    "UINTMAX_C(c) c ## UL",
    "PRId8 \"d\"",
    "PRId16 \"d\"",
    "PRId32 \"d\"",
    "PRId64 \"ld\"",
    "PRIdMAX \"ld\"",
    "PRIdPTR \"ld\"",
    "PRIdLEAST8 \"d\"",
    "PRIdFAST8 \"d\"",
    "PRIdLEAST16 \"d\"",
    "PRIdFAST16 \"ld\"",
    "PRIdLEAST32 \"d\"",
    "PRIdFAST32 \"ld\"",
    "PRIdLEAST64 \"ld\"",
    "PRIdFAST64 \"ld\"",
    "PRIi8 \"i\"",
    "PRIi16 \"i\"",
    "PRIi32 \"i\"",
    "PRIi64 \"li\"",
    "PRIiMAX \"li\"",
    "PRIiPTR \"li\"",
    "PRIiLEAST8 \"i\"",
    "PRIiFAST8 \"i\"",
    "PRIiLEAST16 \"i\"",
    "PRIiFAST16 \"li\"",
    "PRIiLEAST32 \"i\"",
    "PRIiFAST32 \"li\"",
    "PRIiLEAST64 \"li\"",
    "PRIiFAST64 \"li\"",
    "PRIo8 \"o\"",
    "PRIo16 \"o\"",
    "PRIo32 \"o\"",
    "PRIo64 \"lo\"",
    "PRIoMAX \"lo\"",
    "PRIoPTR \"lo\"",
    "PRIoLEAST8 \"o\"",
    "PRIoFAST8 \"o\"",
    "PRIoLEAST16 \"o\"",
    "PRIoFAST16 \"lo\"",
    "PRIoLEAST32 \"o\"",
    "PRIoFAST32 \"lo\"",
    "PRIoLEAST64 \"lo\"",
    "PRIoFAST64 \"lo\"",
    "PRIu8 \"u\"",
    "PRIu16 \"u\"",
    "PRIu32 \"u\"",
    "PRIu64 \"lu\"",
    "PRIuMAX \"lu\"",
    "PRIuPTR \"lu\"",
    "PRIuLEAST8 \"u\"",
    "PRIuFAST8 \"u\"",
    "PRIuLEAST16 \"u\"",
    "PRIuFAST16 \"lu\"",
    "PRIuLEAST32 \"u\"",
    "PRIuFAST32 \"lu\"",
    "PRIuLEAST64 \"lu\"",
    "PRIuFAST64 \"lu\"",
    "PRIx8 \"x\"",
    "PRIx16 \"x\"",
    "PRIx32 \"x\"",
    "PRIx64 \"lx\"",
    "PRIxMAX \"lx\"",
    "PRIxPTR \"lx\"",
    "PRIxLEAST8 \"x\"",
    "PRIxFAST8 \"x\"",
    "PRIxLEAST16 \"x\"",
    "PRIxFAST16 \"lx\"",
    "PRIxLEAST32 \"x\"",
    "PRIxFAST32 \"lx\"",
    "PRIxLEAST64 \"lx\"",
    "PRIxFAST64 \"lx\"",
    "PRIX8 \"X\"",
    "PRIX16 \"X\"",
    "PRIX32 \"X\"",
    "PRIX64 \"lX\"",
    "PRIXMAX \"lX\"",
    "PRIXPTR \"lX\"",
    "PRIXLEAST8 \"X\"",
    "PRIXFAST8 \"X\"",
    "PRIXLEAST16 \"X\"",
    "PRIXFAST16 \"lX\"",
    "PRIXLEAST32 \"X\"",
    "PRIXFAST32 \"lX\"",
    "PRIXLEAST64 \"lX\"",
    "PRIXFAST64 \"lX\"",
    "SCNd8 \"hhd\"",
    "SCNd16 \"hd\"",
    "SCNd32 \"d\"",
    "SCNd64 \"ld\"",
    "SCNdMAX \"ld\"",
    "SCNdPTR \"ld\"",
    "SCNi8 \"hhi\"",
    "SCNi16 \"hi\"",
    "SCNi32 \"i\"",
    "SCNi64 \"li\"",
    "SCNiMAX \"li\"",
    "SCNiPTR \"li\"",
    "SCNo8 \"hho\"",
    "SCNo16 \"ho\"",
    "SCNo32 \"o\"",
    "SCNo64 \"lo\"",
    "SCNoMAX \"lo\"",
    "SCNoPTR \"lo\"",
    "SCNu8 \"hhu\"",
    "SCNu16 \"hu\"",
    "SCNu32 \"u\"",
    "SCNu64 \"lu\"",
    "SCNuMAX \"lu\"",
    "SCNuPTR \"lu\"",
    "SCNx8 \"hhx\"",
    "SCNx16 \"hx\"",
    "SCNx32 \"x\"",
    "SCNx64 \"lx\"",
    "SCNxMAX \"lx\"",
    "SCNxPTR \"lx\"",
    // <stdio.h>, <time.h>, <math.h>.
    "EOF (-1)",
    "SEEK_SET 0",
    "SEEK_CUR 1",
    "SEEK_END 2",
    "BUFSIZ 8192",
    "FILENAME_MAX 4096",
    "CLOCKS_PER_SEC 1000000L",
    // clock_gettime's clocks (POSIX, glibc's numbers).
    "CLOCK_REALTIME 0",
    "CLOCK_MONOTONIC 1",
    "CLOCK_PROCESS_CPUTIME_ID 2",
    "CLOCK_THREAD_CPUTIME_ID 3",
    "HUGE_VAL (1.0/0.0)",
    "HUGE_VALF (1.0f/0.0f)",
    "M_LN2 0.69314718055994530942",
    "M_LN10 2.30258509299404568402",
    "M_LOG2E 1.4426950408889634074",
    "M_LOG10E 0.43429448190325182765",
    "M_PI_2 1.57079632679489661923",
    "M_PI_4 0.78539816339744830962",
    "M_1_PI 0.31830988618379067154",
    "M_2_PI 0.63661977236758134308",
    "M_2_SQRTPI 1.12837916709551257390",
    "M_SQRT2 1.41421356237309504880",
    "M_SQRT1_2 0.70710678118654752440",
    // <math.h>'s classification macros (glibc's values and results) and the
    // rounding conversions (long is 64-bit, so the ll forms are the l forms).
    "FP_NAN 0",
    "FP_INFINITE 1",
    "FP_ZERO 2",
    "FP_SUBNORMAL 3",
    "FP_NORMAL 4",
    // Each argument is evaluated exactly once (C 7.1.4): `sizeof` does not
    // evaluate, ?: evaluates one arm, and fdim(a, b) is +0 unless a > b, NaN
    // only for a NaN argument.
    "isnormal(x) (sizeof(x) == sizeof(float) ? (unsigned)ilogbf(x) + 126u <= 253u "
    ": (unsigned)ilogb(x) + 1022u <= 2045u)",
    "fpclassify(x) (sizeof(x) == sizeof(float) ? __fpclassifyf(x) : __fpclassify(x))",
    // glibc's values: 1 for a double, the sign bit itself for a float.
    "signbit(x) (copysign(1.0, (x)) < 0 ? (sizeof(x) == sizeof(float) ? -2147483647 - 1 : 1) : 0)",
    "isgreater(x, y) (fdim((x), (y)) > 0)",
    "isgreaterequal(x, y) (fdim((y), (x)) == 0)",
    "isless(x, y) (fdim((y), (x)) > 0)",
    "islessequal(x, y) (fdim((x), (y)) == 0)",
    "islessgreater(x, y) (fabs((double)(x) - (double)(y)) > 0)",
    "isunordered(x, y) isnan(fdim((x), (y)))",
    "nan(tag) ((void)(tag), fabs(0.0 / 0.0))",
    "nanf(tag) ((void)(tag), fabsf(0.0f / 0.0f))",
    "lrint(x) ((long)rint(x))",
    "lrintf(x) ((long)rintf(x))",
    "llrint(x) ((long)rint(x))",
    "llrintf(x) ((long)rintf(x))",
    "llround(x) lround(x)",
    // <errno.h>: errno is an object of the program's (stdlib/builtins.cpp),
    // the codes glibc's on x86-64.
    "errno (*__brook_errno())",
    "EPERM 1",
    "ENOENT 2",
    "EINTR 4",
    "EIO 5",
    "EBADF 9",
    "EAGAIN 11",
    "ENOMEM 12",
    "EACCES 13",
    "EEXIST 17",
    "EINVAL 22",
    "ENOSPC 28",
    "EDOM 33",
    "ERANGE 34",
    "EILSEQ 84",
    // <stdio.h>'s buffering control: brook's stdout is its own, so these
    // accept any request and change nothing.
    "_IOFBF 0",
    "_IOLBF 1",
    "_IONBF 2",
    "setvbuf(f, buf, mode, size) ((void)(f), (void)(buf), (void)(mode), (void)(size), 0)",
    "setbuf(f, buf) ((void)(f), (void)(buf))",
    // <stdlib.h>'s and <inttypes.h>'s quotient-and-remainder types.
    "div_t struct __brook_div_t",
    "ldiv_t struct __brook_ldiv_t",
    "lldiv_t struct __brook_ldiv_t",
    "imaxdiv_t struct __brook_ldiv_t",
    // <stdarg.h>: the records of a variadic call (interp/varargs.hpp).
    "va_start(ap, last) ((void)((ap) = __brook_va_start()))",
    "va_arg(ap, T) (*(T*)__brook_va_arg(&(ap), (T*)0))",
    "va_end(ap) ((void)(ap))",
    "va_copy(dest, src) ((void)((dest) = (src)))",
    "__builtin_va_start(ap, last) va_start(ap, last)",
    "__builtin_va_arg(ap, T) va_arg(ap, T)",
    "__builtin_va_end(ap) va_end(ap)",
    "__builtin_va_copy(dest, src) va_copy(dest, src)",
    "__va_copy(dest, src) va_copy(dest, src)",
    // <stdlib.h>'s and <inttypes.h>'s long long and intmax_t forms are the
    // long ones (both 64-bit).
    "llabs(x) labs(x)",
    "imaxabs(x) labs(x)",
    "atoll(s) atol(s)",
    "strtoll(s, end, base) strtol((s), (end), (base))",
    "strtoull(s, end, base) strtoul((s), (end), (base))",
    "strtoimax(s, end, base) strtol((s), (end), (base))",
    "strtoumax(s, end, base) strtoul((s), (end), (base))",
    "llroundf(x) lroundf(x)",
    "scalbln(x, n) scalbn((x), (int)(n))",
    "scalblnf(x, n) scalbnf((x), (int)(n))",
    // <ctype.h> and <string.h> in the "C" locale.
    "isblank(c) (memchr(\" \\t\", (c), 2) != 0)",
    "offsetof(type, member) ((size_t) & ((type*)0)->member)",
    "strcoll(a, b) strcmp((a), (b))",
    "STREAM_GATHER_FETCH 0",
    "STREAM_GATHER_INC 1",
    "STREAM_SCATTER_ASSIGN 0",
    "STREAM_SCATTER_ADD 1",
    "STREAM_SCATTER_MUL 2",
    // BrookGPU's brt.hpp spelled the same operations with the element kind.
    "STREAM_GATHER_FLOAT_INC 1",
    "STREAM_GATHER_INTEGER_INC 1",
    "STREAM_SCATTER_FLOAT_ADD 1",
    "STREAM_SCATTER_INTEGER_ADD 1",
    "STREAM_SCATTER_FLOAT_MUL 2",
    "STREAM_SCATTER_INTEGER_MUL 2",
};

// Headers whose declarations are built in (LANGUAGE.md §2, §9): the C99 and
// C11 library, the POSIX headers numeric programs use for timing and files,
// and the platform headers real Brook programs include behind #ifdef.
bool is_standard_header(std::string_view name) {
  static constexpr std::string_view kHeaders[] = {
      "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h",
      "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdarg.h",
      "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "tgmath.h",
      "time.h", "wchar.h", "wctype.h", "stdalign.h", "stdnoreturn.h", "strings.h",
      "unistd.h", "sys/time.h", "sys/times.h", "sys/types.h", "sys/stat.h", "sys/timeb.h",
      "sys/resource.h", "fcntl.h", "malloc.h", "memory.h", "windows.h", "conio.h",
      "brook.h", "brook/brook.h", "brook/brook.hpp", "brook.hpp", "brt.hpp", "brook/brt.hpp",
  };
  for (std::string_view h : kHeaders)
    if (name == h) return true;
  return false;
}

struct Conditional {
  SourceLoc loc;       // the '#' of the #if, for "unterminated" errors
  bool parent_active;  // the enclosing region is being kept
  bool taken;          // some branch was already chosen (or none can be)
  bool in_else;
  bool active;         // the current branch is being kept
};

bool valid_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string canonical_path(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// The directive's tokens written back as text, one space where there was some.
std::string spelled(std::span<const Token> toks) {
  std::string s;
  for (size_t i = 0; i < toks.size(); ++i) {
    if (i > 0 && toks[i].space_before) s += ' ';
    s += toks[i].text;
  }
  return s;
}

class Preprocessor {
 public:
  Preprocessor(SourceManager& sources, DiagnosticEngine& diags, const PreprocessOptions& options)
      : sources_(sources), diags_(diags), options_(options), expander_(sources, diags) {}

  // `start`: the macros an earlier run left (null or empty: a fresh unit).
  PreprocessResult run(uint32_t file,
                       const std::unordered_map<std::string, Macro>* start = nullptr) {
    if (start) {
      expander_.macros() = *start;
    } else {
      for (std::string_view def : kPredefined) define_from_text(std::string(def));
      expander_.macros()["__FILE__"] = Macro{MacroKind::file_name, {}, false, {}, {}};
      expander_.macros()["__LINE__"] = Macro{MacroKind::line_number, {}, false, {}, {}};
      define_date_and_time();
      apply_command_line();
    }
    Token eof = process_file(file, 0);
    eof.at_line_start = true;
    result_.tokens.push_back(std::move(eof));
    return std::move(result_);
  }

  std::unordered_map<std::string, Macro>& macros() { return expander_.macros(); }

 private:
  void apply_command_line() {
    for (const std::string& def : options_.defines) {
      size_t eq = def.find('=');
      std::string name = def.substr(0, eq);
      std::string value = eq == std::string::npos ? "1" : def.substr(eq + 1);
      if (!valid_identifier(std::string_view(name).substr(0, name.find('(')))) {
        diags_.error(SourceLoc{}, "invalid macro name '" + name + "' in -D option");
        continue;
      }
      define_from_text(name + " " + value);
    }
  }

  // __DATE__ ("Dec  3 2026") and __TIME__ ("10:59:01"): when the
  // translation started, in local time, as gcc spells them (C99 6.10.8).
  void define_date_and_time() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char date[32], clock[32];
    std::strftime(date, sizeof date, "%b %e %Y", &local);
    std::strftime(clock, sizeof clock, "%H:%M:%S", &local);
    define_from_text(std::string("__DATE__ \"") + date + "\"");
    define_from_text(std::string("__TIME__ \"") + clock + "\"");
  }

  void define_from_text(const std::string& text) {
    std::vector<Token> toks = lex_fragment(text, SourceLoc{}, diags_);
    define(toks, SourceLoc{});
  }

  // Returns the file's eof token.
  Token process_file(uint32_t file, int depth) {
    // The lexer's diagnostics are held back and passed on only for regions
    // that are kept, so `#if 0` can hold text like "don't" (as in C compilers).
    DiagnosticEngine lex_diags(sources_);
    std::vector<Token> tokens = lex_file(sources_, file, lex_diags);
    const std::vector<Diagnostic>& held = lex_diags.diagnostics();
    size_t next_held = 0;
    auto pass_on = [&](SourceLoc limit, bool inclusive, bool keep) {
      for (; next_held < held.size(); ++next_held) {
        const SourceLoc at = held[next_held].loc;
        bool before = at.line < limit.line || (at.line == limit.line && at.col < limit.col) ||
                      (inclusive && at == limit);
        if (!before) break;
        if (keep) diags_.report(held[next_held].severity, at, held[next_held].message);
      }
    };
    std::vector<Conditional> conds;
    std::vector<Token> pending;
    size_t i = 0;
    while (!fatal_ && tokens[i].kind != Tok::eof) {
      const Token& t = tokens[i];
      const bool active = conds.empty() || conds.back().active;
      if (t.at_line_start && t.kind == Tok::hash) {
        size_t end = i + 1;
        while (tokens[end].kind != Tok::eof && !tokens[end].at_line_start) ++end;
        pass_on(tokens[end].loc, false, active);
        // Conditionals leave the macro table alone, so a macro call may span
        // them (GCC allows `F(a,\n#ifdef X\nb\n#endif\n)`); others see the text so far.
        if (!is_conditional(std::span<const Token>(tokens).subspan(i, end - i))) flush(pending);
        directive(std::span<const Token>(tokens).subspan(i, end - i), file, depth, conds);
        i = end;
        continue;
      }
      pass_on(t.loc, true, active);
      if (active) pending.push_back(t);
      ++i;
    }
    pass_on(SourceLoc{file, UINT32_MAX, UINT32_MAX}, true, !fatal_);
    flush(pending);
    if (!fatal_) {
      for (const Conditional& c : conds) diags_.error(c.loc, "unterminated conditional directive");
    }
    return tokens.back();
  }

  static bool is_conditional(std::span<const Token> line) {
    if (line.size() < 2) return true;  // the null directive
    const std::string& name = line[1].text;
    return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" ||
           name == "else" || name == "endif";
  }

  void flush(std::vector<Token>& pending) {
    if (pending.empty()) return;
    std::vector<Token> expanded = expander_.expand(pending);
    pending.clear();
    for (size_t i = 0; i < expanded.size(); ++i) {
      // `_Pragma("text")` (C99 6.10.9), after expansion: the directive
      // `#pragma text`, leaving no tokens behind.
      if (expanded[i].text == "_Pragma" && i + 3 < expanded.size() && expanded[i + 1].text == "(" &&
          expanded[i + 2].kind == Tok::string_literal && expanded[i + 3].text == ")") {
        pragma_operator(expanded[i], expanded[i + 2]);
        i += 3;
        continue;
      }
      if (expanded[i].text == "_Pragma") {
        diags_.error(expanded[i].loc, "'_Pragma' needs one string literal in parentheses");
        // Drop its parenthesised operand too, so that no second error follows.
        if (i + 1 < expanded.size() && expanded[i + 1].text == "(") {
          int depth = 0;
          for (++i; i < expanded.size(); ++i) {
            if (expanded[i].text == "(") ++depth;
            if (expanded[i].text == ")" && --depth == 0) break;
          }
        }
        continue;
      }
      result_.tokens.push_back(std::move(expanded[i]));
    }
  }

  void pragma_operator(const Token& op, const Token& literal) {
    const std::string& text = literal.str_value;  // destringized
    std::vector<Token> toks = lex_fragment(text, literal.loc, diags_);
    while (!toks.empty() && toks.back().kind == Tok::eof) toks.pop_back();
    pragma(toks, op.loc, op.loc.file);
  }

  void directive(std::span<const Token> line, uint32_t file, int depth,
                 std::vector<Conditional>& conds) {
    if (line.size() == 1) return;  // the null directive
    const SourceLoc loc = line[0].loc;
    const std::string name = is_name_token(line[1]) ? line[1].text : "";
    std::span<const Token> args = line.subspan(2);
    const bool active = conds.empty() || conds.back().active;

    if (name == "if" || name == "ifdef" || name == "ifndef") {
      bool value = false;
      if (active) {
        if (name == "if") {
          value = condition(args, loc);
        } else if (args.empty() || !is_name_token(args[0])) {
          diags_.error(args.empty() ? loc : args[0].loc, "macro name missing in #" + name);
        } else {
          value = (expander_.find(args[0].text) != nullptr) == (name == "ifdef");
          extra_tokens(args.subspan(1), name);
        }
      }
      conds.push_back({loc, active, !active || value, false, active && value});
      return;
    }
    if (name == "elif") {
      if (conds.empty()) return diags_.error(loc, "#elif without #if");
      Conditional& c = conds.back();
      if (c.in_else) return diags_.error(loc, "#elif after #else");
      if (c.taken) {
        c.active = false;
      } else {
        c.active = condition(args, loc);
        c.taken = c.active;
      }
      return;
    }
    if (name == "else") {
      if (conds.empty()) return diags_.error(loc, "#else without #if");
      Conditional& c = conds.back();
      if (c.in_else) return diags_.error(loc, "#else after #else");
      c.in_else = true;
      c.active = c.parent_active && !c.taken;
      c.taken = true;
      if (c.parent_active) extra_tokens(args, name);
      return;
    }
    if (name == "endif") {
      if (conds.empty()) return diags_.error(loc, "#endif without #if");
      if (conds.back().parent_active) extra_tokens(args, name);
      conds.pop_back();
      return;
    }
    if (!active) return;

    if (name == "include") return include(args, loc, file, depth);
    if (name == "define") return define(args, loc);
    if (name == "undef") {
      if (args.empty() || !is_name_token(args[0])) {
        return diags_.error(args.empty() ? loc : args[0].loc, "macro name missing in #undef");
      }
      expander_.macros().erase(args[0].text);
      extra_tokens(args.subspan(1), name);
      return;
    }
    if (name == "pragma") return pragma(args, loc, file);
    if (name == "error") return diags_.error(loc, args.empty() ? "#error" : spelled(args));
    if (name == "warning") return diags_.warning(loc, args.empty() ? "#warning" : spelled(args));
    if (name == "line") return;  // accepted; locations always name the real file and line
    diags_.error(loc, "invalid preprocessing directive '#" + line[1].text + "'");
  }

  void extra_tokens(std::span<const Token> rest, const std::string& directive) {
    if (!rest.empty()) {
      diags_.warning(rest[0].loc, "extra tokens at end of #" + directive + " directive");
    }
  }

  bool condition(std::span<const Token> args, SourceLoc loc) {
    if (args.empty()) {
      diags_.error(loc, "#if with no expression");
      return false;
    }
    // `defined` is resolved before macro expansion, as C requires.
    std::vector<Token> resolved;
    for (size_t k = 0; k < args.size(); ++k) {
      if (!(args[k].kind == Tok::identifier && args[k].text == "defined")) {
        resolved.push_back(args[k]);
        continue;
      }
      Token result = args[k];
      size_t n = k + 1;
      bool paren = n < args.size() && args[n].kind == Tok::l_paren;
      if (paren) ++n;
      if (n >= args.size() || !is_name_token(args[n])) {
        diags_.error(args[k].loc, "macro name missing after 'defined'");
        return false;
      }
      result.kind = Tok::int_literal;
      result.int_value = expander_.find(args[n].text) != nullptr ? 1 : 0;
      result.text.assign(1, result.int_value ? '1' : '0');  // not `= "1"`: GCC 12's false -Wrestrict
      if (paren) {
        if (n + 1 >= args.size() || args[n + 1].kind != Tok::r_paren) {
          diags_.error(args[n].loc, "missing ')' after 'defined'");
          return false;
        }
        ++n;
      }
      resolved.push_back(std::move(result));
      k = n;
    }
    std::vector<Token> expanded = expander_.expand(resolved);
    return pp::evaluate_condition(expanded, loc, diags_);
  }

  void include(std::span<const Token> args, SourceLoc loc, uint32_t file, int depth) {
    std::vector<Token> spec(args.begin(), args.end());
    if (!spec.empty() && spec[0].kind != Tok::string_literal && spec[0].kind != Tok::less) {
      spec = expander_.expand(spec);  // #include MACRO
    }
    bool angled = !spec.empty() && spec[0].kind == Tok::less;
    std::string name;
    size_t used = 1;
    if (angled) {
      // The tokens up to '>' spell the name: <sys/time.h> is several tokens.
      while (used < spec.size() && spec[used].kind != Tok::greater) {
        if (used > 1 && spec[used].space_before) name += ' ';
        name += spec[used++].text;
      }
      if (used == spec.size() || name.empty()) {
        return diags_.error(loc, "#include expects \"FILENAME\" or <FILENAME>");
      }
      ++used;
    } else if (spec.empty() || spec[0].kind != Tok::string_literal || spec[0].text.size() < 2 ||
               spec[0].text.back() != '"') {
      return diags_.error(loc, "#include expects \"FILENAME\" or <FILENAME>");
    } else {
      name = spec[0].text.substr(1, spec[0].text.size() - 2);
    }
    extra_tokens(std::span<const Token>(spec).subspan(used), "include");
    if (depth + 1 >= kMaxIncludeDepth) {
      diags_.error(loc, "#include nested too deeply");
      fatal_ = true;
      return;
    }
    if (++include_count_ > kMaxIncludes) {
      diags_.error(loc, "too many #include directives processed");
      fatal_ = true;
      return;
    }
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (fs::path(name).is_absolute()) {
      candidates.emplace_back(name);
    } else {
      // As a C compiler: "…" looks beside the including file first, <…> only in -I folders.
      if (!angled) candidates.push_back(fs::path(sources_.path(file)).parent_path() / name);
      for (const std::string& dir : options_.include_dirs) candidates.push_back(fs::path(dir) / name);
    }
    // A standard header is built in: <stdio.h> is never read, and "float.h"
    // only when the program has its own file of that name.
    if (angled && is_standard_header(name)) return;
    for (const fs::path& candidate : candidates) {
      std::error_code ec;
      if (!fs::is_regular_file(candidate, ec)) continue;
      std::string canon = canonical_path(candidate.string());
      if (once_.count(canon)) return;
      std::optional<uint32_t> id;
      if (auto it = loaded_.find(canon); it != loaded_.end()) {
        id = it->second;
      } else {
        id = sources_.load_file(candidate.string());
        if (id) loaded_[canon] = *id;
      }
      if (!id) continue;
      process_file(*id, depth + 1);
      return;
    }
    if (is_standard_header(name)) return;
    diags_.error(loc, "cannot open include file '" + name + "'");
  }

  void define(std::span<const Token> args, SourceLoc loc) {
    if (args.empty()) return diags_.error(loc, "macro name missing in #define");
    const Token& name = args[0];
    if (!is_name_token(name)) return diags_.error(name.loc, "macro names must be identifiers");
    if (name.text == "defined") {
      return diags_.error(name.loc, "'defined' cannot be used as a macro name");
    }
    Macro macro;
    macro.defined_at = name.loc;
    size_t k = 1;
    if (k < args.size() && args[k].kind == Tok::l_paren && !args[k].space_before) {
      macro.kind = MacroKind::function;
      if (!parameters(args, k, macro)) return;
    }
    macro.body.assign(args.begin() + static_cast<std::ptrdiff_t>(k), args.end());
    if (!macro.body.empty()) {
      if (macro.body.front().kind == Tok::hash_hash || macro.body.back().kind == Tok::hash_hash) {
        const Token& bad =
            macro.body.front().kind == Tok::hash_hash ? macro.body.front() : macro.body.back();
        return diags_.error(bad.loc, "'##' cannot appear at either end of a macro expansion");
      }
    }
    if (macro.kind == MacroKind::function) {
      for (size_t i = 0; i < macro.body.size(); ++i) {
        if (macro.body[i].kind != Tok::hash) continue;
        bool ok = i + 1 < macro.body.size() && is_name_token(macro.body[i + 1]);
        if (ok) {
          const std::string& p = macro.body[i + 1].text;
          ok = std::find(macro.params.begin(), macro.params.end(), p) != macro.params.end();
        }
        if (!ok) {
          return diags_.error(macro.body[i].loc, "'#' is not followed by a macro parameter");
        }
      }
    }
    auto& table = expander_.macros();
    if (auto it = table.find(name.text); it != table.end() && !same_definition(it->second, macro)) {
      diags_.warning(name.loc, "'" + name.text + "' macro redefined");
    }
    table[name.text] = std::move(macro);
  }

  // Parses "(a, b, ...)" starting at args[k] == '('; leaves k after ')'.
  bool parameters(std::span<const Token> args, size_t& k, Macro& macro) {
    ++k;
    if (k < args.size() && args[k].kind == Tok::r_paren) {
      ++k;
      return true;
    }
    for (;;) {
      if (k >= args.size()) {
        diags_.error(args[k - 1].loc, "missing ')' in macro parameter list");
        return false;
      }
      const Token& p = args[k];
      if (p.kind == Tok::ellipsis) {
        macro.variadic = true;
        macro.params.push_back("__VA_ARGS__");
        ++k;
        if (k >= args.size() || args[k].kind != Tok::r_paren) {
          diags_.error(k < args.size() ? args[k].loc : p.loc, "missing ')' in macro parameter list");
          return false;
        }
        ++k;
        return true;
      }
      if (!is_name_token(p) || p.text == "__VA_ARGS__") {
        diags_.error(p.loc, "expected a parameter name in the macro parameter list, found '" +
                                p.text + "'");
        return false;
      }
      if (std::find(macro.params.begin(), macro.params.end(), p.text) != macro.params.end()) {
        diags_.error(p.loc, "duplicate macro parameter '" + p.text + "'");
        return false;
      }
      macro.params.push_back(p.text);
      ++k;
      if (k < args.size() && args[k].kind == Tok::comma) {
        ++k;
        continue;
      }
      if (k < args.size() && args[k].kind == Tok::r_paren) {
        ++k;
        return true;
      }
      diags_.error(k < args.size() ? args[k].loc : p.loc,
                   "expected ',' or ')' in macro parameter list");
      return false;
    }
  }

  void pragma(std::span<const Token> args, SourceLoc loc, uint32_t file) {
    if (args.empty()) return;
    std::vector<std::string> words;
    for (const Token& t : args) words.push_back(t.text);
    if (words.size() == 1 && words[0] == "once") {
      once_.insert(canonical_path(sources_.path(file)));
      return;
    }
    if (words.size() == 2 && words[0] == "brook" && words[1] == "fp_relaxed") {
      result_.pragmas.push_back(Pragma{loc, std::move(words)});
      return;
    }
    // The compilers' own namespaces, which gcc does not warn about either
    // (`GCC diagnostic`, `clang loop`, `STDC FP_CONTRACT`). OpenMP's still
    // warn: the loop they mark runs on one thread.
    if (words[0] == "GCC" || words[0] == "clang" || words[0] == "STDC") return;
    diags_.warning(args[0].loc, "unknown pragma '" + spelled(args) + "' ignored");
  }

  SourceManager& sources_;
  DiagnosticEngine& diags_;
  const PreprocessOptions& options_;
  pp::Expander expander_;
  PreprocessResult result_;
  std::set<std::string> once_;                        // canonical paths
  std::unordered_map<std::string, uint32_t> loaded_;  // canonical path → file
  size_t include_count_ = 0;
  bool fatal_ = false;  // an include cycle or explosion: stop everything
};

}  // namespace

PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options) {
  return Preprocessor(sources, diags, options).run(file);
}

struct MacroTable::Impl {
  bool filled = false;
  std::unordered_map<std::string, Macro> macros;
};

MacroTable::MacroTable() : impl_(std::make_unique<Impl>()) {}
MacroTable::~MacroTable() = default;
MacroTable::MacroTable(const MacroTable& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
MacroTable& MacroTable::operator=(const MacroTable& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
// A moved-from table is empty, not null, so it stays usable.
MacroTable::MacroTable(MacroTable&& other) : impl_(std::make_unique<Impl>()) {
  std::swap(impl_, other.impl_);
}
MacroTable& MacroTable::operator=(MacroTable&& other) noexcept {
  if (this == &other) return *this;
  *impl_ = std::move(*other.impl_);
  other.impl_->filled = false;
  other.impl_->macros.clear();
  return *this;
}

bool MacroTable::empty() const { return !impl_->filled; }

std::vector<MacroTable::Definition> MacroTable::user_definitions() const {
  std::vector<Definition> out;
  for (const auto& [name, m] : impl_->macros) {
    if (!m.defined_at.valid()) continue;
    std::string text = "#define " + name;
    if (m.kind == MacroKind::function) {
      text += '(';
      for (size_t i = 0; i < m.params.size(); ++i) {
        if (i) text += ", ";
        text += m.variadic && i + 1 == m.params.size() ? std::string("...") : m.params[i];
      }
      text += ')';
    }
    if (!m.body.empty()) text += " " + spelled(m.body);
    out.push_back({name, std::move(text), m.defined_at});
  }
  return out;
}
bool MacroTable::defined(std::string_view name) const {
  return impl_->macros.count(std::string(name)) != 0;
}

PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options, MacroTable& macros) {
  MacroTable::Impl& table = *macros.impl_;
  Preprocessor pp(sources, diags, options);
  PreprocessResult result = pp.run(file, table.filled ? &table.macros : nullptr);
  table.macros = std::move(pp.macros());
  table.filled = true;
  return result;
}

}  // namespace brook
