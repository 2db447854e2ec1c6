#include "lang/kernel_walk.hpp"

#include "stdlib/builtins.hpp"

namespace brook::analysis {

using namespace ast;

void walk_expr(const Expr* e, const std::function<void(const Expr&)>& f) {
  if (!e) return;
  f(*e);
  switch (e->kind) {
    case ExprKind::Unary:
      walk_expr(e->as<UnaryExpr>()->operand.get(), f);
      break;
    case ExprKind::Binary:
      walk_expr(e->as<BinaryExpr>()->lhs.get(), f);
      walk_expr(e->as<BinaryExpr>()->rhs.get(), f);
      break;
    case ExprKind::Assign:
      walk_expr(e->as<AssignExpr>()->lhs.get(), f);
      walk_expr(e->as<AssignExpr>()->rhs.get(), f);
      break;
    case ExprKind::Conditional: {
      const auto* c = e->as<ConditionalExpr>();
      walk_expr(c->cond.get(), f);
      walk_expr(c->then_expr.get(), f);
      walk_expr(c->else_expr.get(), f);
      break;
    }
    case ExprKind::StmtExpr:
      break;  // host code only (sema)
    case ExprKind::Comma:
      walk_expr(e->as<CommaExpr>()->lhs.get(), f);
      walk_expr(e->as<CommaExpr>()->rhs.get(), f);
      break;
    case ExprKind::Call:
      walk_expr(e->as<CallExpr>()->callee_expr.get(), f);
      for (const auto& a : e->as<CallExpr>()->args) walk_expr(a.get(), f);
      break;
    case ExprKind::Construct:
      for (const auto& a : e->as<ConstructExpr>()->args) walk_expr(a.get(), f);
      break;
    case ExprKind::Cast:
      walk_expr(e->as<CastExpr>()->operand.get(), f);
      break;
    case ExprKind::Index:
      walk_expr(e->as<IndexExpr>()->base.get(), f);
      walk_expr(e->as<IndexExpr>()->index.get(), f);
      break;
    case ExprKind::Gather:
      walk_expr(e->as<GatherExpr>()->param.get(), f);
      for (const auto& a : e->as<GatherExpr>()->indices) walk_expr(a.get(), f);
      break;
    case ExprKind::Member:
      walk_expr(e->as<MemberExpr>()->base.get(), f);
      break;
    case ExprKind::Swizzle:
      walk_expr(e->as<SwizzleExpr>()->base.get(), f);
      break;
    case ExprKind::InitList:
      for (const auto& a : e->as<InitListExpr>()->elems) walk_expr(a.get(), f);
      break;
    default:
      break;  // Indexof names a position, not a value of the stream
  }
}

void walk(const Stmt* s, const std::function<void(const Expr&)>& on_expr,
          const std::function<void(const Stmt&)>& on_stmt) {
  if (!s) return;
  if (on_stmt) on_stmt(*s);
  switch (s->kind) {
    case StmtKind::Compound:
      for (const auto& b : s->as<CompoundStmt>()->body) walk(b.get(), on_expr, on_stmt);
      break;
    case StmtKind::Expr:
      walk_expr(s->as<ExprStmt>()->expr.get(), on_expr);
      break;
    case StmtKind::Decl:
      for (const auto& d : s->as<DeclStmt>()->decls)
        if (const auto* v = d->as<VarDecl>()) walk_expr(v->init.get(), on_expr);
      break;
    case StmtKind::If: {
      const auto* i = s->as<IfStmt>();
      walk_expr(i->cond.get(), on_expr);
      walk(i->then_stmt.get(), on_expr, on_stmt);
      walk(i->else_stmt.get(), on_expr, on_stmt);
      break;
    }
    case StmtKind::For: {
      const auto* f = s->as<ForStmt>();
      walk(f->init.get(), on_expr, on_stmt);
      walk_expr(f->cond.get(), on_expr);
      walk_expr(f->step.get(), on_expr);
      walk(f->body.get(), on_expr, on_stmt);
      break;
    }
    case StmtKind::While:
      walk_expr(s->as<WhileStmt>()->cond.get(), on_expr);
      walk(s->as<WhileStmt>()->body.get(), on_expr, on_stmt);
      break;
    case StmtKind::Do:
      walk(s->as<DoStmt>()->body.get(), on_expr, on_stmt);
      walk_expr(s->as<DoStmt>()->cond.get(), on_expr);
      break;
    case StmtKind::Switch:
      walk_expr(s->as<SwitchStmt>()->cond.get(), on_expr);
      walk(s->as<SwitchStmt>()->body.get(), on_expr, on_stmt);
      break;
    case StmtKind::Return:
      walk_expr(s->as<ReturnStmt>()->value.get(), on_expr);
      break;
    default:
      break;
  }
}

namespace {

void walk_function(const FuncDecl& fn, const std::function<void(const Expr&)>& on_expr,
                   std::set<const FuncDecl*>& seen) {
  const FuncDecl& f = fn.defined();
  if (!seen.insert(&f).second || !f.body) return;
  walk(f.body.get(), [&](const Expr& e) {
    on_expr(e);
    if (const auto* c = e.as<CallExpr>(); c && c->target != CallTarget::Builtin && c->func) {
      walk_function(*c->func, on_expr, seen);
    }
  });
}

bool changes(const UnaryExpr& u) {
  return u.op != UnaryOp::Plus && u.op != UnaryOp::Neg && u.op != UnaryOp::Not &&
         u.op != UnaryOp::BitNot;
}

}  // namespace

void walk_with_callees(const FuncDecl& f, const std::function<void(const Expr&)>& on_expr) {
  std::set<const FuncDecl*> seen;
  walk_function(f, on_expr, seen);
}

const Decl* root_of(const Expr* e) {
  while (e) {
    switch (e->kind) {
      case ExprKind::Name:
        return e->as<NameExpr>()->decl;
      case ExprKind::Member:
        e = e->as<MemberExpr>()->base.get();
        break;
      case ExprKind::Swizzle:
        e = e->as<SwizzleExpr>()->base.get();
        break;
      case ExprKind::Index:
        e = e->as<IndexExpr>()->base.get();
        break;
      case ExprKind::Cast:
        e = e->as<CastExpr>()->operand.get();
        break;
      default:
        return nullptr;
    }
  }
  return nullptr;
}

std::set<const Decl*> assigned_decls(const Stmt* s) {
  std::set<const Decl*> out;
  auto add = [&](const Expr* e) {
    if (const Decl* d = root_of(e)) out.insert(d);
  };
  walk(s, [&](const Expr& x) {
    if (const auto* a = x.as<AssignExpr>()) add(a->lhs.get());
    if (const auto* u = x.as<UnaryExpr>(); u && changes(*u)) add(u->operand.get());
    // A kernel call may write an argument (an out parameter binds by
    // reference); a builtin only through a pointer (`modf(x, &ip)`, host
    // code), so `fmod(p.x, 3.0f)` leaves p alone.
    if (const auto* c = x.as<CallExpr>())
      for (const ExprPtr& arg : c->args)
        if (c->target != CallTarget::Builtin || !arg->type || arg->type->is_pointer())
          add(arg.get());
  });
  return out;
}

bool may_assign(const Stmt* s, const Decl& v) {
  return assigned_decls(s).count(&v) != 0;
}

bool side_effect_free(const Expr& e) {
  bool pure = true;
  walk_expr(&e, [&](const Expr& x) {
    if (x.kind == ExprKind::Assign) pure = false;
    if (const auto* u = x.as<UnaryExpr>(); u && changes(*u)) pure = false;
    if (const auto* c = x.as<CallExpr>()) {
      const auto b = static_cast<stdlib::Builtin>(c->builtin);
      if (c->target != CallTarget::Builtin || b == stdlib::Builtin::printf ||
          b == stdlib::Builtin::push)
        pure = false;
    }
  });
  return pure;
}

std::optional<std::pair<const Expr*, int>> component_part(const Expr& e, int comp) {
  if (const auto* c = e.as<ConstructExpr>()) {
    if (c->args.size() == 1 && !c->args[0]->type->is_vector()) return std::pair{c->args[0].get(), 0};
    int at = 0;
    for (const auto& a : c->args) {
      int w = static_cast<int>(a->type->width());
      if (comp < at + w)
        return a->type->is_vector() ? std::nullopt : std::optional(std::pair{a.get(), 0});
      at += w;
    }
    return std::nullopt;
  }
  if (const auto* sw = e.as<SwizzleExpr>()) {
    if (comp >= sw->count) return std::nullopt;
    int from = sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0;
    return std::pair{sw->base.get(), from};
  }
  return std::nullopt;
}

}  // namespace brook::analysis
