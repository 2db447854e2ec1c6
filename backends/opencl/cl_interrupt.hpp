// Ctrl-C for OpenCL launches. The host waits for a launch by polling, not by
// blocking in the driver, so it sees brook::interrupt_requested (set by the
// REPL's signal handler or another thread); it then raises a stop word that
// generated loops poll (cl_printer.cpp), lets the queue drain, and throws
// brook::Interrupted with the request consumed, as brook::poll_interrupt does.
#pragma once

#include <memory>

#include "backends/opencl/cl_headers.hpp"

namespace brook::opencl {

class ClInterrupt {
 public:
  explicit ClInterrupt(cl::Context& context);

  // The stop word, for the `volatile __global int* stop` kernel argument.
  const cl::Buffer& stop_buffer() const { return stop_; }

  // Waits until `done` completes. On an interrupt meanwhile: stops the
  // queue's kernels, waits for them and throws Interrupted. A failed command
  // throws cl::Error.
  void wait(cl::CommandQueue& queue, cl::Event& done);

 private:
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  // Host memory the device reads in place (CL_MEM_USE_HOST_PTR): on PoCL's
  // CPU device a running kernel sees the host's store through a volatile
  // read. A discrete GPU would need this buffer in host-visible memory.
  std::unique_ptr<cl_int, FreeDeleter> word_;
  cl::Buffer stop_;
};

}  // namespace brook::opencl
