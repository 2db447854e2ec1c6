#include "backends/opencl/cl_bounds.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "backends/opencl/cl_walk.hpp"
#include "lang/analysis.hpp"
#include "lang/counted_loop.hpp"
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

const Expr* strip_implicit(const Expr* e) {
  while (auto* c = e->as<CastExpr>()) {
    if (!c->implicit || c->cast != CastKind::Convert || c->type != c->operand->type) break;
    e = c->operand.get();
  }
  return e;
}

// Interval arithmetic that gives up (nullopt) before int could overflow: every
// intermediate value of an accepted index stays within +-2^30, so the int
// arithmetic the kernel does is the mathematical one.
std::optional<Range> bounded(int64_t lo, int64_t hi) {
  if (lo > hi || lo <= -kSmall || hi >= kSmall) return std::nullopt;
  return Range{lo, hi};
}

// The values a type holds (the range a conversion to it keeps unchanged).
std::optional<Range> type_range(const Type* t) {
  switch (t->kind) {
    case TypeKind::Bool:
      return Range{0, 1};
    case TypeKind::Char:
      return Range{-128, 127};
    case TypeKind::UChar:
      return Range{0, 255};
    case TypeKind::Short:
      return Range{-32768, 32767};
    case TypeKind::UShort:
      return Range{0, 65535};
    case TypeKind::Int:
      return Range{INT32_MIN, INT32_MAX};
    default:
      return std::nullopt;
  }
}

