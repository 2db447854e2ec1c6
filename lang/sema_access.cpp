// Names, struct members and swizzles, array indexing and kernel gathers,
// indexof and stream domains.
#include <algorithm>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

// A copy of a checked expression without side effects (names, literals,
// swizzles, fields, casts and operators over them); nullptr for anything else.
// Used where one written expression is read several times (`v[i]`).
ExprPtr clone_pure(const Expr& e) {
  ExprPtr out;
  switch (e.kind) {
    case ExprKind::Name: {
      auto n = std::make_unique<NameExpr>(e.loc);
      n->name = e.as<NameExpr>()->name;
      n->decl = e.as<NameExpr>()->decl;
      out = std::move(n);
      break;
    }
    case ExprKind::IntLit: out = std::make_unique<IntLit>(*e.as<IntLit>()); break;
    case ExprKind::FloatLit: out = std::make_unique<FloatLit>(*e.as<FloatLit>()); break;
    case ExprKind::Swizzle: {
      auto* s = e.as<SwizzleExpr>();
      auto c = std::make_unique<SwizzleExpr>(e.loc);
      c->base = clone_pure(*s->base);
      if (!c->base) return nullptr;
      c->spelling = s->spelling;
      c->comps = s->comps;
      c->count = s->count;
      out = std::move(c);
      break;
    }
    case ExprKind::Member: {
      auto* m = e.as<MemberExpr>();
      if (m->arrow) return nullptr;
      auto c = std::make_unique<MemberExpr>(e.loc);
      c->base = clone_pure(*m->base);
      if (!c->base) return nullptr;
      c->field = m->field;
      c->field_index = m->field_index;
      out = std::move(c);
      break;
    }
    case ExprKind::Cast: {
      auto* x = e.as<CastExpr>();
      if (!x->implicit && x->target.base != TypeSyntax::Base::Builtin) return nullptr;
      auto c = std::make_unique<CastExpr>(e.loc);
      c->cast = x->cast;
      c->implicit = true;  // already resolved: backends read only `type`
      c->operand = clone_pure(*x->operand);
      if (!c->operand) return nullptr;
      out = std::move(c);
      break;
    }
    case ExprKind::Unary: {
      auto* u = e.as<UnaryExpr>();
      if (u->op != UnaryOp::Plus && u->op != UnaryOp::Neg && u->op != UnaryOp::Not &&
          u->op != UnaryOp::BitNot)
        return nullptr;
      auto c = std::make_unique<UnaryExpr>(e.loc);
      c->op = u->op;
      c->operand = clone_pure(*u->operand);
      if (!c->operand) return nullptr;
      out = std::move(c);
      break;
    }
    case ExprKind::Binary: {
      auto* b = e.as<BinaryExpr>();
      auto c = std::make_unique<BinaryExpr>(e.loc);
      c->op = b->op;
      c->lhs = clone_pure(*b->lhs);
      c->rhs = clone_pure(*b->rhs);
      if (!c->lhs || !c->rhs) return nullptr;
      out = std::move(c);
      break;
    }
    default: return nullptr;
  }
  out->type = e.type;
  out->is_lvalue = e.is_lvalue;
  return out;
}

}  // namespace

ParamDecl* Sema::Impl::kernel_param(const Expr& e) const {
  if (!in_kernel()) return nullptr;
  auto* n = e.as<NameExpr>();
  if (!n) return nullptr;
  Decl* d = n->decl ? n->decl : lookup(n->name);
  auto* p = d ? d->as<ParamDecl>() : nullptr;
  if (!p) return nullptr;
  for (auto& own : func->params)
    if (own.get() == p) return p;
  return nullptr;
}

