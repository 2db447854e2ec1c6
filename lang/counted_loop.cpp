#include "lang/counted_loop.hpp"

#include "lang/analysis.hpp"
#include "lang/kernel_walk.hpp"

namespace brook::analysis {

namespace {

constexpr int64_t kIntExact = int64_t{1} << 40;  // far from overflow in trip arithmetic

// Whether `e` names `d`, through conversions sema inserted.
bool names(const ast::Expr* e, const ast::Decl* d) {
  while (e && e->as<ast::CastExpr>() && e->as<ast::CastExpr>()->implicit)
    e = e->as<ast::CastExpr>()->operand.get();
  const auto* n = e ? e->as<ast::NameExpr>() : nullptr;
  return n && n->decl == d;
}

std::optional<int64_t> constant(const ast::Expr* e, bool allow_float) {
  if (!e) return std::nullopt;
  if (const auto* l = e->as<ast::IntLit>()) {
    if (l->value > static_cast<uint64_t>(kIntExact)) return std::nullopt;
    return static_cast<int64_t>(l->value);
  }
  if (const auto* f = e->as<ast::FloatLit>()) {
    if (!allow_float || !(f->value >= -0x1p24 && f->value <= 0x1p24) ||
        f->value != static_cast<double>(static_cast<int64_t>(f->value)))
      return std::nullopt;
    return static_cast<int64_t>(f->value);
  }
  if (const auto* u = e->as<ast::UnaryExpr>()) {
    std::optional<int64_t> v = constant(u->operand.get(), allow_float);
    if (!v) return std::nullopt;
    if (u->op == ast::UnaryOp::Neg) return -*v;
    if (u->op == ast::UnaryOp::Plus) return v;
    return std::nullopt;
  }
  if (const auto* c = e->as<ast::CastExpr>()) {
    const Type* from = c->operand->type;
    if (c->cast != ast::CastKind::Convert || !from || !e->type || !from->is_scalar() ||
        !e->type->is_scalar() || from->kind == TypeKind::Bool || e->type->kind == TypeKind::Bool)
      return std::nullopt;
    // Through a floating type only where the counter is one: (int)2.5f is no constant of it.
    if (!allow_float && !(from->is_integer() && e->type->is_integer())) return std::nullopt;
    return constant(c->operand.get(), allow_float);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> exact_constant(const ast::Expr* e, const Type* type) {
  const bool floating = type && type->is_floating();
  std::optional<int64_t> v = constant(e, floating);
  const int64_t limit = floating ? kFloatExact : kIntExact;
  if (v && (*v > limit || *v < -limit)) return std::nullopt;
  return v;
}

bool CountedFor::toward_bound() const {
  using Op = ast::BinaryOp;
  return step > 0 ? (test == Op::Lt || test == Op::Le) : (test == Op::Gt || test == Op::Ge);
}

std::optional<int64_t> CountedFor::trips() const {
  if (!first || !bound_value) return std::nullopt;
  // Distance to go in the step's direction, and whether the bound is reached
  // inclusively (<=, >=) or must be hit exactly (!=).
  const int64_t d = step > 0 ? *bound_value - *first : *first - *bound_value;
  const int64_t s = step > 0 ? step : -step;
  if (test == ast::BinaryOp::Ne) {
    if (d >= 0 && d % s == 0) return d / s;
    return std::nullopt;
  }
  if (!toward_bound()) return std::nullopt;
  if (inclusive()) return d >= 0 ? d / s + 1 : 0;
  return d > 0 ? (d + s - 1) / s : 0;
}

std::optional<CountedFor> counted_for(const ast::Stmt* init, const ast::Expr* cond,
                                      const ast::Expr* step) {
  if (!init || !cond || !step) return std::nullopt;
  CountedFor loop;
  if (const auto* ds = init->as<ast::DeclStmt>()) {
    if (ds->decls.size() != 1) return std::nullopt;
    const auto* v = ds->decls[0]->as<ast::VarDecl>();
    if (!v || !v->init) return std::nullopt;
    loop.counter = v;
    loop.type = v->type;
    loop.declared_in_init = true;
    loop.first_expr = v->init.get();
  } else if (const auto* es = init->as<ast::ExprStmt>()) {
    const auto* a = es->expr ? es->expr->as<ast::AssignExpr>() : nullptr;
    const auto* n = a && !a->op ? a->lhs->as<ast::NameExpr>() : nullptr;
    if (!n || !n->decl) return std::nullopt;
    loop.counter = n->decl;
    loop.type = a->lhs->type;
    loop.first_expr = a->rhs.get();
  }
  if (!loop.counter || !loop.type || !(loop.type->is_integer() || loop.type->is_floating()))
    return std::nullopt;
  loop.first = exact_constant(loop.first_expr, loop.type);
  if (const auto* u = step->as<ast::UnaryExpr>()) {
    if (!names(u->operand.get(), loop.counter)) return std::nullopt;
    if (u->op == ast::UnaryOp::PreInc || u->op == ast::UnaryOp::PostInc) loop.step = 1;
    if (u->op == ast::UnaryOp::PreDec || u->op == ast::UnaryOp::PostDec) loop.step = -1;
  } else if (const auto* a = step->as<ast::AssignExpr>()) {
    if (!a->op || !names(a->lhs.get(), loop.counter)) return std::nullopt;
    std::optional<int64_t> by = exact_constant(a->rhs.get(), loop.type);
    if (!by) return std::nullopt;
    if (*a->op == ast::BinaryOp::Add) loop.step = *by;
    if (*a->op == ast::BinaryOp::Sub) loop.step = -*by;
  }
  const auto* c = cond->as<ast::BinaryExpr>();
  if (loop.step == 0 || !c || !names(c->lhs.get(), loop.counter)) return std::nullopt;
  using Op = ast::BinaryOp;
  if (c->op != Op::Lt && c->op != Op::Le && c->op != Op::Gt && c->op != Op::Ge && c->op != Op::Ne)
    return std::nullopt;
  loop.test = c->op;
  loop.bound = c->rhs.get();
  loop.bound_value = exact_constant(loop.bound, loop.type);
  return loop;
}

bool body_keeps_count(const CountedFor& loop, const ast::Stmt* body) {
  if (!loop.bound || !side_effect_free(*loop.bound)) return false;
  if (body && may_assign(body, *loop.counter)) return false;
  bool stable = true;
  walk_expr(loop.bound, [&](const ast::Expr& x) {
    auto* n = x.as<ast::NameExpr>();
    if (n && n->decl && (n->decl == loop.counter || (body && may_assign(body, *n->decl))))
      stable = false;
  });
  return stable;
}

}  // namespace brook::analysis
