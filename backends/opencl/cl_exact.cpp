// Integral positions. indexof gives float positions, and kernels commonly
// turn them back into ints (`(int)here.x`) or gather at them plus an integer
// offset (`img[here.xy + float2(dx, dy)]`). Each float<->int conversion costs
// a scalar instruction per gather on PoCL's CPU device and can stop its
// vectoriser. When every extent of a launch is at most 2^24
// (ClModule::exact_positions, part of the variant key) those floats are exact
// integers, so the printer uses the int position the launch passes beside
// them (brook_jx_*) instead. Each rewrite gives the float rule's result:
//  - (int)P == P for an exact P.
//  - a gather at P + (float)D, 0 <= P < 2^24, D any integer, extents <= 2^24:
//    clamp(floor(fl(P + fl(D)) + 0.25)) == clamp(P + D). Both sides are exact
//    when |D| and |P + D| are below 2^24 (floor(X + 0.25) == X for such X);
//    otherwise both clamp to the same edge, since rounding is monotone and
//    +-2^24 are representable. The same holds for P - (float)D, P alone and
//    (float)D alone.
//  - D may also be a float constant parameter whose value at this launch is
//    an integer below 2^12 (part of the variant key) and the body never
//    writes, and a product of such integers and literals whose magnitude
//    stays below 2^24 (the float product is then exact).
#include <cmath>

#include "backends/opencl/cl_bounds.hpp"
#include "backends/opencl/cl_printer.hpp"
#include "backends/opencl/cl_walk.hpp"
#include "lang/counted_loop.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;

namespace {

constexpr double kExactLimit = 16777216.0;  // 2^24

bool is_float_based(const Type* t) {
  return t && t->scalar_of() && t->scalar_of()->kind == TypeKind::Float;
}

// Integer types whose values a long holds with room to add a position
// (long itself could overflow in P + D).
bool fits_long(const Type* t) {
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Char:
    case TypeKind::UChar:
    case TypeKind::Short:
    case TypeKind::UShort:
    case TypeKind::Int:
    case TypeKind::UInt:
      return true;
    default:
      return false;
  }
}

std::string comp_text(int comp) {
  return ".s" + std::to_string(comp);
}

}  // namespace

bool ClPrinter::never_assigned(const VarDecl& v) {
  auto found = assigned_.find(&v);
  if (found != assigned_.end()) return !found->second;
  bool assigned = current_ && current_->body && may_assign(current_->body.get(), v);
  assigned_[&v] = assigned;
  return !assigned;
}

const Expr* ClPrinter::local_value(const Expr& e) {
  auto* n = e.as<NameExpr>();
  auto* v = n && n->decl ? n->decl->as<VarDecl>() : nullptr;
  if (!v || v->is_global || v->is_static || !v->init || v->init->kind == ExprKind::InitList)
    return nullptr;
  return v->type == v->init->type && never_assigned(*v) ? v->init.get() : nullptr;
}

