// Integer constant folding over checked expressions: array sizes, case labels,
// enum values, stream-operator constants.
#include <cmath>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

// Wraps a value to what a C object of type `t` holds.
int64_t wrap(int64_t v, const Type* t) {
  if (!t || !t->is_integer()) return v;
  switch (t->kind) {
    case TypeKind::Bool:
      return v != 0;
    case TypeKind::Char:
      return static_cast<int8_t>(v);
    case TypeKind::UChar:
      return static_cast<uint8_t>(v);
    case TypeKind::Short:
      return static_cast<int16_t>(v);
    case TypeKind::UShort:
      return static_cast<uint16_t>(v);
    case TypeKind::Int:
      return static_cast<int32_t>(v);
    case TypeKind::UInt:
      return static_cast<uint32_t>(v);
    default:
      return v;
  }
}

std::optional<double> fold_float(const Expr& e) {
  if (auto* f = e.as<FloatLit>()) return f->value;
  if (auto* u = e.as<UnaryExpr>()) {
    auto v = fold_float(*u->operand);
    if (!v) return std::nullopt;
    if (u->op == UnaryOp::Neg) return -*v;
    if (u->op == UnaryOp::Plus) return v;
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> Sema::Impl::fold(const Expr& e) const {
  if (!e.type || e.type->is_error()) return std::nullopt;
  switch (e.kind) {
    case ExprKind::IntLit:
      return wrap(static_cast<int64_t>(e.as<IntLit>()->value), e.type);
    case ExprKind::BoolLit:
      return e.as<BoolLit>()->value ? 1 : 0;
    case ExprKind::Name: {
      auto* n = e.as<NameExpr>();
      if (auto* c = n->decl ? n->decl->as<EnumConstDecl>() : nullptr) return c->value;
      return std::nullopt;
    }
    case ExprKind::Sizeof:
      return static_cast<int64_t>(e.as<SizeofExpr>()->value);
    case ExprKind::Cast: {
      auto* c = e.as<CastExpr>();
      if (!e.type->is_integer()) return std::nullopt;
      if (c->operand->type && c->operand->type->is_floating()) {
        auto f = fold_float(*c->operand);
        if (!f || !std::isfinite(*f) || std::fabs(*f) > 9.2e18) return std::nullopt;
        return wrap(static_cast<int64_t>(*f), e.type);
      }
      auto v = fold(*c->operand);
      if (!v) return std::nullopt;
      return wrap(*v, e.type);
    }
    case ExprKind::Unary: {
      auto* u = e.as<UnaryExpr>();
      auto v = fold(*u->operand);
      if (!v) return std::nullopt;
      switch (u->op) {
        case UnaryOp::Plus:
          return wrap(*v, e.type);
        case UnaryOp::Neg:
          return wrap(static_cast<int64_t>(0ull - static_cast<uint64_t>(*v)), e.type);
        case UnaryOp::Not:
          return *v == 0 ? 1 : 0;
        case UnaryOp::BitNot:
          return wrap(~*v, e.type);
        default:
          return std::nullopt;
      }
    }
    case ExprKind::Binary: {
      auto* b = e.as<BinaryExpr>();
      auto l = fold(*b->lhs);
      if (!l) return std::nullopt;
      if (b->op == BinaryOp::LogAnd && *l == 0) return 0;
      if (b->op == BinaryOp::LogOr && *l != 0) return 1;
      auto r = fold(*b->rhs);
      if (!r) return std::nullopt;
      bool is_unsigned = b->lhs->type && b->lhs->type->is_integer() && !b->lhs->type->is_signed();
      uint64_t ul = static_cast<uint64_t>(*l), ur = static_cast<uint64_t>(*r);
      switch (b->op) {
        case BinaryOp::Mul:
          return wrap(static_cast<int64_t>(ul * ur), e.type);
        case BinaryOp::Add:
          return wrap(static_cast<int64_t>(ul + ur), e.type);
        case BinaryOp::Sub:
          return wrap(static_cast<int64_t>(ul - ur), e.type);
        case BinaryOp::Div:
        case BinaryOp::Mod:
          if (*r == 0) return std::nullopt;
          if (is_unsigned) {
            return wrap(static_cast<int64_t>(b->op == BinaryOp::Div ? ul / ur : ul % ur), e.type);
          }
          if (*r == -1)
            return wrap(b->op == BinaryOp::Div ? static_cast<int64_t>(0ull - ul) : 0, e.type);
          return wrap(b->op == BinaryOp::Div ? *l / *r : *l % *r, e.type);
        case BinaryOp::Shl:
          if (*r < 0 || *r >= 64) return std::nullopt;
          return wrap(static_cast<int64_t>(ul << ur), e.type);
        case BinaryOp::Shr:
          if (*r < 0 || *r >= 64) return std::nullopt;
          return wrap(is_unsigned ? static_cast<int64_t>(ul >> ur) : (*l >> *r), e.type);
        case BinaryOp::Lt:
          return is_unsigned ? ul < ur : *l < *r;
        case BinaryOp::Gt:
          return is_unsigned ? ul > ur : *l > *r;
        case BinaryOp::Le:
          return is_unsigned ? ul <= ur : *l <= *r;
        case BinaryOp::Ge:
          return is_unsigned ? ul >= ur : *l >= *r;
        case BinaryOp::Eq:
          return *l == *r;
        case BinaryOp::Ne:
          return *l != *r;
        case BinaryOp::BitAnd:
          return wrap(*l & *r, e.type);
        case BinaryOp::BitXor:
          return wrap(*l ^ *r, e.type);
        case BinaryOp::BitOr:
          return wrap(*l | *r, e.type);
        case BinaryOp::LogAnd:
          return *r != 0;
        case BinaryOp::LogOr:
          return *r != 0;
      }
      return std::nullopt;
    }
    case ExprKind::Conditional: {
      auto* c = e.as<ConditionalExpr>();
      auto cond = fold(*c->cond);
      if (!cond) return std::nullopt;
      if (*cond && !c->then_expr) return cond;  // a ?: b
      return fold(*cond ? *c->then_expr : *c->else_expr);
    }
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> Sema::Impl::require_constant(const Expr& e, std::string_view what) {
  auto v = fold(e);
  if (!v) error(e.loc, std::string(what) + " must be an integer constant");
  return v;
}

}  // namespace brook
