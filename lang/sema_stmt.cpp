// Statements: blocks and scopes, conditions, loops, switch/case, break,
// continue and return.
#include <algorithm>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

void Sema::Impl::check_compound(CompoundStmt& c, bool new_scope) {
  if (new_scope) push_scope();
  bool saved_labels = labels_allowed;
  labels_allowed = false;
  open_blocks.push_back(&c);
  for (StmtPtr& s : c.body) {
    if (!s) continue;
    own_labels(*s, &c);
    check_stmt(*s);
  }
  open_blocks.pop_back();
  labels_allowed = saved_labels;
  if (new_scope) pop_scope();
}

void Sema::Impl::check_condition(ExprPtr& cond, const char* construct) {
  if (!cond) return;
  const Type* t = check_value(cond, "used as conditions");
  if (t->is_error()) return;
  if (!(t->is_scalar() || t->is_pointer())) {
    std::string msg =
        std::string("the condition of '") + construct + "' must be a scalar, not " + quoted(t);
    if (t->is_vector()) msg += "; use any() or all()";
    error(cond->loc, msg);
  }
}

void Sema::Impl::check_stmt(Stmt& s) {
  switch (s.kind) {
    case StmtKind::Compound:
      check_compound(*s.as<CompoundStmt>(), true);
      break;
    case StmtKind::Expr: {
      auto& es = *s.as<ExprStmt>();
      if (es.expr) {
        discarded_expr = es.expr.get();
        const Type* t = check_expr(es.expr);
        discarded_expr = nullptr;
        if (t->is_stream() && es.expr->kind == ExprKind::Name && !stream_echo)
          error(es.expr->loc, "a stream name alone does nothing; did you mean streamPrint?");
      }
      break;
    }
    case StmtKind::Decl:
      check_decl_stmt(*s.as<DeclStmt>());
      break;
    case StmtKind::If: {
      auto& is = *s.as<IfStmt>();
      check_condition(is.cond, "if");
      if (is.then_stmt) check_stmt(*is.then_stmt);
      if (is.else_stmt) check_stmt(*is.else_stmt);
      break;
    }
    case StmtKind::For: {
      auto& fs = *s.as<ForStmt>();
      push_scope();
      if (fs.init) check_stmt(*fs.init);
      check_condition(fs.cond, "for");
      if (fs.step) check_value(fs.step, "used as loop steps");
      ++loop_depth;
      if (fs.body) check_stmt(*fs.body);
      --loop_depth;
      pop_scope();
      break;
    }
    case StmtKind::While: {
      auto& ws = *s.as<WhileStmt>();
      check_condition(ws.cond, "while");
      ++loop_depth;
      if (ws.body) check_stmt(*ws.body);
      --loop_depth;
      break;
    }
    case StmtKind::Do: {
      auto& ds = *s.as<DoStmt>();
      ++loop_depth;
      if (ds.body) check_stmt(*ds.body);
      --loop_depth;
      check_condition(ds.cond, "do-while");
      break;
    }
    case StmtKind::Switch:
      check_switch(*s.as<SwitchStmt>());
      break;
    case StmtKind::Case:
      check_case(*s.as<CaseStmt>());
      break;
    case StmtKind::Default:
      if (switches.empty()) {
        error(s.loc, "'default' label not in a switch statement");
      } else if (!labels_allowed) {
        error(s.loc, "'default' label must be directly inside its switch's braces");
      } else if (switches.back().has_default) {
        error(s.loc, "multiple 'default' labels in one switch");
      } else {
        switches.back().has_default = true;
      }
      break;
    case StmtKind::Break:
      if (loop_depth == 0 && switches.empty())
        error(s.loc, "'break' statement not in a loop or switch");
      break;
    case StmtKind::Continue:
      if (loop_depth == 0) error(s.loc, "'continue' statement not in a loop");
      break;
    case StmtKind::Return:
      check_return(*s.as<ReturnStmt>());
      break;
    case StmtKind::Empty:
      if (auto* e = s.as<EmptyStmt>(); e->static_assert_cond) {
        check_value(e->static_assert_cond, "used in static assertions");
        std::optional<int64_t> v = require_constant(*e->static_assert_cond, "a static assertion");
        if (v && *v == 0) {
          error(e->loc,
                "static assertion failed" + (e->static_assert_message.empty()
                                                 ? std::string()
                                                 : ": \"" + e->static_assert_message + "\""));
        }
      }
      break;
    case StmtKind::Label:
      check_label(*s.as<LabelStmt>());
      break;
    case StmtKind::Goto:
      check_goto(*s.as<GotoStmt>());
      break;
  }
}

void Sema::Impl::own_labels(Stmt& s, const Stmt* owner) {
  for (Stmt* x = &s; auto* l = x->as<LabelStmt>(); x = l->stmt.get()) {
    l->owner = owner;
    if (!l->stmt) break;
  }
}

void Sema::Impl::check_label(LabelStmt& l) {
  if (!func) {
    error(l.loc, "label '" + l.name + "' outside a function");
  } else if (in_kernel()) {
    error(l.loc, "labels are not allowed in " + func_desc());
  } else if (auto [it, inserted] = labels.emplace(l.name, &l); !inserted) {
    error(l.loc, "redefinition of label '" + l.name + "'");
  }
  if (l.stmt) {
    check_stmt(*l.stmt);
  }
}

