// Pre-order visits of a kernel body, for the printer's analyses (what a
// statement mentions, which locals are ever assigned).
#pragma once

#include <functional>
#include <set>

#include "lang/ast.hpp"

namespace brook::opencl {

// Visits `e` and every expression under it (not the positions indexof names).
void walk_expr(const ast::Expr* e, const std::function<void(const ast::Expr&)>& f);
// Visits every statement under `s` and every expression they hold.
void walk(const ast::Stmt* s, const std::function<void(const ast::Expr&)>& on_expr,
          const std::function<void(const ast::Stmt&)>& on_stmt);

}  // namespace brook::opencl

namespace brook::opencl {

// The declaration an lvalue expression ultimately names (a local, a parameter).
const ast::Decl* root_of(const ast::Expr* e);
// Whether anything under `s` may change `v`: an assignment or ++/-- of it (or
// of a part of it), or passing it to a kernel call (an out parameter).
bool may_assign(const ast::Stmt* s, const ast::Decl& v);
// Every declaration something under `s` may change (as may_assign), in one walk.
std::set<const ast::Decl*> assigned_decls(const ast::Stmt* s);
// No assignment, ++/--, or call under `e`.
bool side_effect_free(const ast::Expr& e);

}  // namespace brook::opencl
