// Gathers that provably stay inside their array need no clamp. Every gather
// index is clamped (LANGUAGE.md §5), and hand-written kernels skip that where
// they know better: `filter[o][p]` in loops over constant bounds, or
// `input[2 * y + i][2 * x + j]` over a domain that fits the input. This pass
// bounds integer gather indices at each launch from that launch's domain,
// constants and gather extents, and the outcome is part of the compiled
// variant's key, so correctness never depends on a shape the program was
// compiled for.
//
// Counted loops are shared with the interrupt polling (cl_printer.cpp): a
// `for` whose int counter is declared in the init, compared against a bound
// the body never changes and stepped by one toward it ends on its own.
#pragma once

#include <array>
#include <cstdint>
#include <map>
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

// What a launch fixes that index ranges depend on: each position component's
// extent (component 0 = the domain's last dimension), instance()'s offset
// (backends/instance.hpp; zero when the kernel never reads it) and the
// values of the kernel's int constant parameters.
struct LaunchFacts {
  std::vector<int64_t> comp_extents;
  std::array<int64_t, 4> instance_offset{0, 0, 0, 0};
  std::map<const ast::ParamDecl*, int64_t> int_params;
  // Float constant parameters whose value at this launch is an integer below
  // 2^24 (BrookGPU passes column numbers as floats: `path_step(..., (float)x, ...)`).
  std::map<const ast::ParamDecl*, int64_t> integral_float_params;
};

// The values an integer expression can take at one launch, both ends included.
struct Range {
  int64_t lo = 0, hi = 0;
};

// One integer gather index, or index of a local array (LANGUAGE.md clamps
// both), of a kernel with a provable range at one launch.
struct GatherAccess {
  const ast::Expr* gather = nullptr;      // the GatherExpr, or the IndexExpr of a local array
  int index = 0;                          // the gather's logical dimension (0 = slowest)
  const ast::ParamDecl* param = nullptr;  // the gather parameter; null for a local array
  Range range;
  int64_t array_size = 0;  // a local array's element count
};

// The provable gather indices of the body of `kernel` (a top-level kernel of
// a map launch, so indexof of an output is the domain position) at a launch
// with `facts`: interval arithmetic over the launch's actual extents and
// constants, so `og * 4 + o` with `og = (int)here.y / 32` is bounded by the
// domain's height, not by a shape assumed at compile time. Positions count
// only when `exact_positions` (ClModule::exact_positions).
std::vector<GatherAccess> gather_accesses(const ast::FuncDecl& kernel, bool exact_positions,
                                          const LaunchFacts& facts);

// Whether every value of `r` indexes an array of n elements.
inline bool range_inside(const Range& r, int64_t n) {
  return r.lo >= 0 && r.lo <= r.hi && r.hi <= n - 1;
}

}  // namespace brook::opencl