const Type* Sema::Impl::check_name(NameExpr& n) {
  Decl* d = lookup(n.name);
  if (!d) {
    if (stdlib::find_builtin(n.name)) {
      if (in_kernel()) {
        error(n.loc, func_desc() + " cannot use function pointers");
      } else if (FuncDecl* w = library_function(n.name, n.loc)) {
        n.decl = w;  // a function designator, like a user function's name
        return w->type;
      }
    } else
      error(n.loc, "unknown name '" + n.name + "'" + suggestion(n.name, NameKind::value));
    return err();
  }
  n.decl = d;
  switch (d->kind) {
    case DeclKind::Var: {
      auto* v = d->as<VarDecl>();
      if (in_kernel() && v->is_global) {
        error(n.loc, func_desc() + " cannot use global variable '" + n.name + "'");
        return err();
      }
      n.is_lvalue = true;
      return v->type ? v->type : err();
    }
    case DeclKind::Param: {
      auto* p = d->as<ParamDecl>();
      if (p->pkind == ParamKind::Gather) {
        error(n.loc, std::string(p->scatter ? "scatter output '" : "gather array '") + n.name +
                         "' must be indexed, as in " + n.name +
                         (p->gather_rank == 2 ? "[row][column]" : "[i]"));
        return err();
      }
      n.is_lvalue = true;
      return p->type ? p->type : err();
    }
    case DeclKind::Func: {
      // A function designator (C99 6.3.2.1p4): decays to a pointer where a value is needed.
      auto* f = d->as<FuncDecl>();
      if (f->fkind != FuncKind::Host) {
        error(n.loc, std::string(f->fkind == FuncKind::Kernel ? "kernel" : "reduce function") +
                         " '" + n.name + "' cannot be used as a value; call it");
        return err();
      }
      if (in_kernel()) {
        error(n.loc, func_desc() + " cannot use function pointers");
        return err();
      }
      return f->type ? f->type : err();
    }
    case DeclKind::EnumConst:
      return types.int_type();
    case DeclKind::Typedef:
      error(n.loc, "'" + n.name + "' is a type, not a value");
      return err();
    case DeclKind::Struct:
    case DeclKind::Enum:
      break;
  }
  error(n.loc, "'" + n.name + "' is not a value");
  return err();
}

const Type* Sema::Impl::check_member(ExprPtr& e) {
  auto* m = e->as<MemberExpr>();
  const Type* bt = check_expr(m->base);
  auto finish = [&](const Type* t) {
    e->type = t;
    return t;
  };
  if (bt->is_error()) return finish(err());
  if (m->arrow) {
    if (in_kernel()) {
      error(m->loc, "pointers are not allowed in kernels");
      return finish(err());
    }
    if (bt->is_array()) decay(m->base);
    bt = m->base->type;
    if (bt->is_pointer() && bt->elem->is_vector()) {
      // `pv->xy` on a float4*: the swizzle of `*pv` (C99 host code, §9).
      auto deref = std::make_unique<UnaryExpr>(m->loc);
      deref->op = UnaryOp::Deref;
      deref->operand = std::move(m->base);
      deref->type = bt->elem;
      deref->is_lvalue = true;
      m->base = std::move(deref);
      m->arrow = false;
    } else if (!bt->is_pointer() || !bt->elem->is_struct()) {
      error(m->loc, "'->' needs a pointer to a struct, not " + quoted(bt));
      return finish(err());
    }
    bt = bt->elem;
  }
  if (bt->is_vector() && !m->arrow) {
    // A swizzle: .xyzw or .rgba, 1 to 4 components, each within the vector.
    const std::string& f = m->field;
    std::string spelling = "'." + f + "'";
    if (f.size() > 4) {
      error(m->loc, "invalid swizzle " + spelling + ": at most 4 components");
      return finish(err());
    }
    auto sw = std::make_unique<SwizzleExpr>(m->loc);
    bool xyzw = false, rgba = false;
    for (size_t i = 0; i < f.size(); ++i) {
      static constexpr std::string_view kXyzw = "xyzw", kRgba = "rgba";
      size_t c = kXyzw.find(f[i]);
      if (c != std::string_view::npos) {
        xyzw = true;
      } else if ((c = kRgba.find(f[i])) != std::string_view::npos) {
        rgba = true;
      }
      if (c == std::string_view::npos || c >= bt->count) {
        error(m->loc, "invalid swizzle " + spelling + ": '" + std::string(1, f[i]) +
                          "' is not a component of " + quoted(bt));
        return finish(err());
      }
      sw->comps[i] = static_cast<uint8_t>(c);
    }
    if (xyzw && rgba) {
      error(m->loc, "invalid swizzle " + spelling + ": it mixes xyzw and rgba");
      return finish(err());
    }
    sw->count = static_cast<uint8_t>(f.size());
    sw->spelling = f;
    bool repeats = false;
    for (int i = 0; i < sw->count; ++i)
      for (int j = 0; j < i; ++j) repeats = repeats || sw->comps[i] == sw->comps[j];
    sw->is_lvalue = m->base->is_lvalue && !repeats;
    sw->type = sw->count == 1 ? bt->elem : types.vector(bt->elem, sw->count);
    sw->base = std::move(m->base);
    e = std::move(sw);
    return e->type;
  }
  if (bt->is_scalar() && bt->kind != TypeKind::Bool && !m->arrow && !m->field.empty() &&
      m->field.size() <= 4 &&
      (m->field.find_first_not_of('x') == std::string::npos ||
       m->field.find_first_not_of('r') == std::string::npos)) {
    // A scalar swizzle (BrookGPU, LANGUAGE.md §12): `f.x` is f, `f.xxx` broadcasts.
    ExprPtr base = std::move(m->base);
    if (m->field.size() > 1)
      cast_to(base, types.vector(bt, static_cast<uint32_t>(m->field.size())), CastKind::Broadcast);
    e = std::move(base);
    return e->type;
  }
  if (bt->is_stream()) {
    error(m->loc, "streams have no member '" + m->field + "' on the host; use a kernel");
    return finish(err());
  }
  if (!bt->is_struct()) {
    error(m->loc, "type " + quoted(bt) + " has no member '" + m->field + "'");
    return finish(err());
  }
  if (!bt->decl->is_definition) {
    error(m->loc, "member access into incomplete type " + quoted(bt));
    return finish(err());
  }
  int index = bt->decl->field_index(m->field);
  std::vector<size_t> path = anonymous_path(*bt->decl, m->field);
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    // `s.x` with x inside an anonymous struct or union: `s.__anonN.x`.
    const FieldDecl& f = bt->decl->fields[path[i]];
    auto through = std::make_unique<MemberExpr>(m->loc);
    through->base = std::move(m->base);
    through->arrow = m->arrow;
    through->field = f.name;
    through->field_index = static_cast<int>(path[i]);
    through->is_lvalue = through->arrow || through->base->is_lvalue;
    through->type = f.type;
    m->base = std::move(through);
    m->arrow = false;
    bt = f.type;
    index = static_cast<int>(path.back());
  }
  if (index < 0) {
    error(m->loc, quoted(bt) + " has no member named '" + m->field + "'");
    return finish(err());
  }
  m->field_index = index;
  m->is_lvalue = m->arrow || m->base->is_lvalue;
  const FieldDecl& fd = bt->decl->fields[static_cast<size_t>(index)];
  const Type* ft = fd.type;
  if (ft && fd.is_bitfield() && ft->is_integer()) {
    // A bit-field's value is promoted as gcc promotes it: narrower than int,
    // it is an int; 32 bits wide, its own int type; wider, its long type.
    if (fd.bit_width < 32)
      ft = types.int_type();
    else if (fd.bit_width == 32)
      ft = types.scalar(ft->is_signed() ? TypeKind::Int : TypeKind::UInt);
  }
  return finish(ft ? ft : err());
}

