#include "interp/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define BROOK_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BROOK_FIBER_ASAN 1
#endif
#endif
#ifdef BROOK_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace brook::interp {

namespace {

#ifdef BROOK_FIBER_ASAN
// Sanitized frames are larger.
constexpr size_t kStackBytes = size_t{4} << 20;
#else
// Kernels cannot recurse (sema), so a body's native depth is bounded by its
// call graph and expression nesting; 1 MiB is far more than that. Pages are
// committed only when touched.
constexpr size_t kStackBytes = size_t{1} << 20;
#endif

thread_local FiberSet* g_current = nullptr;

void start_switch([[maybe_unused]] void** fake_save, [[maybe_unused]] const void* bottom,
                  [[maybe_unused]] size_t size) {
#ifdef BROOK_FIBER_ASAN
  __sanitizer_start_switch_fiber(fake_save, bottom, size);
#endif
}

void finish_switch([[maybe_unused]] void* fake, [[maybe_unused]] const void** bottom_old,
                   [[maybe_unused]] size_t* size_old) {
#ifdef BROOK_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, bottom_old, size_old);
#endif
}

}  // namespace

#if defined(__x86_64__)
// brook_fiber_switch(save, to): pushes the callee-saved registers on the
// current stack, stores the stack pointer in *save, loads `to` and pops the
// same from there. The SSE and x87 control words are not switched (saving
// and loading them was 80 % of a switch): a thread's fibers share its
// rounding modes, which nothing in a kernel changes. A new fiber's stack is
// prepared (make_stack) so that the pops end in brook_fiber_start, which
// calls entry(rbx) through r12 on a 16-byte aligned stack.
extern "C" void brook_fiber_switch(void** save, void* to);
extern "C" void brook_fiber_start();
asm(R"(
  .text
  .globl brook_fiber_switch
  .type brook_fiber_switch, @function
brook_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size brook_fiber_switch, .-brook_fiber_switch

  .globl brook_fiber_start
  .type brook_fiber_start, @function
brook_fiber_start:
  movq %rbx, %rdi
  callq *%r12
  ud2
  .size brook_fiber_start, .-brook_fiber_start
  .section .note.GNU-stack,"",@progbits
  .text
)");
#endif

// One fiber stack: mapped once, with a guard page below it so an overflow
// faults instead of overwriting another stack.
struct FiberSet::Stack {
  void* map = MAP_FAILED;
  size_t map_bytes = 0;
  std::byte* bottom = nullptr;  // lowest usable byte
  size_t size = 0;
#if !defined(__x86_64__)
  ucontext_t context{};
#endif

  Stack() {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    map_bytes = kStackBytes + page;
    map = mmap(nullptr, map_bytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) throw std::bad_alloc();
    mprotect(map, page, PROT_NONE);
    bottom = static_cast<std::byte*>(map) + page;
    size = kStackBytes;
  }
  ~Stack() {
#ifdef BROOK_FIBER_ASAN
    // A finished fiber never returns from FiberSet::entry (an abandoned one
    // from any of its frames): their redzones would outlive the mapping and
    // poison whatever is mapped here next.
    __asan_unpoison_memory_region(bottom, static_cast<std::byte*>(map) + map_bytes - bottom);
#endif
    munmap(map, map_bytes);
  }
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;
};

namespace {

#if defined(__x86_64__)
// The stack pointer brook_fiber_switch loads to start `entry(arg)`.
void* make_stack(std::byte* bottom, size_t size, void (*entry)(void*), void* arg) {
  auto top = reinterpret_cast<uintptr_t>(bottom + size) & ~uintptr_t{15};
  auto* w = reinterpret_cast<uint64_t*>(top);
  // After the final `ret` pops w[-1], rsp == top (16-aligned), so the `call`
  // in brook_fiber_start enters `entry` with rsp % 16 == 8 as the ABI wants.
  w[-1] = reinterpret_cast<uint64_t>(&brook_fiber_start);  // ret
  w[-2] = 0;                                               // rbp
  w[-3] = reinterpret_cast<uint64_t>(arg);                 // rbx
  w[-4] = reinterpret_cast<uint64_t>(entry);               // r12
  w[-5] = w[-6] = w[-7] = 0;                               // r13, r14, r15
  return &w[-7];
}
#endif

}  // namespace

