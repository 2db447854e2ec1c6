// The types of LANGUAGE.md §3. Types are interned by a TypeContext and compared
// by pointer: two `const Type*` are the same type iff they are equal.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace brook {

namespace ast {
struct StructDecl;
}

enum class TypeKind : uint8_t {
  Void,
  Bool,
  Char,  // signed, as on x86-64
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,  // 64-bit
  ULong,
  Float,
  Double,
  Vector,   // elem = component scalar, count = 2..4
  Array,    // elem, count (0 = unsized, `int a[]` before its size is known)
  Pointer,  // elem = pointee (void for void*)
  Struct,   // decl
  Stream,   // elem = element type, rank (0 = any, a kernel parameter `<>`), is_iter
  Function,  // host functions: elem = return type, params, variadic, no_prototype
  Error,    // the type of an expression that already produced a diagnostic
};

struct Type {
  TypeKind kind = TypeKind::Error;
  const Type* elem = nullptr;
  uint32_t count = 0;
  uint8_t rank = 0;
  bool is_iter = false;
  const ast::StructDecl* decl = nullptr;
  // Function types: the parameter types (adjusted: arrays and functions are
  // pointers); `f()` without a prototype (C99 6.7.5.3p14) takes any arguments.
  std::vector<const Type*> params;
  bool variadic = false;
  bool no_prototype = false;
  // C layout on x86-64. Vectors are tightly packed, aligned to their component.
  // A struct's layout is filled in when its definition is complete.
  uint64_t size = 0;
  uint64_t align = 1;
  // BrookGPU's `fixed` (LANGUAGE.md §12): an 8-bit unsigned normalised
  // number. On the host it is its byte (kind UChar, printed as 0..255); in
  // kernels and as a stream element it is the float byte / 255, and
  // streamRead/streamWrite convert between the two.
  bool is_fixed = false;

  bool is_void() const { return kind == TypeKind::Void; }
  bool is_error() const { return kind == TypeKind::Error; }
  bool is_scalar() const { return kind >= TypeKind::Bool && kind <= TypeKind::Double; }
  bool is_integer() const { return kind >= TypeKind::Bool && kind <= TypeKind::ULong; }
  bool is_floating() const { return kind == TypeKind::Float || kind == TypeKind::Double; }
  bool is_signed() const;  // signed integers and floating types
  bool is_vector() const { return kind == TypeKind::Vector; }
  // Scalar or vector: the types arithmetic operators accept.
  bool is_arithmetic() const { return is_scalar() || is_vector(); }
  bool is_array() const { return kind == TypeKind::Array; }
  bool is_pointer() const { return kind == TypeKind::Pointer; }
  bool is_struct() const { return kind == TypeKind::Struct; }
  bool is_stream() const { return kind == TypeKind::Stream; }
  bool is_function() const { return kind == TypeKind::Function; }
  // The component scalar of a vector, or the type itself for a scalar.
  const Type* scalar_of() const { return is_vector() ? elem : this; }
  // Number of components: vector width, 1 for scalars.
  uint32_t width() const { return is_vector() ? count : 1; }

  // How users write it: "float4", "unsigned int", "int*", "float[10][4]",
  // "struct Pixel", "float<,>" (a 2-D stream of float), "iter float2<,>",
  // "int (int, int)" (a function), "int (*)(int, int)", "int (*[4])(int)".
  std::string name() const;
};

// C's compatible function types (C99 6.7.5.3p15): equal, or one without a
// prototype and the same return type. False unless both are function types.
bool functions_compatible(const Type* a, const Type* b);

class TypeContext {
 public:
  TypeContext();
  TypeContext(const TypeContext&) = delete;
  TypeContext& operator=(const TypeContext&) = delete;

  const Type* void_type() const { return scalar(TypeKind::Void); }
  const Type* bool_type() const { return scalar(TypeKind::Bool); }
  const Type* int_type() const { return scalar(TypeKind::Int); }
  const Type* long_type() const { return scalar(TypeKind::Long); }
  const Type* ulong_type() const { return scalar(TypeKind::ULong); }
  const Type* float_type() const { return scalar(TypeKind::Float); }
  const Type* double_type() const { return scalar(TypeKind::Double); }
  const Type* char_type() const { return scalar(TypeKind::Char); }
  const Type* fixed_type() const { return &fixed_; }
  // `t` as kernels and streams see it: fixed, fixedN (also as the element of
  // arrays and pointers) become float, floatN; anything else is unchanged.
  const Type* kernel_view(const Type* t);
  const Type* error_type() const { return scalar(TypeKind::Error); }
  // Void, Bool .. Double, Error.
  const Type* scalar(TypeKind kind) const;
  const Type* vector(const Type* component, uint32_t count);
  const Type* array(const Type* elem, uint32_t count);
  const Type* pointer(const Type* pointee);
  const Type* stream(const Type* elem, uint8_t rank, bool is_iter = false);
  const Type* function(const Type* result, std::vector<const Type*> params, bool variadic,
                       bool no_prototype);
  // The struct type of a declaration (one per StructDecl). Its layout starts
  // empty; sema calls complete_struct once the fields are known.
  const Type* struct_type(const ast::StructDecl* decl);
  void complete_struct(const Type* type, uint64_t size, uint64_t align);

  // Builtin type names usable as identifiers: "float4", "uchar", "uint", "int2",
  // "double3", … (not the C keyword spellings such as "int", which the parser
  // handles). nullptr when `name` is not one.
  const Type* builtin_by_name(std::string_view name);

 private:
  Type scalars_[static_cast<int>(TypeKind::Error) + 1];
  Type fixed_;
  std::deque<Type> owned_;  // stable addresses
  std::map<std::tuple<int, const void*, uint32_t, int>, const Type*> interned_;
  std::map<std::tuple<const Type*, std::vector<const Type*>, bool, bool>, const Type*> functions_;
  const Type* intern(Type t);
};

}  // namespace brook
