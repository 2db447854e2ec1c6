// `brook emit ast`: one line per node, children indented by two spaces.
#include "lang/ast_dump.hpp"

#include <cstdio>

namespace brook {

using namespace ast;

namespace {

const char* unary_spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Plus: return "+";
    case UnaryOp::Neg: return "-";
    case UnaryOp::Not: return "!";
    case UnaryOp::BitNot: return "~";
    case UnaryOp::Deref: return "*";
    case UnaryOp::AddrOf: return "&";
    case UnaryOp::PreInc: return "pre++";
    case UnaryOp::PreDec: return "pre--";
    case UnaryOp::PostInc: return "post++";
    case UnaryOp::PostDec: return "post--";
  }
  return "?";
}

const char* cast_kind_name(CastKind k) {
  switch (k) {
    case CastKind::Convert: return "convert";
    case CastKind::Broadcast: return "broadcast";
    case CastKind::ArrayDecay: return "array-decay";
    case CastKind::PointerCast: return "pointer";
    case CastKind::ToBool: return "to-bool";
    case CastKind::ToVoid: return "to-void";
  }
  return "?";
}

const char* param_kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Value: return "value";
    case ParamKind::Input: return "in";
    case ParamKind::Iter: return "iter";
    case ParamKind::Out: return "out";
    case ParamKind::Const: return "const";
    case ParamKind::Gather: return "gather";
    case ParamKind::Reduce: return "reduce";
  }
  return "?";
}

const char* decl_kind_name(DeclKind k) {
  switch (k) {
    case DeclKind::Var: return "var";
    case DeclKind::Param: return "param";
    case DeclKind::Func: return "func";
    case DeclKind::Struct: return "struct";
    case DeclKind::Typedef: return "typedef";
    case DeclKind::Enum: return "enum";
    case DeclKind::EnumConst: return "enumconst";
  }
  return "?";
}

