// Test harness for the JIT backend: compile a Brook source with the front
// end, create streams in a backend, plan launches with the Scheduler and read
// the results back, without the Engine.
#pragma once

#ifdef BROOK_HAVE_JIT

#include <string>

#include "jit/jit_backend.hpp"
#include "backend_session.hpp"

namespace brook::jit_test {

struct Harness : test::BackendSession {
  explicit Harness(const std::string& source, int threads = 2) {
    auto unit = fe.load_source("test.br", source);
    program = unit.program;
    JitOptions o;
    o.threads = threads;
    o.profile = true;
    o.output = [this](std::string_view s) { printed += s; };
    be = make_jit_backend(o);
  }
  bool ok() const { return program != nullptr; }
};

}  // namespace brook::jit_test

#endif
