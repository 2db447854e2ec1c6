// The executable form of a program: a tree of typed node objects, built once
// per function by the Compiler (compiler.hpp). Every decision that depends on
// a Type — which operation, which width, which offset — is made while building
// the tree, so running a node is a virtual call and the operation itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "interp/machine.hpp"
#include "interp/value.hpp"
#include "lang/types.hpp"

namespace brook::interp {

// An expression. Which methods a node implements follows its static type:
//   scalar or pointer  -> eval
//   vector             -> eval_vec
//   lvalue / aggregate -> raw (checked host address), and ptr (the program's
//                         pointer to it) where the address can be taken
// Calling one a node does not implement is a compiler bug, reported as such.
struct Node {
  SourceLoc loc;
  bool self_loading = false;  // a scalar place whose eval is its value
  virtual ~Node() = default;
  virtual Scalar eval(Machine& m);
  virtual void eval_vec(Machine& m, Vec& out);
  virtual uint8_t* raw(Machine& m, bool write);
  virtual uint64_t ptr(Machine& m);
};
using NodePtr = std::unique_ptr<Node>;

// jump: a goto on its way out to the block holding its label (Machine::jump_to).
// Loops pass on every flow from ret on, so a goto costs nothing where none is written.
enum class Flow : uint8_t { normal, brk, cont, ret, jump };

struct StmtNode {
  virtual ~StmtNode() = default;
  virtual Flow exec(Machine& m) = 0;
};
using StmtNodePtr = std::unique_ptr<StmtNode>;

[[noreturn]] void internal_error(SourceLoc loc, const std::string& what);

// ---------------------------------------------------------------------------
// Scalar kinds as C++ types. Memory holds them with C layout; bool is a byte.

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with the C++ type of a scalar (pointer: uint64_t).
template <class F>
decltype(auto) with_scalar(TypeKind k, F&& f) {
  switch (k) {
    case TypeKind::Bool: return f(Tag<bool>{});
    case TypeKind::Char: return f(Tag<int8_t>{});
    case TypeKind::UChar: return f(Tag<uint8_t>{});
    case TypeKind::Short: return f(Tag<int16_t>{});
    case TypeKind::UShort: return f(Tag<uint16_t>{});
    case TypeKind::Int: return f(Tag<int32_t>{});
    case TypeKind::UInt: return f(Tag<uint32_t>{});
    case TypeKind::Long: return f(Tag<int64_t>{});
    case TypeKind::Float: return f(Tag<float>{});
    case TypeKind::Double: return f(Tag<double>{});
    default: return f(Tag<uint64_t>{});  // ULong, Pointer
  }
}

template <class T>
inline T load_scalar(const uint8_t* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *p != 0;
  } else {
    return load_as<T>(p);
  }
}
template <class T>
inline void store_scalar(uint8_t* p, T v) {
  if constexpr (std::is_same_v<T, bool>) {
    *p = v ? 1 : 0;
  } else {
    store_as<T>(p, v);
  }
}

using LoadFn = Scalar (*)(const uint8_t*);
using StoreFn = void (*)(uint8_t*, Scalar);
LoadFn load_fn(const Type* t);    // scalar or pointer type
StoreFn store_fn(const Type* t);  // scalar or pointer type

// A vector's components to and from memory.
void load_vec(const Type* t, const uint8_t* p, Vec& v);
void store_vec(const Type* t, uint8_t* p, const Vec& v);

// The kind used to pick a scalar representation: pointers are unsigned longs.
inline TypeKind scalar_kind(const Type* t) {
  return t->is_pointer() ? TypeKind::ULong : t->kind;
}

}  // namespace brook::interp
