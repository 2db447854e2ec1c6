// The parameters of the generated entry kernels, written once. Each list
// says, per parameter, what the generated OpenCL C declares (kind, name,
// type) and where the host's value comes from (a view's storage or its
// aliasing copy, uploaded bytes, a number). cl_launch.cpp prints the
// declarations from it and opencl_backend.cpp sets the values from it, so
// the two sides cannot disagree on the order.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/plan.hpp"

namespace brook::opencl {

class ClModule;

struct ClArg {
  enum class Kind {
    PrintBuffer,  // __global uint*: printf and vout records
    StopFlag,     // volatile __global int*: the host sets it on an interrupt
    Stream,       // __global [const] uchar*: `view`'s storage, or the launch's aliasing copy `copy`
    HostBytes,    // __global const uchar*: `bytes`, uploaded for this launch
    Scratch,      // __global [const] uchar*: the launch's scratch buffer number `slot` (partials)
    ErrorWord,    // __global long*: the launch's scratch buffer number `slot`, one long
    Long,         // long: v[0]
    Long4,        // long4: v
    Value,        // a scalar constant by value: `bytes`, of `type`
  };
  Kind kind = Kind::Long;
  std::string name;
  bool writes = false;                            // Stream, Scratch: the kernel stores through it
  const StreamView* view = nullptr;               // Stream
  int copy = -1;                                  // Stream: index into the plan's aliasing copies
  const std::vector<std::byte>* bytes = nullptr;  // HostBytes, Value
  const Type* type = nullptr;                     // Value
  int slot = 0;                                   // Scratch, ErrorWord
  std::array<int64_t, 4> v{};                     // Long, Long4
  // Long, Long4: an extent, stride or resampling ratio, the same at every
  // launch over streams of one shape (a view's origin is not: sgm_path moves
  // its column view at each launch). A shape-specialised variant of brook_map
  // has these as constants (cl_launch.hpp's map_shape).
  bool shape = false;
  std::string error;  // why the host cannot pass this argument (an unsupported gather view)
};
using ClArgs = std::vector<ClArg>;

// `T name, T name, ...` for a __kernel's parameter list.
std::string parameter_list(const ClArgs& args, ClModule& m);

// brook_map (cl_launch.hpp): printf buffer, stop flag, the domain's four
// extents, then each plan argument's parameters in parameter order.
ClArgs map_args(const MapPlan& plan);

// How a reduction's input view splits into blocks, one per output element
// (the whole view when it reduces to a value): both right-aligned to the
// view's rank.
struct ReduceBlocks {
  std::vector<int64_t> block, outputs;
};
ReduceBlocks reduce_blocks(const ReducePlan& plan);

// The reduction kernels of cl_launch.hpp. Their numbers (G, chunk counts)
// are chosen at launch; the source generator passes zeros. Scratch slot 0
// is the pass's source partials, slot 1 its destination.
ClArgs reduce_first_args(const ReducePlan& plan, int64_t G, int64_t chunks, int64_t B);
ClArgs reduce_next_args(const ReducePlan& plan, int64_t n, int64_t G, int64_t chunks);
ClArgs reduce_store_args(const ReducePlan& plan);
// brook_reduce_direct: brook_reduce_first's arguments for one chunk per
// output, with the output view (vo, vo_base, vo_ext, vo_str) in place of the
// partials: the fold of each block stored where it belongs, in one launch.
ClArgs reduce_direct_args(const ReducePlan& plan, int64_t B);

// brook_gs: the values, index and array views, the count, and scratch slot
// 0 as the error word.
ClArgs gs_args(const GatherScatterPlan& plan);

}  // namespace brook::opencl
