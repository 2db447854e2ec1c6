// What kernel-only nodes (gathers, indexof, instance(), kernel calls) ask about
// the invocation that is running: the domain position and, per parameter of
// the running kernel, the plan argument it designates. Kernel-to-kernel calls
// swap `bound` for the callee's so indexof and gathers in the callee refer to
// the caller's streams (LANGUAGE.md §5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "backends/plan.hpp"

namespace brook::interp {

// A stream or gather parameter bound to a plan argument. `arg` is null when a
// kernel-to-kernel call passed a plain value.
struct BoundStream {
  const PlanArg* arg = nullptr;
  const std::byte* data = nullptr;  // the storage (or host array bytes) it reads
};

// Where push(e) appends for one vout parameter (§12). Invocations run in
// row-major order, so appending keeps the spec's order.
struct VoutSink {
  int bound = -1;                 // -1: not a vout; 0: any number of pushes
  std::vector<std::byte> bytes;   // the pushed elements so far
  int64_t invocation = -1;        // the invocation `count` belongs to
  int count = 0;
};

struct KernelContext {
  const int64_t* pos = nullptr;  // domain position, slowest first
  size_t rank = 0;
  const BoundStream* bound = nullptr;  // indexed by parameter
  size_t bound_count = 0;
  std::vector<VoutSink>* vouts = nullptr;  // indexed by parameter; null without vouts
  int64_t invocation = 0;                  // row-major index of the running invocation
  const ast::FuncDecl* kernel = nullptr;   // for messages
  SourceLoc call_loc;                      // the launch, where vout errors are reported
  int32_t instance_offset[4] = {0, 0, 0, 0};  // instance(): the first output's view offset
  int32_t in_group[4] = {0, 0, 0, 0};         // instanceInGroup() of a group kernel (§12)
  // syncGroup() of a group kernel run as fibers (kernel_groups.cpp): suspends
  // the invocation at the call `site`; empty on the phase-by-phase path.
  std::function<void(uint64_t site)> sync;
};

}  // namespace brook::interp
