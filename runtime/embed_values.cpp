#include "runtime/embed_values.hpp"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "interp/bitfield_nodes.hpp"
#include "lang/ast.hpp"
#include "lang/scalar_visit.hpp"

namespace brook {

namespace {

constexpr uint32_t kMaxArrayElements = 32;
constexpr uint64_t kMaxStringBytes = 200;

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Shortest text that reads back as the same value: 0.1f prints 0.1, 1.0f prints 1.
template <class F>
std::string shortest(F v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "?";
  std::string s(buf, end);
  if (s == "inf") return "inf";
  if (s == "-inf") return "-inf";
  if (s == "nan" || s == "-nan") return "nan";
  return s;
}

std::string escaped(std::string_view bytes) {
  std::string out;
  for (char ch : bytes) {
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (static_cast<unsigned char>(ch) < 32 || ch == 127) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(ch));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string scalar(TypeKind k, const uint8_t* p) {
  switch (k) {
    case TypeKind::Bool: return load<uint8_t>(p) ? "true" : "false";
    case TypeKind::Char: {
      auto c = load<int8_t>(p);
      if (c >= 32 && c < 127) return c == '\'' || c == '\\' ? std::string("'\\") + char(c) + "'"
                                                             : std::string("'") + char(c) + "'";
      return std::to_string(c);
    }
    default:
      return visit_scalar(k, [&](auto zero) {
               using T = decltype(zero);
               if constexpr (std::is_floating_point_v<T>) return shortest(load_scalar<T>(p));
               else return std::to_string(load_scalar<T>(p));
             }).value_or("?");
  }
}

// Components of a vector print as numbers, chars included.
std::string component(TypeKind k, const uint8_t* p) {
  if (k == TypeKind::Char) return std::to_string(load<int8_t>(p));
  return scalar(k, p);
}

std::string pointer(const Type* t, const uint8_t* p, interp::Memory& memory) {
  uint64_t v = load<uint64_t>(p);
  if (v == 0) return "NULL";
  const Type* pointee = t->elem;
  if (pointee && (pointee->kind == TypeKind::Char || pointee->kind == TypeKind::UChar)) {
    uint64_t room = memory.bytes_after(v);
    if (room > 0) {
      const uint8_t* s = memory.at(v, room, {});
      size_t n = 0;
      while (n < room && n < kMaxStringBytes && s[n] != 0) ++n;
      std::string out = "\"" + escaped(std::string_view(reinterpret_cast<const char*>(s), n)) + "\"";
      if (n == kMaxStringBytes && n < room && s[n] != 0) out += "...";
      return out;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%s) 0x%llx", t->name().c_str(), static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

std::string format_value(const Type* t, const uint8_t* p, interp::Memory& memory) {
  if (!t) return "?";
  if (t->is_scalar()) return scalar(t->kind, p);
  if (t->is_vector()) {
    std::string out = t->name() + "(";
    uint64_t step = t->elem->size;
    for (uint32_t i = 0; i < t->count; ++i) {
      if (i) out += ", ";
      out += component(t->elem->kind, p + i * step);
    }
    return out + ")";
  }
  if (t->is_pointer()) return pointer(t, p, memory);
  if (t->is_array()) {
    const Type* e = t->elem;
    if (e->kind == TypeKind::Char) {
      size_t n = 0;
      while (n < t->count && p[n] != 0) ++n;
      return "\"" + escaped(std::string_view(reinterpret_cast<const char*>(p), n)) + "\"";
    }
    std::string out = "{";
    for (uint32_t i = 0; i < t->count && i < kMaxArrayElements; ++i) {
      if (i) out += ", ";
      out += format_value(e, p + i * e->size, memory);
    }
    if (t->count > kMaxArrayElements) out += ", ... (" + std::to_string(t->count) + " elements)";
    return out + "}";
  }
  if (t->is_struct() && t->decl) {
    std::string out = "{";
    bool first = true;
    for (const ast::FieldDecl& f : t->decl->fields) {
      if (f.is_bitfield() && f.name.empty()) continue;  // padding
      if (!first) out += ", ";
      first = false;
      if (f.is_bitfield()) {
        const int64_t v = interp::bitfield_spec(f).read(p + f.offset);
        out += "." + f.name + " = " + std::to_string(v);
        continue;
      }
      out += "." + f.name + " = " + format_value(f.type, p + f.offset, memory);
    }
    return out + "}";
  }
  return "<" + t->name() + ">";
}


}  // namespace brook