const char* call_target_name(CallTarget t) {
  switch (t) {
    case CallTarget::Unresolved: return "";
    case CallTarget::Function: return "function";
    case CallTarget::Kernel: return "kernel";
    case CallTarget::Reduce: return "reduce";
    case CallTarget::Builtin: return "builtin";
    case CallTarget::Pointer: return "pointer";
  }
  return "";
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string dim_spelling(const Expr* dim) {
  if (!dim) return "[]";
  if (const auto* lit = dim->as<IntLit>()) {
    std::string out = "[";
    out += std::to_string(lit->value);
    return out += "]";
  }
  return "[expr]";
}

// The type as written: `const float4*[10]`, `struct P`, `T`.
std::string syntax_spelling(const TypeSyntax& ts) {
  std::string out = ts.is_const ? "const " : "";
  switch (ts.base) {
    case TypeSyntax::Base::Builtin: out += ts.builtin ? ts.builtin->name() : "?"; break;
    case TypeSyntax::Base::Named: out += ts.name; break;
    case TypeSyntax::Base::Struct:
      out += (ts.is_union ? "union " : "struct ") + (ts.name.empty() ? "<anon>" : ts.name);
      break;
    case TypeSyntax::Base::Enum: out += "enum " + (ts.name.empty() ? "<anon>" : ts.name); break;
    case TypeSyntax::Base::Typeof:
      out += ts.typeof_of && ts.typeof_of->type
                 ? "typeof(" + syntax_spelling(*ts.typeof_of->type) + ")"
                 : "typeof(...)";
      break;
  }
  out.append(static_cast<size_t>(ts.pointer_depth), '*');
  if (ts.paren) {
    // `int (*[4])(int, int)`, `float (*)[4]`.
    out += " (" + std::string(static_cast<size_t>(ts.paren->pointer_depth), '*');
    for (const ExprPtr& d : ts.array_dims) out += dim_spelling(d.get());
    out += ")";
    if (ts.paren->is_function) {
      out += "(";
      for (size_t i = 0; i < ts.paren->params.size(); ++i)
        out += (i ? ", " : "") + syntax_spelling(ts.paren->params[i]);
      if (ts.paren->variadic) out += ts.paren->params.empty() ? "..." : ", ...";
      out += ")";
    }
    for (const ExprPtr& d : ts.paren->suffix_dims) out += dim_spelling(d.get());
    return out;
  }
  for (const ExprPtr& d : ts.array_dims) out += dim_spelling(d.get());
  return out;
}

// Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on
// `"@" + std::to_string(...)` (its bug 105329).
std::string loc_spelling(SourceLoc loc) {
  std::string out = "@";
  out += std::to_string(loc.line);
  out += ':';
  out += std::to_string(loc.col);
  return out;
}

class Dumper {
 public:
  std::string out;

  void line(int depth, const std::string& text, const Type* type, SourceLoc loc) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    if (type) out += " : " + type->name();
    out += " " + loc_spelling(loc) + "\n";
  }
  void label(int depth, const std::string& text) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text + "\n";
  }
  void opt_expr(int depth, const char* what, const Expr* e) {
    if (e) expr(depth, *e);
    else label(depth, std::string("<no ") + what + ">");
  }
  void dims(int depth, const TypeSyntax& ts) {
    for (const ExprPtr& d : ts.array_dims)
      if (d && !d->as<IntLit>()) {
        label(depth, "Dim");
        expr(depth + 1, *d);
      }
  }

  void expr(int depth, const Expr& e) {
    int c = depth + 1;
    switch (e.kind) {
      case ExprKind::IntLit: {
        const auto& n = static_cast<const IntLit&>(e);
        std::string text = "IntLit " + std::to_string(n.value);
        if (n.is_char) text += " char";
        if (n.is_unsigned) text += " u";
        if (n.is_long) text += " l";
        line(depth, text, e.type, e.loc);
        return;
      }
      case ExprKind::FloatLit: {
        const auto& n = static_cast<const FloatLit&>(e);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", n.value);
        line(depth, std::string("FloatLit ") + buf + (n.is_float ? "f" : ""), e.type, e.loc);
        return;
      }
      case ExprKind::BoolLit:
        line(depth, std::string("BoolLit ") + (static_cast<const BoolLit&>(e).value ? "true" : "false"),
             e.type, e.loc);
        return;
      case ExprKind::StringLit:
        line(depth, "StringLit " + quoted(static_cast<const StringLit&>(e).value), e.type, e.loc);
        return;
      case ExprKind::Name: {
        const auto& n = static_cast<const NameExpr&>(e);
        std::string text = "Name " + n.name;
        if (n.decl) text += std::string(" -> ") + decl_kind_name(n.decl->kind);
        line(depth, text, e.type, e.loc);
        return;
      }
      case ExprKind::Unary: {
        const auto& n = static_cast<const UnaryExpr&>(e);
        line(depth, std::string("Unary ") + unary_spelling(n.op), e.type, e.loc);
        opt_expr(c, "operand", n.operand.get());
        return;
      }
      case ExprKind::Binary: {
        const auto& n = static_cast<const BinaryExpr&>(e);
        line(depth, std::string("Binary ") + spelling(n.op), e.type, e.loc);
        opt_expr(c, "lhs", n.lhs.get());
        opt_expr(c, "rhs", n.rhs.get());
        return;
      }
      case ExprKind::Assign: {
        const auto& n = static_cast<const AssignExpr&>(e);
        std::string op = n.op ? std::string(spelling(*n.op)) + "=" : "=";
        if (n.op_type) op += " (in " + n.op_type->name() + ")";
        line(depth, "Assign " + op, e.type, e.loc);
        opt_expr(c, "lhs", n.lhs.get());
        opt_expr(c, "rhs", n.rhs.get());
        return;
      }
      case ExprKind::Conditional: {
        const auto& n = static_cast<const ConditionalExpr&>(e);
        line(depth, "Conditional", e.type, e.loc);
        opt_expr(c, "condition", n.cond.get());
        opt_expr(c, "then", n.then_expr.get());
        opt_expr(c, "else", n.else_expr.get());
        return;
      }
      case ExprKind::StmtExpr: {
        const auto& n = static_cast<const StmtExprExpr&>(e);
        line(depth, "StmtExpr", e.type, e.loc);
        stmt(c, *n.body);
        opt_expr(c, "result", n.result.get());
        return;
      }
      case ExprKind::Comma: {
        const auto& n = static_cast<const CommaExpr&>(e);
        line(depth, "Comma", e.type, e.loc);
        opt_expr(c, "lhs", n.lhs.get());
        opt_expr(c, "rhs", n.rhs.get());
        return;
      }
      case ExprKind::Call: {
        const auto& n = static_cast<const CallExpr&>(e);
        std::string text = n.callee.empty() ? "Call" : "Call " + n.callee;
        if (n.target != CallTarget::Unresolved) text += std::string(" -> ") + call_target_name(n.target);
        line(depth, text, e.type, e.loc);
        if (n.callee_expr) opt_expr(c, "callee", n.callee_expr.get());
        for (const ExprPtr& a : n.args) opt_expr(c, "argument", a.get());
        return;
      }
      case ExprKind::Construct: {
        const auto& n = static_cast<const ConstructExpr&>(e);
        line(depth, "Construct " + syntax_spelling(n.target), e.type, e.loc);
        for (const ExprPtr& a : n.args) opt_expr(c, "argument", a.get());
        return;
      }
      case ExprKind::Cast: {
        const auto& n = static_cast<const CastExpr&>(e);
        std::string text = "Cast";
        if (n.implicit) text += std::string(" implicit ") + cast_kind_name(n.cast);
        else text += " (" + syntax_spelling(n.target) + ")";
        line(depth, text, e.type, e.loc);
        opt_expr(c, "operand", n.operand.get());
        return;
      }
      case ExprKind::Index: {
        const auto& n = static_cast<const IndexExpr&>(e);
        line(depth, "Index", e.type, e.loc);
        opt_expr(c, "base", n.base.get());
        opt_expr(c, "index", n.index.get());
        return;
      }
      case ExprKind::Gather: {
        const auto& n = static_cast<const GatherExpr&>(e);
        line(depth, "Gather", e.type, e.loc);
        opt_expr(c, "array", n.param.get());
        for (const ExprPtr& i : n.indices) opt_expr(c, "index", i.get());
        return;
      }
      case ExprKind::Member: {
        const auto& n = static_cast<const MemberExpr&>(e);
        line(depth, std::string("Member ") + (n.arrow ? "->" : ".") + n.field, e.type, e.loc);
        opt_expr(c, "base", n.base.get());
        return;
      }
      case ExprKind::Swizzle: {
        const auto& n = static_cast<const SwizzleExpr&>(e);
        line(depth, "Swizzle ." + n.spelling, e.type, e.loc);
        opt_expr(c, "base", n.base.get());
        return;
      }
      case ExprKind::Sizeof: {
        const auto& n = static_cast<const SizeofExpr&>(e);
        std::string text = n.alignment ? "Alignof" : "Sizeof";
        if (n.target) text += " (" + syntax_spelling(*n.target) + ")";
        if (n.value) text += " = " + std::to_string(n.value);
        line(depth, text, e.type, e.loc);
        if (n.operand) expr(c, *n.operand);
        return;
      }
      case ExprKind::Indexof:
        line(depth, "Indexof", e.type, e.loc);
        opt_expr(c, "operand", static_cast<const IndexofExpr&>(e).operand.get());
        return;
      case ExprKind::InitList:
        line(depth, "InitList", e.type, e.loc);
        for (const ExprPtr& x : static_cast<const InitListExpr&>(e).elems) opt_expr(c, "element", x.get());
        return;
      case ExprKind::Domain: {
        const auto& n = static_cast<const DomainExpr&>(e);
        line(depth, "Domain", e.type, e.loc);
        opt_expr(c, "stream", n.stream.get());
        opt_expr(c, "start", n.start.get());
        opt_expr(c, "end", n.end.get());
        return;
      }
      case ExprKind::IterInit: {
        const auto& n = static_cast<const IterInitExpr&>(e);
        line(depth, "IterInit", e.type, e.loc);
        opt_expr(c, "lo", n.lo.get());
        opt_expr(c, "hi", n.hi.get());
        return;
      }
      case ExprKind::CompoundLit: {
        const auto& n = static_cast<const CompoundLitExpr&>(e);
        line(depth, std::string("CompoundLit") + (n.object->is_global ? " static" : ""), e.type,
             e.loc);
        opt_expr(c, "init", n.object->init.get());
        return;
      }
    }
  }

  void decl(int depth, const Decl& d) {
    int c = depth + 1;
    switch (d.kind) {
      case DeclKind::Var: {
        const auto& v = static_cast<const VarDecl&>(d);
        std::string text = "VarDecl";
        if (v.is_global) text += " global";
        if (v.is_static) text += " static";
        if (v.is_iter) text += " iter";
        if (v.is_stream) text += " stream";
        text += " " + v.name;
        text += " : " + (v.type ? v.type->name() : syntax_spelling(v.type_syntax));
        line(depth, text, nullptr, d.loc);
        dims(c, v.type_syntax);
        if (v.is_stream) {
          label(c, "Extents");
          for (const ExprPtr& x : v.extents) opt_expr(c + 1, "extent", x.get());
        }
        if (v.init) {
          label(c, "Init");
          expr(c + 1, *v.init);
        }
        return;
      }
      case DeclKind::Param: {
        const auto& p = static_cast<const ParamDecl&>(d);
        std::string text = std::string("Param ") + param_kind_name(p.pkind) + " ";
        text += p.name.empty() ? "<unnamed>" : p.name;
        if (p.gather_rank) text += " rank " + std::to_string(p.gather_rank);
        text += " : " + (p.type ? p.type->name() : syntax_spelling(p.type_syntax));
        line(depth, text, nullptr, d.loc);
        return;
      }
      case DeclKind::Func: {
        const auto& f = static_cast<const FuncDecl&>(d);
        std::string text = "FuncDecl ";
        if (f.fkind == FuncKind::Kernel) text += "kernel ";
        if (f.fkind == FuncKind::Reduce) text += "reduce ";
        text += f.name + " -> " + (f.return_type ? f.return_type->name() : syntax_spelling(f.return_syntax));
        if (f.is_variadic) text += " variadic";
        if (f.old_style) text += " k&r";
        if (!f.body) text += " prototype";
        line(depth, text, nullptr, d.loc);
        for (const auto& p : f.params) decl(c, *p);
        if (f.body) stmt(c, *f.body);
        return;
      }
      case DeclKind::Struct: {
        const auto& s = static_cast<const StructDecl&>(d);
        std::string text = std::string(s.is_union ? "UnionDecl " : "StructDecl ") +
                           (s.name.empty() ? std::string("<anon>") : s.name);
        if (!s.is_definition) text += " forward";
        line(depth, text, nullptr, d.loc);
        for (const FieldDecl& f : s.fields) {
          std::string bits;
          if (f.is_bitfield())
            bits = " bits " + (f.bit_width >= 0 ? std::to_string(f.bit_width) : std::string("?"));
          line(c,
               "Field " + f.name + " : " +
                   (f.type ? f.type->name() : syntax_spelling(f.type_syntax)) + bits,
               nullptr, f.loc);
          dims(c + 1, f.type_syntax);
        }
        return;
      }
      case DeclKind::Typedef: {
        const auto& t = static_cast<const TypedefDecl&>(d);
        line(depth, "TypedefDecl " + t.name + " : " + (t.type ? t.type->name() : syntax_spelling(t.type_syntax)),
             nullptr, d.loc);
        dims(c, t.type_syntax);
        return;
      }
      case DeclKind::Enum: {
        const auto& en = static_cast<const EnumDecl&>(d);
        line(depth, "EnumDecl " + (en.name.empty() ? std::string("<anon>") : en.name), nullptr, d.loc);
        for (const auto& k : en.constants) decl(c, *k);
        return;
      }
      case DeclKind::EnumConst: {
        const auto& k = static_cast<const EnumConstDecl&>(d);
        line(depth, "EnumConst " + k.name + " = " + std::to_string(k.value), nullptr, d.loc);
        if (k.value_expr) expr(c, *k.value_expr);
        return;
      }
    }
  }

  void opt_stmt(int depth, const char* what, const Stmt* s) {
    if (s) stmt(depth, *s);
    else label(depth, std::string("<no ") + what + ">");
  }

  void stmt(int depth, const Stmt& s) {
    int c = depth + 1;
    switch (s.kind) {
      case StmtKind::Compound:
        line(depth, "Compound", nullptr, s.loc);
        for (const StmtPtr& x : static_cast<const CompoundStmt&>(s).body) opt_stmt(c, "statement", x.get());
        return;
      case StmtKind::Expr:
        line(depth, "ExprStmt", nullptr, s.loc);
        opt_expr(c, "expression", static_cast<const ExprStmt&>(s).expr.get());
        return;
      case StmtKind::Decl:
        line(depth, "DeclStmt", nullptr, s.loc);
        for (const DeclPtr& d : static_cast<const DeclStmt&>(s).decls) decl(c, *d);
        return;
      case StmtKind::If: {
        const auto& n = static_cast<const IfStmt&>(s);
        line(depth, "If", nullptr, s.loc);
        opt_expr(c, "condition", n.cond.get());
        opt_stmt(c, "then", n.then_stmt.get());
        if (n.else_stmt) stmt(c, *n.else_stmt);
        return;
      }
      case StmtKind::For: {
        const auto& n = static_cast<const ForStmt&>(s);
        line(depth, "For", nullptr, s.loc);
        opt_stmt(c, "init", n.init.get());
        opt_expr(c, "condition", n.cond.get());
        opt_expr(c, "step", n.step.get());
        opt_stmt(c, "body", n.body.get());
        return;
      }
      case StmtKind::While: {
        const auto& n = static_cast<const WhileStmt&>(s);
        line(depth, "While", nullptr, s.loc);
        opt_expr(c, "condition", n.cond.get());
        opt_stmt(c, "body", n.body.get());
        return;
      }
      case StmtKind::Do: {
        const auto& n = static_cast<const DoStmt&>(s);
        line(depth, "Do", nullptr, s.loc);
        opt_stmt(c, "body", n.body.get());
        opt_expr(c, "condition", n.cond.get());
        return;
      }
      case StmtKind::Switch: {
        const auto& n = static_cast<const SwitchStmt&>(s);
        line(depth, "Switch", nullptr, s.loc);
        opt_expr(c, "condition", n.cond.get());
        opt_stmt(c, "body", n.body.get());
        return;
      }
      case StmtKind::Case:
        line(depth, "Case", nullptr, s.loc);
        opt_expr(c, "value", static_cast<const CaseStmt&>(s).value.get());
        return;
      case StmtKind::Default: line(depth, "Default", nullptr, s.loc); return;
      case StmtKind::Break: line(depth, "Break", nullptr, s.loc); return;
      case StmtKind::Continue: line(depth, "Continue", nullptr, s.loc); return;
      case StmtKind::Return: {
        line(depth, "Return", nullptr, s.loc);
        if (const Expr* v = static_cast<const ReturnStmt&>(s).value.get()) expr(c, *v);
        return;
      }
      case StmtKind::Empty: line(depth, "Empty", nullptr, s.loc); return;
      case StmtKind::Label:
        line(depth, "Label " + static_cast<const LabelStmt&>(s).name, nullptr, s.loc);
        opt_stmt(c, "statement", static_cast<const LabelStmt&>(s).stmt.get());
        return;
      case StmtKind::Goto:
        line(depth, "Goto " + static_cast<const GotoStmt&>(s).label, nullptr, s.loc);
        return;
    }
  }
};

}  // namespace

std::string dump_ast(const Program& program) {
  Dumper d;
  for (const std::string& p : program.pragmas) d.label(0, "Pragma " + p);
  for (const StmtPtr& item : program.items)
    if (item) d.stmt(0, *item);
  return d.out;
}

std::string dump_stmt(const Stmt& stmt) {
  Dumper d;
  d.stmt(0, stmt);
  return d.out;
}

std::string dump_expr(const Expr& expr) {
  Dumper d;
  d.expr(0, expr);
  return d.out;
}

}  // namespace brook
