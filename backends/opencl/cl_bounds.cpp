#include "backends/opencl/cl_bounds.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "backends/opencl/cl_walk.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;

namespace {

constexpr int64_t kSmall = int64_t{1} << 30;  // spans stay far from int overflow

bool is_int(const Type* t) {
  return t && t->kind == TypeKind::Int;
}

// Integer types an int holds exactly (the index is then the same value).
bool widens_to_int(const Type* t) {
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Char:
    case TypeKind::UChar:
    case TypeKind::Short:
    case TypeKind::UShort:
    case TypeKind::Int:
      return true;
    default:
      return false;
  }
}

bool small(const Span& s) {
  return s.lo > -kSmall && s.hi < kSmall && s.coef >= 0 && s.coef < kSmall && s.pcoef >= 0 &&
         s.pcoef < kSmall && (s.lo <= s.hi || s.param);
}

std::optional<Span> constant(int64_t v) {
  Span s{v, v};
  if (!small(s)) return std::nullopt;
  return s;
}

const Expr* strip_implicit(const Expr* e) {
  while (auto* c = e->as<CastExpr>()) {
    if (!c->implicit || c->cast != CastKind::Convert || c->type != c->operand->type) break;
    e = c->operand.get();
  }
  return e;
}

class Analysis {
 public:
  Analysis(const FuncDecl& k, bool exact) : kernel_(k), exact_(exact) {}

  std::vector<GatherAccess> run() {
    if (!kernel_.body) return {};
    assigned_ = assigned_decls(kernel_.body.get());
    stmt(*kernel_.body);
    return std::move(found_);
  }

 private:
  void stmt(const Stmt& s) {
    if (auto* f = s.as<ForStmt>()) {
      if (f->init) stmt(*f->init);
      exprs(f->cond.get());
      exprs(f->step.get());
      std::optional<CountedLoop> loop = counted_loop(*f);
      if (loop && loop->range) {
        counters_[loop->counter] = *loop->range;
      } else if (loop && loop->up && loop->first) {
        // `i < n` for the kernel's own int constant n, which nothing changes: i <= n - 1.
        auto* n = strip_implicit(loop->bound)->as<NameExpr>();
        const ParamDecl* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
        if (p && p->pkind == ParamKind::Const && is_int(p->type) && !assigned_.count(p))
          counters_[loop->counter] = Span{*loop->first, loop->inclusive ? 0 : -1, -1, 0, p, 1};
      }
      if (f->body) stmt(*f->body);
      if (loop) counters_.erase(loop->counter);
      return;
    }
    // Everything else: its own expressions, then nested statements in order.
    switch (s.kind) {
      case StmtKind::Compound:
        for (const StmtPtr& b : s.as<CompoundStmt>()->body) stmt(*b);
        return;
      case StmtKind::Expr:
        exprs(s.as<ExprStmt>()->expr.get());
        return;
      case StmtKind::Decl:
        for (const DeclPtr& d : s.as<DeclStmt>()->decls)
          if (auto* v = d->as<VarDecl>()) exprs(v->init.get());
        return;
      case StmtKind::If: {
        auto* i = s.as<IfStmt>();
        exprs(i->cond.get());
        if (i->then_stmt) stmt(*i->then_stmt);
        if (i->else_stmt) stmt(*i->else_stmt);
        return;
      }
      case StmtKind::While:
        exprs(s.as<WhileStmt>()->cond.get());
        if (s.as<WhileStmt>()->body) stmt(*s.as<WhileStmt>()->body);
        return;
      case StmtKind::Do:
        if (s.as<DoStmt>()->body) stmt(*s.as<DoStmt>()->body);
        exprs(s.as<DoStmt>()->cond.get());
        return;
      case StmtKind::Switch:
        exprs(s.as<SwitchStmt>()->cond.get());
        if (s.as<SwitchStmt>()->body) stmt(*s.as<SwitchStmt>()->body);
        return;
      case StmtKind::Return:
        exprs(s.as<ReturnStmt>()->value.get());
        return;
      default:
        return;
    }
  }

