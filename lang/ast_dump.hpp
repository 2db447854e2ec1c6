// A readable, indented dump of a (typed or untyped) AST: `brook emit ast`.
#pragma once

#include <string>

#include "lang/ast.hpp"
#include "lang/source.hpp"

namespace brook {

// One node per line, children indented by two spaces, each with its kind, its
// key attributes, `line:col`, and `: type` once sema has run. Example:
//   FuncDecl kernel saxpy -> void @1:13
//     Param const a : float @1:25
//     Compound @1:60
//       ExprStmt @1:62
//         Assign = : float @1:64
//           Name r -> param : float @1:62
std::string dump_ast(const ast::Program& program);
std::string dump_stmt(const ast::Stmt& stmt);  // one statement/declaration subtree
std::string dump_expr(const ast::Expr& expr);
// A function's declaration as a user writes it, from its checked types:
// "kernel void k(float x<>, out float y<>)", "int f(int a, char* s)".
std::string signature_text(const ast::FuncDecl& f);

}  // namespace brook
