#include "jit/thread_pool.hpp"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace brook::jit {

namespace {

// How long a thread spins before blocking: longer than the host code between
// two launches of a typical loop (a few to tens of µs in the interpreter),
// short enough that an idle pool gives its core back at once on the scale of
// a human or of another process's time slice.
constexpr auto kSpin = std::chrono::microseconds(20);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until ready() or kSpin has passed; true if ready() became true. The
// first few µs with a CPU pause, then yielding the core between tests, so a
// machine with more runnable threads than cores runs them meanwhile.
template <class Ready>
bool spin_until(Ready ready) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if (i < 64) {
      for (int k = 0; k < 16; ++k) cpu_relax();
      continue;
    }
    std::this_thread::yield();
    if (std::chrono::steady_clock::now() - start > kSpin) return ready();
  }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    generation_seen_.store(++generation_, std::memory_order_release);
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run(int64_t count, const std::function<void(int64_t)>& task) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int64_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::unique_lock lock(mu_);
  task_ = &task;
  count_ = count;
  next_ = 0;
  finished_ = 0;
  all_finished_.store(false, std::memory_order_relaxed);
  generation_seen_.store(++generation_, std::memory_order_release);
  if (sleeping_workers_ > 0) wake_.notify_all();
  while (next_ < count_) {
    int64_t i = next_++;
    lock.unlock();
    task(i);
    lock.lock();
    ++finished_;
  }
  if (finished_ != count_) {
    // The workers are finishing their last tasks: wait for them spinning
    // first, then blocked.
    lock.unlock();
    spin_until([&] { return all_finished_.load(std::memory_order_acquire); });
    lock.lock();
    caller_sleeping_ = true;
    done_.wait(lock, [&] { return finished_ == count_; });
    caller_sleeping_ = false;
  }
  task_ = nullptr;
}

void ThreadPool::work() {
  uint64_t seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    auto ready = [&] { return stop_ || (generation_ != seen && task_ && next_ < count_); };
    if (!ready()) {
      // Nothing left to claim in the current generation: wait for the next
      // one, spinning on the lock-free mirror of the generation first.
      seen = generation_;
      lock.unlock();
      spin_until([&] { return generation_seen_.load(std::memory_order_acquire) != seen; });
      lock.lock();
      if (!ready()) {
        ++sleeping_workers_;
        wake_.wait(lock, ready);
        --sleeping_workers_;
      }
    }
    if (stop_) return;
    seen = generation_;
    while (task_ && next_ < count_) {
      int64_t i = next_++;
      const auto* task = task_;
      lock.unlock();
      (*task)(i);
      lock.lock();
      if (++finished_ == count_) {
        all_finished_.store(true, std::memory_order_release);
        if (caller_sleeping_) done_.notify_all();
      }
    }
  }
}

}  // namespace brook::jit
