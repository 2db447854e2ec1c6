// Expression typing: literals, operators with C's promotions and usual
// arithmetic conversions (sema_convert.cpp), per-component vector operators
// with scalar broadcast, assignments, ?:, casts, constructors and sizeof.
#include <limits>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

std::string_view unary_spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Plus:
      return "+";
    case UnaryOp::Neg:
      return "-";
    case UnaryOp::Not:
      return "!";
    case UnaryOp::BitNot:
      return "~";
    case UnaryOp::Deref:
      return "*";
    case UnaryOp::AddrOf:
      return "&";
    case UnaryOp::PreInc:
    case UnaryOp::PostInc:
      return "++";
    case UnaryOp::PreDec:
    case UnaryOp::PostDec:
      return "--";
  }
  return "?";
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le || op == BinaryOp::Ge ||
         op == BinaryOp::Eq || op == BinaryOp::Ne;
}

bool integer_only(BinaryOp op) {
  return op == BinaryOp::Mod || op == BinaryOp::BitAnd || op == BinaryOp::BitXor ||
         op == BinaryOp::BitOr || op == BinaryOp::Shl || op == BinaryOp::Shr;
}

bool is_integral(const Type* t) {
  return t->is_arithmetic() && t->scalar_of()->is_integer();
}

}  // namespace

