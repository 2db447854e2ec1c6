#include "backends/opencl/cl_printer.hpp"

#include <functional>

namespace brook::opencl {

using namespace ast;

namespace {

std::string pad(int indent) { return std::string(static_cast<size_t>(indent) * 2, ' '); }

const FuncDecl& definition_of(const FuncDecl& f) { return f.definition ? *f.definition : f; }

// Visits every expression under a statement (pre-order), and every statement.
void walk(const Stmt* s, const std::function<void(const Expr&)>& on_expr,
          const std::function<void(const Stmt&)>& on_stmt);

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
    case ExprKind::Cast: walk_expr(e->as<CastExpr>()->operand.get(), f); break;
    case ExprKind::Index:
      walk_expr(e->as<IndexExpr>()->base.get(), f);
      walk_expr(e->as<IndexExpr>()->index.get(), f);
      break;
    case ExprKind::Gather:
      walk_expr(e->as<GatherExpr>()->param.get(), f);
      for (auto& a : e->as<GatherExpr>()->indices) walk_expr(a.get(), f);
      break;
    case ExprKind::Member: walk_expr(e->as<MemberExpr>()->base.get(), f); break;
    case ExprKind::Swizzle: walk_expr(e->as<SwizzleExpr>()->base.get(), f); break;
    case ExprKind::Indexof: break;  // a position, not a read of the stream's value
    case ExprKind::InitList:
      for (auto& a : e->as<InitListExpr>()->elems) walk_expr(a.get(), f);
      break;
    default: break;
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
    case StmtKind::Expr: walk_expr(s->as<ExprStmt>()->expr.get(), on_expr); break;
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
    case StmtKind::Return: walk_expr(s->as<ReturnStmt>()->value.get(), on_expr); break;
    default: break;
  }
}

bool mentions(const Stmt* s, const Expr* e, const ParamDecl& p) {
  bool found = false;
  auto on_expr = [&](const Expr& x) {
    if (auto* n = x.as<NameExpr>(); n && n->decl == &p) found = true;
  };
  auto on_stmt = [&](const Stmt& st) {
    if (st.kind == StmtKind::Return) found = true;  // an early return leaves it unwritten
  };
  if (s) walk(s, on_expr, on_stmt);
  if (e) walk_expr(e, on_expr);
  return found;
}

}  // namespace

std::string ClPrinter::function_name(const FuncDecl& f) { return "brook_k_" + f.name; }

bool ClPrinter::reads_before_write(const FuncDecl& f, const ParamDecl& out) {
  const FuncDecl& def = definition_of(f);
  if (!def.body) return true;
  // Only a whole-element assignment at the top level, before anything else
  // touches the output, makes its old value dead.
  for (const StmtPtr& s : def.body->body) {
    if (auto* es = s->as<ExprStmt>()) {
      if (auto* a = es->expr ? es->expr->as<AssignExpr>() : nullptr) {
        auto* n = a->lhs->as<NameExpr>();
        if (!a->op && n && n->decl == &out) return mentions(nullptr, a->rhs.get(), out);
      }
    }
    if (mentions(s.get(), nullptr, out)) return true;
  }
  return true;
}

std::string ClPrinter::function(const FuncDecl& decl) {
  const FuncDecl& f = definition_of(decl);
  std::string name = function_name(f);
  if (m_.has_helper(name)) return name;
  if (in_progress_.count(&f)) throw Unsupported{f.loc, "kernel '" + f.name + "' calls itself"};
  if (!f.body) throw Unsupported{f.loc, "kernel '" + f.name + "' has no body"};
  in_progress_.insert(&f);
  const FuncDecl* saved = current_;
  current_ = &f;
  std::string sig = "static " + m_.type_name(f.return_type) + " " + name +
                    "(int4 brook_pos, __global uint* brook_pbuf";
  for (const auto& p : f.params) {
    std::string n = safe_name(p->name);
    switch (p->pkind) {
      case ParamKind::Input:
      case ParamKind::Iter:
        sig += ", " + m_.type_name(p->type) + " " + n + ", float4 brook_ix_" + n;
        break;
      case ParamKind::Out:
      case ParamKind::Reduce:
        sig += ", __private " + m_.type_name(p->type) + "* " + n + ", float4 brook_ix_" + n;
        break;
      case ParamKind::Gather:
        sig += ", __global const uchar* " + n + ", brook_i4 brook_ge_" + n + ", brook_i4 brook_gs_" + n;
        break;
      case ParamKind::Const:
      case ParamKind::Value:
        sig += ", " + m_.declare(p->type, n);
        break;
    }
  }
  sig += ")";
  std::string body;
  stmt(*f.body, 0, body);
  current_ = saved;
  in_progress_.erase(&f);
  m_.helper(name, [&] { return "// " + std::string(f.fkind == FuncKind::Reduce ? "reduce " : "kernel ") +
                                f.name + "\n" + sig + "\n" + body + "#line 1 \"generated\"\n"; });
  return name;
}

