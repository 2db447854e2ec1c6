// The rest of §9's C library: <time.h> with gettimeofday and usleep,
// <ctype.h>, the strn*/str*/mem* functions of <string.h> beyond the basic
// ones, <stdlib.h>'s conversions and getenv, and <math.h>'s functions beyond
// the kernel builtins, in double and float forms. C's behaviour; every
// pointer checked.
#include <sys/time.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <thread>

#include "runtime/host_call.hpp"

namespace brook::host_detail {

namespace {

// sleep()/usleep() wake every 10 ms to look for Ctrl-C and the time limit,
// as the interpreter's loops do (interp/interrupt.hpp).
void interruptible_sleep(std::chrono::microseconds total) {
  const auto end = std::chrono::steady_clock::now() + total;
  for (auto now = std::chrono::steady_clock::now(); now < end; now = std::chrono::steady_clock::now()) {
    interp::poll_interrupt();
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(end - now, std::chrono::milliseconds(10)));
  }
}

using interp::from_u64;
using interp::put;

// A C string's bytes and the pointer to its first one.
struct CString {
  uint64_t p;
  std::string s;
};

// Where strtol and friends store the end pointer, when the caller asked.
void store_end(LibCall& c, Machine& m, uint64_t endp, uint64_t value) {
  if (endp) std::memcpy(m.memory.at(endp, 8, c.loc, true), &value, 8);
}

double unary_math(Builtin id, double x) {
  switch (id) {
    case Builtin::erf: return std::erf(x);
    case Builtin::erfc: return std::erfc(x);
    case Builtin::expm1: return std::expm1(x);
    case Builtin::log1p: return std::log1p(x);
    case Builtin::lgamma: return std::lgamma(x);
    case Builtin::tgamma: return std::tgamma(x);
    case Builtin::asinh: return std::asinh(x);
    case Builtin::acosh: return std::acosh(x);
    case Builtin::atanh: return std::atanh(x);
    // nearbyint, not rint: GCC expands rint inline as if the rounding were
    // to nearest (fabs, add 2^52, copysign); the value is the same, and
    // under fesetround only nearbyint's is C's.
    case Builtin::rint:
      return std::nearbyint(x);
    case Builtin::nearbyint: return std::nearbyint(x);
    case Builtin::logb: return std::logb(x);
    default: return NAN;
  }
}

float unary_mathf(Builtin id, float x) {
  switch (id) {
    case Builtin::erff: return std::erf(x);
    case Builtin::erfcf: return std::erfc(x);
    case Builtin::expm1f: return std::expm1(x);
    case Builtin::log1pf: return std::log1p(x);
    case Builtin::lgammaf: return std::lgamma(x);
    case Builtin::tgammaf: return std::tgamma(x);
    case Builtin::asinhf: return std::asinh(x);
    case Builtin::acoshf: return std::acosh(x);
    case Builtin::atanhf: return std::atanh(x);
    case Builtin::rintf:
      return std::nearbyint(x);
    case Builtin::nearbyintf: return std::nearbyint(x);
    case Builtin::logbf: return std::logb(x);
    default: return NAN;
  }
}

}  // namespace

// struct tm as the program sees it (lang/sema_decl.cpp, glibc's layout):
// nine ints, then long tm_gmtoff and char* tm_zone (left null: the zone's
// name is not an object of the program's).
constexpr uint64_t kTmSize = 56;

std::tm LibCall::load_tm(Machine& m, uint64_t p) {
  int32_t f[9];
  std::memcpy(f, m.memory.at(p, 36, loc), 36);
  std::tm t{};
  t.tm_sec = f[0], t.tm_min = f[1], t.tm_hour = f[2], t.tm_mday = f[3], t.tm_mon = f[4];
  t.tm_year = f[5], t.tm_wday = f[6], t.tm_yday = f[7], t.tm_isdst = f[8];
  return t;
}

