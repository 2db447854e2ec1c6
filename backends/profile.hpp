// --profile (CLI.md): where a run's wall time went. One Profile per run, owned
// by the Engine; the stream runtime fills the rows it sees (stream
// allocation, copies between host and device, launches as a whole) and the
// backend the parts of a launch only it knows (kernel compilation, copies
// made for aliasing, one-time start-up such as LLVM's). Host code is the rest
// of the wall time: the interpreter running the program's C.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace brook {

struct Profile {
  using Clock = std::chrono::steady_clock;

  struct Kernel {
    int compiles = 0;
    int cache_loads = 0;    // code taken from the disk cache instead of compiled
    double compile_ms = 0;  // compiling, or loading from the cache
    int64_t launches = 0;
    double run_ms = 0;
    int64_t elements = 0;
    uint64_t bytes = 0;  // stream elements read and written (gathers not counted)
  };
  std::map<std::string, Kernel> kernels;

  double startup_ms = 0;    // process start to a ready engine, plus one-time backend start-up
  double frontend_ms = 0;   // preprocess, parse, check, compile the host code
  double alloc_ms = 0;      // declaring (and zeroing) and freeing streams
  int64_t allocations = 0;
  uint64_t alloc_bytes = 0;
  double transfer_ms = 0;   // streamRead/Write/Print/Swap, iterator set-up
  int64_t transfers = 0;
  uint64_t transfer_bytes = 0;
  double alias_ms = 0;      // copies made because a call reads what it writes (§5)
  int64_t alias_copies = 0;
  uint64_t alias_bytes = 0;
  double teardown_ms = 0;   // freeing the engine and its backend at exit

  // Milliseconds charged to compile, alias and start-up rows so far: a launch
  // timed as a whole subtracts what these grew by during it.
  double overhead_ms() const;

  // The table: per kernel, then every row of the wall time; `wall_ms` is the
  // time since the process started (process_start()), or what `wall_label`
  // says it is.
  std::string report(double wall_ms,
                     std::string_view wall_label = "wall time (process start to exit)") const;
};

// When this process started (exec, not main), for wall times.
Profile::Clock::time_point process_start();

inline double ms_between(Profile::Clock::time_point a, Profile::Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Adds the scope's duration to `*acc` (nothing when acc is null).
class ProfileTimer {
 public:
  explicit ProfileTimer(double* acc) : acc_(acc) {
    if (acc_) t0_ = Profile::Clock::now();
  }
  ~ProfileTimer() {
    if (acc_) *acc_ += ms_between(t0_, Profile::Clock::now());
  }
  ProfileTimer(const ProfileTimer&) = delete;
  ProfileTimer& operator=(const ProfileTimer&) = delete;

 private:
  double* acc_;
  Profile::Clock::time_point t0_{};
};

}  // namespace brook