const Type* Sema::Impl::check_expr(ExprPtr& e) {
  if (!e) return err();
  if (e->type) return e->type;  // already checked (shared paths re-enter)
  if (expr_depth >= kMaxExprDepth) {
    if (!depth_reported) error(e->loc, "expression is too deeply nested");
    depth_reported = true;
    return e->type = err();
  }
  struct DepthGuard {
    Impl& impl;
    explicit DepthGuard(Impl& i) : impl(i) { ++impl.expr_depth; }
    ~DepthGuard() {
      if (--impl.expr_depth == 0) impl.depth_reported = false;
    }
  } guard(*this);
  const Type* t = nullptr;
  switch (e->kind) {
    case ExprKind::IntLit: {
      auto* lit = e->as<IntLit>();
      uint64_t v = lit->value;
      auto fits = [&](TypeKind k) {
        switch (k) {
          case TypeKind::Int:
            return v <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
          case TypeKind::UInt:
            return v <= std::numeric_limits<uint32_t>::max();
          case TypeKind::Long:
            return v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
          default:
            return true;
        }
      };
      std::vector<TypeKind> candidates;
      if (lit->is_char)
        candidates = {TypeKind::Int};
      else if (lit->is_unsigned && lit->is_long)
        candidates = {TypeKind::ULong};
      else if (lit->is_unsigned)
        candidates = {TypeKind::UInt, TypeKind::ULong};
      else if (lit->is_long)
        candidates = {TypeKind::Long, TypeKind::ULong};
      else if (lit->is_decimal)
        candidates = {TypeKind::Int, TypeKind::Long, TypeKind::ULong};
      else
        candidates = {TypeKind::Int, TypeKind::UInt, TypeKind::Long, TypeKind::ULong};
      for (TypeKind k : candidates) {
        if (fits(k) || k == candidates.back()) {
          t = types.scalar(k);
          break;
        }
      }
      break;
    }
    case ExprKind::FloatLit:
      t = e->as<FloatLit>()->is_float ? types.float_type() : types.double_type();
      break;
    case ExprKind::BoolLit:
      t = types.bool_type();
      break;
    case ExprKind::StringLit:
      t = types.array(types.char_type(),
                      static_cast<uint32_t>(e->as<StringLit>()->value.size() + 1));
      e->is_lvalue = true;
      break;
    case ExprKind::Name:
      if (auto* n = e->as<NameExpr>(); n->name == "__func__" && func && !lookup(n->name)) {
        // C99 6.4.2.2: the enclosing function's name, as a string literal.
        auto lit = std::make_unique<StringLit>(n->loc);
        lit->value = func->name;
        e = std::move(lit);
        t = types.array(types.char_type(), static_cast<uint32_t>(func->name.size() + 1));
        e->is_lvalue = true;
        break;
      }
      t = check_name(*e->as<NameExpr>());
      break;
    case ExprKind::Unary:
      t = check_unary(*e->as<UnaryExpr>());
      break;
    case ExprKind::Binary:
      t = check_binary(*e->as<BinaryExpr>());
      break;
    case ExprKind::Assign:
      if (ExprPtr copy = stream_assignment(*e->as<AssignExpr>())) {
        e = std::move(copy);
        return check_expr(e);
      }
      t = check_assign(*e->as<AssignExpr>());
      break;
    case ExprKind::Conditional:
      t = check_conditional(*e->as<ConditionalExpr>());
      break;
    case ExprKind::Comma: {
      auto* c = e->as<CommaExpr>();
      check_value(c->lhs);
      t = check_value(c->rhs);
      break;
    }
    case ExprKind::StmtExpr: {
      auto* se = e->as<StmtExprExpr>();
      if (!func || in_kernel()) {
        error(e->loc, std::string("a statement expression '({ ... })' in ") + func_desc() +
                          ": statement expressions are host code inside functions only");
        t = err();
        break;
      }
      push_scope();
      check_compound(*se->body, false);
      t = se->result ? check_value(se->result) : types.void_type();
      pop_scope();
      break;
    }
    case ExprKind::Call:
      t = check_call(*e->as<CallExpr>());
      break;
    case ExprKind::Construct: {
      // `half(x)` calls a user function named like a BrookGPU type spelling.
      auto* c = e->as<ConstructExpr>();
      Decl* d = c->target.name.empty() ? nullptr : lookup(c->target.name);
      if (d && d->as<FuncDecl>()) {
        auto call = std::make_unique<CallExpr>(c->loc);
        call->callee = c->target.name;
        call->callee_loc = c->loc;
        call->args = std::move(c->args);
        e = std::move(call);
        return check_expr(e);
      }
      t = check_construct(*c);
      break;
    }
    case ExprKind::Cast:
      t = check_cast(*e->as<CastExpr>());
      break;
    case ExprKind::Index:
      return check_index(e);
    case ExprKind::Member:
      return check_member(e);
    case ExprKind::Gather:
    case ExprKind::Swizzle:
      t = err();
      break;  // only sema makes these, already typed
    case ExprKind::Sizeof:
      t = check_sizeof(*e->as<SizeofExpr>());
      break;
    case ExprKind::Indexof:
      t = check_indexof(*e->as<IndexofExpr>());
      break;
    case ExprKind::InitList:
      t = check_init_list_misuse(*e->as<InitListExpr>());
      break;
    case ExprKind::Domain:
      t = check_domain(*e->as<DomainExpr>());
      break;
    case ExprKind::IterInit:
      error(e->loc, "iter() can only initialise an iterator stream");
      t = err();
      break;
    case ExprKind::CompoundLit:
      t = check_compound_literal(*e->as<CompoundLitExpr>());
      break;
  }
  e->type = t ? t : err();
  return e->type;
}

const Type* Sema::Impl::check_init_list_misuse(InitListExpr& l) {
  error(l.loc, "a braced initialiser list can only initialise a variable");
  return err();
}

