#include "runtime/big_stack.hpp"

#include <pthread.h>

#include <exception>

namespace brook {

namespace {
struct Job {
  const std::function<void()>* f;
  std::exception_ptr error;
};

void* trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  try {
    (*job->f)();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}
}  // namespace

void run_with_big_stack(const std::function<void()>& f, std::size_t stack_bytes) {
  Job job{&f, nullptr};
  pthread_attr_t attr;
  bool started = false;
  pthread_t thread;
  if (pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
        pthread_create(&thread, &attr, trampoline, &job) == 0) {
      started = true;
      pthread_join(thread, nullptr);
    }
    pthread_attr_destroy(&attr);
  }
  if (!started) trampoline(&job);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace brook
