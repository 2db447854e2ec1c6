// What the C++ side of a launch shares with runtime hooks called from
// generated code (kernel printf).
#pragma once

#include <mutex>
#include <string>

#include "backends/backend.hpp"
#include "jit/abi.hpp"

namespace brook::jit {

struct LaunchState {
  const OutputSink* output = nullptr;
  uint32_t file = 0;  // for error locations
  std::mutex mu;
  bool failed = false;
  SourceLoc error_loc;
  std::string error;
};

}  // namespace brook::jit
