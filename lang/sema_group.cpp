// Brook+ work-group kernels (LANGUAGE.md §12, lang/analysis_group.hpp): where
// `shared` arrays, syncGroup() and instanceInGroup() may appear, and the
// restrictions this implementation puts on group kernels. Runs after a
// kernel's body is checked, so every call is resolved.
#include "lang/analysis_group.hpp"
#include "lang/kernel_walk.hpp"
#include "lang/sema_impl.hpp"
#include "stdlib/builtins.hpp"

namespace brook {

using namespace ast;

namespace {

// The most invocations one group may have (OpenCL devices guarantee less,
// Brook+'s hardware had 1024 at most).
constexpr int64_t kMaxGroup = 1024;

struct GroupChecker {
  DiagnosticEngine& s;
  FuncDecl& f;
  bool group;
  int64_t count;

  void expr(const Expr* e, bool statement) {
    analysis::walk_expr(e, [&](const Expr& x) {
      const auto* c = x.as<CallExpr>();
      if (!c) return;
      SourceLoc at = c->callee_loc.valid() ? c->callee_loc : c->loc;
      if (c->target == CallTarget::Kernel && c->func) {
        const FuncDecl* callee = &c->func->defined();
        if (analysis::is_group_kernel(*callee))
          s.error(at, "group kernel '" + callee->name +
                          "' (Attribute[GroupSize(...)]) cannot be called from a kernel");
      }
      if (c->target != CallTarget::Builtin) return;
      auto b = static_cast<stdlib::Builtin>(c->builtin);
      if (b != stdlib::Builtin::syncGroup && b != stdlib::Builtin::instanceInGroup) return;
      if (!group) {
        s.error(
            at,
            "'" + c->callee +
                "()' needs a work-group kernel: put 'Attribute[GroupSize(...)]' before kernel '" +
                f.name + "'");
        return;
      }
      // A statement anywhere in the body, loops and branches included: the
      // backends suspend an invocation there (lang/analysis_group.hpp).
      if (b == stdlib::Builtin::syncGroup && !(statement && &x == e))
        s.error(at, "'syncGroup()' is a statement of its own: it cannot be part of an expression");
    });
  }

  void shared_decl(VarDecl& v, bool top) {
    if (!group) {
      s.error(v.loc,
              "'shared' array '" + v.name +
                  "' needs a work-group kernel: put 'Attribute[GroupSize(...)]' before kernel '" +
                  f.name + "'");
      return;
    }
    if (!top) {
      s.error(v.loc, "'shared' array '" + v.name +
                         "' must be declared at the top level of the kernel body");
      return;
    }
    const Type* t = v.type;
    if (!t || t->is_error()) return;
    if (!t->is_array() || t->count == 0 || !t->elem->is_arithmetic()) {
      s.error(v.loc,
              "'shared' declares a one-dimensional array of scalars or vectors with a constant "
              "size ('shared float4 " +
                  v.name + "[64]')");
      return;
    }
    if (v.init) {
      s.error(v.loc, "'shared' array '" + v.name +
                         "' cannot have an initialiser (it starts as zeros in every group)");
      return;
    }
    if (t->count % count != 0)
      s.error(v.loc, "'shared' array '" + v.name + "' has " + std::to_string(t->count) +
                         " elements, not a multiple of the group's " + std::to_string(count) +
                         " invocations (each invocation owns an equal part, Brook+'s rule)");
  }

  void stmt(Stmt* st, bool top) {
    if (!st) return;
    switch (st->kind) {
      case StmtKind::Compound:
        for (auto& b : st->as<CompoundStmt>()->body) stmt(b.get(), false);
        break;
      case StmtKind::Expr:
        expr(st->as<ExprStmt>()->expr.get(), true);
        break;
      case StmtKind::Decl:
        for (auto& d : st->as<DeclStmt>()->decls)
          if (auto* v = d->as<VarDecl>()) {
            if (v->is_shared) shared_decl(*v, top);
            expr(v->init.get(), false);
          }
        break;
      case StmtKind::If: {
        auto* i = st->as<IfStmt>();
        expr(i->cond.get(), false);
        stmt(i->then_stmt.get(), false);
        stmt(i->else_stmt.get(), false);
        break;
      }
      case StmtKind::For: {
        auto* fs = st->as<ForStmt>();
        stmt(fs->init.get(), false);
        expr(fs->cond.get(), false);
        expr(fs->step.get(), false);
        stmt(fs->body.get(), false);
        break;
      }
      case StmtKind::While:
        expr(st->as<WhileStmt>()->cond.get(), false);
        stmt(st->as<WhileStmt>()->body.get(), false);
        break;
      case StmtKind::Do:
        stmt(st->as<DoStmt>()->body.get(), false);
        expr(st->as<DoStmt>()->cond.get(), false);
        break;
      case StmtKind::Switch:
        expr(st->as<SwitchStmt>()->cond.get(), false);
        stmt(st->as<SwitchStmt>()->body.get(), false);
        break;
      case StmtKind::Case:
        expr(st->as<CaseStmt>()->value.get(), false);
        break;
      case StmtKind::Label:
        stmt(st->as<LabelStmt>()->stmt.get(), false);
        break;
      case StmtKind::Return:
        expr(st->as<ReturnStmt>()->value.get(), false);
        break;
      default:
        break;
    }
  }
};

}  // namespace

void Sema::Impl::check_work_groups(FuncDecl& f) {
  if (!f.body) return;
  GroupChecker g{diags, f, analysis::is_group_kernel(f), 1};
  if (g.group) {
    g.count = f.group_size[0] * f.group_size[1] * f.group_size[2];
    if (g.count > kMaxGroup)
      error(f.group_loc, "a group of " + std::to_string(g.count) +
                             " invocations is too large (at most " + std::to_string(kMaxGroup) +
                             ")");
    if (f.return_type && !f.return_type->is_void() && !f.return_type->is_error())
      error(f.loc, "group kernel '" + f.name + "' must return void");
    for (auto& p : f.params) {
      if (p->vout_bound >= 0)
        error(p->loc, "'vout' parameter '" + p->name + "' is not supported in a group kernel");
    }
  }
  for (const StmtPtr& item : f.body->body) g.stmt(item.get(), true);
}

}  // namespace brook