void Sema::Impl::check_goto(GotoStmt& g) {
  if (!func) return error(g.loc, "'goto' outside a function");
  if (in_kernel()) return error(g.loc, "'goto' is not allowed in " + func_desc());
  gotos.push_back({&g, open_blocks});
}

void Sema::Impl::resolve_gotos() {
  for (PendingGoto& p : gotos) {
    auto it = labels.find(p.stmt->label);
    if (it == labels.end()) {
      error(p.stmt->label_loc, "use of undeclared label '" + p.stmt->label + "'");
      continue;
    }
    const LabelStmt* l = it->second;
    // The interpreter jumps by leaving blocks until one holds the label, so
    // the label must sit directly in a block enclosing the goto.
    if (!l->owner ||
        std::find(p.enclosing.begin(), p.enclosing.end(), l->owner) == p.enclosing.end()) {
      error(p.stmt->label_loc, "'goto " + l->name +
                                   "' jumps into a block that does not enclose it; this is "
                                   "not supported");
      continue;
    }
    p.stmt->target = l;
  }
  gotos.clear();
  labels.clear();
}

void Sema::Impl::check_switch(SwitchStmt& s) {
  const Type* t = check_value(s.cond, "used as switch conditions");
  SwitchContext ctx;
  ctx.type = err();
  if (!t->is_error()) {
    if (!t->is_integer()) {
      error(s.cond->loc, "switch condition must be an integer, not " + quoted(t));
    } else {
      ctx.type = promote(t);
      arith_convert(s.cond, ctx.type);
    }
  }
  // Loops inside the switch see `continue` of an outer loop; `break` binds here.
  switches.push_back(std::move(ctx));
  if (auto* body = s.body ? s.body->as<CompoundStmt>() : nullptr) {
    push_scope();
    open_blocks.push_back(body);
    for (StmtPtr& child : body->body) {
      if (!child) continue;
      own_labels(*child, body);
      labels_allowed = child->kind == StmtKind::Case || child->kind == StmtKind::Default;
      check_stmt(*child);
    }
    labels_allowed = false;
    open_blocks.pop_back();
    pop_scope();
  } else if (s.body) {
    labels_allowed = s.body->kind == StmtKind::Case || s.body->kind == StmtKind::Default;
    check_stmt(*s.body);
    labels_allowed = false;
  }
  switches.pop_back();
}

void Sema::Impl::check_case(CaseStmt& c) {
  const Type* t = check_value(c.value, "used as case labels");
  if (switches.empty()) {
    error(c.loc, "'case' label not in a switch statement");
    return;
  }
  if (!labels_allowed) {
    error(c.loc, "'case' label must be directly inside its switch's braces");
    return;
  }
  if (t->is_error()) return;
  if (!t->is_integer()) {
    error(c.value->loc, "case label must be an integer constant, not " + quoted(t));
    return;
  }
  std::optional<int64_t> v = require_constant(*c.value, "case label");
  if (!v) return;
  SwitchContext& sw = switches.back();
  if (!sw.type->is_error()) arith_convert(c.value, sw.type);
  c.folded = c.folded_high = *v;
  if (c.high) {
    const Type* ht = check_value(c.high, "used as case labels");
    if (ht->is_error()) return;
    if (in_kernel()) {
      error(c.loc, "a case range in " + func_desc() + ": case ranges are host-only");
      return;
    }
    std::optional<int64_t> hi =
        ht->is_integer() ? require_constant(*c.high, "case range end") : std::nullopt;
    if (!ht->is_integer())
      error(c.high->loc, "case label must be an integer constant, not " + quoted(ht));
    if (!hi) return;
    if (!sw.type->is_error()) arith_convert(c.high, sw.type);
    if (*hi < *v) {
      diags.warning(c.high->loc, "empty range specified");
      c.folded_high = *v - 1;
      return;
    }
    if (*hi - *v >= 65536) {
      error(c.high->loc, "case range of " + std::to_string(*hi - *v + 1) +
                             " values: at most 65536 are supported");
      return;
    }
    c.folded_high = *hi;
  }
  for (int64_t x = c.folded; x <= c.folded_high; ++x) {
    auto [it, inserted] = sw.cases.emplace(x, c.loc);
    if (!inserted) {
      error(c.value->loc, "duplicate case value '" + std::to_string(x) + "'");
      break;
    }
  }
}

void Sema::Impl::check_return(ReturnStmt& r) {
  if (!func) {
    if (r.value) check_value(r.value);
    error(r.loc, "'return' outside a function");
    return;
  }
  const Type* rt = func->return_type ? func->return_type : err();
  if (!r.value) {
    if (!rt->is_void() && !rt->is_error())
      error(r.loc, "non-void " +
                       std::string(func->fkind == FuncKind::Host ? "function" : "kernel") + " '" +
                       func->name + "' must return a value");
    return;
  }
  const Type* t = check_value(r.value, "returned from functions");
  if (t->is_error() || rt->is_error()) return;
  if (rt->is_void()) {
    if (!t->is_void())
      error(r.value->loc, "void " +
                              std::string(func->fkind == FuncKind::Host ? "function" : "kernel") +
                              " '" + func->name + "' cannot return a value");
    return;
  }
  convert(r.value, rt, "in return");
}

}  // namespace brook
