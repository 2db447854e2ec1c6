// The scheduler: the ONLY place the shape rules of LANGUAGE.md §4–§8 live.
// It turns a call's arguments (streams, views, values, host arrays) into a
// plan; shape errors are reported as PlanError with the spec's wording.
#pragma once

#include <span>
#include <string>
#include <variant>
#include <vector>

#include "backends/plan.hpp"

namespace brook {

// A user-visible shape error; the caller reports it as a runtime error at `loc`.
struct PlanError {
  SourceLoc loc;
  std::string message;
};

// One argument of a kernel or reduce call, as the host interpreter evaluated it.
struct CallArg {
  enum class Kind : uint8_t { Stream, Value, HostArray } kind = Kind::Value;
  StreamView stream;             // Stream: a stream or view
  std::vector<std::byte> value;  // Value: bytes in C layout of the parameter type
  HostArray host;                // HostArray: a gather from host memory
  std::string name;              // the argument as written, for messages ("b")
};

class Scheduler {
 public:
  // A whole stream as a view.
  static StreamView whole(StorageId storage, const Type* elem, const Extents& extents,
                          bool is_iter = false);

  // `base.domain(start, end)`. start/end are as written: (column, row, …), i.e.
  // start[0] is the LAST (fastest) dimension. Throws PlanError when the view is
  // empty or not inside `base`.
  // Whether `base.domain(start, end)` lies inside `base` but is empty (start
  // equals end in some dimension): Brook+ programs write such views at the
  // last step of a blocked loop, and a launch whose outputs are all empty
  // views (or a reduction of one) runs nothing (LANGUAGE.md §4 note).
  static bool empty_domain(const StreamView& base, std::span<const int64_t> start,
                           std::span<const int64_t> end);
  static StreamView domain(const StreamView& base, std::span<const int64_t> start,
                           std::span<const int64_t> end, SourceLoc loc);

  // A kernel launch. `args` are in parameter order. Throws PlanError.
  static MapPlan plan_map(const ast::FuncDecl& kernel, std::span<const CallArg> args,
                          SourceLoc loc);

  // A reduction `reducer(args…)`: the reduce argument is either a stream
  // (args[reduce_param].kind == Stream) or a host value (to a scalar).
  static ReducePlan plan_reduce(const ast::FuncDecl& reducer, std::span<const CallArg> args,
                                SourceLoc loc);

  static GatherScatterPlan plan_gather_scatter(bool is_scatter, const StreamView& values,
                                               const StreamView& index, const StreamView& array,
                                               int builtin_op, const ast::FuncDecl* op,
                                               SourceLoc loc);

  // streamRead/streamWrite: the bytes a dense host buffer for `view` needs.
  static uint64_t host_bytes(const StreamView& view);

  // The resampling map of §5 for one input view feeding `domain`.
  static std::vector<DimMap> resample(const Extents& input, const Extents& domain);
  // The same for a view whose declared rank may equal the domain's
  // (`domain_rank`, the first output's declared rank): then dimension by dimension.
  static std::vector<DimMap> resample(const StreamView& input, const Extents& domain,
                                      size_t domain_rank);

  // The iterator element of §6 for component values lo/hi at position i of n.
  static float iterator_lerp(int64_t i, int64_t n, float lo, float hi);
};

}  // namespace brook
