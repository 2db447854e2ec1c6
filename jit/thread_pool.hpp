// A fixed pool of worker threads running index ranges; the calling thread
// works too. Tasks are claimed in order from a counter under one mutex.
//
// Whole programs launch thousands of short kernels back to back (sgm_path:
// 2,560 launches of ~0.1 ms), so a worker that blocks in the kernel after
// each launch costs a futex wake-up, a reschedule and, on a VM, an IPI to a
// halted vCPU per launch. Workers and the caller therefore spin (with a CPU
// pause) for a bounded time before blocking, and a notify is only issued when
// someone actually sleeps. The mutex protocol is unchanged, so the spinning
// only decides when to take the lock.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace brook::jit {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls task(i) for i in [0, count), spread over the pool; returns when all
  // are done. Not reentrant.
  void run(int64_t count, const std::function<void(int64_t)>& task);

 private:
  void work();
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(int64_t)>* task_ = nullptr;
  int64_t count_ = 0, next_ = 0, finished_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  // Guarded by mu_: how many workers are blocked in wake_, whether the
  // caller is blocked in done_ (notify only then).
  int sleeping_workers_ = 0;
  bool caller_sleeping_ = false;
  // Mirrors of generation_ and of "all finished", read without the lock while
  // spinning; written under it.
  std::atomic<uint64_t> generation_seen_{0};
  std::atomic<bool> all_finished_{true};
};

}  // namespace brook::jit
