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
  return {id, name, sig, Where::both, {}, cf, cd, cl, {}};
}
constexpr BuiltinInfo plain(B id, std::string_view name, Sig sig, Where where = Where::both) {
  return {id, name, sig, where, {}, {}, {}, {}, {}};
}
// A composed builtin: the recipe says how it is built (stdlib/recipe.hpp).
constexpr BuiltinInfo composed(B id, std::string_view name, Sig sig, std::string_view recipe) {
  return {id, name, sig, Where::both, {}, {}, {}, {}, recipe};
}
constexpr BuiltinInfo proto(B id, std::string_view name, std::string_view prototype,
                            Where where = Where::host) {
  return {id, name, Sig::Prototype, where, prototype, {}, {}, {}, {}};
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
    // Correctly rounded, unlike OpenCL's rsqrt.
    composed(B::rsqrt, "rsqrt", Sig::FloatUnary, "rsqrt(x) = 1 / sqrt(x)"),
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
    composed(B::frac, "frac", Sig::FloatUnary, "frac(x) = x - floor(x)"),
    math(B::fmod, "fmod", Sig::FloatBinary, "fmodf", "fmod", "fmod"),
    // HLSL's min and max, not fmin/fmax: a NaN operand gives `a` back.
    composed(B::min, "min", Sig::AnyBinary, "min(a, b) = b < a ? b : a"),
    composed(B::max, "max", Sig::AnyBinary, "max(a, b) = a < b ? b : a"),
    composed(B::clamp, "clamp", Sig::AnyTernary, "clamp(x, lo, hi) = min(max(x, lo), hi)"),
    composed(B::saturate, "saturate", Sig::FloatUnary, "saturate(x) = clamp(x, 0, 1)"),
    composed(B::lerp, "lerp", Sig::Lerp, "lerp(a, b, t) = a + t * (b - a)"),
    composed(B::step, "step", Sig::FloatBinary, "step(e, x) = x >= e ? 1 : 0"),
    composed(
        B::smoothstep, "smoothstep", Sig::FloatTernary,
        "smoothstep(e0, e1, x) = t * t * (3 - 2 * t) where t = saturate((x - e0) / (e1 - e0))"),
    // NaN and -0.0 give +0.
    composed(B::sign, "sign", Sig::AnyUnary, "sign(x) = x > 0 ? 1 : x < 0 ? -1 : 0"),
    // Not fused (fma is).
    composed(B::mad, "mad", Sig::FloatTernary, "mad(a, b, c) = a * b + c"),
    math(B::fma, "fma", Sig::FloatTernary, "fmaf", "fma", "fma"),
    plain(B::isnan, "isnan", Sig::Classify),
    plain(B::isinf, "isinf", Sig::Classify),
    plain(B::isfinite, "isfinite", Sig::Classify),
    math(B::fmin, "fmin", Sig::FloatBinary, "fminf", "fmin", "fmin"),
    math(B::fmax, "fmax", Sig::FloatBinary, "fmaxf", "fmax", "fmax"),
    math(B::hypot, "hypot", Sig::FloatBinary, "hypotf", "hypot", "hypot"),
    math(B::cbrt, "cbrt", Sig::FloatUnary, "cbrtf", "cbrt", "cbrt"),
    // ((a0*b0 + a1*b1) + a2*b2) + a3*b3, each product rounded on its own.
    composed(B::dot, "dot", Sig::Dot, "dot(a, b) = sum(a * b)"),
    composed(
        B::cross, "cross", Sig::Cross,
        "cross(a, b) = vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)"),
    composed(B::length, "length", Sig::Length, "length(v) = sqrt(dot(v, v))"),
    composed(B::distance, "distance", Sig::Distance, "distance(a, b) = length(a - b)"),
    // A zero vector gives NaNs.
    composed(B::normalize, "normalize", Sig::Normalize, "normalize(v) = v / length(v)"),
    composed(B::reflect, "reflect", Sig::Reflect, "reflect(i, n) = i - 2 * dot(n, i) * n"),
    // Cg's and GLSL's (HLSL's -n * sign(dot(i, ng)) differs where the dot is 0).
    composed(B::faceforward, "faceforward", Sig::FloatTernary,
             "faceforward(n, i, ng) = dot(ng, i) < 0 ? n : -n"),
    // NaN counts as nonzero.
    composed(B::any, "any", Sig::AnyAll, "any(v) = any_of(v != 0)"),
    composed(B::all, "all", Sig::AnyAll, "all(v) = all_of(v != 0)"),
    math(B::popcount, "popcount", Sig::IntUnary, "", "", "popcount"),
    math(B::clz, "clz", Sig::IntUnary, "", "", "clz"),
    plain(B::ctz, "ctz", Sig::IntUnary),  // ctz is OpenCL 2.0 only
    plain(B::instance, "instance", Sig::Instance, Where::kernel),
    plain(B::instanceInGroup, "instanceInGroup", Sig::Instance, Where::kernel),
    plain(B::syncGroup, "syncGroup", Sig::SyncGroup, Where::kernel),
    plain(B::push, "push", Sig::Push, Where::kernel),
    plain(B::pack_4ubyte, "pack_4ubyte", Sig::Pack4ubyte, Where::kernel),
    plain(B::unpack_4ubyte, "unpack_4ubyte", Sig::Unpack4ubyte, Where::kernel),
    plain(B::streamRead, "streamRead", Sig::Stream, Where::host),
    plain(B::streamWrite, "streamWrite", Sig::Stream, Where::host),
    plain(B::streamSwap, "streamSwap", Sig::Stream, Where::host),
    plain(B::streamAssign, "__streamAssign", Sig::Stream, Where::host),
    plain(B::streamPrint, "streamPrint", Sig::Stream, Where::host),
    plain(B::streamReadImage, "streamReadImage", Sig::Stream, Where::host),
    plain(B::streamWriteImage, "streamWriteImage", Sig::Stream, Where::host),
    plain(B::streamReadFile, "streamReadFile", Sig::Stream, Where::host),
    plain(B::streamWriteFile, "streamWriteFile", Sig::Stream, Where::host),
    plain(B::streamReadNpy, "streamReadNpy", Sig::Stream, Where::host),
    plain(B::streamWriteNpy, "streamWriteNpy", Sig::Stream, Where::host),
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
    proto(
        B::fwrite, "fwrite",
        "unsigned long fwrite(void* data, unsigned long size, unsigned long count, void* stream)"),
    proto(B::fgetc, "fgetc", "int fgetc(void* stream)"),
    proto(B::fread, "fread",
          "unsigned long fread(void* data, unsigned long size, unsigned long count, void* stream)"),
    proto(B::getchar, "getchar", "int getchar(void)"),
    proto(B::fgets, "fgets", "char* fgets(char* s, int n, void* stream)"),
    proto(B::scanf, "scanf", "int scanf(char* format, ...)"),
    proto(B::fscanf, "fscanf", "int fscanf(void* stream, char* format, ...)"),
    proto(B::sscanf, "sscanf", "int sscanf(char* s, char* format, ...)"),
    proto(B::fflush, "fflush", "int fflush(void* stream)"),
    proto(B::feof, "feof", "int feof(void* stream)"),
    proto(B::ferror, "ferror", "int ferror(void* stream)"),
    proto(B::clearerr, "clearerr", "void clearerr(void* stream)"),
    proto(B::ungetc, "ungetc", "int ungetc(int c, void* stream)"),
    proto(B::fseek, "fseek", "int fseek(void* stream, long offset, int whence)"),
    proto(B::ftell, "ftell", "long ftell(void* stream)"),
    proto(B::rewind, "rewind", "void rewind(void* stream)"),
    proto(B::remove, "remove", "int remove(char* path)"),
    proto(B::rename, "rename", "int rename(char* from, char* to)"),
    proto(B::time, "time", "long time(void* t)"),
    proto(B::difftime, "difftime", "double difftime(long end, long start)"),
    proto(B::gettimeofday, "gettimeofday", "int gettimeofday(void* tv, void* tz)"),
    proto(B::usleep, "usleep", "int usleep(unsigned int usec)"),
    proto(B::sleep, "sleep", "unsigned int sleep(unsigned int seconds)"),
    proto(B::isalpha, "isalpha", "int isalpha(int c)"),
    proto(B::isdigit, "isdigit", "int isdigit(int c)"),
    proto(B::isalnum, "isalnum", "int isalnum(int c)"),
    proto(B::isspace, "isspace", "int isspace(int c)"),
    proto(B::isupper, "isupper", "int isupper(int c)"),
    proto(B::islower, "islower", "int islower(int c)"),
    proto(B::isxdigit, "isxdigit", "int isxdigit(int c)"),
    proto(B::ispunct, "ispunct", "int ispunct(int c)"),
    proto(B::isprint, "isprint", "int isprint(int c)"),
    proto(B::iscntrl, "iscntrl", "int iscntrl(int c)"),
    proto(B::isgraph, "isgraph", "int isgraph(int c)"),
    proto(B::toupper, "toupper", "int toupper(int c)"),
    proto(B::tolower, "tolower", "int tolower(int c)"),
    proto(B::strncpy, "strncpy", "char* strncpy(char* dst, char* src, unsigned long n)"),
    proto(B::strncmp, "strncmp", "int strncmp(char* a, char* b, unsigned long n)"),
    proto(B::strncat, "strncat", "char* strncat(char* dst, char* src, unsigned long n)"),
    proto(B::strcat, "strcat", "char* strcat(char* dst, char* src)"),
    proto(B::strchr, "strchr", "char* strchr(char* s, int c)"),
    proto(B::strrchr, "strrchr", "char* strrchr(char* s, int c)"),
    proto(B::strstr, "strstr", "char* strstr(char* haystack, char* needle)"),
    proto(B::strdup, "strdup", "char* strdup(char* s)"),
    proto(B::memmove, "memmove", "void* memmove(void* dst, void* src, unsigned long n)"),
    proto(B::memchr, "memchr", "void* memchr(void* s, int c, unsigned long n)"),
    proto(B::strspn, "strspn", "unsigned long strspn(char* s, char* accept)"),
    proto(B::strcspn, "strcspn", "unsigned long strcspn(char* s, char* reject)"),
    proto(B::strpbrk, "strpbrk", "char* strpbrk(char* s, char* accept)"),
    proto(B::strtok, "strtok", "char* strtok(char* s, char* delim)"),
    proto(B::strerror, "strerror", "char* strerror(int errnum)"),
    proto(B::perror, "perror", "void perror(char* s)"),
    // errno (a predefined macro: `*__brook_errno()`), the object the host
    // library keeps the C library's errno in between calls.
    proto(B::brook_errno, "__brook_errno", "int* __brook_errno(void)"),
    // POSIX <strings.h>, <string.h> and <stdlib.h> functions numeric programs use.
    proto(B::strcasecmp, "strcasecmp", "int strcasecmp(char* a, char* b)"),
    proto(B::strncasecmp, "strncasecmp", "int strncasecmp(char* a, char* b, unsigned long n)"),
    proto(B::strnlen, "strnlen", "unsigned long strnlen(char* s, unsigned long n)"),
    proto(B::strndup, "strndup", "char* strndup(char* s, unsigned long n)"),
    proto(B::drand48, "drand48", "double drand48(void)"),
    proto(B::lrand48, "lrand48", "long lrand48(void)"),
    proto(B::mrand48, "mrand48", "long mrand48(void)"),
    proto(B::srand48, "srand48", "void srand48(long seed)"),
    // glibc's random() and srandom() are rand() and srand(): one generator.
    proto(B::random, "random", "long random(void)"),
    proto(B::srandom, "srandom", "void srandom(unsigned int seed)"),
    // <time.h>'s calendar functions (time_t is long); localtime, gmtime,
    // asctime and ctime return one static object each, as in C.
    proto(B::localtime, "localtime", "struct tm* localtime(long* t)"),
    proto(B::gmtime, "gmtime", "struct tm* gmtime(long* t)"),
    proto(B::mktime, "mktime", "long mktime(struct tm* tm)"),
    proto(B::strftime, "strftime",
          "unsigned long strftime(char* s, unsigned long max, char* format, struct tm* tm)"),
    proto(B::asctime, "asctime", "char* asctime(struct tm* tm)"),
    proto(B::ctime, "ctime", "char* ctime(long* t)"),
    // POSIX: a whole line into a heap buffer the call (re)allocates.
    proto(B::getline, "getline", "long getline(char** line, unsigned long* n, void* stream)"),
    // <stdarg.h> (predefined macros over these two: interp/varargs.hpp):
    // va_start(ap, last) is `ap = __brook_va_start()`, va_arg(ap, T) is
    // `*(T*)__brook_va_arg(&ap, (T*)0)`, the null pointer carrying T.
    proto(B::brook_va_start, "__brook_va_start", "void* __brook_va_start(void)"),
    proto(B::brook_va_arg, "__brook_va_arg", "void* __brook_va_arg(void** ap, ...)"),
    proto(B::vprintf, "vprintf", "int vprintf(char* format, void* ap)"),
    proto(B::vfprintf, "vfprintf", "int vfprintf(void* stream, char* format, void* ap)"),
    proto(B::vsprintf, "vsprintf", "int vsprintf(char* s, char* format, void* ap)"),
    proto(B::vsnprintf, "vsnprintf",
          "int vsnprintf(char* s, unsigned long n, char* format, void* ap)"),
    // <stdlib.h>'s quotient and remainder (div_t & co. are predefined macros
    // naming these structs) and its exit handlers.
    proto(B::div, "div", "struct __brook_div_t div(int numer, int denom)"),
    proto(B::ldiv, "ldiv", "struct __brook_ldiv_t ldiv(long numer, long denom)"),
    proto(B::lldiv, "lldiv", "struct __brook_ldiv_t lldiv(long numer, long denom)"),
    proto(B::imaxdiv, "imaxdiv", "struct __brook_ldiv_t imaxdiv(long numer, long denom)"),
    proto(B::atexit, "atexit", "int atexit(__atexit_fn_t fn)"),
    // POSIX <unistd.h> and <stdio.h>: the process and its descriptors.
    proto(B::getpid, "getpid", "int getpid(void)"),
    proto(B::system, "system", "int system(char* command)"),
    // POSIX: the reentrant strtok and rand, and the clocks of <time.h>.
    proto(B::strtok_r, "strtok_r", "char* strtok_r(char* s, char* delim, char** saveptr)"),
    proto(B::rand_r, "rand_r", "int rand_r(unsigned int* seed)"),
    proto(B::clock_gettime, "clock_gettime", "int clock_gettime(int clock, void* ts)"),
    // C11's and POSIX's aligned allocations (brook's checked objects have no
    // addresses to align, so they are malloc's), and two POSIX string functions.
    proto(B::aligned_alloc, "aligned_alloc",
          "void* aligned_alloc(unsigned long align, unsigned long size)"),
    proto(B::posix_memalign, "posix_memalign",
          "int posix_memalign(void** memptr, unsigned long align, unsigned long size)"),
    proto(B::stpcpy, "stpcpy", "char* stpcpy(char* dst, char* src)"),
    proto(B::strsep, "strsep", "char* strsep(char** stringp, char* delim)"),
    proto(B::isatty, "isatty", "int isatty(int fd)"),
    proto(B::fileno, "fileno", "int fileno(void* stream)"),
    proto(B::setenv, "setenv", "int setenv(char* name, char* value, int overwrite)"),
    proto(B::unsetenv, "unsetenv", "int unsetenv(char* name)"),
    proto(B::unlink, "unlink", "int unlink(char* path)"),
    proto(B::tmpfile, "tmpfile", "void* tmpfile(void)"),
    proto(B::freopen, "freopen", "void* freopen(char* path, char* mode, void* stream)"),
    // fpos_t is a long here (glibc's is a 16-byte struct; only its address
    // is ever passed).
    proto(B::fgetpos, "fgetpos", "int fgetpos(void* stream, long* pos)"),
    proto(B::fsetpos, "fsetpos", "int fsetpos(void* stream, long* pos)"),
    proto(B::Exit_, "_Exit", "void _Exit(int status)"),
    proto(B::getopt, "getopt", "int getopt(int argc, char** argv, char* optstring)"),
    proto(B::signal, "signal", "__sighandler_t signal(int sig, __sighandler_t handler)"),
    proto(B::raise, "raise", "int raise(int sig)"),
    proto(B::setjmp, "setjmp", "int setjmp(long* env)"),
    proto(B::longjmp, "longjmp", "void longjmp(long* env, int val)"),
    proto(B::setlocale, "setlocale", "char* setlocale(int category, char* locale)"),
    proto(B::fesetround, "fesetround", "int fesetround(int mode)"),
    proto(B::fegetround, "fegetround", "int fegetround(void)"),
    // GNU <math.h> extensions (glibc's, as the host's other math).
    proto(B::exp10, "exp10", "double exp10(double x)"),
    proto(B::exp10f, "exp10f", "float exp10f(float x)"),
    proto(B::sincos, "sincos", "void sincos(double x, double* s, double* c)"),
    proto(B::sincosf, "sincosf", "void sincosf(float x, float* s, float* c)"),
    proto(B::strxfrm, "strxfrm", "unsigned long strxfrm(char* dst, char* src, unsigned long n)"),
    proto(B::remquo, "remquo", "double remquo(double x, double y, int* quo)"),
    proto(B::remquof, "remquof", "float remquof(float x, float y, int* quo)"),
    proto(B::atol, "atol", "long atol(char* s)"),
    proto(B::strtol, "strtol", "long strtol(char* s, void* end, int base)"),
    proto(B::strtoul, "strtoul", "unsigned long strtoul(char* s, void* end, int base)"),
    proto(B::strtod, "strtod", "double strtod(char* s, void* end)"),
    proto(B::strtof, "strtof", "float strtof(char* s, void* end)"),
    proto(B::labs, "labs", "long labs(long x)"),
    proto(B::getenv, "getenv", "char* getenv(char* name)"),
    proto(B::erf, "erf", "double erf(double x)"),
    proto(B::erff, "erff", "float erff(float x)"),
    proto(B::erfc, "erfc", "double erfc(double x)"),
    proto(B::erfcf, "erfcf", "float erfcf(float x)"),
    proto(B::expm1, "expm1", "double expm1(double x)"),
    proto(B::expm1f, "expm1f", "float expm1f(float x)"),
    proto(B::log1p, "log1p", "double log1p(double x)"),
    proto(B::log1pf, "log1pf", "float log1pf(float x)"),
    proto(B::lgamma, "lgamma", "double lgamma(double x)"),
    proto(B::lgammaf, "lgammaf", "float lgammaf(float x)"),
    proto(B::tgamma, "tgamma", "double tgamma(double x)"),
    proto(B::tgammaf, "tgammaf", "float tgammaf(float x)"),
    proto(B::asinh, "asinh", "double asinh(double x)"),
    proto(B::asinhf, "asinhf", "float asinhf(float x)"),
    proto(B::acosh, "acosh", "double acosh(double x)"),
    proto(B::acoshf, "acoshf", "float acoshf(float x)"),
    proto(B::atanh, "atanh", "double atanh(double x)"),
    proto(B::atanhf, "atanhf", "float atanhf(float x)"),
    proto(B::rint, "rint", "double rint(double x)"),
    proto(B::rintf, "rintf", "float rintf(float x)"),
    proto(B::nearbyint, "nearbyint", "double nearbyint(double x)"),
    proto(B::nearbyintf, "nearbyintf", "float nearbyintf(float x)"),
    proto(B::logb, "logb", "double logb(double x)"),
    proto(B::logbf, "logbf", "float logbf(float x)"),
    proto(B::copysign, "copysign", "double copysign(double x, double y)"),
    proto(B::copysignf, "copysignf", "float copysignf(float x, float y)"),
    proto(B::nextafter, "nextafter", "double nextafter(double x, double y)"),
    proto(B::nextafterf, "nextafterf", "float nextafterf(float x, float y)"),
    proto(B::nexttoward, "nexttoward", "double nexttoward(double x, double y)"),
    proto(B::nexttowardf, "nexttowardf", "float nexttowardf(float x, double y)"),
    proto(B::remainder, "remainder", "double remainder(double x, double y)"),
    proto(B::remainderf, "remainderf", "float remainderf(float x, float y)"),
    proto(B::fdim, "fdim", "double fdim(double x, double y)"),
    proto(B::fdimf, "fdimf", "float fdimf(float x, float y)"),
    proto(B::ldexp, "ldexp", "double ldexp(double x, int e)"),
    proto(B::ldexpf, "ldexpf", "float ldexpf(float x, int e)"),
    proto(B::scalbn, "scalbn", "double scalbn(double x, int e)"),
    proto(B::scalbnf, "scalbnf", "float scalbnf(float x, int e)"),
    proto(B::frexp, "frexp", "double frexp(double x, int* e)"),
    proto(B::frexpf, "frexpf", "float frexpf(float x, int* e)"),
    proto(B::modf, "modf", "double modf(double x, double* ip)"),
    proto(B::modff, "modff", "float modff(float x, float* ip)"),
    proto(B::lround, "lround", "long lround(double x)"),
    proto(B::lroundf, "lroundf", "long lroundf(float x)"),
    proto(B::ilogb, "ilogb", "int ilogb(double x)"),
    proto(B::ilogbf, "ilogbf", "int ilogbf(float x)"),
    proto(B::fpclassify, "__fpclassify", "int __fpclassify(double x)"),
    proto(B::fpclassifyf, "__fpclassifyf", "int __fpclassifyf(float x)"),
    proto(B::qsort, "qsort",
          "void qsort(void* base, unsigned long n, unsigned long size, __compar_fn_t cmp)"),
    proto(B::bsearch, "bsearch",
          "void* bsearch(void* key, void* base, unsigned long n, unsigned long size, __compar_fn_t "
          "cmp)"),
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
    Alias{"getc", B::fgetc, false},      Alias{"putc", B::fputc, false},
    Alias{"strtold", B::strtod, false},  // long double is a double (README)
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