const Type* Sema::Impl::check_unary(UnaryExpr& u) {
  std::string op(unary_spelling(u.op));
  switch (u.op) {
    case UnaryOp::AddrOf: {
      if (in_kernel()) {
        if (!check_expr(u.operand)->is_error()) error(u.loc, "pointers are not allowed in kernels");
        return err();
      }
      const Type* t = check_expr(u.operand);
      if (t->is_error()) return err();
      if (t->is_function()) return types.pointer(t);  // `&f` is what `f` decays to
      // `&s` points to the stream itself (LANGUAGE.md §12): its value is the handle.
      if (t->is_stream() && !t->is_iter) return types.pointer(t);
      if (reject_stream(*u.operand, "addressed on the host; use streamRead/streamWrite"))
        return err();
      if (!u.operand->is_lvalue) {
        error(u.loc, "cannot take the address of a value that is not stored in a variable");
        return err();
      }
      if (const FieldDecl* bf = bitfield_member(*u.operand)) {
        error(u.loc, "cannot take the address of bit-field '" + bf->name + "'");
        return err();
      }
      return types.pointer(t);
    }
    case UnaryOp::Deref: {
      if (in_kernel()) {
        if (!check_expr(u.operand)->is_error()) error(u.loc, "pointers are not allowed in kernels");
        return err();
      }
      const Type* t = check_value(u.operand, "dereferenced");
      if (t->is_error()) return err();
      if (!t->is_pointer() || t->elem->is_void()) {
        error(u.loc, "cannot dereference a value of type " + quoted(t));
        return err();
      }
      // `*o` is the caller's stream; `*fp` the function, which decays back.
      u.is_lvalue = !t->elem->is_stream() && !t->elem->is_function();
      return t->elem;
    }
    case UnaryOp::PreInc:
    case UnaryOp::PreDec:
    case UnaryOp::PostInc:
    case UnaryOp::PostDec: {
      bool inc = u.op == UnaryOp::PreInc || u.op == UnaryOp::PostInc;
      const Type* t = check_expr(u.operand);
      if (t->is_error()) return err();
      if (reject_stream(*u.operand, inc ? "incremented" : "decremented")) return err();
      if (!(t->is_arithmetic() || t->is_pointer()) || (t->is_pointer() && t->elem->is_function())) {
        error(u.loc, "invalid operand to '" + op + "': " + quoted(t));
        return err();
      }
      if (!check_modifiable(*u.operand, inc ? "increment" : "decrement")) return err();
      return t;
    }
    case UnaryOp::Plus:
    case UnaryOp::Neg:
    case UnaryOp::BitNot: {
      const Type* t = check_value(u.operand, "used in arithmetic on the host; use a kernel");
      if (t->is_error()) return err();
      bool ok = u.op == UnaryOp::BitNot ? is_integral(t) : t->is_arithmetic();
      if (!ok) {
        error(u.loc, "invalid operand to unary '" + op + "': " + quoted(t));
        return err();
      }
      const Type* r = promote(t);
      arith_convert(u.operand, r);
      return r;
    }
    case UnaryOp::Not: {
      const Type* t = check_value(u.operand, "used in arithmetic on the host; use a kernel");
      if (t->is_error()) return err();
      if (!(t->is_arithmetic() || t->is_pointer())) {
        error(u.loc, "invalid operand to unary '!': " + quoted(t));
        return err();
      }
      return int_vector(t->width());
    }
  }
  return err();
}

const Type* Sema::Impl::check_binary(BinaryExpr& b) {
  const Type* lt = check_value(b.lhs, "used in arithmetic on the host; use a kernel");
  const Type* rt = check_value(b.rhs, "used in arithmetic on the host; use a kernel");
  if (lt->is_error() || rt->is_error()) return err();
  return binary_result(b.op, b.lhs, b.rhs, b.loc, nullptr);
}

