// Types written by the user and the declarations that introduce names:
// variables, streams, typedefs, structs, enums, functions, kernels, reductions.
#include <algorithm>
#include <array>
#include <functional>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

const Type* Sema::Impl::resolve_base(TypeSyntax& ts) {
  switch (ts.base) {
    case TypeSyntax::Base::Builtin:
      if (!ts.builtin) {
        error(ts.loc, "missing type");
        return nullptr;
      }
      return ts.builtin;
    case TypeSyntax::Base::Typeof: {
      TypeofSyntax& of = *ts.typeof_of;
      if (!of.checked) {
        of.checked = true;
        if (of.type) {
          of.resolved = resolve_type(*of.type, true);
        } else if (in_kernel()) {
          error(ts.loc, "'typeof' in " + func_desc() + " is host-only");
        } else {
          const Type* t = check_expr(of.expr);
          of.resolved = t && !t->is_error() ? t : nullptr;
        }
      }
      return of.resolved;
    }
    case TypeSyntax::Base::Named: {
      Decl* d = lookup(ts.name);
      if (auto* td = d ? d->as<TypedefDecl>() : nullptr) return td->type;  // null: already reported
      error(ts.loc, "unknown type name '" + ts.name + "'" + suggestion(ts.name, NameKind::type));
      return nullptr;
    }
    case TypeSyntax::Base::Struct: {
      if (ts.struct_def) {
        define_struct(*ts.struct_def);
        return ts.struct_def->type;
      }
      if (Decl* d = lookup_tag(ts.name)) {
        auto* sd = d->as<StructDecl>();
        if (sd && sd->is_union == ts.is_union) return sd->type;
        error(ts.loc, "'" + ts.name + "' is " + (!sd ? "an enum" : sd->is_union ? "a union" : "a struct") +
                          ", not " + (ts.is_union ? "a union" : "a struct"));
        return nullptr;
      }
      // First mention: an incomplete struct, completed by a later definition,
      // or one of the C library's (struct timeval) when the program defines none.
      if (!ts.is_union)
        if (const Type* lib = library_struct_type(ts.name, ts.loc)) return lib;
      auto sd = std::make_unique<StructDecl>(ts.loc);
      sd->name = ts.name;
      sd->is_union = ts.is_union;
      sd->type = types.struct_type(sd.get());
      declare_tag(*sd);
      const Type* t = sd->type;
      implicit_structs.push_back(std::move(sd));
      return t;
    }
    case TypeSyntax::Base::Enum:
      if (ts.enum_def) define_enum(*ts.enum_def);
      return types.int_type();
  }
  return nullptr;
}

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

const Type* Sema::Impl::apply_dims(TypeSyntax& ts, const Type* t, bool allow_unsized_outer) {
  // int a[2][3]: dims {2, 3}; the type is array(array(int, 3), 2).
  for (size_t i = ts.array_dims.size(); i-- > 0;) {
    ExprPtr& dim = ts.array_dims[i];
    uint32_t count = 0;
    if (!dim) {
      if (i != 0 || !allow_unsized_outer) {
        error(ts.loc, "array dimension " + std::to_string(i + 1) + " needs a size");
        return nullptr;
      }
    } else {
      const Type* dt = check_value(dim);
      if (dt->is_error()) return nullptr;
      if (!dt->is_integer()) {
        error(dim->loc, "array size must be an integer, not " + quoted(dt));
        return nullptr;
      }
      std::optional<int64_t> n = fold(*dim);
      if (!n) {
        // LANGUAGE.md §9: host code is C99 apart from VLAs.
        error(dim->loc,
              "array size must be an integer constant: variable-length arrays (C99 VLAs) are not "
              "supported; allocate with malloc");
        return nullptr;
      }
      if (*n <= 0 || *n > (int64_t{1} << 31)) {
        error(dim->loc, "array size must be positive, not " + std::to_string(*n));
        return nullptr;
      }
      count = static_cast<uint32_t>(*n);
    }
    if (t->is_void()) {
      error(ts.loc, "arrays of 'void' are not allowed");
      return nullptr;
    }
    // Sizes stay far below what uint64 arithmetic could wrap.
    constexpr uint64_t kMaxObjectSize = uint64_t{1} << 40;
    if (count && t->size > kMaxObjectSize / count) {
      error(ts.loc, "array is too large");
      return nullptr;
    }
    t = types.array(t, count);
  }
  return t;
}

