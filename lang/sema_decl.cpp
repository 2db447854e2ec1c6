// Types written by the user and the declarations that introduce names:
// variables, streams, typedefs, functions, kernels, reductions (structs and
// enums: sema_struct.cpp).
#include <algorithm>

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
        error(ts.loc, "'" + ts.name + "' is " +
                          (!sd            ? "an enum"
                           : sd->is_union ? "a union"
                                          : "a struct") +
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
      if (!n && i == 0 && allow_unsized_outer && resolving_host_params) {
        dim.reset();  // a parameter's outer size: decays to a pointer anyway
      } else if (!n) {
        // LANGUAGE.md §9: host code is C99 apart from VLAs.
        error(dim->loc, resolving_host_params
                            ? "array size must be an integer constant: a variable-length array "
                              "parameter (C99 VLA) is supported only in its first dimension; "
                              "pass a pointer and index it by hand"
                            : "array size must be an integer constant: variable-length arrays "
                              "(C99 VLAs) are not supported; allocate with malloc");
        return nullptr;
      }
      if (n && (*n <= 0 || *n > (int64_t{1} << 31))) {
        error(dim->loc, "array size must be positive, not " + std::to_string(*n));
        return nullptr;
      }
      if (n) count = static_cast<uint32_t>(*n);
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
    if (!reread(first->loc, v.loc) && !reread(prev->loc, v.loc))
      error(v.loc, "redefinition of '" + v.name + "'");
    v.same_as = first;
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
  // C99 6.2.1: a parameter is in scope from its declarator on, so a later
  // parameter's array size may name it (`int n, double a[n]`).
  struct ParamScope {
    Impl& s;
    bool on;
    ParamScope(Impl& impl, bool host) : s(impl), on(host) {
      if (on) s.push_scope(), s.resolving_host_params = true;
    }
    ~ParamScope() {
      if (on) s.resolving_host_params = false, s.pop_scope();
    }
  } param_scope(*this, !kernelish);
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
    if (!kernelish && !p.name.empty()) scopes.back().names[p.name] = &p;
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
    } else if (f.body && prev->definition && reread(prev->definition->loc, f.loc)) {
      f.definition = prev->definition;  // a header's function, in another translation unit
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