const Type* Sema::Impl::check_index(ExprPtr& e) {
  // A gather: the innermost base of the index chain is a gather parameter.
  if (in_kernel()) {
    Expr* root = e.get();
    while (auto* ix = root->as<IndexExpr>()) root = ix->base.get();
    if (ParamDecl* p = kernel_param(*root); p && p->pkind == ParamKind::Gather) {
      return check_gather(e, *p, *root->as<NameExpr>());
    }
  }
  scatter_target = false;  // not a scatter output's element: its parts are reads
  auto* ix = e->as<IndexExpr>();
  auto finish = [&](const Type* t) {
    e->type = t;
    return t;
  };
  if (ParamDecl* p = kernel_param(*ix->base); p && p->pkind != ParamKind::Const &&
                                              p->pkind != ParamKind::Value &&
                                              !p->type->is_array() && !p->type->is_vector()) {
    check_value(ix->index);
    error(ix->base->loc,
          "stream parameter '" + p->name +
              "' is one element here and cannot be indexed; declare a gather array '" +
              (p->type ? p->type->name() : std::string("float")) + " " + p->name +
              "[]' to read other elements");
    return finish(err());
  }
  const Type* bt = check_expr(ix->base);
  if (bt->is_stream()) {
    check_value(ix->index);
    error(ix->base->loc, "streams cannot be indexed on the host; use streamRead/streamWrite");
    return finish(err());
  }
  const Type* it = check_value(ix->index, "used as indices");
  if (bt->is_error() || it->is_error()) return finish(err());
  if (bt->is_integer() && it->is_pointer()) {
    // C's `2[a]` is `a[2]`.
    std::swap(ix->base, ix->index);
    std::swap(bt, it);
  }
  if (bt->is_vector() && it->is_integer()) return finish(vector_component(e));
  if (!bt->is_array() && !bt->is_pointer()) {
    error(ix->loc, "cannot index a value of type " + quoted(bt));
    return finish(err());
  }
  if (bt->is_pointer() && bt->elem->is_void()) {
    error(ix->loc, "cannot index a 'void*'");
    return finish(err());
  }
  if (bt->is_pointer() && bt->elem->is_function()) {
    error(ix->loc, "cannot index a function pointer " + quoted(bt));
    return finish(err());
  }
  if (!it->is_integer()) {
    error(ix->index->loc, "array index must be an integer, not " + quoted(it));
    return finish(err());
  }
  arith_convert(ix->index, types.long_type());
  ix->is_lvalue = true;
  return finish(bt->elem);
}

