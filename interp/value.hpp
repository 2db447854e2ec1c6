// Runtime values of the interpreter core. A scalar lives in an 8-byte `Scalar`
// (returned in a register); a vector in a `Vec` of up to four scalars.
// Aggregates (structs, arrays) are never values: they are addressed in memory.
#pragma once

#include "interp/interrupt.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lang/source.hpp"

namespace brook::interp {

// Integers are kept sign- or zero-extended to 64 bits in `i`; float in `f`,
// double in `d`; pointers in `u` (object id << 32 | byte offset).
union Scalar {
  int64_t i;
  uint64_t u;
  double d;
  float f;
};

template <class T>
inline T get(Scalar s) {
  if constexpr (std::is_same_v<T, float>) {
    return s.f;
  } else if constexpr (std::is_same_v<T, double>) {
    return s.d;
  } else if constexpr (std::is_same_v<T, bool>) {
    return s.i != 0;
  } else {
    return static_cast<T>(s.i);
  }
}

template <class T>
inline Scalar put(T v) {
  Scalar s;
  if constexpr (std::is_same_v<T, float>) {
    s.u = 0;
    s.f = v;
  } else if constexpr (std::is_same_v<T, double>) {
    s.d = v;
  } else {
    s.i = static_cast<int64_t>(v);
  }
  return s;
}

inline Scalar from_u64(uint64_t v) {
  Scalar s;
  s.u = v;
  return s;
}

struct Vec {
  std::array<Scalar, 4> c;
};

// A runtime error of the program: printed as file:line:col: runtime error: …
struct RuntimeError {
  SourceLoc loc;
  std::string message;
};

// Ctrl-C (interrupt_requested): unwinds to whoever runs the program.
using brook::Interrupted;

// exit(n): unwinds to whoever runs the program.
struct ExitRequest {
  int status;
  bool immediate = false;  // _Exit: no atexit handlers, no flushing
};

// longjmp: unwinds to the block that holds its setjmp (interp/setjmp_nodes.hpp);
// reaching whoever runs the program means that setjmp is no longer active.
struct LongJump {
  const void* site;  // the SetjmpNode
  uint8_t* fp;       // the frame the setjmp ran in
  int32_t value;
  SourceLoc loc;
};

template <class T>
inline T load_as(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void store_as(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace brook::interp
