// Gathers that provably stay inside their array need no clamp. Every gather
// index is clamped (LANGUAGE.md §5), and hand-written kernels skip that where
// they know better: `filter[o][p]` in loops over constant bounds, or
// `input[2 * y + i][2 * x + j]` over a domain that fits the input. This pass
// finds integer gather indices of the form coef * position + [lo, hi] (or a
// constant range); at launch the host checks each against the actual domain
// and gather extents, and the outcome is part of the compiled variant's key,
// so correctness never depends on a shape the program was compiled for.
//
// Counted loops are shared with the interrupt polling (cl_printer.cpp): a
// `for` whose int counter is declared in the init, compared against a bound
// the body never changes and stepped by one toward it ends on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lang/ast.hpp"

namespace brook::opencl {

// lo <= value - coef * position[comp] <= hi + pcoef * param, where comp -1
// (coef 0) means no position term and param null (pcoef 0) no constant
// parameter term (a kernel's `int n`, bounding a loop `i < n`).
struct Span {
  int64_t lo = 0, hi = 0;
  int comp = -1;
  int64_t coef = 0;
  const ast::ParamDecl* param = nullptr;
  int64_t pcoef = 0;
};

struct CountedLoop {
  const ast::VarDecl* counter = nullptr;
  std::optional<Span> range;  // the counter's values inside the body, when both ends are constant
  std::optional<int64_t> first;  // the counter's first value, when constant
  const ast::Expr* bound = nullptr;
  bool up = true, inclusive = false;
};
// The loop's counter when `f` is a counted loop (see above), else nullopt.
std::optional<CountedLoop> counted_loop(const ast::ForStmt& f);

// One integer gather index of a kernel with a provable span.
struct GatherAccess {
  const ast::GatherExpr* gather = nullptr;
  int index = 0;  // the gather's logical dimension (0 = slowest)
  const ast::ParamDecl* param = nullptr;
  Span span;
};

// The provable gather indices of the body of `kernel` (a top-level kernel of
// a map launch, so indexof of an output is the domain position). Positions
// count only when `exact_positions` (ClModule::exact_positions).
std::vector<GatherAccess> gather_accesses(const ast::FuncDecl& kernel, bool exact_positions);

// Whether `span` stays in [0, n) when position component c ranges over
// [0, comp_extents[c]) (component 0 = the domain's last dimension) and its
// parameter has the value `param_value` (nullopt: unknown, so false).
bool span_inside(const Span& span, int64_t n, const std::vector<int64_t>& comp_extents,
                 std::optional<int64_t> param_value);

}  // namespace brook::opencl
