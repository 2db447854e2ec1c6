// Conversions: C's integer promotions and usual arithmetic conversions
// (extended per component to vectors), implicit conversions made explicit as
// CastExprs, array decay, and checks that a value is usable where it appears.
#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

int int_rank(TypeKind k) {
  return (k == TypeKind::Long || k == TypeKind::ULong) ? 2 : 1;
}

}  // namespace

const Type* Sema::Impl::promote(const Type* t) const {
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Char:
    case TypeKind::UChar:
    case TypeKind::Short:
    case TypeKind::UShort:
      return types.int_type();
    default:
      return t;
  }
}

const Type* Sema::Impl::int_vector(uint32_t width) const {
  if (width <= 1) return types.int_type();
  return types.vector(types.int_type(), width);
}

const Type* Sema::Impl::common_arith(const Type* a, const Type* b) const {
  auto scalar_common = [&](const Type* x, const Type* y) -> const Type* {
    if (x->kind == TypeKind::Double || y->kind == TypeKind::Double) return types.double_type();
    if (x->kind == TypeKind::Float || y->kind == TypeKind::Float) return types.float_type();
    x = promote(x);
    y = promote(y);
    if (x == y) return x;
    bool xs = x->is_signed(), ys = y->is_signed();
    int xr = int_rank(x->kind), yr = int_rank(y->kind);
    if (xs == ys) return xr >= yr ? x : y;
    const Type* u = xs ? y : x;
    const Type* s = xs ? x : y;
    if (int_rank(u->kind) >= int_rank(s->kind)) return u;
    return s;  // long holds every unsigned int
  };
  if (!a->is_arithmetic() || !b->is_arithmetic()) return nullptr;
  if (a->is_vector() && b->is_vector()) {
    if (a->count != b->count) return nullptr;
    if (a->elem == b->elem) return a;
    return types.vector(scalar_common(a->elem, b->elem), a->count);
  }
  if (a->is_vector() || b->is_vector()) {
    // A scalar adopts the vector's component type (so `v * 2.0` stays float4),
    // except that a floating scalar makes an integer vector floating.
    const Type* v = a->is_vector() ? a : b;
    const Type* s = a->is_vector() ? b : a;
    if (v->elem->is_integer() && s->is_floating()) return types.vector(s, v->count);
    return v;
  }
  return scalar_common(a, b);
}

bool Sema::Impl::is_null_constant(const Expr& e) const {
  if (!e.type || !e.type->is_integer()) return false;
  auto v = fold(e);
  return v && *v == 0;
}

void Sema::Impl::cast_to(ExprPtr& e, const Type* to, CastKind kind) {
  auto c = std::make_unique<CastExpr>(e->loc);
  c->cast = kind;
  c->implicit = true;
  c->type = to;
  c->operand = std::move(e);
  e = std::move(c);
}

void Sema::Impl::narrow(ExprPtr& e, uint32_t count) {
  const Type* from = e->type;
  auto sw = std::make_unique<SwizzleExpr>(e->loc);
  sw->spelling = std::string("xyzw").substr(0, count);
  for (uint32_t i = 0; i < count; ++i) sw->comps[i] = static_cast<uint8_t>(i);
  sw->count = static_cast<uint8_t>(count);
  sw->type = count == 1 ? from->elem : types.vector(from->elem, count);
  sw->base = std::move(e);
  e = std::move(sw);
}

void Sema::Impl::arith_convert(ExprPtr& e, const Type* to) {
  const Type* from = e->type;
  if (from == to || from->is_error() || to->is_error()) return;
  if (from->is_vector() && to->is_arithmetic() && to->width() < from->count) {
    narrow(e, to->width());
    from = e->type;
    if (from == to) return;
  }
  if (to->is_vector() && from->is_scalar()) {
    if (from != to->elem) cast_to(e, to->elem, CastKind::Convert);
    cast_to(e, to, CastKind::Broadcast);
  } else if (to->kind == TypeKind::Bool && from->is_scalar()) {
    cast_to(e, to, CastKind::ToBool);
  } else {
    cast_to(e, to, CastKind::Convert);
  }
}

void Sema::Impl::decay(ExprPtr& e) {
  if (e->type && e->type->is_array())
    cast_to(e, types.pointer(e->type->elem), CastKind::ArrayDecay);
  else if (e->type && e->type->is_function())
    cast_to(e, types.pointer(e->type), CastKind::PointerCast);  // a function's address
}

