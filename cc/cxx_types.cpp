#include "cc/cxx_types.hpp"

#include "lang/ast.hpp"

namespace brook::cc {

namespace {

const char* const kFields[] = {"x", "y", "z", "w"};

// A guard macro name for a type ("struct Particle" → BROOK_CC_TYPE_struct_Particle).
std::string guard_of(const std::string& name) {
  std::string g = "BROOK_CC_TYPE_";
  for (char c : name) g += (c == ' ') ? '_' : c;
  return g;
}

}  // namespace

std::string CxxTypes::declare(const Type* t, const std::string& name) {
  if (!t) return {};
  std::string space = name.empty() ? "" : " " + name;
  if (t->is_scalar() && !t->is_void()) return t->name() + space;
  if (t->is_vector()) {
    define(t);
    return t->name() + space;
  }
  if (t->is_struct()) {
    if (!t->decl || struct_name(t).empty() || t->decl->is_union || t->size == 0) return {};
    for (const ast::FieldDecl& f : t->decl->fields) {
      if (f.anonymous || declare(f.type, f.name).empty()) return {};
    }
    define(t);
    return struct_name(t) + space;
  }
  if (t->is_array() && t->count > 0) {
    std::string inner = declare(t->elem, name + "[" + std::to_string(t->count) + "]");
    return inner;
  }
  return {};
}

std::string CxxTypes::struct_name(const Type* t) const {
  if (!t->decl->name.empty()) return t->decl->name;
  auto it = anonymous_.find(t);
  return it == anonymous_.end() ? std::string() : it->second;
}

std::string CxxTypes::brookgpu_type_list(const Type* t) {
  if (!t || !t->is_struct() || spell(t).empty()) return {};
  std::string list;
  for (const ast::FieldDecl& f : t->decl->fields) {
    const Type* ft = f.type;
    const bool is_float =
        ft->is_vector() ? ft->elem->kind == TypeKind::Float : ft->kind == TypeKind::Float;
    const bool is_double =
        ft->is_vector() ? ft->elem->kind == TypeKind::Double : ft->kind == TypeKind::Double;
    const uint32_t n = ft->is_vector() ? ft->count : 1;
    std::string code;
    if (ft->is_vector() || ft->is_scalar()) {
      if (is_float) code = n == 1 ? "__BRTFLOAT" : "__BRTFLOAT" + std::to_string(n);
      if (is_double && n <= 2) code = n == 1 ? "__BRTDOUBLE" : "__BRTDOUBLE2";
    }
    const bool fixed = ft->is_fixed || (ft->is_vector() && ft->elem->is_fixed);
    if (code.empty() || fixed || f.is_bitfield()) return {};
    list += "::brook::" + code + ", ";
  }
  return list + "::brook::__BRTNONE";
}

void CxxTypes::add_typedef(const Type* t, const std::string& name) {
  const std::string cxx = spell(t);
  if (cxx.empty() || cxx == name) return;
  const std::string guard = "BROOK_CC_TYPEDEF_" + name;
  definitions_ +=
      "#ifndef " + guard + "\n#define " + guard + "\ntypedef " + cxx + " " + name + ";\n#endif\n\n";
}

void CxxTypes::define(const Type* t) {
  if (!defined_.insert(t).second) return;
  // Brook's name for the type: an anonymous struct goes by its typedef name.
  std::string name = t->is_struct() && t->decl->name.empty() ? struct_name(t) : t->name();
  std::string cxx_name = t->is_struct() ? struct_name(t) : name;
  std::string body;
  if (t->is_vector()) {
    // Brook's vectors are aligned to their size (a float3 takes 16 bytes).
    body = "struct alignas(" + std::to_string(t->align) + ") " + cxx_name + " {\n  " +
           t->elem->name() + " ";
    for (uint32_t i = 0; i < t->count; ++i) body += std::string(i ? ", " : "") + kFields[i];
    body += ";\n};\n";
  } else {
    std::string fields;
    for (const ast::FieldDecl& f : t->decl->fields) {
      const std::string width = f.is_bitfield() ? " : " + std::to_string(f.bit_width) : "";
      fields += "  " + declare(f.type, f.name) + width + ";\n";
    }
    if (t->decl->max_align) {
      // A packed struct: alignas cannot lower an alignment, #pragma pack can.
      const std::string n = std::to_string(t->decl->max_align);
      body = "#pragma pack(push, " + n + ")\nstruct " + cxx_name + " {\n" + fields +
             "};\n#pragma pack(pop)\n";
    } else {
      body =
          "struct alignas(" + std::to_string(t->align) + ") " + cxx_name + " {\n" + fields + "};\n";
    }
  }
  std::string guard = guard_of(name);
  definitions_ += "#ifndef " + guard + "\n#define " + guard + "\n" + body;
  definitions_ += "static_assert(sizeof(" + cxx_name + ") == " + std::to_string(t->size) +
                  ", \"the layout brook gives " + name + "\");\n";
  // brook/brook.hpp defines BrookGPU's vector types itself; the element
  // name is this header's either way.
  std::string element_guard =
      "BROOK_CC_ELEMENT_" + guard.substr(std::string("BROOK_CC_TYPE_").size());
  definitions_ += "#endif\n#ifndef " + element_guard + "\n#define " + element_guard + "\n";
  definitions_ += "template <>\nstruct brook_cc::element<" + cxx_name +
                  "> {\n  static constexpr const char* name = \"" + name + "\";\n};\n#endif\n\n";
}

}  // namespace brook::cc