  void exprs(const Expr* e) {
    walk_expr(e, [&](const Expr& x) {
      if (auto* g = x.as<GatherExpr>()) gather(*g);
    });
  }

  void gather(const GatherExpr& g) {
    auto* n = g.param->as<NameExpr>();
    const ParamDecl* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
    if (!p || p->pkind != ParamKind::Gather) return;
    int rank = p->gather_rank > 0 ? p->gather_rank : 1;
    if (g.indices.size() == 1 && g.indices[0]->type->is_vector()) {
      // (column, row): component 0 is the last logical dimension.
      for (int c = 0; c < rank && c < 2; ++c)
        if (auto s = span(*g.indices[0], c, 0)) found_.push_back({&g, rank - 1 - c, p, *s});
      return;
    }
    for (size_t k = 0; k < g.indices.size() && k < 4; ++k)
      if (auto s = span(*g.indices[k], 0, 0)) found_.push_back({&g, static_cast<int>(k), p, *s});
  }

  // The domain position component a float expression is exactly, if it is one.
  std::optional<int> position(const Expr& e, int comp, int depth) {
    if (!exact_ || depth > 8 || !e.type || !e.type->scalar_of() ||
        e.type->scalar_of()->kind != TypeKind::Float)
      return std::nullopt;
    if (auto* ix = e.as<IndexofExpr>()) {
      auto* n = ix->operand ? ix->operand->as<NameExpr>() : nullptr;
      const ParamDecl* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
      if (p && p->pkind == ParamKind::Out)
        return comp;  // an output's indexof is the domain position
      return std::nullopt;
    }
    if (auto* sw = e.as<SwizzleExpr>()) {
      if (comp >= sw->count) return std::nullopt;
      return position(*sw->base,
                      sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0,
                      depth + 1);
    }
    if (const VarDecl* v = stable_local(e)) return position(*v->init, comp, depth + 1);
    return std::nullopt;
  }

  // A local that always holds its initialiser's value.
  const VarDecl* stable_local(const Expr& e) {
    auto* n = e.as<NameExpr>();
    const VarDecl* v = n && n->decl ? n->decl->as<VarDecl>() : nullptr;
    if (!v || v->is_global || v->is_static || !v->init || v->init->kind == ExprKind::InitList)
      return nullptr;
    if (v->type != v->init->type) return nullptr;
    return assigned_.count(v) ? nullptr : v;
  }

  std::optional<Span> span(const Expr& in, int comp, int depth) {
    if (depth > 16) return std::nullopt;
    const Expr& e = *strip_implicit(&in);
    const Type* t = e.type;
    if (!t || !t->scalar_of() || !widens_to_int(t->scalar_of())) return std::nullopt;
    switch (e.kind) {
      case ExprKind::IntLit:
        return constant(static_cast<int64_t>(e.as<IntLit>()->value));
      case ExprKind::Unary: {
        auto* u = e.as<UnaryExpr>();
        auto s = span(*u->operand, comp, depth + 1);
        if (!s) return std::nullopt;
        if (u->op == UnaryOp::Plus) return s;
        if (u->op != UnaryOp::Neg || s->comp >= 0 || s->param) return std::nullopt;
        Span r{-s->hi, -s->lo};
        if (!small(r)) return std::nullopt;
        return r;
      }
      case ExprKind::Binary:
        return binary(*e.as<BinaryExpr>(), comp, depth);
      case ExprKind::Name: {
        auto* n = e.as<NameExpr>();
        if (auto* v = n->decl ? n->decl->as<VarDecl>() : nullptr) {
          auto c = counters_.find(v);
          if (c != counters_.end()) return c->second;
        }
        if (const VarDecl* v = stable_local(e)) return span(*v->init, comp, depth + 1);
        return std::nullopt;
      }
      case ExprKind::Swizzle: {
        auto* sw = e.as<SwizzleExpr>();
        if (comp >= sw->count) return std::nullopt;
        return span(*sw->base,
                    sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0,
                    depth + 1);
      }
      case ExprKind::Construct: {
        auto* c = e.as<ConstructExpr>();
        if (!t->is_vector())
          return c->args.size() == 1 ? span(*c->args[0], 0, depth + 1) : std::nullopt;
        if (c->args.size() != t->count || c->args[static_cast<size_t>(comp)]->type->is_vector())
          return std::nullopt;
        return span(*c->args[static_cast<size_t>(comp)], 0, depth + 1);
      }
      case ExprKind::Call: {
        auto* c = e.as<CallExpr>();
        if (c->target == CallTarget::Builtin &&
            static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::instance)
          return Span{0, 0, comp, 1};
        return std::nullopt;
      }
      case ExprKind::Cast: {
        auto* c = e.as<CastExpr>();
        if (c->cast != CastKind::Convert || t->is_vector()) return std::nullopt;
        const Type* from = c->operand->type;
        if (!from || from->is_vector()) return std::nullopt;
        if (widens_to_int(from)) return span(*c->operand, 0, depth + 1);
        if (from->kind == TypeKind::Float && is_int(t)) {
          if (auto p = position(*c->operand, 0, 0)) return Span{0, 0, *p, 1};
        }
        return std::nullopt;
      }
      default:
        return std::nullopt;
    }
  }

