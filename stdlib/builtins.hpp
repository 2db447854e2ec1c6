// The ONE table of builtin functions (LANGUAGE.md §9 and the stream operations
// of §4/§8). Sema resolves calls against it; the interpreter evaluates them
// with stdlib/reference.hpp; the JIT and OpenCL backends lower them from the
// spellings recorded here. This header depends on nothing else in brook.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace brook::stdlib {

enum class Builtin : uint16_t {
  none,
  // Math, per component on vectors; kernels and host.
  abs,
  fabs,
  sqrt,
  rsqrt,
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  atan2,
  sinh,
  cosh,
  tanh,
  exp,
  exp2,
  log,
  log2,
  log10,
  pow,
  floor,
  ceil,
  round,
  trunc,
  frac,
  fmod,
  min,
  max,
  clamp,
  saturate,
  lerp,
  step,
  smoothstep,
  sign,
  mad,
  fma,
  isnan,
  isinf,
  isfinite,
  fmin,
  fmax,
  hypot,
  cbrt,
  // Vector functions.
  dot,
  cross,
  length,
  distance,
  normalize,
  reflect,
  faceforward,
  any,
  all,
  // Integer bit functions.
  popcount,
  clz,
  ctz,
  // Kernel only: the invocation's position as int4 (Brook+).
  instance,
  // Kernel only, Brook+ work-groups (LANGUAGE.md §12): the invocation's
  // position inside its group as int4, and the group's barrier.
  instanceInGroup,
  syncGroup,
  // Kernel only: push(e) appends e's value to a vout output (§12).
  push,
  // Kernel only: BrookGPU's (Cg's) byte packing of a float4 into a float's bits (§12).
  pack_4ubyte,
  unpack_4ubyte,
  // Stream operations (host only).
  streamRead,
  streamWrite,
  streamSwap,
  streamAssign,  // `a = b;` between two host streams (sema's rewrite; LANGUAGE.md §12)
  streamPrint,
  // Streams to and from files (§4): images, raw elements, numpy's .npy.
  streamReadImage,
  streamWriteImage,
  streamReadFile,
  streamWriteFile,
  streamReadNpy,
  streamWriteNpy,
  streamSize,
  streamGatherOp,
  streamScatterOp,
  // Host C library.
  printf,
  fprintf,
  puts,
  putchar,
  sprintf,
  snprintf,
  malloc,
  calloc,
  realloc,
  free,
  memset,
  memcpy,
  memcmp,
  strlen,
  strcmp,
  strcpy,
  atoi,
  atof,
  rand,
  srand,
  exit,
  abort,
  assert_,
  clock,
  // [ext] Files, so programs can write images and read data: fopen returns NULL on failure.
  fopen,
  fclose,
  fputc,
  fputs,
  fwrite,
  fgetc,
  fread,
  // The rest of §9's C library (runtime/host_stdio.cpp, host_clib.cpp).
  getchar,
  fgets,
  scanf,
  fscanf,
  sscanf,
  fflush,
  feof,
  ferror,
  clearerr,
  ungetc,
  fseek,
  ftell,
  rewind,
  remove,
  rename,
  time,
  difftime,
  gettimeofday,
  usleep,
  sleep,
  isalpha,
  isdigit,
  isalnum,
  isspace,
  isupper,
  islower,
  isxdigit,
  ispunct,
  isprint,
  iscntrl,
  isgraph,
  toupper,
  tolower,
  strncpy,
  strncmp,
  strncat,
  strcat,
  strchr,
  strrchr,
  strstr,
  strdup,
  memmove,
  memchr,
  strspn,
  strcspn,
  strpbrk,
  strtok,
  strerror,
  perror,
  brook_errno,
  strcasecmp,
  strncasecmp,
  strnlen,
  strndup,
  drand48,
  lrand48,
  mrand48,
  srand48,
  random,
  srandom,
  localtime,
  gmtime,
  mktime,
  strftime,
  asctime,
  ctime,
  getline,
  brook_va_start,
  brook_va_arg,
  vprintf,
  vfprintf,
  vsprintf,
  vsnprintf,
  div,
  ldiv,
  lldiv,
  imaxdiv,
  atexit,
  getpid,
  system,
  strtok_r,
  rand_r,
  clock_gettime,
  aligned_alloc,
  posix_memalign,
  stpcpy,
  strsep,
  isatty,
  fileno,
  // POSIX's environment and files, C's other stdio streams, and _Exit.
  setenv,
  unsetenv,
  unlink,
  tmpfile,
  freopen,
  fgetpos,
  fsetpos,
  Exit_,
  // POSIX getopt (glibc's: it permutes argv) and <signal.h>'s signal/raise.
  getopt,
  signal,
  raise,
  // <setjmp.h> (the interpreter's own nodes: interp/setjmp_nodes.hpp).
  setjmp,
  longjmp,
  // <locale.h>: only the "C" locale.
  setlocale,
  // <fenv.h>'s rounding direction (host arithmetic; kernels keep nearest).
  fesetround,
  fegetround,
  exp10,
  exp10f,
  sincos,
  sincosf,
  strxfrm,
  remquo,
  remquof,
  atol,
  strtol,
  strtoul,
  strtod,
  strtof,
  labs,
  getenv,
  erf,
  erff,
  erfc,
  erfcf,
  expm1,
  expm1f,
  log1p,
  log1pf,
  lgamma,
  lgammaf,
  tgamma,
  tgammaf,
  asinh,
  asinhf,
  acosh,
  acoshf,
  atanh,
  atanhf,
  rint,
  rintf,
  nearbyint,
  nearbyintf,
  logb,
  logbf,
  copysign,
  copysignf,
  nextafter,
  nextafterf,
  nexttoward,  // long double is double here, so y is a double (LANGUAGE.md §9)
  nexttowardf,
  remainder,
  remainderf,
  fdim,
  fdimf,
  ldexp,
  ldexpf,
  scalbn,
  scalbnf,
  frexp,
  frexpf,
  modf,
  modff,
  lround,
  lroundf,
  ilogb,
  ilogbf,
  fpclassify,  // glibc's __fpclassify: what the fpclassify macro calls
  fpclassifyf,
  qsort,
  bsearch,
  count_  // number of entries
};