const Type* Sema::Impl::binary_result(BinaryOp op, ExprPtr& lhs, ExprPtr& rhs, SourceLoc loc,
                                      const Type** op_type) {
  const Type* lt = lhs->type;
  const Type* rt = rhs->type;
  bool compound = op_type != nullptr;
  auto invalid = [&]() {
    error(loc, "invalid operands to binary '" + std::string(spelling(op)) + "': " + quoted(lt) +
                   " and " + quoted(rt));
    return err();
  };
  auto done = [&](const Type* operation, const Type* result) {
    if (op_type) *op_type = operation;
    return result;
  };

  // Pointers (host only).
  if (lt->is_pointer() || rt->is_pointer()) {
    if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr) {
      if (!(lt->is_scalar() || lt->is_pointer()) || !(rt->is_scalar() || rt->is_pointer()))
        return invalid();
      return done(types.int_type(), types.int_type());
    }
    if ((lt->is_pointer() && lt->elem->is_function()) ||
        (rt->is_pointer() && rt->elem->is_function())) {
      // Function pointers are compared, never moved (C99 6.5.6p2).
      if (!is_comparison(op) || compound || (op != BinaryOp::Eq && op != BinaryOp::Ne))
        return invalid();
    }
    if ((op == BinaryOp::Add || op == BinaryOp::Sub) && lt->is_pointer() && rt->is_integer()) {
      arith_convert(rhs, types.long_type());
      return done(lt, lt);
    }
    if (op == BinaryOp::Add && !compound && lt->is_integer() && rt->is_pointer()) {
      arith_convert(lhs, types.long_type());
      return rt;
    }
    if (op == BinaryOp::Sub && !compound && lt->is_pointer() && rt->is_pointer()) {
      if (lt != rt) return invalid();
      return types.long_type();
    }
    if (is_comparison(op) && !compound) {
      if (lt->is_pointer() && rt->is_pointer()) {
        if (lt != rt && !lt->elem->is_void() && !rt->elem->is_void() &&
            !functions_compatible(lt->elem, rt->elem))
          return invalid();
        return types.int_type();
      }
      if (lt->is_pointer() && is_null_constant(*rhs)) {
        cast_to(rhs, lt, CastKind::PointerCast);
        return types.int_type();
      }
      if (rt->is_pointer() && is_null_constant(*lhs)) {
        cast_to(lhs, rt, CastKind::PointerCast);
        return types.int_type();
      }
    }
    return invalid();
  }

  if (!lt->is_arithmetic() || !rt->is_arithmetic()) return invalid();

  if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr) {
    if (lt->is_scalar() && rt->is_scalar()) return done(types.int_type(), types.int_type());
    const Type* ct = common_arith(lt, rt);
    if (!ct) return invalid();
    if (!compound) arith_convert(lhs, ct);
    arith_convert(rhs, ct);
    return done(ct, int_vector(ct->width()));
  }

  if (integer_only(op) && (!is_integral(lt) || !is_integral(rt))) return invalid();

  if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
    const Type* pl = promote(lt);
    if (rt->is_vector() && !lt->is_vector()) return invalid();
    if (rt->is_vector() && rt->count != lt->count) return invalid();
    if (!compound) arith_convert(lhs, pl);
    if (lt->is_vector()) {
      arith_convert(rhs, pl);
    } else {
      arith_convert(rhs, promote(rt));
    }
    return done(pl, pl);
  }

  const Type* ct = common_arith(lt, rt);
  if (!ct) return invalid();
  if (!compound) arith_convert(lhs, ct);
  arith_convert(rhs, ct);
  if (is_comparison(op)) return done(ct, int_vector(ct->width()));
  return done(ct, ct);
}