  std::optional<Span> binary(const BinaryExpr& b, int comp, int depth) {
    if (b.op != BinaryOp::Add && b.op != BinaryOp::Sub && b.op != BinaryOp::Mul)
      return std::nullopt;
    auto l = span(*b.lhs, comp, depth + 1);
    if (!l) return std::nullopt;
    auto r = span(*b.rhs, comp, depth + 1);
    if (!r) return std::nullopt;
    Span s;
    switch (b.op) {
      case BinaryOp::Add:
        if (l->comp >= 0 && r->comp >= 0 && l->comp != r->comp) return std::nullopt;
        if (l->param && r->param && l->param != r->param) return std::nullopt;
        s = {l->lo + r->lo,
             l->hi + r->hi,
             std::max(l->comp, r->comp),
             l->coef + r->coef,
             l->param ? l->param : r->param,
             l->pcoef + r->pcoef};
        break;
      case BinaryOp::Sub:
        if (r->comp >= 0 || r->param) return std::nullopt;
        s = {l->lo - r->hi, l->hi - r->lo, l->comp, l->coef, l->param, l->pcoef};
        break;
      default: {  // Mul: by a non-negative constant
        auto is_factor = [](const Span& k) {
          return k.comp < 0 && !k.param && k.lo == k.hi && k.lo >= 0;
        };
        bool right = is_factor(*r);
        if (!right && !is_factor(*l)) return std::nullopt;
        const Span& x = right ? *l : *r;
        int64_t k = right ? r->lo : l->lo;
        s = {x.lo * k, x.hi * k, k ? x.comp : -1, x.coef * k, k ? x.param : nullptr, x.pcoef * k};
      }
    }
    if (!small(s)) return std::nullopt;
    return s;
  }

  const FuncDecl& kernel_;
  bool exact_;
  std::map<const VarDecl*, Span> counters_;
  std::set<const Decl*> assigned_;  // what the body may change (one walk, per launch)
  std::vector<GatherAccess> found_;
};

// The value of a constant int expression (literals, unary minus).
std::optional<int64_t> literal(const Expr* e) {
  e = strip_implicit(e);
  if (auto* i = e->as<IntLit>()) return static_cast<int64_t>(i->value);
  if (auto* u = e->as<UnaryExpr>(); u && u->op == UnaryOp::Neg)
    if (auto v = literal(u->operand.get())) return -*v;
  return std::nullopt;
}

}  // namespace