void ClPrinter::local_decl(const VarDecl& v, int indent, std::string& out) {
  if (v.is_stream) throw Unsupported{v.loc, "streams cannot be declared inside a kernel"};
  std::string n = safe_name(v.name);
  std::string decl = m_.declare(v.type, n);
  if (v.init) {
    if (v.init->kind == ExprKind::InitList) {
      out += pad(indent) + decl + " = " + init_list(*v.init, v.type) + ";\n";
    } else {
      out += pad(indent) + decl + " = " + expr(*v.init) + ";\n";
    }
  } else if (v.type->is_scalar() || v.type->is_vector()) {
    // Locals start zeroed, as in the interpreter, so every backend prints alike.
    out += pad(indent) + decl + " = (" + m_.type_name(v.type) + ")(0);\n";
  } else {
    m_.helper("brook_zero", [] {
      return "static void brook_zero(__private uchar* p, ulong n) {\n"
             "  for (ulong i = 0; i < n; ++i) p[i] = 0;\n}\n";
    });
    out += pad(indent) + decl + ";\n" + pad(indent) + "brook_zero((__private uchar*)&" + n +
           ", sizeof(" + n + "));\n";
  }
}

std::string ClPrinter::init_list(const Expr& e, const Type* t) {
  auto* list = e.as<InitListExpr>();
  if (!list) return expr(e);
  std::string s;
  if (t->is_vector()) {
    s = "(" + m_.type_name(t) + ")(";
    for (size_t i = 0; i < list->elems.size(); ++i)
      s += (i ? ", " : "") + init_list(*list->elems[i], t->elem);
    return s + ")";
  }
  if (t->is_scalar()) return list->elems.empty() ? "0" : init_list(*list->elems[0], t);
  s = "{";
  for (size_t i = 0; i < list->elems.size(); ++i) {
    const Type* sub = t;
    if (t->is_array()) sub = t->elem;
    if (t->is_struct() && t->decl && i < t->decl->fields.size()) sub = t->decl->fields[i].type;
    s += (i ? ", " : "") + init_list(*list->elems[i], sub);
  }
  return s + "}";
}

void ClPrinter::stmt(const Stmt& s, int indent, std::string& out) {
  if (s.kind != StmtKind::Compound && s.loc.valid()) out += m_.mark_line(s.loc);
  switch (s.kind) {
    case StmtKind::Compound:
      out += pad(indent) + "{\n";
      for (const StmtPtr& b : s.as<CompoundStmt>()->body) stmt(*b, indent + 1, out);
      out += pad(indent) + "}\n";
      break;
    case StmtKind::Expr:
      out += pad(indent) + expr(*s.as<ExprStmt>()->expr) + ";\n";
      break;
    case StmtKind::Decl:
      for (const DeclPtr& d : s.as<DeclStmt>()->decls) {
        if (auto* v = d->as<VarDecl>()) local_decl(*v, indent, out);
        else if (d->kind == DeclKind::Func)
          throw Unsupported{d->loc, "functions cannot be defined inside a kernel"};
      }
      break;
    case StmtKind::If: {
      auto* i = s.as<IfStmt>();
      out += pad(indent) + "if (" + expr(*i->cond) + ")\n";
      stmt(*i->then_stmt, i->then_stmt->kind == StmtKind::Compound ? indent : indent + 1, out);
      if (i->else_stmt) {
        out += pad(indent) + "else\n";
        stmt(*i->else_stmt, i->else_stmt->kind == StmtKind::Compound ? indent : indent + 1, out);
      }
      break;
    }
    case StmtKind::For: {
      // The init is hoisted into a block of its own: same scope, any declaration form.
      auto* f = s.as<ForStmt>();
      out += pad(indent) + "{\n";
      if (f->init) stmt(*f->init, indent + 1, out);
      out += pad(indent + 1) + "for (; " + (f->cond ? expr(*f->cond) : "1") + "; " +
             (f->step ? expr(*f->step) : "") + ")\n";
      stmt(*f->body, indent + 1 + (f->body->kind != StmtKind::Compound), out);
      out += pad(indent) + "}\n";
      break;
    }
    case StmtKind::While: {
      auto* w = s.as<WhileStmt>();
      out += pad(indent) + "while (" + expr(*w->cond) + ")\n";
      stmt(*w->body, indent + (w->body->kind != StmtKind::Compound), out);
      break;
    }
    case StmtKind::Do: {
      auto* d = s.as<DoStmt>();
      out += pad(indent) + "do\n";
      stmt(*d->body, indent + (d->body->kind != StmtKind::Compound), out);
      out += pad(indent) + "while (" + expr(*d->cond) + ");\n";
      break;
    }
    case StmtKind::Switch: {
      auto* sw = s.as<SwitchStmt>();
      out += pad(indent) + "switch (" + expr(*sw->cond) + ")\n";
      stmt(*sw->body, indent, out);
      break;
    }
    case StmtKind::Case:
      out += pad(indent > 0 ? indent - 1 : 0) + "case " +
             std::to_string(s.as<CaseStmt>()->folded) + ": ;\n";
      break;
    case StmtKind::Default: out += pad(indent > 0 ? indent - 1 : 0) + "default: ;\n"; break;
    case StmtKind::Break: out += pad(indent) + "break;\n"; break;
    case StmtKind::Continue: out += pad(indent) + "continue;\n"; break;
    case StmtKind::Return: {
      auto* r = s.as<ReturnStmt>();
      out += pad(indent) + (r->value ? "return " + expr(*r->value) + ";\n" : "return;\n");
      break;
    }
    case StmtKind::Empty: out += pad(indent) + ";\n"; break;
  }
}

}  // namespace brook::opencl
