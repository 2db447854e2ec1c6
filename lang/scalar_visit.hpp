// The one pairing of each Brook scalar kind with the C++ type that holds it
// on the host (LANGUAGE.md §3: char is signed, long is 64-bit, bool is a
// byte), for code that reads or combines element bytes: the gather/scatter
// operators, printing values, argument checks.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "lang/types.hpp"

namespace brook {

// Calls f(T{}) with the host type T of scalar kind `k` (uint8_t for bool)
// and returns its result; nullopt for kinds that are not scalars.
template <class F>
auto visit_scalar(TypeKind k, F&& f) -> std::optional<decltype(f(int32_t{}))> {
  switch (k) {
    case TypeKind::Bool:
      return f(uint8_t{});
    case TypeKind::Char:
      return f(int8_t{});
    case TypeKind::UChar:
      return f(uint8_t{});
    case TypeKind::Short:
      return f(int16_t{});
    case TypeKind::UShort:
      return f(uint16_t{});
    case TypeKind::Int:
      return f(int32_t{});
    case TypeKind::UInt:
      return f(uint32_t{});
    case TypeKind::Long:
      return f(int64_t{});
    case TypeKind::ULong:
      return f(uint64_t{});
    case TypeKind::Float:
      return f(float{});
    case TypeKind::Double:
      return f(double{});
    default:
      return std::nullopt;
  }
}

// The value of type T stored at p (which need not be aligned).
template <class T>
T load_scalar(const void* p) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace brook
