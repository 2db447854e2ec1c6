#include "backends/opencl/cl_walk.hpp"

namespace brook::opencl {

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
      auto* c = e->as<ConditionalExpr>();
      walk_expr(c->cond.get(), f);
      walk_expr(c->then_expr.get(), f);
      walk_expr(c->else_expr.get(), f);
      break;
    }
    case ExprKind::Comma:
      walk_expr(e->as<CommaExpr>()->lhs.get(), f);
      walk_expr(e->as<CommaExpr>()->rhs.get(), f);
      break;
    case ExprKind::Call:
      for (auto& a : e->as<CallExpr>()->args) walk_expr(a.get(), f);
      break;
    case ExprKind::Construct:
      for (auto& a : e->as<ConstructExpr>()->args) walk_expr(a.get(), f);
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
      for (auto& a : e->as<GatherExpr>()->indices) walk_expr(a.get(), f);
      break;
    case ExprKind::Member:
      walk_expr(e->as<MemberExpr>()->base.get(), f);
      break;
    case ExprKind::Swizzle:
      walk_expr(e->as<SwizzleExpr>()->base.get(), f);
      break;
    case ExprKind::Indexof:
      break;  // a position, not a read of the stream's value
    case ExprKind::InitList:
      for (auto& a : e->as<InitListExpr>()->elems) walk_expr(a.get(), f);
      break;
    default:
      break;
  }
}

void walk(const Stmt* s, const std::function<void(const Expr&)>& on_expr,
          const std::function<void(const Stmt&)>& on_stmt) {
  if (!s) return;
  on_stmt(*s);
  switch (s->kind) {
    case StmtKind::Compound:
      for (auto& b : s->as<CompoundStmt>()->body) walk(b.get(), on_expr, on_stmt);
      break;
    case StmtKind::Expr:
      walk_expr(s->as<ExprStmt>()->expr.get(), on_expr);
      break;
    case StmtKind::Decl:
      for (auto& d : s->as<DeclStmt>()->decls)
        if (auto* v = d->as<VarDecl>()) walk_expr(v->init.get(), on_expr);
      break;
    case StmtKind::If: {
      auto* i = s->as<IfStmt>();
      walk_expr(i->cond.get(), on_expr);
      walk(i->then_stmt.get(), on_expr, on_stmt);
      walk(i->else_stmt.get(), on_expr, on_stmt);
      break;
    }
    case StmtKind::For: {
      auto* f = s->as<ForStmt>();
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

}  // namespace brook::opencl

namespace brook::opencl {

using namespace ast;

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

namespace {

bool changes(const UnaryExpr& u) {
  return u.op != UnaryOp::Plus && u.op != UnaryOp::Neg && u.op != UnaryOp::Not &&
         u.op != UnaryOp::BitNot;
}

}  // namespace

bool may_assign(const Stmt* s, const Decl& v) {
  bool assigned = false;
  auto on_expr = [&](const Expr& x) {
    if (auto* a = x.as<AssignExpr>(); a && root_of(a->lhs.get()) == &v) assigned = true;
    if (auto* u = x.as<UnaryExpr>(); u && changes(*u) && root_of(u->operand.get()) == &v)
      assigned = true;
    if (auto* c = x.as<CallExpr>())
      for (const ExprPtr& arg : c->args)
        if (root_of(arg.get()) == &v) assigned = true;
  };
  walk(s, on_expr, [](const Stmt&) {});
  return assigned;
}

std::set<const Decl*> assigned_decls(const Stmt* s) {
  std::set<const Decl*> out;
  auto add = [&](const Expr* e) {
    if (const Decl* d = root_of(e)) out.insert(d);
  };
  walk(
      s,
      [&](const Expr& x) {
        if (auto* a = x.as<AssignExpr>()) add(a->lhs.get());
        if (auto* u = x.as<UnaryExpr>(); u && changes(*u)) add(u->operand.get());
        if (auto* c = x.as<CallExpr>())
          for (const ExprPtr& arg : c->args) add(arg.get());
      },
      [](const Stmt&) {});
  return out;
}

bool side_effect_free(const Expr& e) {
  bool pure = true;
  walk_expr(&e, [&](const Expr& x) {
    if (x.kind == ExprKind::Assign || x.kind == ExprKind::Call) pure = false;
    if (auto* u = x.as<UnaryExpr>(); u && changes(*u)) pure = false;
  });
  return pure;
}

}  // namespace brook::opencl