std::optional<std::string> ClPrinter::position(const Expr& e, int comp, int depth) {
  if (!m_.exact_positions || depth > 8 || !is_float_based(e.type)) return std::nullopt;
  switch (e.kind) {
    case ExprKind::Indexof: {
      const ParamDecl* p =
          e.as<IndexofExpr>()->operand ? stream_param(*e.as<IndexofExpr>()->operand) : nullptr;
      if (!p) return std::nullopt;
      if (p->pkind == ParamKind::Gather) return std::string("0");
      if (p->pkind == ParamKind::Const || p->pkind == ParamKind::Value) return std::nullopt;
      return "brook_jx_" + safe_name(p->name) + comp_text(comp);
    }
    case ExprKind::Swizzle: {
      auto* sw = e.as<SwizzleExpr>();
      if (comp >= sw->count) return std::nullopt;
      int from = sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0;
      return position(*sw->base, from, depth + 1);
    }
    case ExprKind::Name: {
      const Expr* value = local_value(e);
      return value ? position(*value, comp, depth + 1) : std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::string> ClPrinter::integral(const Expr& e, int comp, int depth) {
  if (depth > 8 || !is_float_based(e.type)) return std::nullopt;
  switch (e.kind) {
    case ExprKind::FloatLit: {
      double v = e.as<FloatLit>()->value;
      if (!(v > -kExactLimit && v < kExactLimit) ||
          v != static_cast<double>(static_cast<long long>(v)))
        return std::nullopt;
      return "((long)" + std::to_string(static_cast<long long>(v)) + ")";
    }
    case ExprKind::Cast: {
      auto* c = e.as<CastExpr>();
      const Type* from = c->operand->type;
      if (c->cast == CastKind::Broadcast) return integral(*c->operand, 0, depth + 1);
      if (c->cast != CastKind::Convert || !from || !fits_long(from->scalar_of()))
        return std::nullopt;
      if (!side_effect_free(*c->operand)) return std::nullopt;
      if (from->is_vector()) return "((long)((" + expr(*c->operand) + ")" + comp_text(comp) + "))";
      return "((long)(" + expr(*c->operand) + "))";
    }
    case ExprKind::Construct: {
      auto* c = e.as<ConstructExpr>();
      if (!e.type->is_vector())
        return c->args.size() == 1 ? integral(*c->args[0], 0, depth + 1) : std::nullopt;
      if (c->args.size() != e.type->count) return std::nullopt;
      const Expr& arg = *c->args[static_cast<size_t>(comp)];
      if (arg.type->is_vector()) return std::nullopt;
      return integral(arg, 0, depth + 1);
    }
    case ExprKind::Name: {
      // A float constant this launch passes as a small integer.
      if (!integral_param(e)) return std::nullopt;
      return "((long)" + expr(e) + ")";
    }
    case ExprKind::Binary: {
      // A product of integers whose magnitude stays below 2^24 is exact in
      // float, so the float product is the integer product.
      auto* b = e.as<BinaryExpr>();
      if (b->op != BinaryOp::Mul || e.type->is_vector()) return std::nullopt;
      auto bl = integral_bound(*b->lhs, 0, depth + 1), br = integral_bound(*b->rhs, 0, depth + 1);
      if (!bl || !br || !(*bl * *br < kExactLimit)) return std::nullopt;
      auto l = integral(*b->lhs, 0, depth + 1), r = integral(*b->rhs, 0, depth + 1);
      if (!l || !r) return std::nullopt;
      return "(" + *l + " * " + *r + ")";
    }
    default:
      return std::nullopt;
  }
}

bool ClPrinter::integral_param(const Expr& e) {
  auto* n = e.as<NameExpr>();
  auto* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
  // A constant parameter is never written (sema rejects an assignment to one).
  return p && !p->type->is_vector() && m_.integral_params.count(p);
}

// A bound on the magnitude of component `comp` of an integral() value: literals, small
// integral constants (below 2^12, cl_variant.hpp) and their products.
std::optional<double> ClPrinter::integral_bound(const Expr& e, int comp, int depth) {
  if (depth > 8) return std::nullopt;
  switch (e.kind) {
    case ExprKind::FloatLit:
      return std::fabs(e.as<FloatLit>()->value);
    case ExprKind::IntLit:
      return std::fabs(static_cast<double>(e.as<IntLit>()->value));
    case ExprKind::Cast: {
      auto* c = e.as<CastExpr>();
      if (c->cast == CastKind::Broadcast) return integral_bound(*c->operand, 0, depth + 1);
      if (c->cast == CastKind::Convert && c->operand->kind == ExprKind::IntLit)
        return integral_bound(*c->operand, 0, depth + 1);
      return std::nullopt;
    }
    case ExprKind::Construct: {
      auto* c = e.as<ConstructExpr>();
      if (!e.type->is_vector())
        return c->args.size() == 1 ? integral_bound(*c->args[0], 0, depth + 1) : std::nullopt;
      if (c->args.size() != e.type->count || c->args[static_cast<size_t>(comp)]->type->is_vector())
        return std::nullopt;
      return integral_bound(*c->args[static_cast<size_t>(comp)], 0, depth + 1);
    }
    case ExprKind::Name:
      return integral_param(e) ? std::optional<double>(4096.0) : std::nullopt;
    case ExprKind::Binary: {
      auto* b = e.as<BinaryExpr>();
      if (b->op != BinaryOp::Mul || e.type->is_vector()) return std::nullopt;
      auto l = integral_bound(*b->lhs, 0, depth + 1), r = integral_bound(*b->rhs, 0, depth + 1);
      if (!l || !r) return std::nullopt;
      return *l * *r;
    }
    default:
      return std::nullopt;
  }
}

const analysis::FloatCounters& ClPrinter::counters() {
  auto& c = counters_[current_];
  if (!c) c = std::make_unique<analysis::FloatCounters>(*current_);
  return *c;
}

// A counter k compared with an integral literal L, |L| < 2^24, compares as
// its shadow does (lang/analysis.hpp): while |shadow| <= 2^24, k == shadow;
// past that, counting up, k >= 2^24 > |L| and shadow > 2^24 > |L| too, so
// every comparison with L has the same outcome (symmetrically counting down).
// Two ranged() sides are exact integers, so comparing their ints is
// comparing the floats. Scalars only; the comparison has no side effects.
std::optional<std::string> ClPrinter::exact_compare(const BinaryExpr& e) {
  if (!current_ || !e.lhs->type || !e.rhs->type || e.lhs->type->is_vector() ||
      e.rhs->type->is_vector() || e.lhs->type->kind != TypeKind::Float ||
      e.rhs->type->kind != TypeKind::Float)
    return std::nullopt;
  const char* op = e.op == BinaryOp::Lt   ? " < "
                   : e.op == BinaryOp::Le ? " <= "
                   : e.op == BinaryOp::Gt ? " > "
                   : e.op == BinaryOp::Ge ? " >= "
                   : e.op == BinaryOp::Eq ? " == "
                                          : " != ";
  auto counter = [&](const Expr& x) -> const analysis::FloatCounter* {
    auto* n = x.as<NameExpr>();
    return n && n->decl ? counters().find(n->decl) : nullptr;
  };
  auto literal = [](const Expr& e) -> std::optional<long long> {
    const Expr& x = e.as<UnaryExpr>() && e.as<UnaryExpr>()->op == UnaryOp::Neg
                        ? *e.as<UnaryExpr>()->operand
                        : e;
    double v = 0;
    if (auto* fl = x.as<FloatLit>()) v = fl->value;
    else if (auto* c = x.as<CastExpr>(); c && c->cast == CastKind::Convert && c->operand->as<IntLit>())
      v = static_cast<double>(c->operand->as<IntLit>()->value);
    else return std::nullopt;
    if (!(v > -kExactLimit && v < kExactLimit) || v != static_cast<double>(static_cast<long long>(v)))
      return std::nullopt;
    return &x == &e ? static_cast<long long>(v) : -static_cast<long long>(v);
  };
  if (const auto* c = counter(*e.lhs))
    if (auto l = literal(*e.rhs))
      return "(brook_ci_" + safe_name(c->var->name) + op + std::to_string(*l) + "L)";
  if (const auto* c = counter(*e.rhs))
    if (auto l = literal(*e.lhs))
      return "(" + std::to_string(*l) + "L" + op + "brook_ci_" + safe_name(c->var->name) + ")";
  auto l = ranged(*e.lhs, 0, 0);
  auto r = l ? ranged(*e.rhs, 0, 0) : std::nullopt;
  if (l && r) return "(" + l->text + op + r->text + ")";
  return std::nullopt;
}

// (shadow write, the write): the comma keeps the expression's value.
std::string ClPrinter::with_shadow(const Expr& e, const std::string& text) {
  auto w = current_ ? counters().write(e) : std::nullopt;
  if (!w) return text;
  std::string s = "brook_ci_" + safe_name(w->first->var->name);
  std::string v = std::to_string(w->second.value) + "L";
  return "((" + s + (w->second.reset ? " = " : " += ") + v + "), " + text + ")";
}

// BrookGPU's programs do integer arithmetic in float: `g = floor(p.y / 66.0f)`,
// `y = p.y - g * 66.0f`, then gather at `float2(p.x - 1.0f, g * 64.0f + y)`.
// When every value in such an expression is an integer of magnitude below
// 2^24 every float operation in it is exact, so int arithmetic gives the same
// value, and a gather at it clamps like an int (floor(X + 0.25) == X for such
// X, as above). The bounds make "below 2^24" a proof:
//  - a position is in [0, position_limit) (at most 2^24, part of the variant
//    key), an integral() value within its integral_bound;
//  - X + Y, X - Y and X * Y are exact when the result's bounds stay below 2^24;
//  - floor(X / C) for an integer X in [0, 2^24) and an integral C >= 1 is X
//    div C: X / C lies at least 1/C below the next integer, while rounding
//    moves it by at most (X / C) 2^-24 < 1/C, so the float quotient never
//    reaches that integer (and an integral quotient is exact);
//  - fmod(X, C) is exact in IEEE arithmetic, X mod C for X >= 0;
//  - X - floor(X / C) * C (how BrookGPU spells X mod C) is in [0, C - 1].
std::optional<ClPrinter::Ranged> ClPrinter::ranged(const Expr& e, int comp, int depth) {
  if (!m_.exact_positions || depth > 12 || !is_float_based(e.type)) return std::nullopt;
  auto fits = [](const Ranged& r) {
    return r.lo > -kExactLimit && r.hi < kExactLimit ? std::optional<Ranged>(r) : std::nullopt;
  };
  if (auto p = position(e, comp, 0))
    return Ranged{"((int)" + *p + ")", 0, static_cast<double>(m_.position_limit - 1)};
  switch (e.kind) {
    case ExprKind::FloatLit:
    case ExprKind::Cast: {
      auto b = integral_bound(e, comp, 0);
      auto t = b && *b < kExactLimit ? integral(e, comp, 0) : std::nullopt;
      if (!t) return std::nullopt;
      return Ranged{"((int)" + *t + ")", -*b, *b};
    }
    case ExprKind::Name: {
      if (integral_param(e)) return Ranged{"((int)" + expr(e) + ")", -4096, 4096};
      const Expr* value = local_value(e);
      return value ? ranged(*value, comp, depth + 1) : std::nullopt;
    }
    case ExprKind::Swizzle: {
      auto* sw = e.as<SwizzleExpr>();
      if (comp >= sw->count) return std::nullopt;
      int from = sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0;
      return ranged(*sw->base, from, depth + 1);
    }
    case ExprKind::Construct: {
      auto* c = e.as<ConstructExpr>();
      if (!e.type->is_vector())
        return c->args.size() == 1 ? ranged(*c->args[0], 0, depth + 1) : std::nullopt;
      if (c->args.size() != e.type->count || c->args[static_cast<size_t>(comp)]->type->is_vector())
        return std::nullopt;
      return ranged(*c->args[static_cast<size_t>(comp)], 0, depth + 1);
    }
    case ExprKind::Call: {
      auto* c = e.as<CallExpr>();
      if (c->target != CallTarget::Builtin || e.type->is_vector()) return std::nullopt;
      if (static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::floor &&
          c->args.size() == 1 && !c->args[0]->type->is_vector()) {
        if (auto x = ranged(*c->args[0], 0, depth + 1)) return x;  // floor of an integer
      }
      return ranged_division(*c, depth);
    }
    case ExprKind::Binary: {
      auto* b = e.as<BinaryExpr>();
      if (b->op != BinaryOp::Add && b->op != BinaryOp::Sub && b->op != BinaryOp::Mul)
        return std::nullopt;
      auto side = [&](const Expr& x) {
        return ranged(x, x.type->is_vector() ? comp : 0, depth + 1);
      };
      auto l = side(*b->lhs);
      if (!l) return std::nullopt;
      if (b->op == BinaryOp::Sub && l->lo >= 0) {
        // X - floor(X / C) * C, written with X the same on both sides.
        auto* m = b->rhs->as<BinaryExpr>();
        if (m && m->op == BinaryOp::Mul && !m->type->is_vector()) {
          for (int k = 0; k < 2; ++k) {
            const Expr& q = k == 0 ? *m->lhs : *m->rhs;
            const Expr& cst = k == 0 ? *m->rhs : *m->lhs;
            auto* lit = cst.as<FloatLit>();
            const Expr* qe = &q;
            while (const Expr* value = local_value(*qe)) qe = value;  // through locals
            auto* call = qe->as<CallExpr>();
            if (!lit || !call || call->target != CallTarget::Builtin ||
                static_cast<stdlib::Builtin>(call->builtin) != stdlib::Builtin::floor ||
                call->args.size() != 1)
              continue;
            auto* div = call->args[0]->as<BinaryExpr>();
            auto* c2 = div ? div->rhs->as<FloatLit>() : nullptr;
            if (!div || div->op != BinaryOp::Div || !c2 || c2->value != lit->value) continue;
            auto x = ranged(*div->lhs, 0, depth + 1);
            if (!x || x->text != l->text || !ranged_division(*call, depth + 1)) continue;
            const auto c = static_cast<long long>(lit->value);
            return Ranged{"(" + l->text + " % " + std::to_string(c) + ")", 0,
                          static_cast<double>(c - 1)};
          }
        }
      }
      auto r = side(*b->rhs);
      if (!r) return std::nullopt;
      Ranged out;
      const char* op = b->op == BinaryOp::Add ? " + " : b->op == BinaryOp::Sub ? " - " : " * ";
      out.text = "(" + l->text + op + r->text + ")";
      if (b->op == BinaryOp::Add) {
        out.lo = l->lo + r->lo, out.hi = l->hi + r->hi;
      } else if (b->op == BinaryOp::Sub) {
        out.lo = l->lo - r->hi, out.hi = l->hi - r->lo;
      } else {
        const double c[4] = {l->lo * r->lo, l->lo * r->hi, l->hi * r->lo, l->hi * r->hi};
        out.lo = std::min(std::min(c[0], c[1]), std::min(c[2], c[3]));
        out.hi = std::max(std::max(c[0], c[1]), std::max(c[2], c[3]));
      }
      return fits(out);
    }
    default:
      return std::nullopt;
  }
}

std::optional<ClPrinter::Ranged> ClPrinter::ranged_division(const CallExpr& c, int depth) {
  const auto id = static_cast<stdlib::Builtin>(c.builtin);
  const Expr* x = nullptr;
  const FloatLit* divisor = nullptr;
  if (id == stdlib::Builtin::floor && c.args.size() == 1) {
    auto* div = c.args[0]->as<BinaryExpr>();
    if (!div || div->op != BinaryOp::Div || div->type->is_vector()) return std::nullopt;
    x = div->lhs.get();
    divisor = div->rhs->as<FloatLit>();
  } else if (id == stdlib::Builtin::fmod && c.args.size() == 2 && !c.args[0]->type->is_vector()) {
    x = c.args[0].get();
    divisor = c.args[1]->as<FloatLit>();
  }
  if (!x || !divisor || !is_float_based(divisor->type) || x->type != divisor->type)
    return std::nullopt;
  const double d = divisor->value;
  if (!(d >= 1 && d < kExactLimit) || d != std::floor(d)) return std::nullopt;
  auto r = ranged(*x, 0, depth + 1);
  if (!r || r->lo < 0) return std::nullopt;
  const std::string c_text = std::to_string(static_cast<long long>(d));
  if (id == stdlib::Builtin::fmod) return Ranged{"(" + r->text + " % " + c_text + ")", 0, d - 1};
  return Ranged{"(" + r->text + " / " + c_text + ")", 0, std::floor(r->hi / d)};
}

std::optional<std::string> ClPrinter::exact_builtin(const CallExpr& c) {
  const auto id = static_cast<stdlib::Builtin>(c.builtin);
  if ((id != stdlib::Builtin::floor && id != stdlib::Builtin::fmod) || c.type->is_vector())
    return std::nullopt;
  for (const auto& a : c.args)
    if (!side_effect_free(*a)) return std::nullopt;
  auto r = ranged_division(c, 0);
  if (!r) return std::nullopt;
  return "((float)" + r->text + ")";
}

// A float counter's component as its shadow. Only under exact_positions:
// every gather extent is then at most 2^24, which the shadow's clamp needs
// (lang/analysis.hpp has the proof).
std::optional<std::string> ClPrinter::counter_text(const Expr& e, int comp) {
  if (!current_) return std::nullopt;
  switch (e.kind) {
    case ExprKind::Name: {
      const analysis::FloatCounter* c =
          comp == 0 ? counters().find(e.as<NameExpr>()->decl) : nullptr;
      if (!c) return std::nullopt;
      return "brook_ci_" + safe_name(c->var->name);
    }
    case ExprKind::Construct: {
      auto* c = e.as<ConstructExpr>();
      if (c->args.size() == 1 && !c->args[0]->type->is_vector())
        return counter_text(*c->args[0], 0);
      int at = 0;
      for (const auto& a : c->args) {
        int w = static_cast<int>(a->type->width());
        if (comp < at + w) return a->type->is_vector() ? std::nullopt : counter_text(*a, 0);
        at += w;
      }
      return std::nullopt;
    }
    case ExprKind::Swizzle: {
      auto* sw = e.as<SwizzleExpr>();
      if (comp >= sw->count) return std::nullopt;
      int from = sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0;
      return counter_text(*sw->base, from);
    }
    default:
      return std::nullopt;
  }
}

// An integral offset D added to (or taken from) an exact position P, 0 <= P
// < 2^24: an integral literal or conversion (the file's comment), or a float
// counter k with shadow s. While |s| <= 2^24, k == s and fl(P +- k) rounds
// P +- s, which is exact below 2^24 in magnitude and otherwise lies on the
// same side of [0, 2^24) (rounding is monotone, +-2^24 are floats), so both
// clamp alike. Once s passes 2^24 (counting up; down is symmetric), k >= 2^24:
// P + k and P + s are both >= 2^24 and clamp to the last element, P - k and
// P - s both < 0 and clamp to 0.
std::optional<std::string> ClPrinter::offset(const Expr& e, int comp) {
  if (auto c = counter_text(e, comp)) return c;
  return integral(e, comp, 0);
}

std::optional<std::string> ClPrinter::exact_index(const Expr& e, int comp) {
  if (!m_.exact_positions || !is_float_based(e.type)) return std::nullopt;
  if (auto c = counter_text(e, comp)) return c;
  // float2(k, here.y): each component on its own.
  if (auto* c = e.as<ConstructExpr>(); c && e.type->is_vector() &&
                                       c->args.size() == e.type->count &&
                                       !c->args[static_cast<size_t>(comp)]->type->is_vector())
    return exact_index(*c->args[static_cast<size_t>(comp)], 0);
  if (auto p = position(e, comp, 0)) return "((long)" + *p + ")";
  if (auto d = integral(e, comp, 0)) return d;
  if (auto r = ranged(e, comp, 0)) return "((long)" + r->text + ")";
  auto* b = e.as<BinaryExpr>();
  if (!b || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub)) return std::nullopt;
  // The offset beside a position: an integral value, or a float counter's
  // shadow (`img[here + float2(dx, dy)]`; see offset() for why it is exact).
  if (auto p = position(*b->lhs, comp, 0)) {
    if (auto d = offset(*b->rhs, comp))
      return "((long)" + *p + (b->op == BinaryOp::Add ? " + " : " - ") + *d + ")";
  }
  if (b->op == BinaryOp::Add) {
    if (auto p = position(*b->rhs, comp, 0)) {
      if (auto d = offset(*b->lhs, comp)) return "(" + *d + " + (long)" + *p + ")";
    }
  }
  return std::nullopt;
}

bool ClPrinter::narrow_exact(const Expr& e, int comp) {
  if (auto* c = e.as<ConstructExpr>(); c && e.type->is_vector() &&
                                       c->args.size() == e.type->count &&
                                       !c->args[static_cast<size_t>(comp)]->type->is_vector())
    return narrow_exact(*c->args[static_cast<size_t>(comp)], 0);
  // An integral() value of magnitude below 2^24.
  auto small = [&](const Expr& x) {
    auto b = integral_bound(x, comp, 0);
    return b && *b < kExactLimit && integral(x, comp, 0);
  };
  if (position(e, comp, 0) || small(e) || ranged(e, comp, 0)) return true;
  auto* b = e.as<BinaryExpr>();
  if (!b || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub)) return false;
  if (position(*b->lhs, comp, 0) && small(*b->rhs)) return true;
  return b->op == BinaryOp::Add && position(*b->rhs, comp, 0) && small(*b->lhs);
}

std::optional<std::string> ClPrinter::exact_int_cast(const CastExpr& e) {
  if (e.cast != CastKind::Convert || !e.type || e.type->is_vector() || !e.operand->type ||
      e.operand->type->is_vector())
    return std::nullopt;
  switch (e.type->kind) {
    case TypeKind::Int:
    case TypeKind::UInt:
    case TypeKind::Long:
    case TypeKind::ULong:
      break;
    default:
      return std::nullopt;
  }
  auto p = position(*e.operand, 0, 0);
  if (!p) return std::nullopt;
  return "((" + m_.type_name(e.type) + ")(" + *p + "))";
}

namespace {

const Expr* strip_casts(const Expr* x) {
  while (x->kind == ExprKind::Cast && x->as<CastExpr>()->cast != CastKind::Broadcast)
    x = x->as<CastExpr>()->operand.get();
  return x;
}

}  // namespace

// A `for` whose step moves a float counter by a constant toward the bound its
// condition compares it with (`k < B`, `k <= B` up; `>`, `>=` down), the
// counter written nowhere in the body. Every write of a counter is a reset or
// a step (builtin calls such as fabs(k) leave it alone; a kernel call with it
// disqualifies it).
std::optional<ClPrinter::SteppedCounter> ClPrinter::stepped_counter(const ForStmt& f) {
  if (!current_ || !f.cond || !f.step || !f.body) return std::nullopt;
  auto w = counters().write(*f.step);
  if (!w || w->second.reset || w->second.value == 0) return std::nullopt;
  SteppedCounter sc{w->first, w->second.value > 0, strip_casts(f.cond.get())->as<BinaryExpr>()};
  const BinaryExpr* cmp = sc.cmp;
  if (!cmp || !strip_casts(cmp->lhs.get())->as<NameExpr>() ||
      strip_casts(cmp->lhs.get())->as<NameExpr>()->decl != sc.counter->var)
    return std::nullopt;
  const bool toward = sc.up ? (cmp->op == BinaryOp::Lt || cmp->op == BinaryOp::Le)
                            : (cmp->op == BinaryOp::Gt || cmp->op == BinaryOp::Ge);
  if (!toward) return std::nullopt;
  bool written = false;
  walk(
      f.body.get(),
      [&](const Expr& x) {
        if (auto w2 = counters().write(x); w2 && w2->first == sc.counter) written = true;
      },
      [](const Stmt&) {});
  if (written) return std::nullopt;
  return sc;
}

// A float counter k stepped by the loop's step toward its bound (`k < B`,
// `k <= B` counting up; `>`, `>=` down) and written nowhere in its body moves
// by at least 1 each iteration, exactly while |k| < 2^24 (lang/analysis.hpp).
// Toward a literal bound |B| < 2^24 it passes B in finitely many iterations
// (the last step may round, but monotonely and to an integer beyond B), so it
// needs no poll, like a counted int loop. Toward any other bound it polls only
// once its shadow is past 2^24, where k may stop moving (k + 1 == k) and the
// loop may never end; before that it has run at most 2^25 iterations, fewer
// than a counted int loop may.
std::optional<std::string> ClPrinter::float_loop_poll(const ForStmt& f) {
  auto sc = stepped_counter(f);
  if (!sc) return std::nullopt;
  const analysis::FloatCounter* c = sc->counter;
  const bool up = sc->up;
  const Expr* b = strip_casts(sc->cmp->rhs.get());
  if (auto* u = b->as<UnaryExpr>(); u && u->op == UnaryOp::Neg)
    b = u->operand.get();  // |B| is what counts
  std::optional<double> bound;
  if (auto* fl = b->as<FloatLit>()) bound = fl->value;
  if (auto* il = b->as<IntLit>()) bound = static_cast<double>(il->value);
  if (bound && std::fabs(*bound) < kExactLimit) return std::string();
  std::string s = "brook_ci_" + safe_name(c->var->name);
  return up ? "(" + s + " >= 16777216L)" : "(" + s + " <= -16777216L)";
}

// A loop like sgemm's `for (k = 0.0f; k < n; k += 1.0f)` with n a float the
// loop never writes: while |n| < 2^24 the counter k equals its shadow ci
// exactly on every iteration that runs (k starts integral, moves by an
// integral step and is written nowhere else; every value below the bound is
// below 2^24), and `k < n` holds exactly when `ci < ceil(n)` (ci is an
// integer; the first value past the bound may round, but monotonely, so the
// float test fails there too). So the printer runs the loop on the shadow
// alone, a counted loop PoCL can reason about, and keeps the float loop for
// bounds past 2^24, infinities and NaN.
std::optional<ClPrinter::IntegerBound> ClPrinter::float_loop_integer_bound(const ForStmt& f) {
  auto sc = stepped_counter(f);
  if (!sc || sc->cmp != f.cond.get()) return std::nullopt;
  const analysis::FloatCounter* c = sc->counter;
  const BinaryExpr* cmp = sc->cmp;
  if (!cmp->lhs->type || cmp->lhs->type->kind != TypeKind::Float || !cmp->rhs->type ||
      cmp->rhs->type->kind != TypeKind::Float)
    return std::nullopt;  // a float comparison of the counter itself with a float
  auto* b = cmp->rhs->as<NameExpr>();
  if (!cmp->lhs->as<NameExpr>() || !b || !b->decl) return std::nullopt;
  // The bound is not written either, and the body holds no loop (each
  // version prints the body once more).
  bool nested = false;
  walk(
      f.body.get(), [](const Expr&) {},
      [&](const Stmt& s) {
        nested = nested || s.kind == StmtKind::For || s.kind == StmtKind::While ||
                 s.kind == StmtKind::Do;
      });
  if (nested || b->decl == c->var || may_assign(f.body.get(), *b->decl)) return std::nullopt;
  IntegerBound r;
  const std::string s = "brook_ci_" + safe_name(c->var->name);
  r.bound = "brook_cb_" + safe_name(c->var->name);
  // Strictly below 2^24: then every value the counter takes up to and
  // including the first one past the bound is exact or rounds past it.
  r.fits = "(fabs(" + expr(*cmp->rhs) + ") < 16777216.0f)";
  const bool round_up = cmp->op == BinaryOp::Lt || cmp->op == BinaryOp::Ge;
  r.bound += std::string(" = (long)") + (round_up ? "ceil(" : "floor(") + expr(*cmp->rhs) + ")";
  const char* op = cmp->op == BinaryOp::Lt   ? " < "
                   : cmp->op == BinaryOp::Le ? " <= "
                   : cmp->op == BinaryOp::Gt ? " > "
                                             : " >= ";
  r.cond = s + op + "brook_cb_" + safe_name(c->var->name);
  return r;
}

// A float counter k that starts at S and steps by c toward a bound B (S, c, B
// integral constants, |S|, |B| <= 2^24) equals its shadow on every iteration
// (lang/analysis.hpp), so the body runs as often as the integer loop from S
// by c to B would (lang/counted_loop.hpp counts both). Only a hint to the
// compiler hangs on the count.
std::optional<int64_t> ClPrinter::constant_trip_count(const ForStmt& f) {
  if (auto c = counted_loop(f); c && c->range) return c->range->hi - c->range->lo + 1;
  if (!stepped_counter(f)) return std::nullopt;
  std::optional<analysis::CountedFor> c = analysis::counted_for(f);
  return c ? c->trips() : std::nullopt;
}

}  // namespace brook::opencl