bool Sema::Impl::check_modifiable(const Expr& e, std::string_view action) {
  std::string act(action);
  const Expr* root = &e;
  while (true) {
    if (auto* m = root->as<MemberExpr>()) {
      if (m->arrow) break;
      root = m->base.get();
    } else if (auto* s = root->as<SwizzleExpr>()) {
      for (int i = 0; i < s->count; ++i)
        for (int j = 0; j < i; ++j)
          if (s->comps[i] == s->comps[j]) {
            error(s->loc,
                  "cannot " + act + " swizzle '." + s->spelling + "': it repeats a component");
            return false;
          }
      root = s->base.get();
    } else if (auto* ix = root->as<IndexExpr>()) {
      if (!ix->base->type || !ix->base->type->is_array()) break;
      root = ix->base.get();
    } else if (auto* g = root->as<GatherExpr>()) {
      auto* n = g->param->as<NameExpr>();
      auto* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
      if (p && p->scatter && root == &e) return true;  // `a[i] = v` on a scatter output (§12)
      error(e.loc, "cannot " + act + " gather array '" + (n ? n->name : std::string("?")) + "'");
      return false;
    } else {
      break;
    }
  }
  if (auto* n = root->as<NameExpr>()) {
    if (auto* p = n->decl ? n->decl->as<ParamDecl>() : nullptr) {
      switch (p->pkind) {
        case ParamKind::Input:
          error(e.loc, "cannot " + act + " input stream '" + p->name + "'");
          return false;
        case ParamKind::Iter:
          error(e.loc, "cannot " + act + " iterator '" + p->name + "'");
          return false;
        case ParamKind::Const:
          error(e.loc, "cannot " + act + " constant parameter '" + p->name + "'");
          return false;
        case ParamKind::Gather:
          error(e.loc, "cannot " + act + " gather array '" + p->name + "'");
          return false;
        default:
          break;
      }
    }
    if (auto* v = n->decl ? n->decl->as<VarDecl>() : nullptr) {
      if (v->type_syntax.is_const && v->type_syntax.pointer_depth == 0) {
        error(e.loc, "cannot " + act + " const variable '" + v->name + "'");
        return false;
      }
    }
  }
  if (!e.is_lvalue) {
    error(e.loc, "cannot " + act + " this expression: it is not a variable, element or field");
    return false;
  }
  if (e.type && e.type->is_array()) {
    error(e.loc, "cannot " + act + " an array; assign its elements");
    return false;
  }
  return true;
}

// BrookGPU's `a = b;` between two streams in host code (LANGUAGE.md §12)
// copies b's elements into a: the call __streamAssign(a, b), which the stream
// runtime checks for equal shapes. Null for every other assignment.
ExprPtr Sema::Impl::stream_assignment(AssignExpr& a) {
  if (a.op || in_kernel()) return nullptr;
  const Type* lt = check_expr(a.lhs);
  if (!lt->is_stream()) return nullptr;
  auto call = std::make_unique<CallExpr>(a.loc);
  call->callee = "__streamAssign";
  call->callee_loc = a.loc;
  call->args.push_back(std::move(a.lhs));
  call->args.push_back(std::move(a.rhs));
  return call;
}

const Type* Sema::Impl::check_assign(AssignExpr& a) {
  scatter_target = in_kernel() && !a.op && a.lhs->kind == ExprKind::Index;
  const Type* lt = check_expr(a.lhs);
  scatter_target = false;
  if (lt->is_stream()) {
    error(a.lhs->loc, "a stream takes no compound assignment: '=' copies a whole stream; compute with a kernel");
    check_expr(a.rhs);
    return err();
  }
  bool modifiable = lt->is_error() || check_modifiable(*a.lhs, "assign to");
  const Type* rt = check_value(a.rhs, "assigned; use streamRead, streamWrite or streamSwap");
  if (lt->is_error() || rt->is_error() || !modifiable) return err();
  if (!a.op) {
    if (!convert(a.rhs, lt, "in assignment")) return err();
    return lt;
  }
  const Type* op_type = nullptr;
  const Type* r = binary_result(*a.op, a.lhs, a.rhs, a.loc, &op_type);
  if (r->is_error() || !op_type) return err();
  a.op_type = op_type;
  if (op_type->is_vector() && !lt->is_vector()) {
    error(a.loc, "cannot convert " + quoted(op_type) + " to " + quoted(lt) + " in assignment");
    return err();
  }
  return lt;
}