// `v[i]` on a vector reads component i (LANGUAGE.md §12). A constant index is
// the swizzle; another index selects among the components (the last one for
// any index past the end), so both `v` and `i` must be free of side effects.
const Type* Sema::Impl::vector_component(ExprPtr& e) {
  auto* ix = e->as<IndexExpr>();
  const Type* vt = ix->base->type;
  auto component = [&](ExprPtr base, uint32_t k) {
    auto sw = std::make_unique<SwizzleExpr>(ix->loc);
    sw->spelling = std::string(1, "xyzw"[k]);
    sw->comps[0] = static_cast<uint8_t>(k);
    sw->count = 1;
    sw->type = vt->elem;
    sw->is_lvalue = base->is_lvalue;
    sw->base = std::move(base);
    return sw;
  };
  if (auto k = fold(*ix->index)) {
    if (*k < 0 || *k >= static_cast<int64_t>(vt->count)) {
      error(ix->index->loc, "component index " + std::to_string(*k) + " is outside " +
                                quoted(vt) + " (0 to " + std::to_string(vt->count - 1) + ")");
      return err();
    }
    e = component(std::move(ix->base), static_cast<uint32_t>(*k));
    return e->type;
  }
  ExprPtr result = component(std::move(ix->base), vt->count - 1);
  const Expr& base = *result->as<SwizzleExpr>()->base;
  for (uint32_t k = vt->count - 1; k-- > 0;) {
    ExprPtr b = clone_pure(base), i = clone_pure(*ix->index);
    if (!b || !i) {
      error(ix->loc, "a vector indexed by a variable ('v[i]') needs a vector and an index "
                     "without side effects");
      return err();
    }
    auto lit = std::make_unique<IntLit>(ix->loc);
    lit->value = k;
    auto eq = std::make_unique<BinaryExpr>(ix->loc);
    eq->op = BinaryOp::Eq;
    eq->lhs = std::move(i);
    eq->rhs = std::move(lit);
    auto c = std::make_unique<ConditionalExpr>(ix->loc);
    c->cond = std::move(eq);
    c->then_expr = component(std::move(b), k);
    c->else_expr = std::move(result);
    result = std::move(c);
  }
  e = std::move(result);
  return check_expr(e);
}

