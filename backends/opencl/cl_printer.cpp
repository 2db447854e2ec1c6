#include "backends/opencl/cl_printer.hpp"

#include "backends/opencl/cl_bounds.hpp"
#include "backends/opencl/cl_definite.hpp"
#include "backends/opencl/cl_groups.hpp"
#include "backends/opencl/cl_walk.hpp"
#include "lang/kernel_walk.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;

namespace {

std::string pad(int indent) { return std::string(static_cast<size_t>(indent) * 2, ' '); }

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

// Whether the output's old value is observable: read, or stored back unchanged
// because an early return left it unwritten (the private copy is stored
// whole). The JIT stores written lanes only and asks just "may it be read"
// (jit/spmd.cpp, reads_name).
bool ClPrinter::reads_before_write(const FuncDecl& f, const ParamDecl& out) {
  const FuncDecl& def = f.defined();
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
  const FuncDecl& f = decl.defined();
  std::string name = function_name(f);
  if (m_.has_helper(name)) return name;
  if (in_progress_.count(&f)) throw Unsupported{f.loc, "kernel '" + f.name + "' calls itself"};
  if (!f.body) throw Unsupported{f.loc, "kernel '" + f.name + "' has no body"};
  in_progress_.insert(&f);
  const FuncDecl* saved = current_;
  current_ = &f;
  std::string sig = "static " + m_.type_name(f.return_type) + " " + name +
                    "(int4 brook_pos, __global uint* brook_pbuf, volatile __global int* brook_stop";
  for (const auto& p : f.params) {
    std::string n = safe_name(p->name);
    switch (p->pkind) {
      case ParamKind::Input:
      case ParamKind::Iter:
        sig += ", " + m_.type_name(p->type) + " " + n + ", float4 brook_ix_" + n + ", int4 brook_jx_" + n;
        break;
      case ParamKind::Out:
      case ParamKind::Reduce:
        sig += ", __private " + m_.type_name(p->type) + "* " + n + ", float4 brook_ix_" + n + ", int4 brook_jx_" + n;
        break;
      case ParamKind::Gather:
        sig += std::string(p->scatter ? ", __global uchar* " : ", __global const uchar* ") + n +
               ", brook_i4 brook_ge_" + n + ", brook_i4 brook_gs_" + n;
        break;
      case ParamKind::Const:
      case ParamKind::Value:
        sig += ", " + m_.declare(p->type, n);
        break;
    }
  }
  // A work-group kernel's shared arrays: __local arrays of the launch kernel
  // (OpenCL allows them only at kernel function scope), passed by pointer.
  for (const analysis::SharedArray& a : group_shared_arrays(f))
    sig += ", __local " + m_.type_name(a.var->type->elem) + "* " + safe_name(a.var->name);
  // syncGroup() is only in a group kernel's own body, never in a callee's.
  const bool saved_voting = voting_;
  std::set<const Stmt*> saved_votes = std::move(votes_);
  voting_ = group_votes(f);
  votes_ = voting_ ? analysis::varying_sync_decisions(f) : std::set<const Stmt*>{};
  if (voting_) {
    vote_helper(m_);
    sig += ", __local long* brook_vslots, __global int* brook_diverged";
  }
  sig += ")";
  std::string body;
  const bool saved_counts = counts_polls_;
  counts_polls_ = false;
  stmt(*f.body, 0, body);
  // The iteration count that paces the polls (loop_body), one per function.
  if (counts_polls_ && body.starts_with("{\n")) body = "{\n  uint brook_polls = 0u;\n" + body.substr(2);
  counts_polls_ = saved_counts;
  voting_ = saved_voting;
  votes_ = std::move(saved_votes);
  current_ = saved;
  in_progress_.erase(&f);
  m_.helper(name, [&] { return "// " + std::string(f.fkind == FuncKind::Reduce ? "reduce " : "kernel ") +
                                f.name + "\n" + sig + "\n" + body + "#line 1 \"generated\"\n"; });
  return name;
}

void ClPrinter::local_decl(const VarDecl& v, int indent, std::string& out) {
  if (v.is_stream) throw Unsupported{v.loc, "streams cannot be declared inside a kernel"};
  if (v.is_shared) return;  // a parameter of the function (see function())
  std::string n = safe_name(v.name);
  std::string decl = m_.declare(v.type, n);
  if (v.init) {
    if (v.init->kind == ExprKind::InitList) {
      out += pad(indent) + decl + " = " + init_list(*v.init, v.type) + ";\n";
    } else {
      out += pad(indent) + decl + " = " + expr(*v.init) + ";\n";
    }
    if (counters().find(&v))
      out += pad(indent) + "long brook_ci_" + n + " = " + std::to_string(analysis::FloatCounters::initial(v)) + "L;\n";
  } else if (v.type->is_scalar() || v.type->is_vector()) {
    // Locals start zeroed, as in the interpreter, so every backend prints alike.
    out += pad(indent) + decl + " = (" + m_.type_name(v.type) + ")(0);\n";
    if (counters().find(&v)) out += pad(indent) + "long brook_ci_" + n + " = 0L;\n";
  } else if (no_zero_.count(&v)) {
    out += pad(indent) + decl + ";  // every element is written before it is read\n";
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

// Loops that may not end check the host's stop word every 256 iterations, so
// an interrupt ends even `while (true) {}` (the backend then discards the
// launch). A `volatile __global` read sees the host's store on PoCL's CPU
// device, where the word is host memory (CL_MEM_USE_HOST_PTR); a discrete GPU
// would need the buffer in host-visible memory for the same guarantee. Not
// every iteration: on a GPU the volatile read goes to memory each time, and
// it was a load in every iteration of mandelbrot's escape loop (an H200,
// bench/RESULTS.md, 2026-12-04). A loop around a barrier still checks every
// iteration, so that the whole group sees the word at the same iteration.
void ClPrinter::loop_body(const Stmt& body, int indent, bool poll, std::string& out,
                          const std::string& guard) {
  if (!poll) {
    stmt(body, indent + (body.kind != StmtKind::Compound), out);
    return;
  }
  m_.polls = true;
  std::string stop = guard.empty() ? "" : guard + " && ";
  // A loop around a barrier must stop for the whole group at once.
  bool barrier = false;
  if (voting_)
    analysis::walk(&body, [&](const Expr& e) {
      const auto* c = e.as<CallExpr>();
      barrier = barrier || (c && c->target == CallTarget::Builtin &&
                            static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::syncGroup);
    });
  if (barrier) {
    stop = "brook_vote((long)(" + stop + "*brook_stop), brook_vslots, brook_diverged, 0)";
  } else {
    counts_polls_ = true;
    stop += "(++brook_polls & 255u) == 0u && *brook_stop";
  }
  out += pad(indent) + "{\n" + pad(indent + 1) + "if (" + stop + ") break;\n";
  stmt(body, indent + 1, out);
  out += pad(indent) + "}\n";
}

std::string ClPrinter::decision(const Stmt& s, const Expr& cond, bool integer) {
  if (!votes_.count(&s)) return expr(cond);
  const std::string v =
      integer ? "(long)(" + expr(cond) + ")" : "(long)((" + expr(cond) + ") != 0)";
  return "brook_vote(" + v + ", brook_vslots, brook_diverged, 1)";
}

// PoCL's CPU driver vectorises a kernel across work-items only when the
// kernel has no loop left, and it does not unroll one by itself: blur3x3's
// 3x3 taps as two loops ran 2.7x slower than the same loops under this hint
// (bench/opencl/blur3x3.cl with brook's body swapped in). A loop of a few
// known iterations is unrolled in full, up to kUnrollWork copies of the
// innermost body across the nest, so a deep nest cannot blow the program up.
// The hint changes no value.
std::string ClPrinter::unroll_hint(const ForStmt& f, int indent) {
  constexpr int64_t kUnrollTrips = 32, kUnrollWork = 256;
  std::optional<int64_t> n = constant_trip_count(f);
  if (!n || *n < 2 || *n > kUnrollTrips || unrolled_ * *n > kUnrollWork) return {};
  return pad(indent) + "#pragma unroll\n";
}

void ClPrinter::stmt(const Stmt& s, int indent, std::string& out) {
  if (s.kind != StmtKind::Compound && s.loc.valid()) out += m_.mark_line(s.loc);
  switch (s.kind) {
    case StmtKind::Compound: {
      out += pad(indent) + "{\n";
      const std::vector<StmtPtr>& body = s.as<CompoundStmt>()->body;
      for (size_t i = 0; i < body.size(); ++i) {
        if (auto* d = body[i]->as<DeclStmt>())
          for (const DeclPtr& decl : d->decls)
            if (auto* v = decl->as<VarDecl>(); v && !v->init && v->type && v->type->is_array() &&
                                               written_before_read(*v, std::span(body).subspan(i + 1)))
              no_zero_.insert(v);
        stmt(*body[i], indent + 1, out);
      }
      out += pad(indent) + "}\n";
      break;
    }
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
      out += pad(indent) + "if (" + decision(s, *i->cond) + ")\n";
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
      // (Not for a loop whose condition is a group vote: that one stays as it is.)
      if (auto ib = votes_.count(&s) ? std::nullopt : float_loop_integer_bound(*f)) {
        // Two versions: the counted loop on the shadow, and the float loop
        // (polling only once the counter may be stuck) for bounds past 2^24.
        out += pad(indent + 1) + "if " + ib->fits + " {\n";
        out += pad(indent + 2) + "const long " + ib->bound + ";\n";
        out += pad(indent + 2) + "for (; " + ib->cond + "; " + expr(*f->step) + ")\n";
        loop_body(*f->body, indent + 2, false, out);
        out += pad(indent + 1) + "} else {\n";
        const auto guard = float_loop_poll(*f);
        out += pad(indent + 2) + "for (; " + expr(*f->cond) + "; " + expr(*f->step) + ")\n";
        loop_body(*f->body, indent + 2, !guard || !guard->empty(), out, guard.value_or(""));
        out += pad(indent + 1) + "}\n";
        out += pad(indent) + "}\n";
        break;
      }
      const std::string hint = votes_.count(&s) ? std::string() : unroll_hint(*f, indent + 1);
      const int64_t outer = unrolled_;
      if (!hint.empty()) unrolled_ *= *constant_trip_count(*f);
      out += hint + pad(indent + 1) + "for (; " + (f->cond ? decision(s, *f->cond) : "1") + "; " +
             (f->step ? expr(*f->step) : "") + ")\n";
      // A counted loop ends on its own; polling would stop PoCL unrolling it.
      // So does a float counter's loop toward a literal bound; one toward
      // another bound polls only once the counter may be stuck.
      if (counted_loop(*f)) {
        loop_body(*f->body, indent + 1, false, out);
      } else if (auto guard = float_loop_poll(*f)) {
        loop_body(*f->body, indent + 1, !guard->empty(), out, *guard);
      } else {
        loop_body(*f->body, indent + 1, true, out);
      }
      unrolled_ = outer;
      out += pad(indent) + "}\n";
      break;
    }
    case StmtKind::While: {
      auto* w = s.as<WhileStmt>();
      out += pad(indent) + "while (" + decision(s, *w->cond) + ")\n";
      loop_body(*w->body, indent, true, out);
      break;
    }
    case StmtKind::Do: {
      auto* d = s.as<DoStmt>();
      out += pad(indent) + "do\n";
      loop_body(*d->body, indent, true, out);
      out += pad(indent) + "while (" + decision(s, *d->cond) + ");\n";
      break;
    }
    case StmtKind::Switch: {
      auto* sw = s.as<SwitchStmt>();
      out += pad(indent) + "switch (" + decision(s, *sw->cond, true) + ")\n";
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
    case StmtKind::Label:  // host code only: sema rejects labels and goto in kernels
    case StmtKind::Goto: break;
  }
}

}  // namespace brook::opencl
