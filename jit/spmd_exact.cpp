// Exact gather positions (MapShape::exact_positions). indexof gives float
// positions, and BrookGPU kernels gather at them plus an integral offset:
// `img[here + float2(dx, dy)]` with `here = indexof(result).xy` and dx, dy
// float counters. When every domain and stream view extent is at most 2^24
// (decided per launch, part of the compiled shape) those floats are exact
// integers, and the gather indexes by the integer position the float was
// converted from, plus the offset as an integer. Each rewrite gives the
// float rule's result (LANGUAGE.md §5: floor(f + 0.25), then the clamp),
// for gathers whose extents are at most 2^24 + 1 (ArgShape::counter_exact):
//  - a position P alone: 0 <= P < 2^24 is an exact float, floor(P + 0.25) == P.
//  - P +- D, D an integral literal, |D| < 2^24: P +- D is an integer below
//    2^25 in magnitude; fl(P +- D) is it when below 2^24 in magnitude and
//    otherwise lies on the same side of [0, 2^24] (rounding is monotone and
//    +-2^24 are floats), so both clamp to the same element.
//  - P +- k, k a float counter with shadow s (lang/analysis.hpp): while
//    |s| <= 2^24, k == s and the previous case applies. Counting up past
//    2^24, k >= 2^24: P + k and P + s both clamp to the last element, P - k
//    and P - s (P < 2^24) both to 0; counting down symmetrically.
// The lanes' column plus a uniform offset is then consecutive by
// construction: the gather's fast path tests only its range (consecutive_).
// Same rules as the OpenCL printer's (backends/opencl/cl_exact.cpp).
//
// The int idiom converts the positions first: `int x = (int)here.x;` then
// `img[y + dy][x + dx]`. (int)P of such a P is P itself (an exact integer
// below 2^24, which int, uint, long and ulong all hold), so the conversion
// is the integer P came from, and an integer gather index that is P plus a
// uniform integer d is the lanes' column plus d: lane l's value wraps as
// the first lane's plus l does, and once the first lane's value u is known
// to lie in [0, extent - W] none of them wraps, so the lanes are
// consecutive by construction here too.
#include "jit/spmd_impl.hpp"
#include "lang/kernel_walk.hpp"

