// The memory layout generated code and the C++ runtime share. Generated code
// reads these structs through byte offsets (see codegen), so every field is
// 8 bytes wide and the offsets below are part of the contract.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace brook::jit {

inline constexpr int kMaxRank = 4;

// One stream/gather/constant argument of a launch, in the stream's own
// (canonical) dimensions. Element index of view position p:
//   sum_d (offset[d] + p[d]) * stride[d]
struct ArgRt {
  std::byte* base = nullptr;   // storage (or constant bytes / host array snapshot)
  int64_t elem_size = 0;
  int64_t rank = 0;
  int64_t stride[kMaxRank] = {};
  int64_t offset[kMaxRank] = {};
  int64_t extent[kMaxRank] = {};  // the view's extents: gathers clamp to these
  int64_t num[kMaxRank] = {};     // DimMap num/den per view dimension
  int64_t den[kMaxRank] = {};
};
inline constexpr int64_t kArgBase = 0, kArgStride = 24, kArgOffset = 56, kArgExtent = 88,
                         kArgNum = 120, kArgDen = 152;
static_assert(offsetof(ArgRt, stride) == kArgStride && offsetof(ArgRt, offset) == kArgOffset &&
              offsetof(ArgRt, extent) == kArgExtent && offsetof(ArgRt, num) == kArgNum &&
              offsetof(ArgRt, den) == kArgDen && sizeof(ArgRt) == 184);

struct LaunchState;  // C++ only: output sink, first error

// What a slice function receives.
struct Launch {
  int64_t domain[kMaxRank] = {};  // canonical domain extents
  ArgRt* args = nullptr;          // one per kernel parameter
  LaunchState* state = nullptr;
  // Ctrl-C (interp/interrupt.hpp). Generated code reads it with a relaxed
  // atomic i8 load at every kernel loop back-edge (a set flag ends the loop)
  // and before every row of a slice (a set flag returns); the backend then
  // throws Interrupted, so the half-written outputs are never reported.
  const std::atomic<bool>* interrupt = nullptr;
  // instance() adds this to the domain position: the first output's view
  // offset (x = last dimension), backends/instance.hpp.
  int32_t instance_offset[4] = {};
  // Brook+ work-group kernels (jit/groups.hpp): the phase (statements between
  // syncGroup()s) a slice call runs, every invocation's saved locals
  // (group_frame_size bytes each, by index in the group), the group's shared
  // arrays.
  int64_t group_phase = 0;
  std::byte* group_frames = nullptr;
  int64_t group_frame_size = 0;
  std::byte* group_shared = nullptr;
};
inline constexpr int64_t kLaunchArgs = 32, kLaunchState = 40, kLaunchInterrupt = 48,
                         kLaunchInstanceOffset = 56, kLaunchGroupPhase = 72,
                         kLaunchGroupFrames = 80, kLaunchGroupFrameSize = 88,
                         kLaunchGroupShared = 96;
static_assert(offsetof(Launch, args) == kLaunchArgs && offsetof(Launch, state) == kLaunchState &&
              offsetof(Launch, interrupt) == kLaunchInterrupt &&
              offsetof(Launch, instance_offset) == kLaunchInstanceOffset &&
              offsetof(Launch, group_phase) == kLaunchGroupPhase &&
              offsetof(Launch, group_frames) == kLaunchGroupFrames &&
              offsetof(Launch, group_frame_size) == kLaunchGroupFrameSize &&
              offsetof(Launch, group_shared) == kLaunchGroupShared);
static_assert(sizeof(std::atomic<bool>) == 1 && std::atomic<bool>::is_always_lock_free);

// Per-invocation context passed to every kernel body function.
//   int32 instance[4]  (x = last dimension)   offset 0
//   Launch* launch                              offset 16
inline constexpr int64_t kCtxLaunch = 16, kCtxSize = 24;

// One printf argument as generated code writes it: kind (FormatArg::Kind) and
// 8 bytes of payload (integer bits, or the double's bits).
struct PrintfArg {
  int64_t kind;
  int64_t bits;
};

// slice(launch, row_begin, row_end, col_begin, col_end): the domain's rows
// (all dimensions but the last, row-major) and columns (the last dimension).
using SliceFn = void (*)(const Launch*, int64_t, int64_t, int64_t, int64_t);
// fold(launch, acc, elements, stride_bytes, count): acc = f(acc, x) for each x.
using FoldFn = void (*)(const Launch*, std::byte*, const std::byte*, int64_t, int64_t);

}  // namespace brook::jit