void LibCall::store_tm(Machine& m, uint64_t p, const std::tm& t) {
  int32_t f[9] = {t.tm_sec,  t.tm_min,  t.tm_hour, t.tm_mday, t.tm_mon,
                  t.tm_year, t.tm_wday, t.tm_yday, t.tm_isdst};
  uint8_t* d = m.memory.at(p, kTmSize, loc, true);
  std::memset(d, 0, kTmSize);
  std::memcpy(d, f, 36);
  const int64_t gmtoff = t.tm_gmtoff;
  std::memcpy(d + 40, &gmtoff, 8);
}

uint64_t LibCall::static_object(Machine& m, uint64_t& slot, uint64_t size) {
  if (!slot) {
    slot = interp::make_pointer(m.memory.allocate(size, interp::ObjectKind::global, loc), 0);
    std::memset(m.memory.at(slot, size, loc, true), 0, size);
  }
  return slot;
}

uint64_t LibCall::next_token(Machine& m, uint64_t s, const std::string& delim, uint64_t& next) {
  // glibc's: skip delimiters, end the token at the next one with a NUL,
  // resume after it.
  if (!s) return 0;
  std::string rest = m.memory.read_string(s, loc);
  size_t start = rest.find_first_not_of(delim);
  if (start == std::string::npos) {
    next = s + rest.size();
    return 0;
  }
  size_t end = rest.find_first_of(delim, start);
  if (end == std::string::npos) {
    next = s + rest.size();
  } else {
    *m.memory.at(s + end, 1, loc, true) = 0;
    next = s + end + 1;
  }
  return s + start;
}

uint64_t LibCall::asctime_result(Machine& m, const std::tm& t) {
  char text[64] = {};
  if (!asctime_r(&t, text)) return 0;
  const uint64_t p = static_object(m, m.asctime_ptr, sizeof text);
  std::memcpy(m.memory.at(p, sizeof text, loc, true), text, sizeof text);
  return p;
}

uint8_t* LibCall::raw(Machine& m, bool write) {
  const bool narrow = id == Builtin::div;
  if (!narrow && id != Builtin::ldiv && id != Builtin::lldiv && id != Builtin::imaxdiv)
    return Node::raw(m, write);
  // C's quotient truncates toward zero and numer == quot * denom + rem; the
  // checked host arithmetic's rules (a zero divisor is an error, INT_MIN / -1
  // wraps) apply as to `/` and `%`.
  int64_t a = arg(m, 0).i, b = arg(m, 1).i;
  if (narrow) a = static_cast<int32_t>(a), b = static_cast<int32_t>(b);
  if (b == 0) throw RuntimeError{loc, "integer division by zero"};
  const uint64_t p = static_object(m, m.div_ptr, 16);
  uint8_t* d = m.memory.at(p, 16, loc, true);
  if (narrow) {
    auto x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
    interp::store_as<int32_t>(
        d, y == -1 ? static_cast<int32_t>(0u - static_cast<uint32_t>(x)) : x / y);
    interp::store_as<int32_t>(d + 4, y == -1 ? 0 : x % y);
  } else {
    interp::store_as<int64_t>(
        d, b == -1 ? static_cast<int64_t>(0ull - static_cast<uint64_t>(a)) : a / b);
    interp::store_as<int64_t>(d + 8, b == -1 ? 0 : a % b);
  }
  return d;
}