std::optional<CountedLoop> counted_loop(const ForStmt& f) {
  auto* init = f.init ? f.init->as<DeclStmt>() : nullptr;
  if (!init || init->decls.size() != 1 || !f.cond || !f.step || !f.body) return std::nullopt;
  auto* v = init->decls[0]->as<VarDecl>();
  if (!v || !is_int(v->type) || !v->init) return std::nullopt;
  auto* cmp = strip_implicit(f.cond.get())->as<BinaryExpr>();
  if (!cmp) return std::nullopt;
  auto* lhs = strip_implicit(cmp->lhs.get())->as<NameExpr>();
  if (!lhs || lhs->decl != v || !is_int(cmp->rhs->type)) return std::nullopt;
  // The step: one up or one down.
  int dir = 0;
  const Expr* step = f.step.get();
  if (auto* u = step->as<UnaryExpr>();
      u && root_of(u->operand.get()) == v && u->operand->as<NameExpr>()) {
    if (u->op == UnaryOp::PreInc || u->op == UnaryOp::PostInc) dir = 1;
    if (u->op == UnaryOp::PreDec || u->op == UnaryOp::PostDec) dir = -1;
  } else if (auto* a = step->as<AssignExpr>();
             a && a->op && a->lhs->as<NameExpr>() && root_of(a->lhs.get()) == v) {
    if (literal(a->rhs.get()) == 1)
      dir = *a->op == BinaryOp::Add ? 1 : (*a->op == BinaryOp::Sub ? -1 : 0);
  }
  bool up = cmp->op == BinaryOp::Lt || cmp->op == BinaryOp::Le;
  bool down = cmp->op == BinaryOp::Gt || cmp->op == BinaryOp::Ge;
  if (!((up && dir == 1) || (down && dir == -1))) return std::nullopt;
  // The body leaves the counter and the bound alone.
  if (may_assign(f.body.get(), *v) || !side_effect_free(*cmp->rhs)) return std::nullopt;
  bool bound_stable = true;
  walk_expr(cmp->rhs.get(), [&](const Expr& x) {
    auto* n = x.as<NameExpr>();
    if (n && n->decl && (n->decl == v || may_assign(f.body.get(), *n->decl))) bound_stable = false;
  });
  if (!bound_stable) return std::nullopt;
  std::optional<int64_t> first = literal(v->init.get()), bound = literal(cmp->rhs.get());
  // `<=` / `>=` a bound at the end of int's range would wrap forever.
  bool inclusive = cmp->op == BinaryOp::Le || cmp->op == BinaryOp::Ge;
  if (inclusive && (!bound || *bound >= INT32_MAX || *bound <= INT32_MIN)) return std::nullopt;
  CountedLoop loop{v, std::nullopt, first, cmp->rhs.get(), up, inclusive};
  if (first && bound) {
    int64_t last = *bound + (inclusive ? 0 : (up ? -1 : 1));
    loop.range = Span{std::min(*first, last), std::max(*first, last)};
    if (!small(*loop.range)) loop.range.reset();
  }
  return loop;
}

std::vector<GatherAccess> gather_accesses(const FuncDecl& kernel, bool exact_positions) {
  const FuncDecl& k = kernel.defined();
  return Analysis(k, exact_positions).run();
}

bool span_inside(const Span& s, int64_t n, const std::vector<int64_t>& comp_extents,
                 std::optional<int64_t> param_value) {
  if (s.lo < 0 || s.coef < 0 || n <= 0) return false;
  int64_t top = s.hi;
  if (s.param) {
    if (!param_value || *param_value < -kSmall || *param_value > kSmall) return false;
    top += s.pcoef * *param_value;
  }
  if (s.comp >= 0) {
    int64_t d = static_cast<size_t>(s.comp) < comp_extents.size()
                    ? comp_extents[static_cast<size_t>(s.comp)]
                    : 1;
    if (d <= 0 || d > kSmall) return false;
    top += s.coef * (d - 1);
  }
  return top <= n - 1 && top < kSmall;
}

}  // namespace brook::opencl
