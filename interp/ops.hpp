// The arithmetic of C on one scalar type, as functors shared by scalar and
// vector nodes. Signed overflow wraps; shifts mask their count as x86 does.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "interp/value.hpp"

namespace brook::interp::ops {

template <class T>
constexpr bool is_int = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class T, class F>
inline T wrap(T a, T b, F f) {
  if constexpr (is_int<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(f(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return static_cast<T>(f(a, b));
  }
}

struct Add {
  template <class T>
  static T apply(T a, T b) { return wrap(a, b, [](auto x, auto y) { return x + y; }); }
};
struct Sub {
  template <class T>
  static T apply(T a, T b) { return wrap(a, b, [](auto x, auto y) { return x - y; }); }
};
struct Mul {
  template <class T>
  static T apply(T a, T b) { return wrap(a, b, [](auto x, auto y) { return x * y; }); }
};
struct BitAnd {
  template <class T>
  static T apply(T a, T b) { if constexpr (is_int<T>) return a & b; else return a; }
};
struct BitOr {
  template <class T>
  static T apply(T a, T b) { if constexpr (is_int<T>) return a | b; else return a; }
};
struct BitXor {
  template <class T>
  static T apply(T a, T b) { if constexpr (is_int<T>) return a ^ b; else return a; }
};

// Integer division: the caller has rejected b == 0. INT_MIN / -1 wraps.
template <class T>
inline T div(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return b ? a : false;
  } else if constexpr (is_int<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
  } else {
    return a / b;
  }
}
template <class T>
inline T mod(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else if constexpr (is_int<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
    }
    return static_cast<T>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

// Shift counts are masked to the width of the promoted left operand.
template <class T>
inline T shl(T a, int64_t n) {
  if constexpr (is_int<T>) {
    constexpr int bits = sizeof(T) < 4 ? 32 : int(sizeof(T) * 8);
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) << (n & (bits - 1)));
  } else {
    return a;
  }
}
template <class T>
inline T shr(T a, int64_t n) {
  if constexpr (is_int<T>) {
    constexpr int bits = sizeof(T) < 4 ? 32 : int(sizeof(T) * 8);
    return static_cast<T>(a >> (n & (bits - 1)));
  } else {
    return a;
  }
}

struct Lt { template <class T> static bool apply(T a, T b) { return a < b; } };
struct Gt { template <class T> static bool apply(T a, T b) { return a > b; } };
struct Le { template <class T> static bool apply(T a, T b) { return a <= b; } };
struct Ge { template <class T> static bool apply(T a, T b) { return a >= b; } };
struct Eq { template <class T> static bool apply(T a, T b) { return a == b; } };
struct Ne { template <class T> static bool apply(T a, T b) { return a != b; } };

}  // namespace brook::interp::ops
