// Which decisions around syncGroup() may differ between the invocations of a
// group (lang/analysis_group.hpp, varying_sync_decisions). A value is
// group-uniform when it is built only from literals, constant parameters,
// gathers at uniform indices and locals that are; instanceInGroup(),
// instance(), indexof, stream elements, shared elements (another invocation
// may write one between two syncGroup()s) and kernel calls vary. A local
// varies once any assignment to it does, or happens under a decision that
// varies and holds no syncGroup() (decisions that hold one are checked at
// run time, so past them control is uniform again); iterated to a fixed point.
#include <set>

#include "lang/analysis_group.hpp"
#include "lang/kernel_walk.hpp"
#include "stdlib/builtins.hpp"

namespace brook::analysis {

using namespace ast;

namespace {

bool is_sync_call(const Expr& e) {
  const auto* c = e.as<CallExpr>();
  return c && c->target == CallTarget::Builtin &&
         static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::syncGroup;
}

bool contains_sync(const Stmt* s) {
  bool found = false;
  walk(s, [&](const Expr& e) { found = found || is_sync_call(e); });
  return found;
}

bool before(SourceLoc a, SourceLoc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

struct Uniformity {
  std::vector<SourceLoc> syncs;
  std::set<const Stmt*> relevant;  // holds a syncGroup() or an exit that can skip one
  std::set<const Decl*> varying;
  bool changed = false;

  // Marks `s` relevant when it holds a syncGroup(), or a return that a
  // syncGroup() may follow, or a break/continue leaving a loop that holds one.
  bool mark(const Stmt* s, bool break_sync, bool continue_sync, bool in_sync_loop) {
    if (!s) return false;
    bool r = false;
    switch (s->kind) {
      case StmtKind::Expr:
        r = contains_sync(s);
        break;
      case StmtKind::Return:
        r = in_sync_loop;
        for (SourceLoc l : syncs) r = r || before(s->loc, l);
        break;
      case StmtKind::Break:
        r = break_sync;
        break;
      case StmtKind::Continue:
        r = continue_sync;
        break;
      case StmtKind::Compound:
        for (const StmtPtr& c : s->as<CompoundStmt>()->body)
          r = mark(c.get(), break_sync, continue_sync, in_sync_loop) || r;
        break;
      case StmtKind::If: {
        const auto* i = s->as<IfStmt>();
        r = mark(i->then_stmt.get(), break_sync, continue_sync, in_sync_loop);
        r = mark(i->else_stmt.get(), break_sync, continue_sync, in_sync_loop) || r;
        break;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::Do: {
        const Stmt* body = s->kind == StmtKind::For     ? s->as<ForStmt>()->body.get()
                           : s->kind == StmtKind::While ? s->as<WhileStmt>()->body.get()
                                                        : s->as<DoStmt>()->body.get();
        const bool has = contains_sync(body);
        r = mark(body, has, has, in_sync_loop || has) || has;
        break;
      }
      case StmtKind::Switch: {
        const Stmt* body = s->as<SwitchStmt>()->body.get();
        const bool has = contains_sync(body);
        r = mark(body, has, continue_sync, in_sync_loop) || has;
        break;
      }
      case StmtKind::Label:
        r = mark(s->as<LabelStmt>()->stmt.get(), break_sync, continue_sync, in_sync_loop);
        break;
      default:
        break;
    }
    if (r) relevant.insert(s);
    return r;
  }

  bool varies(const Expr* e) const {
    bool v = false;
    walk_expr(e, [&](const Expr& x) {
      if (const auto* n = x.as<NameExpr>()) {
        if (const auto* p = n->decl ? n->decl->as<ParamDecl>() : nullptr) {
          const bool fixed = p->pkind == ParamKind::Const || p->pkind == ParamKind::Value ||
                             (p->pkind == ParamKind::Gather && !p->scatter);
          v = v || !fixed;
        } else if (const auto* d = n->decl ? n->decl->as<VarDecl>() : nullptr) {
          v = v || d->is_shared || varying.count(d) != 0;
        }
      } else if (const auto* c = x.as<CallExpr>()) {
        if (c->target != CallTarget::Builtin) {
          v = true;
        } else {
          auto b = static_cast<stdlib::Builtin>(c->builtin);
          v = v || b == stdlib::Builtin::instanceInGroup || b == stdlib::Builtin::instance;
        }
      } else if (x.kind == ExprKind::Indexof) {
        v = true;
      }
    });
    return v;
  }

  void set_varying(const Expr* lvalue) {
    const Decl* d = root_of(lvalue);
    const auto* var = d ? d->as<VarDecl>() : nullptr;
    if (var && !var->is_shared && varying.insert(var).second) changed = true;
  }

  // The assignments inside expression `e`, evaluated under `ctx`.
  void assignments(const Expr* e, bool ctx) {
    walk_expr(e, [&](const Expr& x) {
      if (const auto* a = x.as<AssignExpr>()) {
        if (ctx || varies(a->rhs.get()) || varies(a->lhs.get())) set_varying(a->lhs.get());
      } else if (const auto* u = x.as<UnaryExpr>()) {
        const bool step = u->op == UnaryOp::PreInc || u->op == UnaryOp::PreDec ||
                          u->op == UnaryOp::PostInc || u->op == UnaryOp::PostDec;
        if (step && (ctx || varies(u->operand.get()))) set_varying(u->operand.get());
      } else if (const auto* c = x.as<CallExpr>(); c && c->target == CallTarget::Kernel) {
        for (const ExprPtr& arg : c->args) set_varying(arg.get());  // out parameters
      }
    });
  }

  // Walks `s` under `ctx` (a varying decision encloses it); true when a
  // break, continue or return runs under a varying decision (the enclosing
  // loop's trip count then varies too).
  bool assign_walk(const Stmt* s, bool ctx) {
    if (!s) return false;
    auto decide = [&](const Expr* cond) { return ctx || (!relevant.count(s) && varies(cond)); };
    switch (s->kind) {
      case StmtKind::Expr:
        assignments(s->as<ExprStmt>()->expr.get(), ctx);
        return false;
      case StmtKind::Decl:
        for (const DeclPtr& d : s->as<DeclStmt>()->decls)
          if (const auto* v = d->as<VarDecl>(); v && v->init) {
            assignments(v->init.get(), ctx);
            if ((ctx || varies(v->init.get())) && !v->is_shared && varying.insert(v).second)
              changed = true;
          }
        return false;
      case StmtKind::Return:
        assignments(s->as<ReturnStmt>()->value.get(), ctx);
        return ctx;
      case StmtKind::Break:
      case StmtKind::Continue:
        return ctx;
      case StmtKind::Compound: {
        bool esc = false;
        for (const StmtPtr& c : s->as<CompoundStmt>()->body) esc = assign_walk(c.get(), ctx) || esc;
        return esc;
      }
      case StmtKind::If: {
        const auto* i = s->as<IfStmt>();
        assignments(i->cond.get(), ctx);
        const bool c = decide(i->cond.get());
        const bool esc = assign_walk(i->then_stmt.get(), c);
        return assign_walk(i->else_stmt.get(), c) || esc;
      }
      case StmtKind::For:
      case StmtKind::While:
      case StmtKind::Do: {
        const Expr* cond = nullptr;
        const Expr* step = nullptr;
        const Stmt* body = nullptr;
        if (const auto* f = s->as<ForStmt>()) {
          assign_walk(f->init.get(), ctx);
          cond = f->cond.get(), step = f->step.get(), body = f->body.get();
        } else if (const auto* w = s->as<WhileStmt>()) {
          cond = w->cond.get(), body = w->body.get();
        } else {
          cond = s->as<DoStmt>()->cond.get(), body = s->as<DoStmt>()->body.get();
        }
        bool c = decide(cond);
        // A varying exit from the body makes the whole loop vary.
        if (assign_walk(body, c) && !c) {
          c = true;
          assign_walk(body, c);
        }
        assignments(cond, c);
        assignments(step, c);
        return false;
      }
      case StmtKind::Switch: {
        const auto* sw = s->as<SwitchStmt>();
        assignments(sw->cond.get(), ctx);
        return assign_walk(sw->body.get(), decide(sw->cond.get()));
      }
      case StmtKind::Label:
        return assign_walk(s->as<LabelStmt>()->stmt.get(), ctx);
      default:
        return false;
    }
  }
};

const Expr* decision_of(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::If:
      return s.as<IfStmt>()->cond.get();
    case StmtKind::For:
      return s.as<ForStmt>()->cond.get();
    case StmtKind::While:
      return s.as<WhileStmt>()->cond.get();
    case StmtKind::Do:
      return s.as<DoStmt>()->cond.get();
    case StmtKind::Switch:
      return s.as<SwitchStmt>()->cond.get();
    default:
      return nullptr;
  }
}

}  // namespace

std::set<const Stmt*> varying_sync_decisions(const FuncDecl& kernel) {
  std::set<const Stmt*> out;
  if (!kernel.body || !is_group_kernel(kernel)) return out;
  Uniformity u;
  walk(kernel.body.get(), [&](const Expr& e) {
    if (is_sync_call(e)) u.syncs.push_back(e.loc);
  });
  if (u.syncs.empty()) return out;
  u.mark(kernel.body.get(), false, false, false);
  do {
    u.changed = false;
    u.assign_walk(kernel.body.get(), false);
  } while (u.changed);
  for (const Stmt* s : u.relevant)
    if (const Expr* c = decision_of(*s); c && u.varies(c)) out.insert(s);
  return out;
}

}  // namespace brook::analysis
