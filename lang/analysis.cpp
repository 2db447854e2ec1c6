#include "lang/analysis.hpp"

#include <cmath>
#include <functional>
#include <set>

namespace brook::analysis {

using namespace ast;

namespace {

// An integral literal of magnitude at most 2^24 (float or int; an implicit
// conversion around it is looked through).
std::optional<int64_t> integral_literal(const Expr* e) {
  while (e && e->kind == ExprKind::Cast && e->as<CastExpr>()->cast == CastKind::Convert)
    e = e->as<CastExpr>()->operand.get();
  if (!e) return std::nullopt;
  if (const auto* f = e->as<FloatLit>()) {
    double v = f->value;
    if (!(std::fabs(v) <= static_cast<double>(kFloatExact)) || v != std::floor(v)) return std::nullopt;
    return static_cast<int64_t>(v);
  }
  if (const auto* i = e->as<IntLit>()) {
    if (i->value > static_cast<uint64_t>(kFloatExact)) return std::nullopt;
    return static_cast<int64_t>(i->value);
  }
  if (const auto* u = e->as<UnaryExpr>(); u && u->op == UnaryOp::Neg) {
    if (auto v = integral_literal(u->operand.get())) return -*v;
  }
  return std::nullopt;
}

bool is_float_scalar(const Type* t) { return t && t->kind == TypeKind::Float; }

const Decl* name_of(const Expr* e) {
  const auto* n = e ? e->as<NameExpr>() : nullptr;
  return n ? n->decl : nullptr;
}

// The declaration an lvalue ultimately names.
const Decl* root_of(const Expr* e) {
  while (e) {
    switch (e->kind) {
      case ExprKind::Name: return e->as<NameExpr>()->decl;
      case ExprKind::Member: e = e->as<MemberExpr>()->base.get(); break;
      case ExprKind::Swizzle: e = e->as<SwizzleExpr>()->base.get(); break;
      case ExprKind::Index: e = e->as<IndexExpr>()->base.get(); break;
      case ExprKind::Cast: e = e->as<CastExpr>()->operand.get(); break;
      default: return nullptr;
    }
  }
  return nullptr;
}

void walk_expr(const Expr* e, const std::function<void(const Expr&)>& f) {
  if (!e) return;
  f(*e);
  switch (e->kind) {
    case ExprKind::Unary: walk_expr(e->as<UnaryExpr>()->operand.get(), f); break;
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
    case ExprKind::Cast: walk_expr(e->as<CastExpr>()->operand.get(), f); break;
    case ExprKind::Index:
      walk_expr(e->as<IndexExpr>()->base.get(), f);
      walk_expr(e->as<IndexExpr>()->index.get(), f);
      break;
    case ExprKind::Gather:
      walk_expr(e->as<GatherExpr>()->param.get(), f);
      for (const auto& a : e->as<GatherExpr>()->indices) walk_expr(a.get(), f);
      break;
    case ExprKind::Member: walk_expr(e->as<MemberExpr>()->base.get(), f); break;
    case ExprKind::Swizzle: walk_expr(e->as<SwizzleExpr>()->base.get(), f); break;
    case ExprKind::InitList:
      for (const auto& a : e->as<InitListExpr>()->elems) walk_expr(a.get(), f);
      break;
    default: break;
  }
}

void walk(const Stmt* s, const std::function<void(const Expr&)>& on_expr,
          const std::function<void(const VarDecl&)>& on_decl) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::Compound:
      for (const auto& b : s->as<CompoundStmt>()->body) walk(b.get(), on_expr, on_decl);
      break;
    case StmtKind::Expr: walk_expr(s->as<ExprStmt>()->expr.get(), on_expr); break;
    case StmtKind::Decl:
      for (const auto& d : s->as<DeclStmt>()->decls)
        if (const auto* v = d->as<VarDecl>()) {
          on_decl(*v);
          walk_expr(v->init.get(), on_expr);
        }
      break;
    case StmtKind::If: {
      const auto* i = s->as<IfStmt>();
      walk_expr(i->cond.get(), on_expr);
      walk(i->then_stmt.get(), on_expr, on_decl);
      walk(i->else_stmt.get(), on_expr, on_decl);
      break;
    }
    case StmtKind::For: {
      const auto* f = s->as<ForStmt>();
      walk(f->init.get(), on_expr, on_decl);
      walk_expr(f->cond.get(), on_expr);
      walk_expr(f->step.get(), on_expr);
      walk(f->body.get(), on_expr, on_decl);
      break;
    }
    case StmtKind::While:
      walk_expr(s->as<WhileStmt>()->cond.get(), on_expr);
      walk(s->as<WhileStmt>()->body.get(), on_expr, on_decl);
      break;
    case StmtKind::Do:
      walk(s->as<DoStmt>()->body.get(), on_expr, on_decl);
      walk_expr(s->as<DoStmt>()->cond.get(), on_expr);
      break;
    case StmtKind::Switch:
      walk_expr(s->as<SwitchStmt>()->cond.get(), on_expr);
      walk(s->as<SwitchStmt>()->body.get(), on_expr, on_decl);
      break;
    case StmtKind::Return: walk_expr(s->as<ReturnStmt>()->value.get(), on_expr); break;
    default: break;
  }
}

