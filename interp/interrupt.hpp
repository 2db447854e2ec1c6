// Ctrl-C for every backend: a signal handler (the REPL's) or another thread
// sets interrupt_requested; the interpreter polls it in loops and calls,
// generated JIT code at loop back-edges (jit/abi.hpp: Launch::interrupt), and
// whoever notices unwinds with Interrupted to the code that runs the program.
#pragma once

#include <atomic>

namespace brook {

struct Interrupted {};

inline std::atomic<bool> interrupt_requested{false};

// Consumes a pending request: throws Interrupted once per Ctrl-C.
inline void poll_interrupt() {
  if (interrupt_requested.load(std::memory_order_relaxed)) [[unlikely]] {
    interrupt_requested.store(false, std::memory_order_relaxed);
    throw Interrupted{};
  }
}

}  // namespace brook
