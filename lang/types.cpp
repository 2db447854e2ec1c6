#include "lang/types.hpp"

#include <array>
#include <utility>

#include "lang/ast.hpp"

namespace brook {

namespace {

bool union_decl(const ast::StructDecl* d) { return d && d->is_union; }

struct ScalarFacts {
  const char* name;
  uint64_t size;
};

constexpr std::array<ScalarFacts, static_cast<int>(TypeKind::Error) + 1> kScalarFacts = {{
    {"void", 1},            // Void (size 1 so that void* arithmetic never divides by 0)
    {"bool", 1},            // Bool
    {"char", 1},            // Char
    {"unsigned char", 1},   // UChar
    {"short", 2},           // Short
    {"unsigned short", 2},  // UShort
    {"int", 4},             // Int
    {"unsigned int", 4},    // UInt
    {"long", 8},            // Long
    {"unsigned long", 8},   // ULong
    {"float", 4},           // Float
    {"double", 8},          // Double
    {"vector", 0},          // Vector (not a scalar)
    {"array", 0},           // Array
    {"pointer", 8},         // Pointer
    {"struct", 0},          // Struct
    {"stream", 8},          // Stream: a handle
    {"function", 0},        // Function (not an object)
    {"<error>", 1},         // Error
}};

// Vector names use the short spellings users write: uchar4, uint2.
std::string vector_component_name(TypeKind kind) {
  switch (kind) {
    case TypeKind::UChar:
      return "uchar";
    case TypeKind::UShort:
      return "ushort";
    case TypeKind::UInt:
      return "uint";
    case TypeKind::ULong:
      return "ulong";
    default:
      return kScalarFacts[static_cast<int>(kind)].name;
  }
}

}  // namespace

bool Type::is_signed() const {
  switch (kind) {
    case TypeKind::Char:
    case TypeKind::Short:
    case TypeKind::Int:
    case TypeKind::Long:
    case TypeKind::Float:
    case TypeKind::Double:
      return true;
    case TypeKind::Vector:
      return elem && elem->is_signed();
    default:
      return false;
  }
}

std::string Type::name() const {
  switch (kind) {
    case TypeKind::Vector:
      return (elem->is_fixed ? std::string("fixed") : vector_component_name(elem->kind)) +
             std::to_string(count);
    case TypeKind::Pointer:
    case TypeKind::Array:
    case TypeKind::Function:
      break;
    case TypeKind::Struct:
      return (union_decl(decl) ? "union " : "struct ") +
             (decl && !decl->name.empty() ? decl->name : std::string("<anonymous>"));
    case TypeKind::Stream: {
      std::string s = is_iter ? "iter " : "";
      s += elem->name() + "<";
      for (int i = 1; i < rank; ++i) s += ",";
      return s + ">";
    }
    default:
      return is_fixed ? "fixed" : kScalarFacts[static_cast<int>(kind)].name;
  }
  // Pointers, arrays and functions: C's declarator syntax, inside out.
  // `inner` is what goes where the name would: float*[10][4], int (*[4])(int).
  std::string inner;
  const Type* t = this;
  for (;;) {
    if (t->kind == TypeKind::Pointer) {
      inner = "*" + inner;
    } else if (t->kind == TypeKind::Array) {
      if (!inner.empty() && inner.front() == '*') inner = " (" + inner + ")";
      inner += t->count ? "[" + std::to_string(t->count) + "]" : "[]";
    } else if (t->kind == TypeKind::Function) {
      if (!inner.empty() && inner.front() == '*') inner = "(" + inner + ")";
      std::string ps = "(";
      for (size_t i = 0; i < t->params.size(); ++i) ps += (i ? ", " : "") + t->params[i]->name();
      if (t->variadic)
        ps += t->params.empty() ? "..." : ", ...";
      else if (t->params.empty() && !t->no_prototype)
        ps += "void";
      inner = (inner.empty() ? " " : " " + inner) + ps + ")";
    } else {
      break;
    }
    t = t->elem;
  }
  return t->name() + inner;
}

bool functions_compatible(const Type* a, const Type* b) {
  if (!a->is_function() || !b->is_function()) return false;
  if (a == b) return true;
  if (a->elem != b->elem) return false;
  return a->no_prototype || b->no_prototype;
}

TypeContext::TypeContext() {
  for (int i = 0; i <= static_cast<int>(TypeKind::Error); ++i) {
    Type& t = scalars_[i];
    t.kind = static_cast<TypeKind>(i);
    t.size = kScalarFacts[i].size;
    t.align = t.size ? t.size : 1;
  }
  fixed_ = scalars_[static_cast<int>(TypeKind::UChar)];
  fixed_.is_fixed = true;
}

const Type* TypeContext::kernel_view(const Type* t) {
  if (!t) return t;
  if (t->is_fixed) return float_type();
  if (t->is_vector() && t->elem->is_fixed) return vector(float_type(), t->count);
  if (t->is_array()) {
    const Type* e = kernel_view(t->elem);
    return e == t->elem ? t : array(e, t->count);
  }
  if (t->is_pointer()) {
    const Type* e = kernel_view(t->elem);
    return e == t->elem ? t : pointer(e);
  }
  return t;
}

const Type* TypeContext::scalar(TypeKind kind) const {
  return &scalars_[static_cast<int>(kind)];
}

const Type* TypeContext::intern(Type t) {
  auto key = std::make_tuple(static_cast<int>(t.kind),
                             t.kind == TypeKind::Struct ? static_cast<const void*>(t.decl)
                                                        : static_cast<const void*>(t.elem),
                             t.count, t.rank * 2 + (t.is_iter ? 1 : 0));
  auto it = interned_.find(key);
  if (it != interned_.end()) return it->second;
  owned_.push_back(t);
  const Type* p = &owned_.back();
  interned_.emplace(key, p);
  return p;
}

const Type* TypeContext::function(const Type* result, std::vector<const Type*> params,
                                  bool variadic, bool no_prototype) {
  auto key = std::make_tuple(result, params, variadic, no_prototype);
  auto it = functions_.find(key);
  if (it != functions_.end()) return it->second;
  Type t;
  t.kind = TypeKind::Function;
  t.elem = result;
  t.params = std::move(params);
  t.variadic = variadic;
  t.no_prototype = no_prototype;
  t.size = 0;
  t.align = 1;
  owned_.push_back(std::move(t));
  const Type* p = &owned_.back();
  functions_.emplace(std::move(key), p);
  return p;
}

const Type* TypeContext::vector(const Type* component, uint32_t count) {
  Type t;
  t.kind = TypeKind::Vector;
  t.elem = component;
  t.count = count;
  t.size = component->size * count;
  t.align = component->align;
  return intern(t);
}

const Type* TypeContext::array(const Type* elem, uint32_t count) {
  Type t;
  t.kind = TypeKind::Array;
  t.elem = elem;
  t.count = count;
  t.size = elem->size * count;
  t.align = elem->align;
  return intern(t);
}

const Type* TypeContext::pointer(const Type* pointee) {
  Type t;
  t.kind = TypeKind::Pointer;
  t.elem = pointee;
  t.size = 8;
  t.align = 8;
  return intern(t);
}

const Type* TypeContext::stream(const Type* elem, uint8_t rank, bool is_iter) {
  Type t;
  t.kind = TypeKind::Stream;
  t.elem = elem;
  t.rank = rank;
  t.is_iter = is_iter;
  t.size = 8;
  t.align = 8;
  return intern(t);
}

const Type* TypeContext::struct_type(const ast::StructDecl* decl) {
  Type t;
  t.kind = TypeKind::Struct;
  t.decl = decl;
  t.size = 0;
  t.align = 1;
  return intern(t);
}

void TypeContext::complete_struct(const Type* type, uint64_t size, uint64_t align) {
  // Types are handed out as const; the layout is the one piece filled in later,
  // and only this context owns the storage.
  for (Type& t : owned_) {
    if (&t == type) {
      t.size = size;
      t.align = align;
      return;
    }
  }
}

const Type* TypeContext::builtin_by_name(std::string_view name) {
  static constexpr std::pair<std::string_view, TypeKind> kScalarAliases[] = {
      {"uchar", TypeKind::UChar},
      {"uint", TypeKind::UInt},
      {"ushort", TypeKind::UShort},
      {"ulong", TypeKind::ULong},
      // <stddef.h>, <stdint.h>, <time.h> as on x86-64 Linux (LANGUAGE.md §9).
      {"size_t", TypeKind::ULong},
      {"ssize_t", TypeKind::Long},
      {"ptrdiff_t", TypeKind::Long},
      {"intptr_t", TypeKind::Long},
      {"uintptr_t", TypeKind::ULong},
      {"int8_t", TypeKind::Char},
      {"uint8_t", TypeKind::UChar},
      {"int16_t", TypeKind::Short},
      {"uint16_t", TypeKind::UShort},
      {"int32_t", TypeKind::Int},
      {"uint32_t", TypeKind::UInt},
      {"int64_t", TypeKind::Long},
      {"uint64_t", TypeKind::ULong},
      {"intmax_t", TypeKind::Long},
      {"uintmax_t", TypeKind::ULong},
      {"int_least8_t", TypeKind::Char},
      {"uint_least8_t", TypeKind::UChar},
      {"int_least16_t", TypeKind::Short},
      {"uint_least16_t", TypeKind::UShort},
      {"int_least32_t", TypeKind::Int},
      {"uint_least32_t", TypeKind::UInt},
      {"int_least64_t", TypeKind::Long},
      {"uint_least64_t", TypeKind::ULong},
      {"int_fast8_t", TypeKind::Char},
      {"uint_fast8_t", TypeKind::UChar},
      {"int_fast16_t", TypeKind::Long},
      {"uint_fast16_t", TypeKind::ULong},
      {"int_fast32_t", TypeKind::Long},
      {"uint_fast32_t", TypeKind::ULong},
      {"int_fast64_t", TypeKind::Long},
      {"uint_fast64_t", TypeKind::ULong},
      {"time_t", TypeKind::Long},
      {"clock_t", TypeKind::Long},
      {"suseconds_t", TypeKind::Long},
      {"useconds_t", TypeKind::UInt},
      // <stdio.h>'s fpos_t: a position ftell would give (glibc's is a struct).
      {"fpos_t", TypeKind::Long},
      // <signal.h>.
      {"sig_atomic_t", TypeKind::Int},
  };
  for (const auto& [alias, kind] : kScalarAliases)
    if (name == alias) return scalar(kind);
  // <setjmp.h>'s jmp_buf: 200 bytes, as glibc's (setjmp's record is 40).
  if (name == "jmp_buf" || name == "sigjmp_buf") return array(scalar(TypeKind::Long), 25);
  // <signal.h>'s handler type (glibc's two spellings).
  if (name == "sighandler_t" || name == "__sighandler_t")
    return pointer(function(void_type(), {int_type()}, false, false));
  // <stdio.h>'s FILE: a FILE* is a void* the host library checks on every use.
  if (name == "FILE") return void_type();
  // <stdarg.h>'s va_list: a pointer to the call's records (interp/varargs.hpp).
  if (name == "va_list" || name == "__builtin_va_list" || name == "__gnuc_va_list")
    return pointer(void_type());
  // BrookGPU's 8-bit `fixed` (see Type::is_fixed).
  if (name == "fixed") return fixed_type();
  if (name.size() == 6 && name.substr(0, 5) == "fixed" && name.back() >= '2' && name.back() <= '4')
    return vector(fixed_type(), static_cast<uint32_t>(name.back() - '0'));
  // BrookGPU's reduced-precision spellings (LANGUAGE.md §12): its CPU runtime
  // computed them in float, and so do we.
  static constexpr std::string_view kFloatAliases[] = {"shortfixed", "half"};
  for (std::string_view alias : kFloatAliases) {
    if (name == alias) return float_type();
    if (name.size() == alias.size() + 1 && name.substr(0, alias.size()) == alias &&
        name.back() >= '2' && name.back() <= '4')
      return vector(float_type(), static_cast<uint32_t>(name.back() - '0'));
  }
  static constexpr std::pair<std::string_view, TypeKind> kVectorBases[] = {
      {"float", TypeKind::Float}, {"double", TypeKind::Double}, {"int", TypeKind::Int},
      {"uint", TypeKind::UInt},   {"char", TypeKind::Char},     {"uchar", TypeKind::UChar},
      {"short", TypeKind::Short}, {"ushort", TypeKind::UShort},
  };
  if (name.size() < 2) return nullptr;
  char last = name.back();
  if (last < '2' || last > '4') return nullptr;
  std::string_view base = name.substr(0, name.size() - 1);
  for (const auto& [spelling, kind] : kVectorBases)
    if (base == spelling) return vector(scalar(kind), static_cast<uint32_t>(last - '0'));
  return nullptr;
}

}  // namespace brook