// How sema types a call.
enum class Sig : uint8_t {
  FloatUnary,    // genF f(genF). Integer arguments become float in kernels, double on the host.
  FloatBinary,   // genF f(genF, genF); a scalar argument broadcasts to the other's vector
  FloatTernary,  // genF f(genF, genF, genF)
  Lerp,          // genF lerp(genF a, genF b, genF t); t may be a scalar
  AnyUnary,      // genT f(genT): abs, sign — int stays int, float stays float
  AnyBinary,     // genT f(genT, genT): min, max — usual arithmetic conversions, broadcast
  AnyTernary,    // clamp(x, lo, hi)
  Classify,      // isnan/isinf/isfinite: genF → int (intN for vectors), 1 or 0
  Dot,           // T dot(TN, TN)
  Cross,         // float3 cross(float3, float3)
  Length,        // T length(TN)
  Distance,      // T distance(TN, TN)
  Normalize,     // TN normalize(TN)
  Reflect,       // TN reflect(TN i, TN n) = i - 2 * dot(n, i) * n
  AnyAll,        // int any(genT), int all(genT): nonzero components
  IntUnary,      // genI f(genI): popcount, clz, ctz on 32- or 64-bit integers
  Instance,      // int4 instance(), int4 instanceInGroup()
  SyncGroup,     // void syncGroup()
  Push,          // void push(e), e a `vout` parameter
  Pack4ubyte,    // float pack_4ubyte(float4)
  Unpack4ubyte,  // float4 unpack_4ubyte(float)
  Stream,        // a stream operation; sema checks each one by name
  Prototype,     // host library: a fixed C prototype, see BuiltinInfo::prototype
};

enum class Where : uint8_t { both, host, kernel };

struct BuiltinInfo {
  Builtin id;
  std::string_view name;       // the canonical name (the enum's, without a trailing '_')
  Sig sig;
  Where where;
  // Sig::Prototype: a C prototype sema parses once, e.g.
  // "void* memcpy(void* dst, void* src, unsigned long n)"; "..." marks variadics.
  std::string_view prototype;
  // The libm function computing it in float precision ("sinf"), for the JIT's
  // scalar fallback; empty when the operation is lowered inline.
  std::string_view c_float_name;
  // The libm function in double precision ("sin"); empty when inline.
  std::string_view c_double_name;
  // The OpenCL C builtin with the same semantics ("sin"); empty when the OpenCL
  // printer expands it inline or it is host-only.
  std::string_view opencl_name;
  // A composed builtin's recipe (stdlib/recipe.hpp), "lerp(a, b, t) = a + t *
  // (b - a)": every backend builds it from primitive operations. Empty for a
  // primitive builtin, which each backend lowers itself.
  std::string_view recipe;
};

// A name a program can call: the canonical names plus aliases (`sinf`,
// `sqrtf`, `fabsf`, `powf`, …, `brmalloc`, `brfree`, `assert`).
struct BuiltinName {
  std::string_view name;
  Builtin id;
  bool force_float;  // the C `…f` spellings: arguments are float even on the host
};

const BuiltinInfo& builtin_info(Builtin id);
// nullptr when `name` is not a builtin.
const BuiltinName* find_builtin(std::string_view name);
// Every entry except `none`, in enum order: all_builtins()[k - 1].id == Builtin(k).
std::span<const BuiltinInfo> all_builtins();
// Sorted by name (canonical names and aliases together).
std::span<const BuiltinName> all_builtin_names();

// Constants of §8 (also predefined as macros by the preprocessor).
enum GatherOp : int { STREAM_GATHER_FETCH = 0, STREAM_GATHER_INC = 1 };
enum ScatterOp : int { STREAM_SCATTER_ASSIGN = 0, STREAM_SCATTER_ADD = 1, STREAM_SCATTER_MUL = 2 };

}  // namespace brook::stdlib
