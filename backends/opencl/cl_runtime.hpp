// The OpenCL runtime under the backend: device choice, one context and one
// in-order queue, and compiled programs cached in memory (by source) and on
// disk (as device binaries). Only this file and its .cpp see the Khronos
// C++ bindings' setup; errors come out as ClError with a message for users.
#pragma once

#include <signal.h>

#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/opencl/cl_headers.hpp"

namespace brook::opencl {

// A failure the user should read: no platform, build failure, out of memory.
struct ClError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A program that failed to build: the driver's log, for mapping back to the .br.
struct BuildError : ClError {
  BuildError(const std::string& what, std::string log) : ClError(what), log(std::move(log)) {}
  std::string log;
};

// While one lives, a fatal signal (the driver's compiler crashing inside this
// process) first prints which program was being compiled, then kills the
// process as it would have. Held around builds and around each program's
// first launch of a shape, where PoCL compiles its work-group function.
class CrashNotice {
 public:
  explicit CrashNotice(const std::string& what);  // "kernel 'blur'"
  ~CrashNotice();
  CrashNotice(const CrashNotice&) = delete;
  CrashNotice& operator=(const CrashNotice&) = delete;

 private:
  static constexpr std::array<int, 5> kSignals{SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  static void handler(int sig);
  static inline CrashNotice* active_ = nullptr;
  char message_[512];
  std::array<struct sigaction, 5> saved_{};
};

// Every device of every platform, in `brook devices` order.
std::vector<cl::Device> all_devices();
std::string describe_device(const cl::Device& d);

class ClRuntime {
 public:
  // `device_index` from list_opencl_devices(); built programs persist under
  // `cache_dir` (none when empty), generated sources go to `dump_dir` (when
  // not empty) for reading what the driver gets.
  ClRuntime(int device_index, std::string cache_dir, std::string dump_dir);

  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }
  const cl::Device& device() const { return device_; }
  bool has_fp64() const { return fp64_; }

  // A built program for `source` (compiled once per runtime, and loaded from
  // the disk cache when an earlier process built it). Throws BuildError.
  // `what` names the program in the message printed should the driver's
  // compiler crash the process (e.g. "kernel 'blur'").
  cl::Program& program(const std::string& source, const std::string& what = "a kernel");

  // Builds that hit the disk cache / compiled from source, and their total ms.
  int cache_hits = 0;
  int compiles = 0;
  double build_ms = 0;

 private:
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  bool fp64_ = false;
  std::string cache_dir_;
  std::string dump_dir_;
  std::map<std::string, cl::Program> programs_;
};

// Compiler options: OpenCL C 1.2, correctly rounded division and sqrt, no mad contraction.
inline constexpr const char* kBuildOptions = "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt -w";

}  // namespace brook::opencl