const Type* Sema::Impl::resolve_type(TypeSyntax& ts, bool with_dims) {
  const Type* t = resolve_base(ts);
  if (!t) return nullptr;
  for (int i = 0; i < ts.pointer_depth; ++i) t = types.pointer(t);
  if (ts.paren) t = resolve_paren(ts, t);
  if (t && with_dims) t = apply_dims(ts, t, true);
  // Kernels compute BrookGPU's fixed in float (Type::is_fixed).
  if (t && in_kernel()) t = types.kernel_view(t);
  return t;
}

const Type* Sema::Impl::resolve_paren(TypeSyntax& ts, const Type* inner) {
  ParenDeclarator& pd = *ts.paren;
  const Type* t = inner;
  if (pd.is_function) {
    if (t->is_array() || t->is_function()) {
      error(ts.loc,
            std::string("functions cannot return ") + (t->is_array() ? "arrays" : "functions"));
      return nullptr;
    }
    std::vector<const Type*> params;
    for (TypeSyntax& p : pd.params) {
      const Type* pt = resolve_type(p, true);
      if (!pt) return nullptr;
      // Parameters adjust as in a function declaration (C99 6.7.5.3p7-8).
      if (pt->is_array()) pt = types.pointer(pt->elem);
      if (pt->is_function()) pt = types.pointer(pt);
      if (pt->is_void() || pt->is_stream()) {
        error(p.loc, "a parameter cannot have type " + quoted(pt));
        return nullptr;
      }
      params.push_back(pt);
    }
    t = types.function(t, std::move(params), pd.variadic, pd.no_prototype);
  } else {
    TypeSyntax dims;
    dims.loc = ts.loc;
    dims.array_dims = std::move(pd.suffix_dims);
    t = apply_dims(dims, t, false);
    pd.suffix_dims = std::move(dims.array_dims);
    if (!t) return nullptr;
  }
  for (int i = 0; i < pd.pointer_depth; ++i) t = types.pointer(t);
  return t;
}

