// Structs, unions and enums: their definitions, C's layout of members
// (bit-fields and packing as gcc does on x86-64), the C library's own structs
// (struct tm, div_t), and which of them may be stream elements.
#include <algorithm>
#include <array>
#include <functional>
#include <set>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

const Type* Sema::Impl::library_struct_type(const std::string& name, SourceLoc loc) {
  auto known = library_struct_types.find(name);
  if (known != library_struct_types.end()) return known->second;
  auto sd = std::make_unique<StructDecl>(loc);
  sd->name = name;
  if (!library_struct(*sd)) return nullptr;
  StructDecl* lib = sd.get();
  implicit_structs.push_back(std::move(sd));
  define_struct(*lib);
  return library_struct_types[name] = lib->type;
}

bool Sema::Impl::library_struct(StructDecl& sd) {
  // <sys/time.h> and <time.h> on x86-64 Linux (glibc's layouts).
  struct Field {
    std::string_view name;
    char kind;  // 'i' int, 'l' long, 's' char*
  };
  static constexpr std::pair<std::string_view, std::array<Field, 11>> kStructs[] = {
      {"timeval", {{{"tv_sec", 'l'}, {"tv_usec", 'l'}}}},
      {"timespec", {{{"tv_sec", 'l'}, {"tv_nsec", 'l'}}}},
      {"timezone", {{{"tz_minuteswest", 'i'}, {"tz_dsttime", 'i'}}}},
      {"__brook_div_t", {{{"quot", 'i'}, {"rem", 'i'}}}},
      {"__brook_ldiv_t", {{{"quot", 'l'}, {"rem", 'l'}}}},
      {"tm",
       {{{"tm_sec", 'i'},
         {"tm_min", 'i'},
         {"tm_hour", 'i'},
         {"tm_mday", 'i'},
         {"tm_mon", 'i'},
         {"tm_year", 'i'},
         {"tm_wday", 'i'},
         {"tm_yday", 'i'},
         {"tm_isdst", 'i'},
         {"tm_gmtoff", 'l'},
         {"tm_zone", 's'}}}},
  };
  for (const auto& [name, fields] : kStructs) {
    if (sd.name != name) continue;
    for (const Field& f : fields) {
      if (f.name.empty()) break;
      FieldDecl fd;
      fd.loc = sd.loc;
      fd.name = std::string(f.name);
      fd.type_syntax.loc = sd.loc;
      fd.type_syntax.builtin = f.kind == 'i'   ? types.int_type()
                               : f.kind == 'l' ? types.long_type()
                                               : types.char_type();
      if (f.kind == 's') fd.type_syntax.pointer_depth = 1;
      sd.fields.push_back(std::move(fd));
    }
    sd.is_definition = true;
    return true;
  }
  return false;
}

// A bit-field (C99 6.7.2.1p10) at bit `bits` of the struct: it shares the
// storage unit of its type (type->size bytes, aligned to it) with the
// bit-fields before it unless it would cross that unit's end; width 0 moves to
// the next unit. A named bit-field aligns the struct as its type does; an
// unnamed one does not (x86-64 SysV, as gcc does it).
void Sema::Impl::lay_out_bitfield(FieldDecl& f, bool in_union, uint64_t& bits, uint64_t& size,
                                  uint64_t& align) {
  const Type* t = f.type;
  const std::string what = f.name.empty() ? "an unnamed bit-field" : "bit-field '" + f.name + "'";
  f.bit_width = 0;
  if (t->is_error()) return;
  if (!t->is_integer()) {
    error(f.loc, what + " has type " + quoted(t) + "; a bit-field needs an integer type");
    f.type = err();
    return;
  }
  const Type* wt = check_value(f.bit_width_expr);
  if (wt->is_error()) return;
  std::optional<int64_t> w = wt->is_integer() ? fold(*f.bit_width_expr) : std::nullopt;
  const int64_t unit_bits = static_cast<int64_t>(t->size * 8);
  if (!w) {
    error(f.bit_width_expr->loc, "the width of " + what + " must be an integer constant");
    return;
  }
  if (*w < 0 || *w > unit_bits) {
    error(f.bit_width_expr->loc, "the width of " + what + " (" + std::to_string(*w) +
                                     ") must be between 0 and " + std::to_string(unit_bits) +
                                     ", the bits of " + quoted(t));
    return;
  }
  if (*w == 0 && !f.name.empty()) {
    error(f.bit_width_expr->loc, "named " + what + " has zero width");
    return;
  }
  f.bit_width = static_cast<int>(*w);
  const uint64_t unit = static_cast<uint64_t>(unit_bits);
  if (!f.name.empty()) align = std::max(align, t->align);
  if (in_union) {
    f.offset = 0;
    f.bit_offset = 0;
    size = std::max(size, (static_cast<uint64_t>(*w) + 7) / 8);
    return;
  }
  if (*w == 0) {
    bits = (bits + unit - 1) / unit * unit;
    return;
  }
  if (bits / unit != (bits + static_cast<uint64_t>(*w) - 1) / unit)
    bits = (bits + unit - 1) / unit * unit;
  f.offset = bits / unit * t->size;
  f.bit_offset = static_cast<uint32_t>(bits % unit);
  bits += static_cast<uint64_t>(*w);
}