const Type* Sema::Impl::check_conditional(ConditionalExpr& c) {
  if (!c.then_expr) return check_omitted_middle(c);
  if (!in_kernel()) {
    // `i % 2 ? *o : t` chooses between two streams on the host (LANGUAGE.md §12).
    const Type* tt = check_expr(c.then_expr);
    const Type* et = check_expr(c.else_expr);
    if (tt->is_stream() || et->is_stream()) {
      const Type* ct = check_value(c.cond, "used as conditions");
      if (tt->is_error() || et->is_error() || ct->is_error()) return err();
      if (!(ct->is_scalar() || ct->is_pointer())) {
        error(c.cond->loc, "condition must be a scalar, not " + quoted(ct));
        return err();
      }
      if (!tt->is_stream() || !et->is_stream() || tt->elem != et->elem) {
        error(c.loc, "incompatible operand types in '?:': " + quoted(tt) + " and " + quoted(et));
        return err();
      }
      return tt->rank == et->rank ? tt : types.stream(tt->elem, 0);
    }
  }
  const Type* ct = check_value(c.cond, "used as conditions");
  const Type* tt = check_value(c.then_expr, "used as values on the host");
  const Type* et = check_value(c.else_expr, "used as values on the host");
  if (ct->is_error() || tt->is_error() || et->is_error()) return err();
  if (ct->is_vector()) {
    // Per component (LANGUAGE.md §12): result component i is then[i] where
    // cond[i] is nonzero, else else[i]; scalar arms are broadcast.
    const Type* r = tt->is_arithmetic() && et->is_arithmetic() ? common_arith(tt, et) : nullptr;
    if (r && r->is_scalar()) r = types.vector(r, ct->count);
    if (!r || r->count != ct->count) {
      error(c.loc, "the condition of type " + quoted(ct) +
                       " selects per component, so both "
                       "operands must be scalars or " +
                       std::to_string(ct->count) + "-component vectors, not " + quoted(tt) +
                       " and " + quoted(et));
      return err();
    }
    arith_convert(c.then_expr, r);
    arith_convert(c.else_expr, r);
    return r;
  }
  if (!(ct->is_scalar() || ct->is_pointer())) {
    error(c.cond->loc, "condition must be a scalar, not " + quoted(ct) + "; use any() or all()");
    return err();
  }
  if (tt == et) return tt;
  if (tt->is_arithmetic() && et->is_arithmetic()) {
    const Type* r = common_arith(tt, et);
    if (r) {
      arith_convert(c.then_expr, r);
      arith_convert(c.else_expr, r);
      return r;
    }
  }
  if (tt->is_pointer() && is_null_constant(*c.else_expr)) {
    cast_to(c.else_expr, tt, CastKind::PointerCast);
    return tt;
  }
  if (et->is_pointer() && is_null_constant(*c.then_expr)) {
    cast_to(c.then_expr, et, CastKind::PointerCast);
    return et;
  }
  if (tt->is_pointer() && et->is_pointer() && (tt->elem->is_void() || et->elem->is_void())) {
    const Type* vp = types.pointer(types.void_type());
    cast_to(c.then_expr, vp, CastKind::PointerCast);
    cast_to(c.else_expr, vp, CastKind::PointerCast);
    return vp;
  }
  error(c.loc, "incompatible operand types in '?:': " + quoted(tt) + " and " + quoted(et));
  return err();
}

// gcc's `a ?: b`: a when it is nonzero (evaluated once), else b; typed as
// `a ? a : b` is. Host code only.
const Type* Sema::Impl::check_omitted_middle(ConditionalExpr& c) {
  const Type* ct = check_value(c.cond, "used as conditions");
  const Type* et = check_value(c.else_expr, "used as values on the host");
  if (ct->is_error() || et->is_error()) return err();
  if (in_kernel()) {
    error(c.loc, "'?:' with the middle operand left out, in " + func_desc() +
                     ", is host-only; write 'a ? a : b'");
    return err();
  }
  if (!(ct->is_scalar() || ct->is_pointer())) {
    error(c.cond->loc, "condition must be a scalar, not " + quoted(ct));
    return err();
  }
  if (ct->is_arithmetic() && et->is_arithmetic()) {
    if (const Type* r = common_arith(ct, et)) {
      arith_convert(c.cond, r);
      arith_convert(c.else_expr, r);
      return r;
    }
  }
  if (ct->is_pointer() && (et == ct || is_null_constant(*c.else_expr))) {
    if (et != ct) cast_to(c.else_expr, ct, CastKind::PointerCast);
    return ct;
  }
  error(c.loc, "incompatible operand types in '?:': " + quoted(ct) + " and " + quoted(et));
  return err();
}

