#include "backends/opencl/cl_module.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lang/ast.hpp"
#include "stdlib/brook_math.hpp"

namespace brook::opencl {

std::string scalar_name(const Type* t) {
  switch (t->kind) {
    case TypeKind::Void: return "void";
    case TypeKind::Bool: return "uchar";
    case TypeKind::Char: return "char";
    case TypeKind::UChar: return "uchar";
    case TypeKind::Short: return "short";
    case TypeKind::UShort: return "ushort";
    case TypeKind::Int: return "int";
    case TypeKind::UInt: return "uint";
    case TypeKind::Long: return "long";
    case TypeKind::ULong: return "ulong";
    case TypeKind::Float: return "float";
    case TypeKind::Double: return "double";
    default: return "int";
  }
}

std::string float_literal(double v, bool is_float) {
  if (std::isnan(v)) return is_float ? "NAN" : "((double)NAN)";
  if (std::isinf(v)) {
    std::string inf = is_float ? "INFINITY" : "((double)INFINITY)";
    return v < 0 ? "(-" + inf + ")" : inf;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, is_float ? "%.9g" : "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  if (is_float) s += "f";
  return s[0] == '-' ? "(" + s + ")" : s;
}

std::string safe_name(const std::string& name) {
  // OpenCL C keywords, qualifiers and type names a Brook identifier might use.
  static const std::set<std::string> reserved{
      "global", "__global", "local", "__local", "constant", "__constant", "private",
      "__private", "kernel", "__kernel", "read_only", "write_only", "read_write", "half",
      "image2d_t", "image3d_t", "sampler_t", "event_t", "uniform", "pipe", "complex",
      "imaginary", "restrict", "inline", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
      "vec_type_hint", "work_group_size_hint", "reqd_work_group_size", "bool", "uchar",
      "ushort", "uint", "ulong", "select", "convert", "as", "printf", "NAN", "INFINITY"};
  if (reserved.count(name) || name.rfind("brook_", 0) == 0 || name.rfind("get_", 0) == 0 ||
      name.rfind("convert_", 0) == 0 || name.rfind("as_", 0) == 0 || name.rfind("__", 0) == 0)
    return "u_" + name;
  return name;
}

std::string ClModule::tag(const Type* t) {
  if (t->is_scalar()) return scalar_name(t);
  if (t->is_vector()) return scalar_name(t->elem) + std::to_string(t->count);
  if (t->is_struct()) return type_name(t);
  if (t->is_array()) return tag(t->elem) + "_a" + std::to_string(t->count);
  return "x";
}

std::string ClModule::type_name(const Type* t) {
  if (t->is_void() || t->is_scalar()) return scalar_name(t);
  if (t->is_vector()) {
    if (t->elem->kind == TypeKind::Double) uses_double = true;
    return scalar_name(t->elem) + std::to_string(t->count);
  }
  if (t->is_struct()) {
    auto found = struct_names_.find(t);
    if (found != struct_names_.end()) return found->second;
    std::string name = "brook_struct" + std::to_string(struct_names_.size());
    if (t->decl && !t->decl->name.empty()) name += "_" + t->decl->name;
    struct_names_[t] = name;
    std::string def = "typedef struct {\n";
    if (t->decl) {
      for (const ast::FieldDecl& f : t->decl->fields) def += "  " + declare(f.type, safe_name(f.name)) + ";\n";
    }
    if (!t->decl || t->decl->fields.empty()) def += "  uchar brook_empty;\n";
    def += "} " + name + ";\n";
    struct_defs_.push_back(std::move(def));
    return name;
  }
  if (t->is_array()) return type_name(t->elem);
  if (t->kind == TypeKind::Double) uses_double = true;
  return "int";
}

std::string ClModule::declare(const Type* t, const std::string& name) {
  std::string dims;
  const Type* base = t;
  while (base->is_array()) {
    dims += "[" + std::to_string(base->count ? base->count : 1) + "]";
    base = base->elem;
  }
  if (base->kind == TypeKind::Double) uses_double = true;
  return type_name(base) + " " + name + dims;
}

// Whole elements of a buffer sit at multiples of their size, so 2- and
// 4-component vectors can use typed (aligned) accesses, which vectorise;
// 3-component vectors and vectors inside structs use vloadN/vstoreN.
static bool aligned_vector(const Type* t) { return t->is_vector() && t->count != 3; }

std::string ClModule::field_load_fn(const Type* t) {
  if (!aligned_vector(t)) return load_fn(t);
  std::string name = "brook_ldu_" + tag(t);
  return helper(name, [&] {
    return "static " + type_name(t) + " " + name + "(__global const uchar* p) {\n  return vload" +
           std::to_string(t->count) + "(0, (__global const " + scalar_name(t->elem) + "*)p);\n}\n";
  });
}

std::string ClModule::field_store_fn(const Type* t) {
  if (!aligned_vector(t)) return store_fn(t);
  std::string name = "brook_stu_" + tag(t);
  return helper(name, [&] {
    return "static void " + name + "(__global uchar* p, " + type_name(t) + " v) {\n  vstore" +
           std::to_string(t->count) + "(v, 0, (__global " + scalar_name(t->elem) + "*)p);\n}\n";
  });
}

namespace {

// Calls f(lvalue, byte offset, element type) for every non-array leaf of the
// struct `v` of type `t`: array fields element by element, row-major, at their
// C offsets. Loads and stores of struct elements walk the same layout.
template <class F>
void for_each_field_element(const Type* t, F&& f) {
  for (const ast::FieldDecl& field : t->decl->fields) {
    const Type* e = field.type;
    std::vector<uint32_t> counts;
    while (e->is_array()) {
      counts.push_back(e->count);
      e = e->elem;
    }
    uint64_t total = 1;
    for (uint32_t c : counts) total *= c;
    for (uint64_t k = 0; k < total; ++k) {
      std::string sub;
      uint64_t rest = k;
      for (size_t d = counts.size(); d-- > 0;) {
        sub = "[" + std::to_string(rest % counts[d]) + "]" + sub;
        rest /= counts[d];
      }
      f("v." + safe_name(field.name) + sub, field.offset + k * e->size, e);
    }
  }
}

}  // namespace

std::string ClModule::load_fn(const Type* t) {
  std::string name = "brook_ld_" + tag(t);
  return helper(name, [&] {
    std::string T = type_name(t);
    std::string body;
    if (t->is_scalar() || aligned_vector(t)) {
      body = "  return *(__global const " + T + "*)p;\n";
    } else if (t->is_vector()) {
      body = "  return vload" + std::to_string(t->count) + "(0, (__global const " +
             scalar_name(t->elem) + "*)p);\n";
    } else if (t->is_struct() && t->decl) {
      body = "  " + T + " v;\n";
      for_each_field_element(t, [&](const std::string& lvalue, uint64_t offset, const Type* e) {
        body += "  " + lvalue + " = " + field_load_fn(e) + "(p + " + std::to_string(offset) + ");\n";
      });
      body += "  return v;\n";
    }
    return "static " + T + " " + name + "(__global const uchar* p) {\n" + body + "}\n";
  });
}

std::string ClModule::store_fn(const Type* t) {
  std::string name = "brook_st_" + tag(t);
  return helper(name, [&] {
    std::string T = type_name(t);
    std::string body;
    if (t->is_scalar() || aligned_vector(t)) {
      body = "  *(__global " + T + "*)p = v;\n";
    } else if (t->is_vector()) {
      body = "  vstore" + std::to_string(t->count) + "(v, 0, (__global " + scalar_name(t->elem) +
             "*)p);\n";
    } else if (t->is_struct() && t->decl) {
      for_each_field_element(t, [&](const std::string& lvalue, uint64_t offset, const Type* e) {
        body += "  " + field_store_fn(e) + "(p + " + std::to_string(offset) + ", " + lvalue + ");\n";
      });
    }
    return "static void " + name + "(__global uchar* p, " + T + " v) {\n" + body + "}\n";
  });
}

std::string ClModule::mark_line(SourceLoc loc) {
  line_locs_.push_back(loc);
  return "#line " + std::to_string(line_locs_.size()) + " \"brook.br\"\n";
}

SourceLoc ClModule::statement_at(uint32_t k) const {
  // A statement printed over several lines reports later lines: take the last mark at or before k.
  if (k == 0 || line_locs_.empty()) return {};
  return line_locs_[std::min<size_t>(k, line_locs_.size()) - 1];
}

void ClModule::use_brook_math(bool with_double) {
  uses_double = true;
  helper("brook_math_h", [] { return std::string(stdlib::brook_math_source()); });
  if (with_double)
    helper("brook_math_double_h", [] { return std::string(stdlib::brook_math_double_source()); });
}

const std::string& ClModule::helper(const std::string& name,
                                    const std::function<std::string()>& make) {
  auto found = helpers_.find(name);
  if (found != helpers_.end()) return found->first;
  // Reserve the name first so a recursive request does not define it twice.
  helpers_[name] = "";
  std::string text = make();
  helpers_[name] = text;
  helper_order_.push_back(name);
  return helpers_.find(name)->first;
}

std::string ClModule::source() const {
  std::string s;
  // Strict IEEE (LANGUAGE.md §10): clang contracts a*b+c into fma by default.
  s += "#pragma OPENCL FP_CONTRACT OFF\n";
  s += "#define BROOK_PBUF_WORDS " + std::to_string(kPrintfWords) + "u\n";
  if (uses_double) s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s += narrow_index ? "typedef int brook_i;\ntypedef int4 brook_i4;\n#define BROOK_I4(v) convert_int4(v)\n"
                    : "typedef long brook_i;\ntypedef long4 brook_i4;\n#define BROOK_I4(v) (v)\n";
  s += "\n";
  for (const std::string& d : struct_defs_) s += d + "\n";
  for (const std::string& h : helper_order_) s += helpers_.at(h) + "\n";
  for (const std::string& f : functions_) s += f + "\n";
  return s;
}

}  // namespace brook::opencl