std::optional<Scalar> LibCall::clib(Machine& m) {
  auto str = [&](size_t i) { return m.memory.read_string(arg(m, i).u, loc); };
  auto ctype = [&](int (*f)(int)) {
    int32_t ch = static_cast<int32_t>(arg(m, 0).i);
    // C: the argument is EOF or an unsigned char's value; others are undefined.
    if (ch != EOF && (ch < 0 || ch > 255)) {
      throw RuntimeError{loc, "argument " + std::to_string(ch) + " of '" + call->callee +
                                  "' is neither EOF nor an unsigned char"};
    }
    return put<int32_t>(f(ch));
  };
  auto bool_ctype = [&](int (*f)(int)) {
    Scalar s = ctype(f);
    return put<int32_t>(s.i != 0 ? 1 : 0);  // glibc returns masks; only truth is portable
  };
  switch (id) {
    // <time.h>
    case Builtin::time: {
      int64_t now = static_cast<int64_t>(std::time(nullptr));
      if (uint64_t p = arg(m, 0).u) std::memcpy(m.memory.at(p, 8, loc, true), &now, 8);
      return put<int64_t>(now);
    }
    case Builtin::localtime:
    case Builtin::gmtime:
    case Builtin::ctime: {
      int64_t t = 0;
      std::memcpy(&t, m.memory.at(arg(m, 0).u, 8, loc), 8);
      const std::time_t tt = static_cast<std::time_t>(t);
      std::tm parts{};
      const bool ok = id == Builtin::gmtime ? gmtime_r(&tt, &parts) != nullptr
                                            : localtime_r(&tt, &parts) != nullptr;
      if (!ok) return from_u64(0);
      if (id == Builtin::ctime) return from_u64(asctime_result(m, parts));
      store_tm(m, static_object(m, m.tm_ptr, kTmSize), parts);
      return from_u64(m.tm_ptr);
    }
    case Builtin::mktime: {
      std::tm parts = load_tm(m, arg(m, 0).u);
      const std::time_t t = std::mktime(&parts);
      if (t != static_cast<std::time_t>(-1)) store_tm(m, arg(m, 0).u, parts);
      return put<int64_t>(static_cast<int64_t>(t));
    }
    case Builtin::asctime:
      return from_u64(asctime_result(m, load_tm(m, arg(m, 0).u)));
    case Builtin::strftime: {
      // A result longer than any real format gives counts as "did not fit".
      const uint64_t dst = arg(m, 0).u, max = std::min<uint64_t>(arg(m, 1).u, 1u << 16);
      const std::string fmt = str(2);
      const std::tm parts = load_tm(m, arg(m, 3).u);
      std::string out(max + 1, '\0');
      const size_t n = max ? std::strftime(out.data(), max, fmt.c_str(), &parts) : 0;
      if (n) std::memcpy(m.memory.at(dst, n + 1, loc, true), out.c_str(), n + 1);
      return put<uint64_t>(n);
    }
    case Builtin::difftime: return put<double>(static_cast<double>(arg(m, 0).i - arg(m, 1).i));
    case Builtin::gettimeofday: {
      uint64_t tv = arg(m, 0).u, tz = arg(m, 1).u;
      struct timeval now {};
      ::gettimeofday(&now, nullptr);
      if (tv) {
        int64_t fields[2] = {static_cast<int64_t>(now.tv_sec), static_cast<int64_t>(now.tv_usec)};
        std::memcpy(m.memory.at(tv, 16, loc, true), fields, 16);
      }
      if (tz) std::memset(m.memory.at(tz, 8, loc, true), 0, 8);  // struct timezone: obsolete, zero
      return put<int32_t>(0);
    }
    case Builtin::usleep:
      if (m.out) m.out->flush();
      interruptible_sleep(std::chrono::microseconds(static_cast<uint32_t>(arg(m, 0).u)));
      return put<int32_t>(0);
    case Builtin::sleep:
      if (m.out) m.out->flush();
      interruptible_sleep(std::chrono::seconds(static_cast<uint32_t>(arg(m, 0).u)));
      return put<uint32_t>(0);
    // <ctype.h>
    case Builtin::isalpha: return bool_ctype(::isalpha);
    case Builtin::isdigit: return bool_ctype(::isdigit);
    case Builtin::isalnum: return bool_ctype(::isalnum);
    case Builtin::isspace: return bool_ctype(::isspace);
    case Builtin::isupper: return bool_ctype(::isupper);
    case Builtin::islower: return bool_ctype(::islower);
    case Builtin::isxdigit: return bool_ctype(::isxdigit);
    case Builtin::ispunct: return bool_ctype(::ispunct);
    case Builtin::isprint: return bool_ctype(::isprint);
    case Builtin::iscntrl: return bool_ctype(::iscntrl);
    case Builtin::isgraph: return bool_ctype(::isgraph);
    case Builtin::toupper: return ctype(::toupper);
    case Builtin::tolower: return ctype(::tolower);
    // <string.h>
    case Builtin::strncpy: {
      uint64_t d = arg(m, 0).u, s = arg(m, 1).u, n = arg(m, 2).u;
      if (n == 0) return from_u64(d);
      // Reads at most n bytes of src, then pads with NULs to n, as C does.
      uint64_t len = 0;
      std::string src;
      while (len < n) {
        uint8_t ch = *m.memory.at(s + len, 1, loc);
        if (ch == 0) break;
        src += static_cast<char>(ch);
        ++len;
      }
      uint8_t* dst = m.memory.at(d, n, loc, true);
      std::memcpy(dst, src.data(), len);
      std::memset(dst + len, 0, n - len);
      return from_u64(d);
    }
    case Builtin::strncmp: {
      uint64_t a = arg(m, 0).u, b = arg(m, 1).u, n = arg(m, 2).u;
      for (uint64_t i = 0; i < n; ++i) {
        uint8_t x = *m.memory.at(a + i, 1, loc), y = *m.memory.at(b + i, 1, loc);
        if (x != y) return put<int32_t>(int32_t{x} - int32_t{y});  // glibc's value
        if (x == 0) break;
      }
      return put<int32_t>(0);
    }
    case Builtin::strcat:
    case Builtin::strncat: {
      uint64_t d = arg(m, 0).u;
      std::string s;
      if (id == Builtin::strcat) {
        s = str(1);
      } else {
        uint64_t sp = arg(m, 1).u, n = arg(m, 2).u;
        for (uint64_t i = 0; i < n; ++i) {
          uint8_t ch = *m.memory.at(sp + i, 1, loc);
          if (ch == 0) break;
          s += static_cast<char>(ch);
        }
      }
      uint64_t len = m.memory.string_length(d, loc);
      uint8_t* dst = m.memory.at(d + len, s.size() + 1, loc, true);
      std::memcpy(dst, s.c_str(), s.size() + 1);
      return from_u64(d);
    }
    case Builtin::strchr:
    case Builtin::strrchr: {
      uint64_t p = arg(m, 0).u;
      std::string s = m.memory.read_string(p, loc);
      char ch = static_cast<char>(arg(m, 1).i);
      size_t at = ch == 0 ? s.size() : id == Builtin::strchr ? s.find(ch) : s.rfind(ch);
      return from_u64(at == std::string::npos ? 0 : p + at);
    }
    case Builtin::strstr: {
      uint64_t p = arg(m, 0).u;
      size_t at = m.memory.read_string(p, loc).find(str(1));
      return from_u64(at == std::string::npos ? 0 : p + at);
    }
    case Builtin::strpbrk: {
      uint64_t p = arg(m, 0).u;
      size_t at = m.memory.read_string(p, loc).find_first_of(str(1));
      return from_u64(at == std::string::npos ? 0 : p + at);
    }
    case Builtin::strtok: {
      uint64_t s = arg(m, 0).u ? arg(m, 0).u : m.strtok_next;
      return from_u64(next_token(m, s, str(1), m.strtok_next));
    }
    case Builtin::strtok_r: {
      // strtok with its place kept in *saveptr, a char* of the program's.
      const uint64_t save = arg(m, 2).u;
      uint64_t next = interp::load_as<uint64_t>(m.memory.at(save, 8, loc));
      uint64_t s = arg(m, 0).u ? arg(m, 0).u : next;
      const uint64_t token = next_token(m, s, str(1), next);
      interp::store_as<uint64_t>(m.memory.at(save, 8, loc, true), next);
      return from_u64(token);
    }
    case Builtin::strerror: {
      // The host C library's message (glibc's, as gcc's programs print), in
      // a read-only object of its own.
      std::string text = ::strerror(static_cast<int32_t>(arg(m, 0).i));
      uint32_t id = m.memory.allocate(text.size() + 1, interp::ObjectKind::literal, loc);
      std::memcpy(m.memory.data(id), text.c_str(), text.size() + 1);
      return from_u64(interp::make_pointer(id, 0));
    }
    case Builtin::strxfrm: {
      // The "C" locale: the transformed string is the string itself.
      std::string s = str(1);
      uint64_t n = arg(m, 2).u;
      if (s.size() < n)
        std::memcpy(m.memory.at(arg(m, 0).u, s.size() + 1, loc, true), s.c_str(), s.size() + 1);
      return put<uint64_t>(s.size());
    }
    case Builtin::strspn: return put<uint64_t>(std::strspn(str(0).c_str(), str(1).c_str()));
    case Builtin::strcspn: return put<uint64_t>(std::strcspn(str(0).c_str(), str(1).c_str()));
    case Builtin::brook_errno:
      return from_u64(static_object(m, m.errno_ptr, sizeof(int)));
    case Builtin::strcasecmp:
    case Builtin::strncasecmp: {
      // The "C" locale: ASCII letters fold to lower case.
      std::string a = str(0), b = str(1);
      const uint64_t n = id == Builtin::strncasecmp ? arg(m, 2).u : UINT64_MAX;
      int r = 0;
      for (uint64_t i = 0; i < n; ++i) {
        int ca = i < a.size() ? std::tolower(static_cast<unsigned char>(a[i])) : 0;
        int cb = i < b.size() ? std::tolower(static_cast<unsigned char>(b[i])) : 0;
        if (ca != cb || ca == 0) {
          r = ca - cb;
          break;
        }
      }
      return put<int32_t>(r);  // glibc's value: the difference of the lowered bytes
    }
    case Builtin::strnlen: {
      const uint64_t p = arg(m, 0).u, n = arg(m, 1).u;
      uint64_t k = 0;
      while (k < n && *m.memory.at(p + k, 1, loc) != 0) ++k;
      return put<uint64_t>(k);
    }
    case Builtin::strndup: {
      const uint64_t p = arg(m, 0).u, n = arg(m, 1).u;
      uint64_t k = 0;
      while (k < n && *m.memory.at(p + k, 1, loc) != 0) ++k;
      uint64_t d = allocate(m, k + 1);
      uint8_t* dst = m.memory.at(d, k + 1, loc, true);
      if (k) std::memcpy(dst, m.memory.at(p, k, loc), k);
      dst[k] = 0;
      return from_u64(d);
    }
    // POSIX's 48-bit generator: X = (0x5DEECE66D X + 0xB) mod 2^48.
    case Builtin::srand48:
      m.rand48 = (static_cast<uint64_t>(static_cast<uint32_t>(arg(m, 0).i)) << 16) | 0x330eu;
      return put<int32_t>(0);
    case Builtin::drand48:
    case Builtin::lrand48:
    case Builtin::mrand48: {
      m.rand48 = (m.rand48 * 0x5deece66dull + 0xbu) & ((uint64_t{1} << 48) - 1);
      if (id == Builtin::drand48)
        return put<double>(std::ldexp(static_cast<double>(m.rand48), -48));
      if (id == Builtin::lrand48) return put<int64_t>(static_cast<int64_t>(m.rand48 >> 17));
      return put<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(m.rand48 >> 16)));
    }
    case Builtin::strdup: {
      std::string s = str(0);
      uint64_t p = allocate(m, s.size() + 1);
      std::memcpy(m.memory.at(p, s.size() + 1, loc, true), s.c_str(), s.size() + 1);
      return from_u64(p);
    }
    case Builtin::memmove: {
      uint64_t d = arg(m, 0).u, s = arg(m, 1).u, n = arg(m, 2).u;
      if (n) {
        const uint8_t* src = m.memory.at(s, n, loc);
        std::memmove(m.memory.at(d, n, loc, true), src, n);
      }
      return from_u64(d);
    }
    case Builtin::memchr: {
      uint64_t p = arg(m, 0).u, n = arg(m, 2).u;
      uint8_t ch = static_cast<uint8_t>(arg(m, 1).i);
      if (n == 0) return from_u64(0);
      const uint8_t* b = m.memory.at(p, n, loc);
      const void* hit = std::memchr(b, ch, n);
      return from_u64(hit ? p + static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - b) : 0);
    }
    // <stdlib.h>
    case Builtin::atol: return put<int64_t>(std::strtol(str(0).c_str(), nullptr, 10));
    case Builtin::labs: {
      int64_t x = arg(m, 0).i;
      return put<int64_t>(x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x);
    }
    case Builtin::strtol:
    case Builtin::strtoul: {
      uint64_t p = arg(m, 0).u, endp = arg(m, 1).u;
      int32_t base = static_cast<int32_t>(arg(m, 2).i);
      if (base != 0 && (base < 2 || base > 36)) {
        store_end(*this, m, endp, p);
        return put<int64_t>(0);
      }
      std::string s = m.memory.read_string(p, loc);
      char* end = nullptr;
      Scalar r = id == Builtin::strtol ? put<int64_t>(std::strtol(s.c_str(), &end, base))
                                       : put<uint64_t>(std::strtoul(s.c_str(), &end, base));
      store_end(*this, m, endp, p + static_cast<uint64_t>(end - s.c_str()));
      return r;
    }
    case Builtin::strtod:
    case Builtin::strtof: {
      uint64_t p = arg(m, 0).u, endp = arg(m, 1).u;
      std::string s = m.memory.read_string(p, loc);
      char* end = nullptr;
      Scalar r = id == Builtin::strtod ? put<double>(std::strtod(s.c_str(), &end))
                                       : put<float>(std::strtof(s.c_str(), &end));
      store_end(*this, m, endp, p + static_cast<uint64_t>(end - s.c_str()));
      return r;
    }
    case Builtin::div:
    case Builtin::ldiv:
    case Builtin::lldiv:
    case Builtin::imaxdiv:
      raw(m, false);  // a call whose struct result is discarded
      return put<int32_t>(0);
    case Builtin::atexit:
      m.atexit_handlers.push_back(arg(m, 0).u);
      return put<int32_t>(0);
    case Builtin::getpid:
      return put<int32_t>(static_cast<int32_t>(::getpid()));
    case Builtin::aligned_alloc:
      return from_u64(allocate(m, arg(m, 1).u));
    case Builtin::posix_memalign: {
      const uint64_t out = arg(m, 0).u, align = arg(m, 1).u, size = arg(m, 2).u;
      if (align < 8 || (align & (align - 1)) != 0) return put<int32_t>(EINVAL);  // glibc's rule
      const uint64_t p = allocate(m, size);
      interp::store_as<uint64_t>(m.memory.at(out, 8, loc, true), p);
      return put<int32_t>(0);
    }
    case Builtin::stpcpy: {
      const uint64_t d = arg(m, 0).u;
      const std::string s = str(1);
      std::memcpy(m.memory.at(d, s.size() + 1, loc, true), s.c_str(), s.size() + 1);
      return from_u64(d + s.size());
    }
    case Builtin::strsep: {
      // The token at *stringp, cut at the first delimiter (which becomes a
      // NUL); *stringp moves past it, or to NULL after the last token.
      const uint64_t at = arg(m, 0).u;
      const uint64_t s = interp::load_as<uint64_t>(m.memory.at(at, 8, loc));
      if (!s) return from_u64(0);
      const std::string rest = m.memory.read_string(s, loc), delim = str(1);
      const size_t cut = rest.find_first_of(delim);
      uint64_t next = 0;
      if (cut != std::string::npos) {
        *m.memory.at(s + cut, 1, loc, true) = 0;
        next = s + cut + 1;
      }
      interp::store_as<uint64_t>(m.memory.at(at, 8, loc, true), next);
      return from_u64(s);
    }
    case Builtin::rand_r: {
      // glibc's own generator on the program's seed.
      const uint64_t p = arg(m, 0).u;
      unsigned seed = interp::load_as<uint32_t>(m.memory.at(p, 4, loc));
      const int r = ::rand_r(&seed);
      interp::store_as<uint32_t>(m.memory.at(p, 4, loc, true), seed);
      return put<int32_t>(r);
    }
    case Builtin::clock_gettime: {
      const uint64_t ts = arg(m, 1).u;
      struct timespec now {};
      if (::clock_gettime(static_cast<clockid_t>(arg(m, 0).i), &now) != 0) return put<int32_t>(-1);
      if (ts) {
        int64_t fields[2] = {static_cast<int64_t>(now.tv_sec), static_cast<int64_t>(now.tv_nsec)};
        std::memcpy(m.memory.at(ts, 16, loc, true), fields, 16);
      }
      return put<int32_t>(0);
    }
    case Builtin::system: {
      // C's system(): the shell runs the command on the process's own
      // descriptors. stdout is not flushed first, as C does not: a program's
      // buffered output comes after the command's when stdout is a pipe,
      // exactly as under gcc (brook's stdout is the C library's).
      const uint64_t p = arg(m, 0).u;
      if (p == 0) return put<int32_t>(std::system(nullptr));
      const std::string command = m.memory.read_string(p, loc);
      return put<int32_t>(std::system(command.c_str()));
    }
    case Builtin::isatty:
      return put<int32_t>(::isatty(static_cast<int>(arg(m, 0).i)));
    case Builtin::fileno: {
      uint64_t p = arg(m, 0).u;
      if (p != 0 && p == m.stdout_ptr) return put<int32_t>(1);
      if (p != 0 && p == m.stderr_ptr) return put<int32_t>(2);
      return put<int32_t>(::fileno(any_file(m, p)));
    }
    case Builtin::exp10:
      return put<double>(::exp10(arg(m, 0).d));
    case Builtin::exp10f:
      return put<float>(::exp10f(arg(m, 0).f));
    case Builtin::sincos: {
      const double x = arg(m, 0).d;
      uint64_t s = arg(m, 1).u, c = arg(m, 2).u;
      interp::store_as<double>(m.memory.at(s, 8, loc, true), std::sin(x));
      interp::store_as<double>(m.memory.at(c, 8, loc, true), std::cos(x));
      return put<int32_t>(0);
    }
    case Builtin::sincosf: {
      const float x = arg(m, 0).f;
      uint64_t s = arg(m, 1).u, c = arg(m, 2).u;
      interp::store_as<float>(m.memory.at(s, 4, loc, true), std::sin(x));
      interp::store_as<float>(m.memory.at(c, 4, loc, true), std::cos(x));
      return put<int32_t>(0);
    }
    case Builtin::getenv: {
      // The string lives for the rest of the run, like the environment's.
      const char* v = std::getenv(str(0).c_str());
      if (!v) return from_u64(0);
      uint64_t n = std::strlen(v) + 1;
      uint64_t p = interp::make_pointer(m.memory.allocate(n, interp::ObjectKind::global, loc), 0);
      std::memcpy(m.memory.at(p, n, loc, true), v, n);
      return from_u64(p);
    }
    // <math.h>
    case Builtin::erf: case Builtin::erfc: case Builtin::expm1: case Builtin::log1p:
    case Builtin::lgamma: case Builtin::tgamma: case Builtin::asinh: case Builtin::acosh:
    case Builtin::atanh: case Builtin::rint: case Builtin::nearbyint: case Builtin::logb:
      return put<double>(unary_math(id, arg(m, 0).d));
    case Builtin::erff: case Builtin::erfcf: case Builtin::expm1f: case Builtin::log1pf:
    case Builtin::lgammaf: case Builtin::tgammaf: case Builtin::asinhf: case Builtin::acoshf:
    case Builtin::atanhf: case Builtin::rintf: case Builtin::nearbyintf: case Builtin::logbf:
      return put<float>(unary_mathf(id, arg(m, 0).f));
    case Builtin::copysign: return put<double>(std::copysign(arg(m, 0).d, arg(m, 1).d));
    case Builtin::copysignf: return put<float>(std::copysign(arg(m, 0).f, arg(m, 1).f));
    case Builtin::nextafter: return put<double>(std::nextafter(arg(m, 0).d, arg(m, 1).d));
    case Builtin::nextafterf: return put<float>(std::nextafter(arg(m, 0).f, arg(m, 1).f));
    // y is never rounded to float: nexttowardf(1, 1 + 2^-30) steps up.
    case Builtin::nexttoward:
      return put<double>(std::nexttoward(arg(m, 0).d, static_cast<long double>(arg(m, 1).d)));
    case Builtin::nexttowardf:
      return put<float>(std::nexttoward(arg(m, 0).f, static_cast<long double>(arg(m, 1).d)));
    case Builtin::remainder: return put<double>(std::remainder(arg(m, 0).d, arg(m, 1).d));
    case Builtin::remainderf: return put<float>(std::remainder(arg(m, 0).f, arg(m, 1).f));
    case Builtin::remquo:
    case Builtin::remquof: {
      int q = 0;
      Scalar r = id == Builtin::remquo ? put<double>(std::remquo(arg(m, 0).d, arg(m, 1).d, &q))
                                       : put<float>(std::remquo(arg(m, 0).f, arg(m, 1).f, &q));
      int32_t q32 = q;
      std::memcpy(m.memory.at(arg(m, 2).u, 4, loc, true), &q32, 4);
      return r;
    }
    case Builtin::fdim: return put<double>(std::fdim(arg(m, 0).d, arg(m, 1).d));
    case Builtin::fdimf: return put<float>(std::fdim(arg(m, 0).f, arg(m, 1).f));
    case Builtin::ldexp:
    case Builtin::scalbn:
      return put<double>(std::ldexp(arg(m, 0).d, static_cast<int>(arg(m, 1).i)));
    case Builtin::ldexpf:
    case Builtin::scalbnf:
      return put<float>(std::ldexp(arg(m, 0).f, static_cast<int>(arg(m, 1).i)));
    case Builtin::frexp:
    case Builtin::frexpf: {
      int e = 0;
      Scalar r = id == Builtin::frexp ? put<double>(std::frexp(arg(m, 0).d, &e))
                                      : put<float>(std::frexp(arg(m, 0).f, &e));
      int32_t e32 = e;
      std::memcpy(m.memory.at(arg(m, 1).u, 4, loc, true), &e32, 4);
      return r;
    }
    case Builtin::modf: {
      double ip = 0;
      double r = std::modf(arg(m, 0).d, &ip);
      std::memcpy(m.memory.at(arg(m, 1).u, 8, loc, true), &ip, 8);
      return put<double>(r);
    }
    case Builtin::modff: {
      float ip = 0;
      float r = std::modf(arg(m, 0).f, &ip);
      std::memcpy(m.memory.at(arg(m, 1).u, 4, loc, true), &ip, 4);
      return put<float>(r);
    }
    case Builtin::lround: return put<int64_t>(std::lround(arg(m, 0).d));
    case Builtin::lroundf: return put<int64_t>(std::lround(arg(m, 0).f));
    case Builtin::ilogb: return put<int32_t>(std::ilogb(arg(m, 0).d));
    case Builtin::ilogbf: return put<int32_t>(std::ilogb(arg(m, 0).f));
    case Builtin::fpclassify: return put<int32_t>(std::fpclassify(arg(m, 0).d));
    case Builtin::fpclassifyf: return put<int32_t>(std::fpclassify(arg(m, 0).f));
    default: return std::nullopt;
  }
}

}  // namespace brook::host_detail