class Analysis {
 public:
  Analysis(const FuncDecl& k, bool exact, const LaunchFacts& facts)
      : kernel_(k), exact_(exact), facts_(facts), float_counters_(k) {}

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
      std::optional<Range> r;
      if (loop && loop->range) {
        r = Range{loop->range->lo, loop->range->hi};
      } else if (loop && loop->first) {
        // `i < n` (or `i > n` down) for a bound known at this launch that
        // nothing in the body changes (counted_loop checked that): the body
        // sees the values from the first one up to the bound. A loop whose
        // body never runs bounds nothing (an empty range keeps its clamps).
        if (auto b = value(*loop->bound, 0, 0); b && b->lo == b->hi) {
          int64_t last = b->lo + (loop->inclusive ? 0 : (loop->up ? -1 : 1));
          r = loop->up ? bounded(*loop->first, last) : bounded(last, *loop->first);
        }
      }
      if (r) counters_[loop->counter] = *r;
      std::optional<std::pair<const VarDecl*, Range>> fl = loop ? std::nullopt : float_loop_range(*f);
      if (fl) float_ranges_[fl->first] = fl->second;
      if (f->body) stmt(*f->body);
      if (loop) counters_.erase(loop->counter);
      if (fl) float_ranges_.erase(fl->first);
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
      if (auto* ix = x.as<IndexExpr>(); ix && ix->base->type && ix->base->type->is_array()) {
        // `d[i * 4 + j]` in loops over constant bounds: inside d needs no clamp.
        if (auto r = value(*ix->index, 0, 0))
          found_.push_back({ix, 0, nullptr, *r, ix->base->type->count ? ix->base->type->count : 1});
      }
    });
  }

  void gather(const GatherExpr& g) {
    auto* n = g.param->as<NameExpr>();
    const ParamDecl* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
    if (!p || p->pkind != ParamKind::Gather) return;
    int rank = p->gather_rank > 0 ? p->gather_rank : 1;
    if (g.indices.size() == 1 && g.indices[0]->type->is_vector()) {
      // (column, row): component 0 is the last logical dimension. A float
      // index component that is exactly a domain position (`previous[here]`
      // with `here = indexof(front).xy`) ranges over that position's extent.
      for (int c = 0; c < rank && c < 2; ++c) {
        if (auto r = value(*g.indices[0], c, 0)) found_.push_back({&g, rank - 1 - c, p, *r});
        else if (auto f = exact_float(*g.indices[0], c, 0)) found_.push_back({&g, rank - 1 - c, p, *f});
      }
      return;
    }
    for (size_t k = 0; k < g.indices.size() && k < 4; ++k)
      if (auto r = value(*g.indices[k], 0, 0)) found_.push_back({&g, static_cast<int>(k), p, *r});
  }

  // Component `comp` of a float index that is exactly an integer at this
  // launch: a domain position plus or minus integral literals, each value
  // below 2^24 so every float sum is exact (cl_exact.cpp prints the same
  // values as ints, exact_index).
  std::optional<Range> exact_float(const Expr& in, int comp, int depth) {
    constexpr int64_t kExact = int64_t{1} << 24;
    if (!exact_ || depth > 8) return std::nullopt;
    const Expr& e = *strip_implicit(&in);
    if (!e.type || !e.type->scalar_of() || e.type->scalar_of()->kind != TypeKind::Float)
      return std::nullopt;
    if (auto pos = position(e, comp, 0)) return position_range(*pos);
    if (auto* fl = e.as<FloatLit>()) {
      double v = fl->value;
      if (!(v > -kExact && v < kExact) || v != static_cast<double>(static_cast<int64_t>(v)))
        return std::nullopt;
      return Range{static_cast<int64_t>(v), static_cast<int64_t>(v)};
    }
    if (auto* c = e.as<CastExpr>(); c && c->cast == CastKind::Broadcast)
      return exact_float(*c->operand, 0, depth + 1);
    if (auto* c = e.as<CastExpr>(); c && c->cast == CastKind::Convert)
      if (auto* il = c->operand->as<IntLit>()) {
        auto v = static_cast<int64_t>(il->value);
        if (v > -kExact && v < kExact) return Range{v, v};
      }
    if (auto* n = e.as<NameExpr>()) {
      auto r = n->decl ? float_ranges_.find(n->decl) : float_ranges_.end();
      if (r != float_ranges_.end()) return r->second;
    }
    if (auto* n = e.as<NameExpr>())
      if (auto* p = n->decl ? n->decl->as<ParamDecl>() : nullptr) {
        auto it = facts_.integral_float_params.find(p);
        if (it != facts_.integral_float_params.end()) return Range{it->second, it->second};
      }
    if (auto* b = e.as<BinaryExpr>(); b && b->op == BinaryOp::Mul) {
      // A product of integers whose magnitude stays below 2^24 is exact in float.
      auto l = exact_float(*b->lhs, comp, depth + 1);
      auto r = l ? exact_float(*b->rhs, comp, depth + 1) : std::nullopt;
      if (!r) return std::nullopt;
      const int64_t c[4] = {l->lo * r->lo, l->lo * r->hi, l->hi * r->lo, l->hi * r->hi};
      Range s{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
      if (s.lo <= -kExact || s.hi >= kExact) return std::nullopt;
      return s;
    }
    if (e.kind == ExprKind::Construct || e.kind == ExprKind::Swizzle) {
      auto part = analysis::component_part(e, comp);
      return part ? exact_float(*part->first, part->second, depth + 1) : std::nullopt;
    }
    if (auto* b = e.as<BinaryExpr>(); b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub)) {
      auto l = exact_float(*b->lhs, comp, depth + 1);
      auto r = l ? exact_float(*b->rhs, comp, depth + 1) : std::nullopt;
      if (!r) return std::nullopt;
      Range s = b->op == BinaryOp::Add ? Range{l->lo + r->lo, l->hi + r->hi}
                                       : Range{l->lo - r->hi, l->hi - r->lo};
      if (s.lo <= -kExact || s.hi >= kExact) return std::nullopt;
      return s;
    }
    if (const VarDecl* v = stable_local(e)) return exact_float(*v->init, comp, depth + 1);
    return std::nullopt;
  }

  // BrookGPU's `for (k = 0.0f; k < n; k += 1.0f)`: a float counter
  // (lang/analysis.hpp) counting up from an integral literal L, written
  // nowhere in the body, below a bound B exact at this launch (a literal, a
  // float constant holding an integer). Inside the body k is an integer in
  // [L, B - 1] (`<=`: [L, B]), every value below 2^24, so k equals its shadow
  // (the printer's index text). An empty range bounds nothing.
  std::optional<std::pair<const VarDecl*, Range>> float_loop_range(const ForStmt& f) {
    if (!exact_ || !f.init || !f.cond || !f.body) return std::nullopt;
    auto* cmp = strip_implicit(f.cond.get())->as<BinaryExpr>();
    if (!cmp || (cmp->op != BinaryOp::Lt && cmp->op != BinaryOp::Le)) return std::nullopt;
    auto* n = strip_implicit(cmp->lhs.get())->as<NameExpr>();
    const VarDecl* v = n && n->decl ? n->decl->as<VarDecl>() : nullptr;
    const analysis::FloatCounter* c = v ? float_counters_.find(v) : nullptr;
    if (!c || c->direction != 1) return std::nullopt;
    std::optional<int64_t> first;
    if (auto* es = f.init->as<ExprStmt>(); es && es->expr)
      if (auto w = float_counters_.write(*es->expr); w && w->first == c && w->second.reset)
        first = w->second.value;
    if (!first) return std::nullopt;
    auto b = exact_float(*cmp->rhs, 0, 0);
    if (!b || b->lo != b->hi || may_assign(f.body.get(), *v)) return std::nullopt;
    const int64_t last = cmp->op == BinaryOp::Lt ? b->lo - 1 : b->lo;
    if (*first > last) return std::nullopt;
    return std::pair{v, Range{*first, last}};
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

  // Position component c's values at this launch.
  Range position_range(int c) const {
    size_t i = static_cast<size_t>(c);
    int64_t d = i < facts_.comp_extents.size() ? facts_.comp_extents[i] : 1;
    return Range{0, std::max<int64_t>(d, 1) - 1};
  }

  std::optional<Range> value(const Expr& in, int comp, int depth) {
    if (depth > 24) return std::nullopt;
    const Expr& e = *strip_implicit(&in);
    const Type* t = e.type;
    if (auto* c = e.as<CastExpr>();
        c && t && (t->kind == TypeKind::Long || t->kind == TypeKind::UInt) &&
        c->cast == CastKind::Convert && c->operand->type && !c->operand->type->is_vector() &&
        widens_to_int(c->operand->type)) {
      // A local array's index converts to long (and may to uint): the same
      // value when it is non-negative, or for long always.
      auto r = value(*c->operand, 0, depth + 1);
      if (r && t->kind == TypeKind::UInt && r->lo < 0) return std::nullopt;
      return r;
    }
    if (!t || !t->scalar_of() || !widens_to_int(t->scalar_of())) return std::nullopt;
    switch (e.kind) {
      case ExprKind::IntLit: {
        int64_t v = static_cast<int64_t>(e.as<IntLit>()->value);
        return bounded(v, v);
      }
      case ExprKind::Unary: {
        auto* u = e.as<UnaryExpr>();
        auto r = value(*u->operand, comp, depth + 1);
        if (!r) return std::nullopt;
        if (u->op == UnaryOp::Plus) return r;
        if (u->op != UnaryOp::Neg) return std::nullopt;
        return bounded(-r->hi, -r->lo);
      }
      case ExprKind::Binary: {
        // The result's own type must hold every value (no wrap-around in it).
        auto r = binary(*e.as<BinaryExpr>(), comp, depth);
        std::optional<Range> fits = type_range(t->scalar_of());
        if (!r || !fits || r->lo < fits->lo || r->hi > fits->hi) return std::nullopt;
        return r;
      }
      case ExprKind::Name: {
        auto* n = e.as<NameExpr>();
        if (auto* v = n->decl ? n->decl->as<VarDecl>() : nullptr) {
          auto c = counters_.find(v);
          if (c != counters_.end()) return c->second;
        }
        if (auto* p = n->decl ? n->decl->as<ParamDecl>() : nullptr) {
          // A constant parameter nothing assigns has its launch's value.
          auto v = facts_.int_params.find(p);
          if (p->pkind == ParamKind::Const && v != facts_.int_params.end() && !assigned_.count(p))
            return bounded(v->second, v->second);
          return std::nullopt;
        }
        if (const VarDecl* v = stable_local(e)) return value(*v->init, comp, depth + 1);
        return std::nullopt;
      }
      case ExprKind::Swizzle: {
        auto* sw = e.as<SwizzleExpr>();
        if (comp >= sw->count) return std::nullopt;
        return value(*sw->base,
                     sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0,
                     depth + 1);
      }
      case ExprKind::Construct: {
        auto* c = e.as<ConstructExpr>();
        if (!t->is_vector())
          return c->args.size() == 1 ? value(*c->args[0], 0, depth + 1) : std::nullopt;
        if (c->args.size() != t->count || c->args[static_cast<size_t>(comp)]->type->is_vector())
          return std::nullopt;
        return value(*c->args[static_cast<size_t>(comp)], 0, depth + 1);
      }
      case ExprKind::Call: {
        auto* c = e.as<CallExpr>();
        if (c->target == CallTarget::Builtin &&
            static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::instance && comp < 4) {
          // The position plus the first output's offset (backends/instance.hpp).
          Range r = position_range(comp);
          int64_t o = facts_.instance_offset[static_cast<size_t>(comp)];
          return bounded(r.lo + o, r.hi + o);
        }
        return std::nullopt;
      }
      case ExprKind::Cast: {
        auto* c = e.as<CastExpr>();
        if (c->cast != CastKind::Convert || t->is_vector()) return std::nullopt;
        const Type* from = c->operand->type;
        if (!from || from->is_vector()) return std::nullopt;
        std::optional<Range> r;
        if (widens_to_int(from)) {
          r = value(*c->operand, 0, depth + 1);
        } else if (from->kind == TypeKind::Float) {
          if (auto p = position(*c->operand, 0, 0)) r = position_range(*p);
        }
        // A conversion keeps the value only when the target type holds it.
        std::optional<Range> fits = type_range(t);
        if (!r || !fits || r->lo < fits->lo || r->hi > fits->hi) return std::nullopt;
        return r;
      }
      default:
        return std::nullopt;
    }
  }

  // The constant an expression always is at this launch, if it is one.
  std::optional<int64_t> constant_of(const Range& r) {
    if (r.lo != r.hi) return std::nullopt;
    return r.lo;
  }

  std::optional<Range> binary(const BinaryExpr& b, int comp, int depth) {
    switch (b.op) {
      case BinaryOp::Add:
      case BinaryOp::Sub:
      case BinaryOp::Mul:
      case BinaryOp::Div:
      case BinaryOp::Mod:
      case BinaryOp::BitAnd:
        break;
      default:
        return std::nullopt;
    }
    auto l = value(*b.lhs, comp, depth + 1);
    auto r = value(*b.rhs, comp, depth + 1);
    if (b.op == BinaryOp::BitAnd) {
      // x & m for a mask m >= 0 lies in [0, m], whatever x is (two's complement).
      std::optional<int64_t> m = r ? constant_of(*r) : std::nullopt;
      std::optional<Range> other = l;
      if (!m || *m < 0) {
        m = l ? constant_of(*l) : std::nullopt;
        other = r;
      }
      if (!m || *m < 0) return std::nullopt;
      int64_t hi = other && other->lo >= 0 ? std::min(*m, other->hi) : *m;
      return bounded(0, hi);
    }
    if (!l || !r) return std::nullopt;
    switch (b.op) {
      case BinaryOp::Add:
        return bounded(l->lo + r->lo, l->hi + r->hi);
      case BinaryOp::Sub:
        return bounded(l->lo - r->hi, l->hi - r->lo);
      case BinaryOp::Mul: {
        // Both within +-2^30, so the products fit in int64_t.
        int64_t p[4] = {l->lo * r->lo, l->lo * r->hi, l->hi * r->lo, l->hi * r->hi};
        return bounded(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
      }
      case BinaryOp::Div: {
        // By a positive constant only (brook_div_int's 0 and -1 cases never arise):
        // C's truncating division is then monotone in the dividend.
        std::optional<int64_t> k = constant_of(*r);
        if (!k || *k <= 0) return std::nullopt;
        return bounded(l->lo / *k, l->hi / *k);
      }
      default: {  // Mod by a positive constant k: the sign of the dividend, below k in magnitude.
        std::optional<int64_t> k = constant_of(*r);
        if (!k || *k <= 0) return std::nullopt;
        if (l->lo >= 0) return l->hi < *k ? l : bounded(0, *k - 1);
        if (l->hi <= 0) return l->lo > -*k ? l : bounded(-(*k - 1), 0);
        return bounded(-(*k - 1), *k - 1);
      }
    }
  }

  const FuncDecl& kernel_;
  bool exact_;
  const LaunchFacts& facts_;
  std::map<const VarDecl*, Range> counters_;
  analysis::FloatCounters float_counters_;
  std::map<const Decl*, Range> float_ranges_;  // float counters inside their counted loop
  std::set<const Decl*> assigned_;  // what the body may change (one walk, per launch)
  std::vector<GatherAccess> found_;
};

}  // namespace

