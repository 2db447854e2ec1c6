// Resumable invocations for Brook+ work-group kernels whose syncGroup() sits
// inside control flow (lang/analysis_group.hpp). Each invocation of a group
// runs on a small stack of its own; syncGroup() calls yield(), which switches
// back to the group's scheduler (the backend), which resumes the next
// invocation. The stacks are kept from group to group.
//
// The switch is a few instructions (callee-saved registers and the stack
// pointer, no signal mask: swapcontext's sigprocmask call per switch would
// cost more than a tiled kernel's arithmetic). Under AddressSanitizer every
// switch is announced with __sanitizer_start/finish_switch_fiber, and a
// stack is unpoisoned before it is reused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

namespace brook::interp {

// What yield() asks a fiber's body to throw when the scheduler cancels it:
// unwinding runs the destructors of the objects on the fiber's stack.
struct FiberCancelled {};

class FiberSet {
 public:
  using Body = std::function<void(int64_t index)>;

  FiberSet();
  ~FiberSet();
  FiberSet(const FiberSet&) = delete;
  FiberSet& operator=(const FiberSet&) = delete;

  // Prepares fibers 0..n-1, each to run body(i) when first resumed. Fibers of
  // an earlier start() still suspended are abandoned without unwinding (call
  // cancel_all() first where their stacks hold objects to destroy).
  void start(int64_t n, Body body);
  // Runs fiber i until it yields or its body returns; rethrows what the body
  // threw (the fiber is then finished). Only from the thread that owns it.
  void resume(int64_t i);
  bool finished(int64_t i) const { return fibers_[static_cast<size_t>(i)].finished; }
  // The `site` fiber i passed to its latest yield().
  uint64_t site(int64_t i) const { return fibers_[static_cast<size_t>(i)].site; }

  // In a fiber of this set: back to the scheduler. Returns true when the
  // scheduler resumed it only to cancel it (the body must then throw
  // FiberCancelled, or return at once).
  bool yield(uint64_t site);
  // Resumes every suspended fiber once with the cancel flag, so that its body
  // unwinds; their exceptions are dropped.
  void cancel_all();

  // The set whose fiber runs on this thread now; null outside fibers.
  static FiberSet* current();

 private:
  struct Stack;
  struct Fiber {
    void* sp = nullptr;  // saved stack pointer while suspended
    Stack* stack = nullptr;
    void* fake_stack = nullptr;  // AddressSanitizer's, while suspended
    uint64_t site = 0;
    bool started = false, finished = true;
    std::exception_ptr error;
  };
  [[noreturn]] static void entry(void* fiber_set);
  void switch_to_scheduler(Fiber& f, bool exiting);

  std::vector<std::unique_ptr<Stack>> stacks_;  // one per fiber index ever started
  std::vector<Fiber> fibers_;
  Body body_;
  int64_t running_ = -1;
  bool cancel_ = false;
  void* scheduler_sp_ = nullptr;
  const void* scheduler_bottom_ = nullptr;  // the scheduler's stack, for AddressSanitizer
  size_t scheduler_size_ = 0;
  FiberSet* outer_ = nullptr;  // current() when resume() began
};

}  // namespace brook::interp
