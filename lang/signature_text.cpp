// signature_text: what `:type k` shows for a function, kernel or reduction.
#include "lang/ast_dump.hpp"

namespace brook {

namespace {

std::string param_text(const ast::ParamDecl& p) {
  const Type* t = p.type;
  std::string gathers;  // `[3][3]` of a sized gather, `[][]` of an open one
  if (p.pkind == ast::ParamKind::Gather) {
    while (t && t->is_array()) t = t->elem;
    for (const ast::ExprPtr& d : p.type_syntax.array_dims) {
      const auto* n = d ? d->as<ast::IntLit>() : nullptr;
      gathers += n ? "[" + std::to_string(n->value) + "]" : "[]";
    }
    for (int dims = static_cast<int>(p.type_syntax.array_dims.size()); dims < p.gather_rank; ++dims)
      gathers += "[]";
  }
  std::string type = t ? t->name() : "?";
  switch (p.pkind) {
    case ast::ParamKind::Value:
    case ast::ParamKind::Const:
      return type + " " + p.name;
    case ast::ParamKind::Input:
      return type + " " + p.name + "<>";
    case ast::ParamKind::Iter:
      return "iter " + type + " " + p.name + "<>";
    case ast::ParamKind::Out: {
      if (p.vout_bound < 0) return "out " + type + " " + p.name + "<>";
      std::string bound = p.vout_bound > 0 ? std::to_string(p.vout_bound) : "";
      return "vout [" + bound + "] " + type + " " + p.name + "<>";
    }
    case ast::ParamKind::Gather:
      return (p.scatter ? "out " : "") + type + " " + p.name + gathers;
    case ast::ParamKind::Reduce:
      return "reduce " + type + " " + p.name + "<>";
  }
  return type + " " + p.name;
}

}  // namespace

std::string signature_text(const ast::FuncDecl& f) {
  std::string out;
  if (f.fkind == ast::FuncKind::Kernel) out += "kernel ";
  if (f.fkind == ast::FuncKind::Reduce) out += "reduce ";
  out += (f.return_type ? f.return_type->name() : std::string("void")) + " " + f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i) out += (i ? ", " : "") + param_text(*f.params[i]);
  return out + ")";
}

}  // namespace brook