// The write `e` makes to the float local it names directly, when it has a
// counter's form.
std::optional<CounterWrite> counter_form(const Expr& e) {
  if (const auto* a = e.as<AssignExpr>()) {
    auto v = integral_literal(a->rhs.get());
    if (!v) return std::nullopt;
    if (!a->op) return CounterWrite{true, *v};
    if (*v == 0) return std::nullopt;
    if (*a->op == BinaryOp::Add) return CounterWrite{false, *v};
    if (*a->op == BinaryOp::Sub) return CounterWrite{false, -*v};
    return std::nullopt;
  }
  if (const auto* u = e.as<UnaryExpr>()) {
    if (u->op == UnaryOp::PreInc || u->op == UnaryOp::PostInc) return CounterWrite{false, 1};
    if (u->op == UnaryOp::PreDec || u->op == UnaryOp::PostDec) return CounterWrite{false, -1};
  }
  return std::nullopt;
}

bool writes(const Expr& e) {
  if (e.kind == ExprKind::Assign) return true;
  if (const auto* u = e.as<UnaryExpr>()) {
    return u->op == UnaryOp::PreInc || u->op == UnaryOp::PostInc || u->op == UnaryOp::PreDec ||
           u->op == UnaryOp::PostDec || u->op == UnaryOp::AddrOf;
  }
  return false;
}

const Expr* written(const Expr& e) {
  if (const auto* a = e.as<AssignExpr>()) return a->lhs.get();
  if (const auto* u = e.as<UnaryExpr>()) return u->operand.get();
  return nullptr;
}

}  // namespace

FloatCounters::FloatCounters(const FuncDecl& kernel) {
  long_.kind = TypeKind::Long;
  long_.size = 8;
  long_.align = 8;
  const FuncDecl& f = kernel.definition ? *kernel.definition : kernel;
  if (!f.body) return;
  std::set<const Decl*> out;  // disqualified
  std::map<const Decl*, int> dir;
  walk(
      f.body.get(),
      [&](const Expr& e) {
        if (writes(e)) {
          const Decl* root = root_of(written(e));
          if (!root) return;
          auto form = counter_form(e);
          if (!form || name_of(written(e)) != root) {
            out.insert(root);
            return;
          }
          if (form->reset) return;
          int d = form->value > 0 ? 1 : -1;
          auto [it, fresh] = dir.emplace(root, d);
          if (!fresh && it->second != d) out.insert(root);
          return;
        }
        // An out parameter of a kernel called with the variable may change it.
        if (const auto* c = e.as<CallExpr>()) {
          for (const auto& a : c->args)
            if (const Decl* root = root_of(a.get())) {
              if (c->target != CallTarget::Builtin) out.insert(root);
            }
        }
      },
      [&](const VarDecl& v) {
        if (!is_float_scalar(v.type) || v.is_static || v.is_global || v.is_stream) return;
        if (v.init && !integral_literal(v.init.get())) return;
        FloatCounter c;
        c.var = &v;
        counters_.emplace(&v, std::move(c));
      });
  for (auto it = counters_.begin(); it != counters_.end();) {
    if (out.count(it->first)) {
      it = counters_.erase(it);
      continue;
    }
    FloatCounter& c = it->second;
    auto d = dir.find(it->first);
    c.direction = d == dir.end() ? 0 : d->second;
    c.shadow = std::make_unique<VarDecl>(c.var->loc);
    c.shadow->name = c.var->name + ".int";
    c.shadow->type = &long_;
    ++it;
  }
}

const FloatCounter* FloatCounters::find(const Decl* d) const {
  auto it = counters_.find(d);
  return it == counters_.end() ? nullptr : &it->second;
}

std::optional<std::pair<const FloatCounter*, CounterWrite>> FloatCounters::write(const Expr& e) const {
  if (!writes(e)) return std::nullopt;
  const FloatCounter* c = find(name_of(written(e)));
  if (!c) return std::nullopt;
  auto form = counter_form(e);
  if (!form) return std::nullopt;
  return std::make_pair(c, *form);
}

int64_t FloatCounters::initial(const VarDecl& v) {
  auto x = integral_literal(v.init.get());
  return x ? *x : 0;
}

}  // namespace brook::analysis

namespace brook::analysis {
void for_each_subexpr(const ast::Expr* e, const std::function<void(const ast::Expr&)>& f) {
  walk_expr(e, f);
}
}  // namespace brook::analysis
