// Counted `for` loops, recognised once for every backend (ARCHITECTURE.md:
// lang/analysis): `for (i = a; i < b; i += c)` with i an int or float local,
// declared in the init or assigned there, stepped by a constant toward or
// away from the bound. The JIT reads the trip count (it unrolls small
// loops); the OpenCL translator also asks whether the body leaves the
// counter and the bound alone (such a loop ends on its own, and bounds the
// counter's values for its gather clamps).
//
// The float idiom's `for (dy = -1.0f; dy <= 1.0f; dy += 1.0f)` counts like
// the int one: every constant of a float counter is an exact integer of at
// most 2^24 in magnitude, so every value the counter takes is exact.
#pragma once

#include <cstdint>
#include <optional>

#include "lang/ast.hpp"

namespace brook::analysis {

struct CountedFor {
  const ast::Decl* counter = nullptr;
  const Type* type = nullptr;     // the counter's: an integer or floating type
  bool declared_in_init = false;  // `for (int i = a; ...)`, else `for (i = a; ...)`
  const ast::Expr* first_expr = nullptr;
  std::optional<int64_t> first;            // the first value, when a constant
  int64_t step = 0;                        // nonzero
  ast::BinaryOp test = ast::BinaryOp::Lt;  // Lt, Le, Gt, Ge or Ne; the counter on the left
  const ast::Expr* bound = nullptr;
  std::optional<int64_t> bound_value;  // when a constant

  // The step goes toward the bound: up for < and <=, down for > and >=.
  bool toward_bound() const;
  // The test takes the bound itself (<=, >=).
  bool inclusive() const { return test == ast::BinaryOp::Le || test == ast::BinaryOp::Ge; }
  // How often the body runs, when first and bound are constants and the
  // body leaves the counter alone; nullopt for a `!=` loop that misses its bound.
  std::optional<int64_t> trips() const;
};

// The loop's counter, step and bound when `for (init; cond; step)` has that
// form (read off the syntax; nothing about the body).
std::optional<CountedFor> counted_for(const ast::Stmt* init, const ast::Expr* cond,
                                      const ast::Expr* step);
inline std::optional<CountedFor> counted_for(const ast::ForStmt& f) {
  return counted_for(f.init.get(), f.cond.get(), f.step.get());
}

// `body` changes neither the counter nor anything the bound reads, and
// evaluating the bound has no effects: the loop's test sees only the steps.
bool body_keeps_count(const CountedFor& loop, const ast::Stmt* body);

// An integer value spelled as a constant (`-1`, `(long)3`; for a floating
// `type` also `1.0f` and `(float)3`), within what `type` holds exactly
// (2^24 for floating types, 2^40 otherwise).
std::optional<int64_t> exact_constant(const ast::Expr* e, const Type* type);

}  // namespace brook::analysis