namespace brook::jit::spmd {

using llvm::Value;

namespace {

constexpr double kExactLimit = 16777216.0;  // 2^24

bool float_based(const Type* t) {
  return t && t->scalar_of() && t->scalar_of()->kind == TypeKind::Float;
}

// Integer types that hold every integer below 2^24.
bool wide_integer(const Type* t) {
  const Type* s = t ? t->scalar_of() : nullptr;
  if (!s) return false;
  return s->kind == TypeKind::Int || s->kind == TypeKind::UInt || s->kind == TypeKind::Long ||
         s->kind == TypeKind::ULong;
}

}  // namespace

bool Gen::never_assigned(const ast::Decl* d) {
  auto it = never_assigned_.find(d);
  if (it != never_assigned_.end()) return it->second;
  const ast::FuncDecl& def = kernel.defined();
  // Conservative (lang/kernel_walk.hpp): any assignment, ++/--, & or call argument rooted at d.
  const bool never = def.body && !analysis::may_assign(def.body.get(), *d);
  never_assigned_[d] = never;
  return never;
}

// An exact position: a component of indexof of a stream argument (its i64
// view position), through swizzles and never-assigned locals initialised
// with one.
Value* Gen::position(const ast::Expr& e, int comp, int depth) {
  if (depth > 8 || !float_based(e.type)) return nullptr;
  switch (e.kind) {
    case ast::ExprKind::Indexof: {
      const auto* op = e.as<ast::IndexofExpr>()->operand.get();
      const auto* n = op ? op->as<ast::NameExpr>() : nullptr;
      auto it = n ? indexof_ids_.find(n->decl) : indexof_ids_.end();
      if (it == indexof_ids_.end() || comp < 0 || comp >= 4) return nullptr;
      Value* id = it->second[static_cast<size_t>(comp)];
      return id ? id : cg.i64(0);
    }
    case ast::ExprKind::Swizzle: {
      const auto* sw = e.as<ast::SwizzleExpr>();
      if (comp >= sw->count) return nullptr;
      int from = sw->base->type->is_vector() ? sw->comps[static_cast<size_t>(comp)] & 3 : 0;
      return position(*sw->base, from, depth + 1);
    }
    case ast::ExprKind::Name: {
      // Only the kernel's own locals: never_assigned walks its body.
      if (!calls.empty()) return nullptr;
      const auto* v =
          e.as<ast::NameExpr>()->decl ? e.as<ast::NameExpr>()->decl->as<ast::VarDecl>() : nullptr;
      if (!v || v->is_global || v->is_static || v->is_stream || !v->init ||
          v->init->as<ast::InitListExpr>())
        return nullptr;
      if (v->type != v->init->type || !never_assigned(v)) return nullptr;
      return position(*v->init, comp, depth + 1);
    }
    default:
      return nullptr;
  }
}

// An integral float constant below 2^24 in magnitude: a literal, a vector
// of them, a broadcast or negation of one.
Value* Gen::integral(const ast::Expr& e, int comp, int depth) {
  if (depth > 8 || !float_based(e.type)) return nullptr;
  switch (e.kind) {
    case ast::ExprKind::FloatLit: {
      const double v = e.as<ast::FloatLit>()->value;
      if (!(v > -kExactLimit && v < kExactLimit) ||
          v != static_cast<double>(static_cast<int64_t>(v)))
        return nullptr;
      return cg.i64(static_cast<int64_t>(v));
    }
    case ast::ExprKind::Unary: {
      const auto* u = e.as<ast::UnaryExpr>();
      if (u->op != ast::UnaryOp::Neg && u->op != ast::UnaryOp::Plus) return nullptr;
      Value* v = integral(*u->operand, comp, depth + 1);
      if (!v || u->op == ast::UnaryOp::Plus) return v;
      return b.CreateNeg(v);
    }
    case ast::ExprKind::Cast: {
      const auto* c = e.as<ast::CastExpr>();
      if (c->cast == ast::CastKind::Broadcast) return integral(*c->operand, 0, depth + 1);
      return nullptr;
    }
    case ast::ExprKind::Construct: {
      const auto* c = e.as<ast::ConstructExpr>();
      if (!e.type->is_vector())
        return c->args.size() == 1 ? integral(*c->args[0], 0, depth + 1) : nullptr;
      if (c->args.size() != e.type->count) return nullptr;
      const ast::Expr& arg = *c->args[static_cast<size_t>(comp)];
      return arg.type->is_vector() ? nullptr : integral(arg, 0, depth + 1);
    }
    default:
      return nullptr;
  }
}

// An integral offset beside a position: a float counter's shadow or a constant.
Value* Gen::offset(const ast::Expr& e, int comp) {
  if (Value* s = counter_index(e, comp)) return s;
  return integral(e, comp, 0);
}

Value* Gen::exact_index(const ast::Expr& e, int comp) {
  if (!float_based(e.type)) return nullptr;
  if (Value* s = counter_index(e, comp)) return s;
  if (const auto* c = e.as<ast::ConstructExpr>();
      c && e.type->is_vector() && c->args.size() == e.type->count &&
      !c->args[static_cast<size_t>(comp)]->type->is_vector())
    return exact_index(*c->args[static_cast<size_t>(comp)], 0);
  if (Value* p = position(e, comp, 0)) {
    if (p == lanes) consecutive_[p] = gang_start;
    return p;
  }
  if (Value* d = integral(e, comp, 0)) return d;
  const auto* bin = e.as<ast::BinaryExpr>();
  if (!bin || (bin->op != ast::BinaryOp::Add && bin->op != ast::BinaryOp::Sub)) return nullptr;
  const bool add = bin->op == ast::BinaryOp::Add;
  Value* p = position(*bin->lhs, comp, 0);
  Value* d = p ? offset(*bin->rhs, comp) : nullptr;
  if (!d && add) {
    p = position(*bin->rhs, comp, 0);
    d = p ? offset(*bin->lhs, comp) : nullptr;
  }
  if (!p || !d) return nullptr;
  // The offset must be one value for every lane to keep the lanes' run.
  Value* dd = d;
  Value* pp = p;
  unify(pp, dd);
  Value* r = add ? b.CreateAdd(pp, dd) : b.CreateSub(pp, dd);
  if (p == lanes && !is_lane(d))
    consecutive_[r] = add ? b.CreateAdd(gang_start, d) : b.CreateSub(gang_start, d);
  return r;
}

std::optional<SV> Gen::exact_cast(const ast::CastExpr& c) {
  const ast::Expr& from = *c.operand;
  if (!shape.exact_positions || c.cast != ast::CastKind::Convert || !wide_integer(c.type) ||
      !float_based(from.type) || c.type->width() != from.type->width())
    return std::nullopt;
  SV out{{}, check_type(c.type)};
  for (uint32_t k = 0; k < c.type->width(); ++k) {
    Value* p = position(from, static_cast<int>(k), 0);
    if (!p) return std::nullopt;
    out.c.push_back(b.CreateTrunc(p, shaped(reg(c.type->scalar_of()), p)));
  }
  return out;
}

Value* Gen::int_position(const ast::Expr& e, int depth) {
  if (depth > 8 || !wide_integer(e.type) || e.type->is_vector()) return nullptr;
  if (const auto* c = e.as<ast::CastExpr>()) {
    if (!shape.exact_positions || c->cast != ast::CastKind::Convert ||
        !float_based(c->operand->type) || c->operand->type->is_vector())
      return nullptr;
    return position(*c->operand, 0, 0);
  }
  const auto* n = e.as<ast::NameExpr>();
  if (!n || !calls.empty()) return nullptr;  // only the kernel's own locals
  const auto* v = n->decl ? n->decl->as<ast::VarDecl>() : nullptr;
  if (!v || v->is_global || v->is_static || v->is_stream || !v->init ||
      v->init->as<ast::InitListExpr>())
    return nullptr;
  if (v->type != v->init->type || !never_assigned(v)) return nullptr;
  return int_position(*v->init, depth + 1);
}

Value* Gen::exact_int_index(const ast::Expr& e, int comp) {
  if (!shape.exact_positions || !e.type || !wide_integer(e.type)) return nullptr;
  if (e.type->is_vector()) {
    const auto* c = e.as<ast::ConstructExpr>();
    if (!c || c->args.size() != e.type->count) return nullptr;
    const ast::Expr& arg = *c->args[static_cast<size_t>(comp)];
    return arg.type == e.type->scalar_of() ? exact_int_index(arg, 0) : nullptr;
  }
  llvm::Type* it = reg(e.type);
  if (Value* p = int_position(e, 0)) {
    Value* v = b.CreateTrunc(p, shaped(it, p));
    if (p == lanes) consecutive_[v] = gang_start;
    return v;
  }
  const auto* bin = e.as<ast::BinaryExpr>();
  if (!bin || (bin->op != ast::BinaryOp::Add && bin->op != ast::BinaryOp::Sub) ||
      bin->lhs->type != e.type || bin->rhs->type != e.type)
    return nullptr;
  const bool add = bin->op == ast::BinaryOp::Add;
  const ast::Expr* other = bin->rhs.get();
  Value* p = int_position(*bin->lhs, 0);
  if (!p && add) {
    p = int_position(*bin->rhs, 0);
    other = bin->lhs.get();
  }
  if (!p) return nullptr;
  SV d = rvalue(*other);
  if (d.c.size() != 1 || is_lane(d.c[0])) return nullptr;  // one value for every lane
  Value* x = b.CreateTrunc(p, shaped(it, p));
  Value* y = d.c[0];
  const bool p_left = other == bin->rhs.get();
  Value* l = p_left ? x : y;
  Value* r = p_left ? y : x;
  unify(l, r);
  Value* v = cg.binary(bin->op, l, r, e.type, e.type);
  if (p == lanes) {
    // The first lane's value in i64, not wrapped: where consecutive_column
    // finds it in range (0 <= u, u + W <= the extent, capped to what the
    // index type holds) the exact sums fit the type, so no lane wraps and
    // each lane is u + l; out of range the lanes path computes the wrapped
    // values. Computing u wrapped and widening it, as before, left a
    // sign-extension pair per tap that LLVM cannot fold (int idiom blur3x3:
    // 1.73-1.80 ms a launch on one thread, the float idiom 1.45).
    Value* y64 =
        e.type->is_signed() ? b.CreateSExt(y, b.getInt64Ty()) : b.CreateZExt(y, b.getInt64Ty());
    consecutive_[v] = add ? b.CreateAdd(gang_start, y64) : b.CreateSub(gang_start, y64);
  }
  return v;
}

}  // namespace brook::jit::spmd
