#include "backends/opencl/cl_interrupt.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "interp/interrupt.hpp"

namespace brook::opencl {

namespace {

// Wakes waiters when any launch completes. Process-wide, so a driver
// callback that runs after its backend is gone touches nothing dead.
struct Waker {
  std::mutex mutex;
  std::condition_variable cv;
};

Waker& waker() {
  static Waker w;
  return w;
}

void CL_CALLBACK on_complete(cl_event, cl_int, void*) {
  Waker& w = waker();
  { std::lock_guard<std::mutex> lock(w.mutex); }
  w.cv.notify_all();
}

// How often a waiter looks at the launch and at interrupt_requested when no
// completion callback wakes it. A driver may call back late: on NVIDIA's
// OpenCL (an H200, bench/RESULTS.md, 2026-12-04) every wait for a kernel of
// mandelbrot took the whole interval, 5 ms then. So a waiter first looks
// without sleeping for a short while (most launches a host waits for are
// short), then sleeps in short steps.
constexpr auto kPollInterval = std::chrono::milliseconds(1);
constexpr auto kSpin = std::chrono::microseconds(100);
constexpr size_t kWordBytes = 4096;

}  // namespace

void ClInterrupt::FreeDeleter::operator()(void* p) const {
  std::free(p);
}

ClInterrupt::ClInterrupt(cl::Context& context)
    : word_(static_cast<cl_int*>(std::aligned_alloc(kWordBytes, kWordBytes))) {
  if (!word_) throw std::bad_alloc();
  *word_ = 0;
  stop_ = cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof(cl_int), word_.get());
}

void ClInterrupt::wait(cl::CommandQueue& queue, cl::Event& done) {
  queue.flush();
  auto status = [&] { return done.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>(); };
  Waker& w = waker();
  auto stop_if_asked = [&] {
    if (!interrupt_requested.load(std::memory_order_relaxed)) return;
    std::atomic_ref<cl_int>(*word_).store(1);
    queue.finish();  // the kernels' loops see the word and end
    std::atomic_ref<cl_int>(*word_).store(0);
    interrupt_requested.store(false, std::memory_order_relaxed);
    throw Interrupted{};
  };
  const auto spin_end = std::chrono::steady_clock::now() + kSpin;
  while (status() > CL_COMPLETE && std::chrono::steady_clock::now() < spin_end) {
    stop_if_asked();
    std::this_thread::yield();
  }
  done.setCallback(CL_COMPLETE, on_complete, nullptr);
  std::unique_lock<std::mutex> lock(w.mutex);
  for (cl_int s = status(); s > CL_COMPLETE; s = status()) {
    if (interrupt_requested.load(std::memory_order_relaxed)) {
      lock.unlock();
      stop_if_asked();
    }
    w.cv.wait_for(lock, kPollInterval);
  }
  if (cl_int s = status(); s < 0) throw cl::Error(s, "a launch failed on the device");
}

}  // namespace brook::opencl
