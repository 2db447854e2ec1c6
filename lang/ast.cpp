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

}  // namespace brook::ast
