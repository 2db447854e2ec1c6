// What kernel-only nodes (gathers, indexof, instance(), kernel calls) ask about
// the invocation that is running: the domain position and, per parameter of
// the running kernel, the plan argument it designates. Kernel-to-kernel calls
// swap `bound` for the callee's so indexof and gathers in the callee refer to
// the caller's streams (LANGUAGE.md §5).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/plan.hpp"

namespace brook::interp {

// A stream or gather parameter bound to a plan argument. `arg` is null when a
// kernel-to-kernel call passed a plain value.
struct BoundStream {
  const PlanArg* arg = nullptr;
  const std::byte* data = nullptr;  // the storage (or host array bytes) it reads
};

struct KernelContext {
  const int64_t* pos = nullptr;  // domain position, slowest first
  size_t rank = 0;
  const BoundStream* bound = nullptr;  // indexed by parameter
  size_t bound_count = 0;
};

}  // namespace brook::interp