const Type* Sema::Impl::check_cast(CastExpr& c) {
  const Type* to = resolve_type(c.target, true);
  const Type* from = check_value(c.operand, "cast");
  if (!to || from->is_error()) return err();
  if (in_kernel() && to->is_pointer()) {
    error(c.loc, "pointers are not allowed in kernels");
    return err();
  }
  if (to->is_void()) {
    c.cast = CastKind::ToVoid;
    return to;
  }
  if (from == to) {
    c.cast = CastKind::Convert;
    return to;
  }
  auto bad = [&]() {
    error(c.loc, "cannot cast " + quoted(from) + " to " + quoted(to));
    return err();
  };
  if (to->kind == TypeKind::Bool && (from->is_scalar() || from->is_pointer())) {
    c.cast = CastKind::ToBool;
  } else if (from->is_scalar() && to->is_scalar()) {
    c.cast = CastKind::Convert;
  } else if (from->is_scalar() && to->is_vector()) {
    arith_convert(c.operand, to->elem);
    c.cast = CastKind::Broadcast;
  } else if (from->is_vector() && to->is_arithmetic() && to->kind != TypeKind::Bool) {
    // `(float3)v`, `(float)v`: BrookGPU narrows by dropping trailing components.
    if (to->width() > from->count) return bad();
    if (to->width() < from->count) narrow(c.operand, to->width());
    c.cast = CastKind::Convert;
  } else if ((from->is_pointer() && (to->is_pointer() || to->is_integer())) ||
             (from->is_integer() && to->is_pointer())) {
    c.cast = CastKind::PointerCast;
  } else {
    return bad();
  }
  return to;
}

const Type* Sema::Impl::check_construct(ConstructExpr& c) {
  const Type* to = resolve_type(c.target, false);
  bool ok = to != nullptr;
  for (ExprPtr& a : c.args) {
    const Type* t = check_value(a, "used to construct values");
    if (t->is_error()) ok = false;
  }
  if (!ok) return err();
  if (!to->is_arithmetic()) {
    error(c.loc, "cannot construct a value of type " + quoted(to) + " this way");
    return err();
  }
  for (ExprPtr& a : c.args) {
    if (!a->type->is_arithmetic()) {
      error(a->loc, "cannot construct " + quoted(to) + " from " + quoted(a->type));
      return err();
    }
  }
  const Type* comp = to->scalar_of();
  if (c.args.size() == 1 && c.args[0]->type->is_scalar()) {
    arith_convert(c.args[0], comp);
    return to;
  }
  uint32_t total = 0;
  for (ExprPtr& a : c.args) total += a->type->width();
  if (total != to->width()) {
    error(c.loc, quoted(to) + " needs " + std::to_string(to->width()) + " component" +
                     (to->width() == 1 ? "" : "s") + ", but " + std::to_string(total) +
                     (total == 1 ? " was" : " were") + " given");
    return err();
  }
  for (ExprPtr& a : c.args) {
    const Type* target = a->type->is_vector() ? types.vector(comp, a->type->count) : comp;
    arith_convert(a, target);
  }
  return to;
}

const Type* Sema::Impl::check_sizeof(SizeofExpr& s) {
  const Type* t = nullptr;
  if (s.target) {
    t = resolve_type(*s.target, true);
    if (!t) return err();
  } else {
    t = check_expr(s.operand);
    if (t->is_error()) return err();
    if (const FieldDecl* bf = bitfield_member(*s.operand)) {
      error(s.loc,
            std::string(s.alignment ? "cannot take the alignment of" : "cannot take the size of") +
                " bit-field '" + bf->name + "'");
      return err();
    }
  }
  if (t->is_stream() || t->is_void() || t->is_function() ||
      (t->is_struct() && !t->decl->is_definition) || (t->is_array() && t->count == 0)) {
    error(s.loc,
          std::string(s.alignment ? "cannot take the alignment of " : "cannot take the size of ") +
              quoted(t));
    return err();
  }
  s.value = s.alignment ? t->align : t->size;
  return types.ulong_type();
}

}  // namespace brook
