#include "jit/thread_pool.hpp"

namespace brook::jit {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
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
  ++generation_;
  wake_.notify_all();
  while (next_ < count_) {
    int64_t i = next_++;
    lock.unlock();
    task(i);
    lock.lock();
    ++finished_;
  }
  done_.wait(lock, [&] { return finished_ == count_; });
  task_ = nullptr;
}

void ThreadPool::work() {
  uint64_t seen = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || (generation_ != seen && task_ && next_ < count_); });
    if (stop_) return;
    seen = generation_;
    while (task_ && next_ < count_) {
      int64_t i = next_++;
      const auto* task = task_;
      lock.unlock();
      (*task)(i);
      lock.lock();
      if (++finished_ == count_) done_.notify_all();
    }
  }
}

}  // namespace brook::jit
