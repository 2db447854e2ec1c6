// Walks over a kernel's typed AST and the facts every backend reads from
// them (ARCHITECTURE.md: lang/analysis): what an expression or statement
// contains, which declarations it may change, whether it has effects.
// One implementation for the JIT, the OpenCL translator and lang/analysis.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "lang/ast.hpp"

namespace brook::analysis {

// Visits `e` and every expression under it, pre-order (not the stream that
// `indexof s` names: a position, not a read of the stream's value).
void walk_expr(const ast::Expr* e, const std::function<void(const ast::Expr&)>& f);
// Visits every statement under `s` (on_stmt, pre-order; may be empty) and
// every expression they hold, variable initialisers included.
void walk(const ast::Stmt* s, const std::function<void(const ast::Expr&)>& on_expr,
          const std::function<void(const ast::Stmt&)>& on_stmt = {});
// The same over the body of `f`'s definition and, transitively, of every
// kernel function it calls (each once).
void walk_with_callees(const ast::FuncDecl& f,
                       const std::function<void(const ast::Expr&)>& on_expr);

// The declaration an lvalue expression ultimately names (a local, a parameter).
const ast::Decl* root_of(const ast::Expr* e);
// Whether anything under `s` may change `v`: an assignment or ++/-- of it (or
// of a part of it), passing it to a kernel call (an out parameter), or a
// pointer to it to a builtin.
bool may_assign(const ast::Stmt* s, const ast::Decl& v);
// Every declaration something under `s` may change (as may_assign), in one walk.
std::set<const ast::Decl*> assigned_decls(const ast::Stmt* s);
// Evaluating `e` changes nothing: no assignment, no ++/--, no call of a
// kernel function, printf or push (the other builtins are pure functions).
bool side_effect_free(const ast::Expr& e);

// One step back from component `comp` of a vector constructor or swizzle to
// the scalar it comes from: {part or base, its component}. nullopt for other
// expressions, a component past a swizzle's end, or one that lies in a vector
// part of a constructor.
std::optional<std::pair<const ast::Expr*, int>> component_part(const ast::Expr& e, int comp);

}  // namespace brook::analysis