bool Sema::Impl::convertible(const Expr& e, const Type* to) const {
  const Type* from = e.type;
  if (!from || from == to) return true;
  if (from->is_error() || to->is_error()) return true;
  if (from->is_stream() || to->is_stream()) return false;
  if (to->kind == TypeKind::Bool && (from->is_scalar() || from->is_pointer())) return true;
  if (from->is_scalar() && to->is_scalar()) return true;
  if (from->is_scalar() && to->is_vector()) return true;
  // A larger vector narrows to a smaller one (convert() warns); in a kernel
  // also to a scalar, its first component, as Cg (BrookGPU's kernels) does.
  if (from->is_vector() && to->is_vector()) return from->count >= to->count;
  if (from->is_vector() && to->is_scalar() && to->kind != TypeKind::Bool && in_kernel())
    return true;
  if (to->is_pointer()) {
    if (from->is_pointer())
      return from->elem == to->elem || from->elem->is_void() || to->elem->is_void() ||
             functions_compatible(from->elem, to->elem);
    return is_null_constant(e);
  }
  return false;
}

namespace {
// "HEAD'from'JOIN'to' context". Built step by step: GCC 12 at -O3 sees a
// false -Wrestrict in `"literal" + std::string` here.
std::string conversion_text(std::string_view head, const Type* from, std::string_view join,
                            const Type* to, std::string_view context) {
  std::string msg(head);
  msg += quoted(from);
  msg += join;
  msg += quoted(to);
  if (!context.empty()) {
    msg += ' ';
    msg += context;
  }
  return msg;
}
}  // namespace

// The messages are built step by step: GCC 12 at -O3 sees a false -Wrestrict
// in `"literal" + std::string` here.
bool Sema::Impl::convert(ExprPtr& e, const Type* to, std::string_view context) {
  const Type* from = e->type;
  if (!from || from->is_error() || to->is_error()) return false;
  if (from == to) return true;
  if (!convertible(*e, to) && from->is_pointer() && to->is_pointer() && !in_kernel() &&
      !from->elem->is_function() && !to->elem->is_function() && !from->elem->is_stream() &&
      !to->elem->is_stream()) {
    // Between pointers to different object types C requires a cast, but gcc
    // only warns (-Wincompatible-pointer-types) and real programs rely on it
    // (an SDK header returning float* for a float4 matrix). Host memory is
    // checked in bytes, so the access stays safe.
    diags.warning(e->loc, conversion_text("incompatible pointer types: ", from, " converted to ",
                                          to, context));
    cast_to(e, to, CastKind::PointerCast);
    return true;
  }
  if (!convertible(*e, to)) {
    error(e->loc, conversion_text("cannot convert ", from, " to ", to, context));
    return false;
  }
  if (from->is_vector() && to->is_vector() && from->count > to->count) {
    uint32_t dropped = from->count - to->count;
    std::string msg = "implicit conversion from ";
    msg += quoted(from);
    msg += " to ";
    msg += quoted(to);
    msg += " drops its last ";
    msg += std::to_string(dropped);
    msg += dropped == 1 ? " component" : " components";
    diags.warning(e->loc, msg);
  }
  if (from->is_vector() && to->is_scalar() && to->kind != TypeKind::Bool) {
    std::string msg = "implicit conversion from ";
    msg += quoted(from);
    msg += " to ";
    msg += quoted(to);
    msg += " keeps only its first component";
    diags.warning(e->loc, msg);
    auto x = std::make_unique<SwizzleExpr>(e->loc);
    x->comps[0] = 0;
    x->count = 1;
    x->spelling = "x";
    x->type = from->elem;
    x->base = std::move(e);
    e = std::move(x);
    from = e->type;
    if (from == to) return true;
  }
  if (to->is_pointer())
    cast_to(e, to, CastKind::PointerCast);
  else if (to->kind == TypeKind::Bool && from->is_pointer())
    cast_to(e, to, CastKind::ToBool);
  else
    arith_convert(e, to);
  return true;
}

bool Sema::Impl::reject_stream(const Expr& e, std::string_view what) {
  if (!e.type || !e.type->is_stream()) return false;
  error(e.loc, "streams cannot be " + std::string(what));
  return true;
}

const Type* Sema::Impl::check_value(ExprPtr& e, std::string_view what) {
  const Type* t = check_expr(e);
  if (t->is_error()) return t;
  if (t->is_stream()) {
    reject_stream(*e, what);
    return err();
  }
  if (t->is_array()) {
    if (in_kernel() && e->kind != ExprKind::StringLit) {
      error(e->loc, "arrays cannot be used as values in a kernel; index them");
      return err();
    }
    decay(e);
  }
  if (t->is_function()) decay(e);
  return e->type;
}

}  // namespace brook