std::optional<CountedLoop> counted_loop(const ForStmt& f) {
  // An int counter declared here, stepped by one toward a stable int bound.
  std::optional<analysis::CountedFor> c = analysis::counted_for(f);
  if (!c || !c->declared_in_init || !is_int(c->type) || !is_int(c->bound->type) || !f.body ||
      (c->step != 1 && c->step != -1) || !c->toward_bound() ||
      !analysis::body_keeps_count(*c, f.body.get()))
    return std::nullopt;
  // `<=` / `>=` a bound at the end of int's range would wrap forever.
  const std::optional<int64_t> first = c->first, bound = c->bound_value;
  const bool up = c->step > 0, inclusive = c->inclusive();
  if (inclusive && (!bound || *bound >= INT32_MAX || *bound <= INT32_MIN)) return std::nullopt;
  CountedLoop loop{
      static_cast<const VarDecl*>(c->counter), std::nullopt, first, c->bound, up, inclusive};
  if (first && bound) {
    int64_t last = *bound + (inclusive ? 0 : (up ? -1 : 1));
    loop.range = Span{std::min(*first, last), std::max(*first, last)};
    if (!small(*loop.range)) loop.range.reset();
  }
  return loop;
}

std::vector<GatherAccess> gather_accesses(const FuncDecl& kernel, bool exact_positions,
                                          const LaunchFacts& facts) {
  const FuncDecl& k = kernel.defined();
  return Analysis(k, exact_positions, facts).run();
}

}  // namespace brook::opencl
