#include "lang/ast.hpp"

namespace brook::ast {

const char* spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Shl: return "<<";
    case BinaryOp::Shr: return ">>";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::LogAnd: return "&&";
    case BinaryOp::LogOr: return "||";
  }
  return "?";
}

const FieldDecl* bitfield_member(const Expr& e) {
  auto* m = e.as<MemberExpr>();
  if (!m || m->field_index < 0 || !m->base || !m->base->type) return nullptr;
  const Type* st = m->arrow ? m->base->type->elem : m->base->type;
  if (!st || !st->is_struct() || !st->decl) return nullptr;
  const auto& fields = st->decl->fields;
  if (static_cast<size_t>(m->field_index) >= fields.size()) return nullptr;
  const FieldDecl& f = fields[static_cast<size_t>(m->field_index)];
  return f.is_bitfield() ? &f : nullptr;
}

}  // namespace brook::ast