void Sema::Impl::define_struct(StructDecl& sd) {
  if (sd.type) return;  // already processed (a DeclStmt and a TypeSyntax both name it)
  if (!sd.is_definition) {
    Decl* existing = sd.name.empty() ? nullptr : scopes.back().tags[sd.name];
    if (auto* e = existing ? existing->as<StructDecl>() : nullptr) {
      if (e->is_union != sd.is_union)
        error(sd.loc,
              "'" + sd.name + "' is already declared as " + (e->is_union ? "a union" : "a struct"));
      sd.type = e->type;
    } else {
      sd.type = types.struct_type(&sd);
      if (!sd.name.empty()) declare_tag(sd);
    }
    return;
  }
  // A definition completes an earlier forward declaration in the same scope,
  // whose type everyone already holds: the fields move there.
  StructDecl* target = &sd;
  if (!sd.name.empty()) {
    auto it = scopes.back().tags.find(sd.name);
    if (it != scopes.back().tags.end()) {
      auto* prev = it->second->as<StructDecl>();
      if (!prev || prev->is_union != sd.is_union) {
        error(sd.loc, "'" + sd.name + "' is already declared as " +
                          (!prev            ? "an enum"
                           : prev->is_union ? "a union"
                                            : "a struct"));
        sd.type = types.struct_type(&sd);
        return;
      }
      if (prev->is_definition && at_global_scope() && reread(prev->loc, sd.loc)) {
        sd.type = prev->type;  // the same header in another translation unit
        return;
      }
      if (prev->is_definition && !(options.allow_redefinition && at_global_scope())) {
        error(sd.loc, std::string("redefinition of '") + (sd.is_union ? "union " : "struct ") +
                          sd.name + "'");
        sd.type = prev->type;
        return;
      }
      if (!prev->is_definition) {
        prev->fields = std::move(sd.fields);
        sd.fields.clear();
        prev->is_definition = true;
        target = prev;
      }
    }
  }
  if (target == &sd) {
    sd.type = types.struct_type(&sd);
    if (!sd.name.empty()) declare_tag(sd);
  } else {
    sd.type = target->type;
  }
  // The layout in bits, so that bit-fields pack as gcc packs them on x86-64.
  uint64_t bits = 0, size = 0, align = 1;
  for (size_t i = 0; i < target->fields.size(); ++i) {
    FieldDecl& f = target->fields[i];
    for (size_t j = 0; j < i && !f.name.empty(); ++j) {
      if (target->fields[j].name == f.name) {
        error(f.loc, "duplicate member '" + f.name + "'");
        break;
      }
    }
    const Type* t = resolve_type(f.type_syntax, true);
    const std::string what = f.name.empty() ? "an unnamed bit-field" : "member '" + f.name + "'";
    // A flexible array member (C99 6.7.2.1p16): the last member of a struct
    // with others, `char data[];`, of size 0; it indexes the memory after it.
    const bool flexible = t && t->is_array() && t->count == 0 && !target->is_union &&
                          i + 1 == target->fields.size() && i > 0 && !f.is_bitfield();
    if (t && t->is_array() && t->count == 0 && !flexible) {
      error(f.loc, what +
                       " has no size: only the last member of a struct with other members may be "
                       "a flexible array ('" +
                       t->elem->name() + " " + f.name + "[];')");
      t = nullptr;
    } else if (t && (t->is_void() || t->is_function())) {
      error(f.loc, what + " has invalid type " + quoted(t));
      t = nullptr;
    } else if (t && t->is_struct() && (!t->decl->is_definition || t == target->type)) {
      error(f.loc, what + " has incomplete type " + quoted(t));
      t = nullptr;
    }
    f.type = t ? t : err();
    if (f.is_bitfield()) {
      lay_out_bitfield(f, target->is_union, bits, size, align);
      continue;
    }
    uint64_t a = std::max<uint64_t>(f.type->align, 1);
    if (target->max_align) a = std::min<uint64_t>(a, target->max_align);
    align = std::max(align, a);
    if (target->is_union) {  // every member at offset 0 (C99 6.7.2.1p14)
      f.offset = 0;
      size = std::max(size, f.type->size);
      continue;
    }
    f.offset = ((bits + 7) / 8 + a - 1) / a * a;
    bits = (f.offset + f.type->size) * 8;
  }
  uint64_t offset = std::max(size, (bits + 7) / 8);
  offset = (offset + align - 1) / align * align;
  types.complete_struct(target->type, offset, align);
  // The members of an anonymous member are members of this struct (C11
  // 6.7.2.1p13): their names must not clash with the others.
  std::set<std::string> names;
  std::function<void(const StructDecl&, SourceLoc)> visible = [&](const StructDecl& s,
                                                                  SourceLoc at) {
    for (const FieldDecl& f : s.fields)  // direct duplicates are reported above
      if (!f.anonymous && !names.insert(f.name).second && at.valid())
        error(at, "duplicate member '" + f.name + "' through an anonymous member");
    for (const FieldDecl& f : s.fields)
      if (f.anonymous && f.type && f.type->is_struct())
        visible(*f.type->decl, at.valid() ? at : f.loc);
  };
  visible(*target, SourceLoc{});
}