void Sema::Impl::define_struct(StructDecl& sd) {
  if (sd.type) return;  // already processed (a DeclStmt and a TypeSyntax both name it)
  if (!sd.is_definition) {
    Decl* existing = sd.name.empty() ? nullptr : scopes.back().tags[sd.name];
    if (auto* e = existing ? existing->as<StructDecl>() : nullptr) {
      if (e->is_union != sd.is_union)
        error(sd.loc, "'" + sd.name + "' is already declared as " + (e->is_union ? "a union" : "a struct"));
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
                          (!prev ? "an enum" : prev->is_union ? "a union" : "a struct"));
        sd.type = types.struct_type(&sd);
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
    if (it != tags.end() && it->second != &ed && !(options.allow_redefinition && at_global_scope()))
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

void Sema::Impl::check_decl_stmt(DeclStmt& ds) {
  for (DeclPtr& d : ds.decls) {
    if (!d) continue;
    switch (d->kind) {
      case DeclKind::Var:
        check_var(*d->as<VarDecl>());
        break;
      case DeclKind::Func:
        check_func(*d->as<FuncDecl>());
        break;
      case DeclKind::Struct:
        define_struct(*d->as<StructDecl>());
        break;
      case DeclKind::Typedef:
        check_typedef(*d->as<TypedefDecl>());
        break;
      case DeclKind::Enum:
        define_enum(*d->as<EnumDecl>());
        break;
      case DeclKind::Param:
      case DeclKind::EnumConst:
        break;
    }
  }
}

void Sema::Impl::check_typedef(TypedefDecl& td) {
  td.type = resolve_type(td.type_syntax, true);
  if (td.type && td.type->is_array() && td.type->count == 0) {
    error(td.loc, "typedef '" + td.name + "' needs an array size");
    td.type = nullptr;
  }
  declare(td);
}

void Sema::Impl::check_var(VarDecl& v) {
  v.is_global = func == nullptr && at_global_scope();
  if (v.is_shared && !in_kernel())
    error(v.loc, "'shared' array '" + v.name +
                     "' can only be declared in a kernel with 'Attribute[GroupSize(...)]'");
  if (v.is_stream) {
    check_stream_var(v);
    return;
  }
  const Type* t = resolve_type(v.type_syntax, true);
  if (t && in_kernel() && (t->is_pointer() || (t->is_array() && t->elem->is_pointer()))) {
    error(v.loc, "pointers are not allowed in kernels");
    t = nullptr;
  }
  if (const char* part = t && in_kernel() ? host_only_part(t) : nullptr) {
    // Kernels keep values in registers on every backend; a union's shared
    // bytes and a bit-field's storage unit are host memory.
    error(v.loc, std::string(part) + "s are host-only: kernel variable '" + v.name + "' has type " +
                     quoted(t));
    t = nullptr;
  }
  if (t && t->is_void()) {
    error(v.loc, "variable '" + v.name + "' has type 'void'");
    t = nullptr;
  }
  if (t && t->is_function()) {
    error(v.loc, "variable '" + v.name + "' has function type " + quoted(t) +
                     "; declare a pointer to it: '" + v.type_syntax.name + "* " + v.name + "'");
    t = nullptr;
  }
  if (t && t->is_struct() && !t->decl->is_definition) {
    error(v.loc, "variable '" + v.name + "' has incomplete type " + quoted(t));
    t = nullptr;
  }
  if (!t) {
    v.type = err();
    if (v.init && v.init->kind != ExprKind::InitList) check_expr(v.init);
    declare(v);
    return;
  }
  if (v.init && !v.is_global && !v.is_extern && !(t->is_array() && t->count == 0)) {
    // A local's scope begins just after its declarator (C99 6.2.1p7), so its
    // initialiser sees it: `Node* n = malloc(sizeof *n);`.
    v.type = t;
    declare(v);
    v.type = check_initializer(v.init, t);
    return;
  }
  if (v.init) {
    t = check_initializer(v.init, t);
  } else if (t->is_array() && t->count == 0 && !v.is_extern) {
    error(v.loc, "array '" + v.name + "' needs a size or an initialiser");
    t = err();
  }
  v.type = t;
  if (link_redeclaration(v)) return;
  declare(v);
}

bool Sema::Impl::link_redeclaration(VarDecl& v) {
  // `extern int n;` in a function: the global n.
  if (v.is_extern && !at_global_scope()) {
    v.is_global = true;
    if (auto* g = scopes.front().names.count(v.name) ? scopes.front().names[v.name] : nullptr) {
      if (auto* gv = g->as<VarDecl>(); gv && gv->type == v.type) {
        v.same_as = gv->same_as ? gv->same_as : gv;
        scopes.back().names[v.name] = &v;
        return true;
      }
    }
    return false;
  }
  if (!at_global_scope() || func) return false;
  auto it = scopes.back().names.find(v.name);
  if (it == scopes.back().names.end()) return false;
  // In the REPL a declaration replaces the earlier one, except that of a
  // library global (`extern int optind;` names getopt's).
  if (options.allow_redefinition && !yields(it->second)) return false;
  auto* prev = it->second->as<VarDecl>();
  if (!prev || prev->is_stream || v.is_static != prev->is_static) return false;
  if (yields(prev) && (v.type != prev->type || v.init)) return false;  // the program's own
  // C's repeated file-scope declarations: any number of them (extern or
  // tentative), at most one with an initialiser, all of one type (an array
  // may gain its size).
  auto* first = const_cast<VarDecl*>(prev->same_as ? prev->same_as : prev);
  const Type* a = first->type;
  const Type* b = v.type;
  bool same = a == b || (a->is_array() && b->is_array() && a->elem == b->elem &&
                         (a->count == 0 || b->count == 0));
  if (!same) {
    if (!a->is_error() && !b->is_error())
      error(v.loc, "conflicting types for '" + v.name + "': " + quoted(a) + " and " + quoted(b));
    return true;
  }
  bool prev_init = false;
  for (const VarDecl* d : {static_cast<const VarDecl*>(first), static_cast<const VarDecl*>(prev)})
    prev_init |= d->init != nullptr;
  if (v.init && (prev_init || defined_globals.count(first))) {
    error(v.loc, "redefinition of '" + v.name + "'");
    return true;
  }
  if (v.init) defined_globals.insert(first);
  if (a->is_array() && a->count == 0) first->type = b;
  v.same_as = first;
  it->second = &v;
  return true;
}

void Sema::Impl::check_stream_var(VarDecl& v) {
  v.type = err();
  if (in_kernel()) {
    error(v.loc, "streams cannot be declared in a kernel");
    return;
  }
  // A stream of fixed holds floats (Type::is_fixed).
  const Type* elem = types.kernel_view(resolve_type(v.type_syntax, false));
  bool ok = elem != nullptr;
  if (ok && !v.type_syntax.array_dims.empty()) {
    error(v.loc, "stream '" + v.name + "' cannot have an array element type");
    ok = false;
  }
  if (ok && !is_stream_element(elem)) {
    const char* part = host_only_part(elem);
    error(v.loc,
          part ? "stream element type " + quoted(elem) + " holds a " + part + "; " + part +
                     "s are host-only"
               : "stream element type must be a scalar, vector or struct, not " + quoted(elem));
    ok = false;
  }
  size_t rank = v.extents.size();
  if (rank < 1 || rank > 4) {
    error(v.loc, "a stream has 1 to 4 dimensions, '" + v.name + "' has " + std::to_string(rank));
    ok = false;
  }
  for (ExprPtr& e : v.extents) {
    if (!e) continue;
    const Type* t = check_value(e);
    if (!t->is_error() && !t->is_integer()) {
      error(e->loc, "stream extent must be an integer, not " + quoted(t));
      ok = false;
    } else if (!t->is_error()) {
      arith_convert(e, types.int_type());
    }
  }
  if (ok && v.is_iter) {
    if (rank == 1 &&
        !(elem->scalar_of()->kind == TypeKind::Float && (elem->is_scalar() || elem->is_vector()))) {
      error(v.type_syntax.loc,
            "a 1-D iterator must have type float, float2, float3 or float4, not " + quoted(elem));
      ok = false;
    } else if (rank >= 2 && elem != types.vector(types.float_type(), static_cast<uint32_t>(rank))) {
      const std::string want = "float" + std::to_string(rank);
      error(v.type_syntax.loc, "a " + std::to_string(rank) + "-D iterator must have type " + want +
                                   ", not " + quoted(elem));
      ok = false;
    }
  }
  if (v.is_iter) {
    auto* it = v.init ? v.init->as<IterInitExpr>() : nullptr;
    if (!it) {
      error(v.init ? v.init->loc : v.loc,
            "iterator '" + v.name + "' needs an initialiser 'iter(lo, hi)'");
      if (v.init && v.init->kind != ExprKind::InitList) check_expr(v.init);
      ok = false;
    } else {
      const Type* lo = check_value(it->lo);
      const Type* hi = check_value(it->hi);
      if (ok && !lo->is_error() && !hi->is_error()) {
        bool good = convert(it->lo, elem, "in iter()");
        good = convert(it->hi, elem, "in iter()") && good;
        ok = ok && good;
      }
      it->type = ok ? types.stream(elem, static_cast<uint8_t>(rank), true) : err();
    }
  } else if (v.init) {
    if (v.init->kind == ExprKind::IterInit)
      error(v.init->loc, "iter() initialises only iterator streams: declare 'iter " +
                             (elem ? elem->name() : std::string("float")) + " " + v.name +
                             "<...>'");
    else
      error(v.init->loc, "streams cannot be initialised; use streamRead");
    ok = false;
  }
  if (ok) v.type = types.stream(elem, static_cast<uint8_t>(rank), v.is_iter);
  declare(v);
}

// `float s<4,3>` / `float (*o)<4,3>` in a host function (LANGUAGE.md §12): the
// parameter holds the caller's stream handle. Its extents are checked here,
// before the parameters are in scope, so they name only globals and constants.
const Type* Sema::Impl::host_stream_param(ParamDecl& p, const Type* elem) {
  p.pkind = ParamKind::Value;
  bool ok = true;
  for (ExprPtr& x : p.extents) {
    const Type* t = check_value(x, "used as stream extents");
    if (t->is_error()) {
      ok = false;
    } else if (!t->is_integer()) {
      error(x->loc, "stream extent must be an integer, not " + quoted(t));
      ok = false;
    }
  }
  if (!ok) return nullptr;
  const Type* st = types.stream(types.kernel_view(elem), static_cast<uint8_t>(p.extents.size()));
  return p.stream_pointer ? types.pointer(st) : st;
}

bool Sema::Impl::check_params(FuncDecl& f) {
  bool ok = true;
  bool kernelish = f.fkind != FuncKind::Host;
  for (size_t i = 0; i < f.params.size(); ++i) {
    ParamDecl& p = *f.params[i];
    p.index = static_cast<int>(i);
    if (kernelish && p.pkind == ParamKind::Value) p.pkind = ParamKind::Const;
    const Type* t = nullptr;
    switch (p.pkind) {
      case ParamKind::Value:
      case ParamKind::Const:
        t = resolve_type(p.type_syntax, true);
        if (t && t->is_array()) {
          if (kernelish) {
            // `float g[]` in a kernel is a gather; the parser normally says so.
            p.pkind = ParamKind::Gather;
            p.gather_rank = static_cast<int>(p.type_syntax.array_dims.size());
            t = resolve_type(p.type_syntax, false);
          } else {
            t = types.pointer(t->elem);
          }
        }
        if (t && t->is_function()) t = types.pointer(t);  // `int f(int)`: a pointer (6.7.5.3p8)
        break;
      case ParamKind::Gather:
        t = resolve_type(p.type_syntax, false);
        if (p.gather_rank == 0) p.gather_rank = static_cast<int>(p.type_syntax.array_dims.size());
        if (p.gather_rank == 0) p.gather_rank = 1;
        if (p.gather_rank > 4) {
          error(p.loc, "gather array '" + p.name + "' has " + std::to_string(p.gather_rank) +
                           " dimensions; gathers have 1 to 4");
          ok = false;
        }
        break;
      case ParamKind::Input:
      case ParamKind::Iter:
      case ParamKind::Out:
      case ParamKind::Reduce:
        t = resolve_type(p.type_syntax, false);
        if (t && !kernelish && p.pkind == ParamKind::Input && is_stream_element(t)) {
          t = host_stream_param(p, t);
        } else if (t && !kernelish) {
          error(p.loc, "function '" + f.name + "' cannot take stream parameter '" + p.name +
                           "'; only kernels and reduce functions can");
          t = nullptr;
        } else if (t && p.stream_pointer) {
          error(p.loc, "pointers are not allowed in kernels");
          t = nullptr;
        } else if (t && !is_stream_element(t)) {
          if (t->is_pointer())
            error(p.loc, "pointers are not allowed in kernels");
          else if (const char* part = host_only_part(t))
            error(p.loc, "stream element type " + quoted(t) + " holds a " + part + "; " + part +
                             "s are host-only");
          else
            error(p.loc,
                  "stream element type must be a scalar, vector or struct, not " + quoted(t));
          t = nullptr;
        }
        break;
    }
    if (t && kernelish && t->is_pointer()) {
      error(p.type_syntax.loc, "pointers are not allowed in kernels");
      t = nullptr;
    }
    if (const char* part =
            t && kernelish ? host_only_part(t->is_stream() ? t->elem : t) : nullptr) {
      error(p.loc, std::string(part) + "s are host-only: parameter '" + p.name + "' has type " +
                       quoted(t));
      t = nullptr;
    }
    if (t && t->is_void()) {
      error(p.loc, "parameter '" + p.name + "' has type 'void'");
      t = nullptr;
    }
    if (!t) ok = false;
    p.type = t ? (kernelish ? types.kernel_view(t) : t) : err();
  }
  return ok;
}

void Sema::Impl::check_kernel_signature(FuncDecl& f) {
  for (auto& pp : f.params) {
    ParamDecl& p = *pp;
    if (p.pkind == ParamKind::Reduce)
      error(p.loc, "'reduce' parameter '" + p.name + "' is only allowed in a reduce function");
    if (p.pkind == ParamKind::Iter && !p.type->is_error() &&
        !(p.type->scalar_of()->kind == TypeKind::Float && !p.type->is_struct()))
      error(p.loc,
            "iterator parameter '" + p.name + "' must have type float, float2, float3 or float4");
  }
}

void Sema::Impl::check_reduce_signature(FuncDecl& f) {
  if (f.return_type && !f.return_type->is_void() && !f.return_type->is_error())
    error(f.loc, "reduce function '" + f.name + "' must return void");
  int inputs = 0, reduces = 0, outs = 0;
  ParamDecl *input = nullptr, *reduce = nullptr;
  for (auto& pp : f.params) {
    ParamDecl& p = *pp;
    switch (p.pkind) {
      case ParamKind::Input:
      case ParamKind::Iter:
        ++inputs;
        input = &p;
        break;
      case ParamKind::Reduce:
        ++reduces;
        reduce = &p;
        break;
      case ParamKind::Out:
        ++outs;
        error(p.loc, "reduce function '" + f.name +
                         "' cannot have an 'out' parameter; its result is the 'reduce' parameter");
        break;
      default:
        break;
    }
  }
  if (inputs != 1)
    error(f.loc, "a reduction must have exactly one input stream, '" + f.name + "' has " +
                     std::to_string(inputs));
  if (reduces != 1 && !(reduces == 0 && outs > 0))
    error(f.loc, "a reduction must have exactly one 'reduce' parameter, '" + f.name + "' has " +
                     std::to_string(reduces));
  if (inputs == 1 && reduces == 1 && input->type != reduce->type && !input->type->is_error() &&
      !reduce->type->is_error())
    error(reduce->loc, "the input and 'reduce' parameters of '" + f.name +
                           "' must have the same type, not " + quoted(input->type) + " and " +
                           quoted(reduce->type));
}

void Sema::Impl::check_main_signature(FuncDecl& f) {
  if (f.fkind != FuncKind::Host) {
    error(f.loc, "'main' must be a host function");
    return;
  }
  if (f.return_type && !f.return_type->is_error() && f.return_type != types.int_type())
    error(f.return_syntax.loc, "'main' must return 'int'");
  const Type* argv = types.pointer(types.pointer(types.char_type()));
  bool ok = f.params.empty() || (f.params.size() == 2 && f.params[0]->type == types.int_type() &&
                                 f.params[1]->type == argv);
  if (!ok) error(f.loc, "'main' takes no parameters or (int argc, char** argv)");
}

bool Sema::Impl::declares_library_function(const std::string& name) {
  const stdlib::BuiltinName* b = stdlib::find_builtin(name);
  if (!b || scopes.front().names.count(name)) return false;  // a user function of that name
  const stdlib::BuiltinInfo& info = stdlib::builtin_info(b->id);
  // Brook's own names (lerp, clamp, min, …) stay the user's to declare.
  return info.sig == stdlib::Sig::Prototype || info.sig == stdlib::Sig::Stream ||
         !info.c_double_name.empty() || b->force_float;
}

bool Sema::Impl::same_signature(const FuncDecl& a, const FuncDecl& b) const {
  if ((a.no_prototype || b.no_prototype) && a.fkind == b.fkind && a.return_type == b.return_type)
    return true;
  if (a.fkind != b.fkind || a.return_type != b.return_type || a.params.size() != b.params.size() ||
      a.is_variadic != b.is_variadic)
    return false;
  for (size_t i = 0; i < a.params.size(); ++i) {
    if (a.params[i]->type != b.params[i]->type || a.params[i]->pkind != b.params[i]->pkind)
      return false;
  }
  return true;
}

void Sema::Impl::check_func(FuncDecl& f) {
  if (f.body && (func || !at_global_scope())) {
    error(f.loc, "functions can only be defined at top level");
    return;
  }
  const Type* rt = resolve_type(f.return_syntax, true);
  if (rt && rt->is_array()) {
    error(f.return_syntax.loc, "functions cannot return arrays");
    rt = nullptr;
  }
  if (rt && f.fkind != FuncKind::Host && rt->is_pointer()) {
    error(f.return_syntax.loc, "pointers are not allowed in kernels");
    rt = nullptr;
  }
  if (rt && f.fkind != FuncKind::Host) rt = types.kernel_view(rt);
  f.return_type = rt ? rt : err();
  bool params_ok = check_params(f);
  if (rt && rt->is_function()) {
    error(f.return_syntax.loc, "functions cannot return functions; return a pointer");
    f.return_type = err();
  }
  if (f.fkind == FuncKind::Host && params_ok && !f.return_type->is_error()) {
    std::vector<const Type*> pts;
    for (auto& p : f.params) pts.push_back(p->type);
    f.type = types.function(f.return_type, std::move(pts), f.is_variadic, f.no_prototype);
  }
  if (f.fkind == FuncKind::Kernel) check_kernel_signature(f);
  if (f.fkind == FuncKind::Reduce) check_reduce_signature(f);
  if (f.name == "main") check_main_signature(f);
  if (params_ok) resolve_pending_calls(f);

  // A declaration of a C library function (`extern void printf();`,
  // `int puts(const char*);`) declares the builtin: it never hides it.
  if (!f.body && f.fkind == FuncKind::Host && declares_library_function(f.name)) return;
  // Link prototypes and the definition.
  f.definition = f.body ? &f : nullptr;
  Decl* existing = scopes.back().names.count(f.name) ? scopes.back().names[f.name] : nullptr;
  bool replace = options.allow_redefinition && at_global_scope();
  if (existing && yields(existing)) existing = nullptr;  // the program's own function
  if (existing && !existing->as<FuncDecl>() && !replace) {
    error(f.loc, "redefinition of '" + f.name + "'");
  } else if (auto* prev = existing ? existing->as<FuncDecl>() : nullptr) {
    std::vector<FuncDecl*>& all = function_decls[f.name];
    if (replace) {
      if (f.body) {
        for (FuncDecl* d : all) d->definition = &f;
      } else if (prev->definition && same_signature(*prev, f)) {
        f.definition = prev->definition;
      }
    } else if (params_ok && !f.return_type->is_error() && !prev->return_type->is_error() &&
               !same_signature(*prev, f)) {
      error(f.loc, "conflicting types for '" + f.name + "'");
    } else if (f.body && prev->definition) {
      error(f.loc, "redefinition of '" + f.name + "'");
    } else if (f.body) {
      for (FuncDecl* d : all) d->definition = &f;
    } else {
      f.definition = prev->definition;
    }
  }
  function_decls[f.name].push_back(&f);
  scopes.back().names[f.name] = &f;

  if (!f.body) return;
  FuncDecl* saved_func = func;
  func = &f;
  loop_depth = 0;
  switches.clear();
  push_scope();
  for (auto& p : f.params)
    if (!p->name.empty()) declare(*p);
  labels.clear();
  gotos.clear();
  open_blocks.clear();
  check_compound(*f.body, false);
  resolve_gotos();
  pop_scope();
  if (f.fkind != FuncKind::Host) check_work_groups(f);
  func = saved_func;
}

}  // namespace brook
