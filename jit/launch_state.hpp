// What the C++ side of a launch shares with runtime hooks called from
// generated code (kernel printf).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "jit/abi.hpp"

namespace brook::jit {

// One vout parameter's pushes (§12), in the order threads made them; each
// element carries its invocation's row-major index, so sorting stably by it
// gives the spec's order (one invocation runs on one thread, in push order).
struct VoutBuffer {
  bool active = false;
  int64_t elem_size = 0;
  std::vector<int64_t> invocation;
  std::vector<std::byte> bytes;
};

struct LaunchState {
  std::vector<VoutBuffer>* vouts = nullptr;  // indexed by parameter; null without vouts
  int64_t domain[kMaxRank] = {};             // canonical domain, for invocation indices
  int64_t rank = 0;
  const OutputSink* output = nullptr;
  uint32_t file = 0;  // for error locations
  std::mutex mu;
  bool failed = false;
  SourceLoc error_loc;
  std::string error;
};

// After a launch with vouts: each vout's elements in the spec's order (a
// stable sort by invocation), checking the per-invocation bounds (jit/vout.cpp).
std::vector<std::vector<std::byte>> join_vouts(const MapPlan& plan, std::vector<VoutBuffer>& buffers);

}  // namespace brook::jit