void Sema::Impl::define_enum(EnumDecl& ed) {
  if (!ed.name.empty()) {
    auto& tags = scopes.back().tags;
    auto it = tags.find(ed.name);
    if (it != tags.end() && it->second != &ed &&
        !(options.allow_redefinition && at_global_scope()) &&
        !(at_global_scope() && reread(it->second->loc, ed.loc)))
      error(ed.loc, "redefinition of 'enum " + ed.name + "'");
    tags[ed.name] = &ed;
  }
  int64_t next = 0;
  for (auto& c : ed.constants) {
    if (c->value_expr) {
      const Type* t = check_value(c->value_expr);
      if (!t->is_error()) {
        if (!t->is_integer())
          error(c->value_expr->loc, "enum value must be an integer, not " + quoted(t));
        else if (auto v = require_constant(*c->value_expr, "enum value"))
          next = *v;
      }
    }
    c->value = next++;
    declare(*c);
  }
}

bool Sema::Impl::is_stream_element(const Type* t) const {
  return t->is_scalar() || t->is_vector() ||
         (t->is_struct() && t->decl->is_definition && !host_only_part(t));
}

const char* Sema::Impl::host_only_part(const Type* t) {
  while (t->is_array()) t = t->elem;
  if (!t->is_struct()) return nullptr;
  if (t->decl->is_union) return "union";
  if (t->decl->max_align) return "packed struct";
  for (const FieldDecl& f : t->decl->fields) {
    if (f.is_bitfield()) return "bit-field";
    if (const char* part = f.type ? host_only_part(f.type) : nullptr) return part;
  }
  return nullptr;
}

}  // namespace brook
