// Locals start zeroed (as in the interpreter), but zeroing a private array
// that the next statements overwrite element by element costs real stores
// per work-item (PoCL's optimiser keeps most of them). This finds arrays
// whose every element is written, before any read, by the statements that
// follow the declaration: whole-element assignments `a[E] = R` (R and E not
// mentioning a) directly or in nests of counted loops with constant bounds,
// enumerated concretely. Anything else keeps the zeroing.
#include "backends/opencl/cl_definite.hpp"

#include <map>
#include <optional>

#include "backends/opencl/cl_bounds.hpp"
#include "backends/opencl/cl_walk.hpp"

namespace brook::opencl {

using namespace ast;

namespace {

constexpr int64_t kMaxWork = int64_t{1} << 16;  // iterations simulated per declaration

using Env = std::map<const VarDecl*, int64_t>;

const Expr* strip(const Expr* e) {
  while (auto* c = e->as<CastExpr>()) {
    if (c->cast != CastKind::Convert) break;
    e = c->operand.get();
  }
  return e;
}

// An int expression over literals and the loop counters in env.
std::optional<int64_t> value(const Expr* e, const Env& env) {
  e = strip(e);
  if (auto* i = e->as<IntLit>()) return static_cast<int64_t>(i->value);
  if (auto* n = e->as<NameExpr>()) {
    auto* v = n->decl ? n->decl->as<VarDecl>() : nullptr;
    auto f = v ? env.find(v) : env.end();
    if (f == env.end()) return std::nullopt;
    return f->second;
  }
  if (auto* u = e->as<UnaryExpr>()) {
    auto x = value(u->operand.get(), env);
    if (!x) return std::nullopt;
    if (u->op == UnaryOp::Neg) return -*x;
    if (u->op == UnaryOp::Plus) return x;
    return std::nullopt;
  }
  if (auto* b = e->as<BinaryExpr>()) {
    auto l = value(b->lhs.get(), env), r = value(b->rhs.get(), env);
    if (!l || !r || *l > (1 << 20) || *l < -(1 << 20) || *r > (1 << 20) || *r < -(1 << 20))
      return std::nullopt;
    switch (b->op) {
      case BinaryOp::Add:
        return *l + *r;
      case BinaryOp::Sub:
        return *l - *r;
      case BinaryOp::Mul:
        return *l * *r;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

bool mentions(const Expr* e, const VarDecl& a) {
  bool found = false;
  walk_expr(e, [&](const Expr& x) {
    if (auto* n = x.as<NameExpr>(); n && n->decl == &a) found = true;
  });
  return found;
}

bool mentions(const Stmt& s, const VarDecl& a) {
  bool found = false;
  walk(
      &s,
      [&](const Expr& x) {
        if (auto* n = x.as<NameExpr>(); n && n->decl == &a) found = true;
      },
      [&](const Stmt& st) {
        if (auto* d = st.as<DeclStmt>())
          for (const DeclPtr& decl : d->decls)
            if (decl.get() == &a) found = true;
      });
  return found;
}

// `a[E] = R` with neither E nor R mentioning a: the index expression.
const Expr* element_write(const Stmt& s, const VarDecl& a) {
  auto* es = s.as<ExprStmt>();
  auto* as = es && es->expr ? es->expr->as<AssignExpr>() : nullptr;
  if (!as || as->op) return nullptr;
  auto* ix = as->lhs->as<IndexExpr>();
  auto* base = ix ? strip(ix->base.get())->as<NameExpr>() : nullptr;
  if (!base || base->decl != &a || mentions(ix->index.get(), a) || mentions(as->rhs.get(), a))
    return nullptr;
  return ix->index.get();
}

class Coverage {
 public:
  Coverage(const VarDecl& a, int64_t n) : a_(a), written_(static_cast<size_t>(n), false) {}

  // Records what `s` writes; false when `s` may read a, or write it in a way not followed.
  bool statement(const Stmt& s, Env& env) {
    if (!mentions(s, a_)) return true;
    if (const Expr* index = element_write(s, a_)) {
      auto k = value(index, env);
      if (!k || *k < 0 || *k >= static_cast<int64_t>(written_.size())) return false;
      written_[static_cast<size_t>(*k)] = true;
      return true;
    }
    if (auto* c = s.as<CompoundStmt>()) {
      for (const StmtPtr& b : c->body)
        if (!statement(*b, env)) return false;
      return true;
    }
    if (auto* f = s.as<ForStmt>()) return loop(*f, env);
    return false;
  }

  bool complete() const {
    for (bool w : written_)
      if (!w) return false;
    return true;
  }

 private:
  bool loop(const ForStmt& f, Env& env) {
    std::optional<CountedLoop> counted = counted_loop(f);
    if (!counted || !counted->range) return false;
    // The body runs every iteration in full: nothing may leave it early.
    bool plain = true;
    walk(
        f.body.get(), [](const Expr&) {},
        [&](const Stmt& st) {
          if (st.kind == StmtKind::Break || st.kind == StmtKind::Continue ||
              st.kind == StmtKind::Return || st.kind == StmtKind::Switch)
            plain = false;
        });
    if (!plain) return false;
    const Span& r = *counted->range;
    for (int64_t v = r.lo; v <= r.hi; ++v) {
      if (++work_ > kMaxWork) return false;
      env[counted->counter] = v;
      if (!statement(*f.body, env)) return false;
    }
    env.erase(counted->counter);
    return true;
  }

  const VarDecl& a_;
  std::vector<bool> written_;
  int64_t work_ = 0;
};

}  // namespace

bool written_before_read(const VarDecl& a, std::span<const StmtPtr> following) {
  const Type* t = a.type;
  if (!t || !t->is_array() || t->count == 0 || t->count > kMaxWork || !t->elem ||
      !(t->elem->is_scalar() || t->elem->is_vector()))
    return false;
  Coverage cover(a, t->count);
  Env env;
  for (const StmtPtr& s : following) {
    if (!cover.statement(*s, env)) return false;
    if (cover.complete()) return true;
  }
  return false;
}

}  // namespace brook::opencl