const Type* Sema::Impl::check_gather(ExprPtr& e, ParamDecl& param, NameExpr& name) {
  SourceLoc loc = e->loc;
  const bool write = scatter_target;
  scatter_target = false;  // the indices are reads
  const char* what = param.scatter ? "scatter output '" : "gather array '";
  name.decl = &param;
  name.type = param.type;
  std::vector<ExprPtr> indices;
  ExprPtr cur = std::move(e);
  while (cur->kind == ExprKind::Index) {
    auto* ix = cur->as<IndexExpr>();
    indices.push_back(std::move(ix->index));
    ExprPtr base = std::move(ix->base);
    cur = std::move(base);
  }
  std::reverse(indices.begin(), indices.end());
  auto g = std::make_unique<GatherExpr>(loc);
  g->param = std::move(cur);
  g->indices = std::move(indices);
  g->is_lvalue = true;  // read-only; check_modifiable names the gather
  GatherExpr& ge = *g;
  e = std::move(g);

  bool ok = true;
  for (ExprPtr& idx : ge.indices) {
    const Type* t = check_value(idx, "used as gather indices");
    if (t->is_error()) {
      ok = false;
    } else if (!t->is_arithmetic()) {
      error(idx->loc, "gather index must be a scalar or vector number, not " + quoted(t));
      ok = false;
    }
  }
  if (!ok) return e->type = err();
  if (param.scatter && !write) {
    // Brook+ scatter outputs are write-only: invocations run in any order, so
    // a read could not say which writes it sees.
    error(loc, "scatter output '" + param.name +
                   "' can only be written, whole elements at a time: '" + param.name +
                   (param.gather_rank == 2 ? "[row][column]" : "[i]") + " = value;'");
    return e->type = err();
  }
  size_t n = ge.indices.size();
  int rank = param.gather_rank;
  if (n == 1 && rank >= 2 && ge.indices[0]->type->is_scalar()) {
    static const char* const how[] = {"", "", "[row][column] or with a float2 (column, row)",
                                      "[slice][row][column] or with a float3 (column, row, slice)",
                                      "[w][z][y][x] or with a float4 (x, y, z, w)"};
    error(loc, what + param.name + "' has " + std::to_string(rank) + " dimensions: index it as " +
                   param.name + how[rank]);
    return e->type = err();
  }
  if (n == 1 && rank >= 3 && ge.indices[0]->type->count < static_cast<uint32_t>(rank)) {
    error(loc, what + param.name + "' has " + std::to_string(rank) + " dimensions, but its index " +
                   quoted(ge.indices[0]->type) + " has only " +
                   std::to_string(ge.indices[0]->type->count) + " components");
    return e->type = err();
  }
  if (n > 1 && static_cast<int>(n) != rank) {
    error(loc, what + param.name + "' has " + std::to_string(rank) + " dimension" +
                   (rank == 1 ? "" : "s") + ", but " + std::to_string(n) + " indices were given");
    return e->type = err();
  }
  if (n > 1) {
    for (ExprPtr& idx : ge.indices) {
      if (idx->type->is_vector()) {
        error(idx->loc, "each index of " + param.name + "[row][column] must be a scalar, not " +
                            quoted(idx->type));
        return e->type = err();
      }
    }
  }
  return e->type = param.type;
}

const Type* Sema::Impl::check_indexof(IndexofExpr& ix) {
  auto* n = ix.operand ? ix.operand->as<NameExpr>() : nullptr;
  if (!in_kernel()) {
    error(ix.loc, "indexof can only be used in a kernel");
    return err();
  }
  if (!n) {
    error(ix.operand ? ix.operand->loc : ix.loc, "indexof needs the name of a stream parameter");
    return err();
  }
  Decl* d = lookup(n->name);
  if (!d) {
    error(n->loc, "unknown name '" + n->name + "'" + suggestion(n->name, NameKind::value));
    return err();
  }
  ParamDecl* p = kernel_param(*n);
  std::string what;
  if (!p) {
    what = d->as<VarDecl>() ? "a variable" : "not a parameter";
  } else if (p->pkind == ParamKind::Const || p->pkind == ParamKind::Value) {
    what = "a constant";
  }
  if (!what.empty()) {
    error(n->loc, "indexof needs a stream parameter, '" + n->name + "' is " + what);
    return err();
  }
  n->decl = p;
  n->type = p->type;
  return types.vector(types.float_type(), 4);
}

const Type* Sema::Impl::check_domain(DomainExpr& d) {
  if (in_kernel()) {
    check_expr(d.stream);
    error(d.loc, "domain() can only be used on the host");
    return err();
  }
  const Type* st = check_expr(d.stream);
  const Type* a = check_value(d.start, "used as domain bounds");
  const Type* b = check_value(d.end, "used as domain bounds");
  if (st->is_error() || a->is_error() || b->is_error()) return err();
  if (!st->is_stream()) {
    error(d.loc, "domain() needs a stream, not " + quoted(st));
    return err();
  }
  const Type* bounds = int_vector(st->rank == 0 ? 1 : st->rank);
  auto check_bound = [&](ExprPtr& x) {
    const Type* t = x->type;
    bool integral = t->is_arithmetic();
    bool shape_ok =
        bounds->is_vector() ? (t->is_vector() && t->count == bounds->count) : t->is_scalar();
    if (!integral || !shape_ok) {
      error(x->loc, "domain() of a " + std::to_string(st->rank) + "-D stream needs " +
                        quoted(bounds) + " bounds, not " + quoted(t));
      return false;
    }
    arith_convert(x, bounds);
    return true;
  };
  bool ok = check_bound(d.start);
  ok = check_bound(d.end) && ok;
  return ok ? st : err();
}

}  // namespace brook
