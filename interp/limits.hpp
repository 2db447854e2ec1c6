// Resource limits of an engine (CLI.md: --max-memory, --time-limit; the same
// in EngineOptions). The memory cap counts what a program holds: stream
// storage, the scratch a launch's aliasing copies need, and host heap
// (malloc/calloc/realloc). The time limit reuses Ctrl-C's path
// (interrupt.hpp): a watchdog sets interrupt_requested, every backend stops
// where it would stop for Ctrl-C, and time_limit_expired tells whoever catches
// the Interrupted that it was the limit, so it reports a runtime error.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace brook {

class MemoryBudget {
 public:
  // 0: no cap (bytes are still counted).
  void set_cap(uint64_t bytes) { cap_ = bytes; }
  uint64_t cap() const { return cap_; }
  uint64_t used() const { return used_; }
  // Counts `bytes` more; false (nothing counted) when they would pass the cap.
  bool charge(uint64_t bytes) {
    if (cap_ != 0 && (bytes > cap_ || used_ > cap_ - bytes)) return false;
    used_ += bytes;
    return true;
  }
  void release(uint64_t bytes) { used_ -= bytes < used_ ? bytes : used_; }
  // The end of a runtime error about `what` (e.g. "stream 'a' <4096, 4096>")
  // needing `bytes`: "... needs 64 MiB, past the memory limit of 32 MiB (1 KiB in use)".
  std::string exceeded(std::string_view what, uint64_t bytes) const;

 private:
  uint64_t cap_ = 0;
  uint64_t used_ = 0;
};

// "512 MiB", "3 bytes": sizes as messages show them.
std::string size_text(uint64_t bytes);
// Parses --max-memory's SIZE: a number of bytes with an optional K, M, G or T
// suffix (powers of 1024; "KiB"-style and "KB" spellings accepted). False
// when `text` is not one or is 0.
bool parse_size(std::string_view text, uint64_t* bytes);
// Parses --time-limit's SECONDS: a positive decimal number.
bool parse_seconds(std::string_view text, double* seconds);

// Set by the time-limit watchdog just before it requests an interrupt.
inline std::atomic<bool> time_limit_expired{false};

// Interrupts whatever runs once `seconds` of wall time have passed since its
// construction, unless it is destroyed first (0: never). One per run.
class Watchdog {
 public:
  explicit Watchdog(double seconds);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread thread_;
};

// The message of the runtime error that ends a run stopped by the limit.
std::string time_limit_message(double seconds);

}  // namespace brook