FiberSet::FiberSet() = default;
FiberSet::~FiberSet() = default;

FiberSet* FiberSet::current() {
  return g_current;
}

void FiberSet::start(int64_t n, Body body) {
  body_ = std::move(body);
  while (stacks_.size() < static_cast<size_t>(n)) {
    stacks_.push_back(std::make_unique<Stack>());
    // Stack tops all at one offset modulo 4 KiB would share a few L1 cache
    // sets: every switch touches the top lines of its stack, so stagger them.
    stacks_.back()->size -= (stacks_.size() * 704) % 4096;
  }
  fibers_.assign(static_cast<size_t>(n), Fiber{});
  for (size_t i = 0; i < fibers_.size(); ++i) {
    fibers_[i].stack = stacks_[i].get();
    fibers_[i].finished = false;
  }
  cancel_ = false;
}

void FiberSet::entry(void* set_ptr) {
  auto* set = static_cast<FiberSet*>(set_ptr);
  finish_switch(nullptr, &set->scheduler_bottom_, &set->scheduler_size_);
  Fiber* f = &set->fibers_[static_cast<size_t>(set->running_)];
  try {
    set->body_(set->running_);
  } catch (const FiberCancelled&) {
  } catch (...) {
    f->error = std::current_exception();
  }
  f = &set->fibers_[static_cast<size_t>(set->running_)];
  f->finished = true;
  set->switch_to_scheduler(*f, true);
  __builtin_unreachable();
}

void FiberSet::switch_to_scheduler(Fiber& f, bool exiting) {
  // A finished fiber's fake stack goes away with it (null save slot).
  start_switch(exiting ? nullptr : &f.fake_stack, scheduler_bottom_, scheduler_size_);
#if defined(__x86_64__)
  brook_fiber_switch(&f.sp, scheduler_sp_);
#else
  swapcontext(&f.stack->context, static_cast<ucontext_t*>(scheduler_sp_));
#endif
  finish_switch(f.fake_stack, &scheduler_bottom_, &scheduler_size_);
}

void FiberSet::resume(int64_t i) {
  Fiber& f = fibers_[static_cast<size_t>(i)];
  if (f.finished) return;
  if (!f.started) {
    f.started = true;
#ifdef BROOK_FIBER_ASAN
    // Frames abandoned on this stack by an earlier group left their poison.
    __asan_unpoison_memory_region(f.stack->bottom, f.stack->size);
#endif
#if defined(__x86_64__)
    f.sp = make_stack(f.stack->bottom, f.stack->size, &FiberSet::entry, this);
#else
    getcontext(&f.stack->context);
    f.stack->context.uc_stack.ss_sp = f.stack->bottom;
    f.stack->context.uc_stack.ss_size = f.stack->size;
    f.stack->context.uc_link = nullptr;
    // makecontext passes int arguments: the pointer in two halves would be
    // needed in general; the set is found through g_current instead.
    makecontext(&f.stack->context, reinterpret_cast<void (*)()>(+[] { entry(g_current); }), 0);
#endif
  }
  outer_ = g_current;
  g_current = this;
  running_ = i;
  void* fake = nullptr;
  start_switch(&fake, f.stack->bottom, f.stack->size);
#if defined(__x86_64__)
  brook_fiber_switch(&scheduler_sp_, f.sp);
#else
  ucontext_t here;
  scheduler_sp_ = &here;
  swapcontext(&here, &f.stack->context);
#endif
  finish_switch(fake, nullptr, nullptr);
  running_ = -1;
  g_current = outer_;
  if (f.error) {
    std::exception_ptr e = std::move(f.error);
    f.error = nullptr;
    std::rethrow_exception(e);
  }
}

bool FiberSet::yield(uint64_t site) {
  Fiber& f = fibers_[static_cast<size_t>(running_)];
  f.site = site;
  switch_to_scheduler(f, false);
  return cancel_;
}

void FiberSet::cancel_all() {
  cancel_ = true;
  for (size_t i = 0; i < fibers_.size(); ++i) {
    Fiber& f = fibers_[i];
    if (f.finished) continue;
    if (!f.started) {
      f.finished = true;  // never ran: nothing to unwind
      continue;
    }
    try {
      resume(static_cast<int64_t>(i));
    } catch (...) {
    }
    f.finished = true;
  }
  cancel_ = false;
}

}  // namespace brook::interp
