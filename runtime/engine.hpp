// The Engine: owns a program (front end), the host interpreter and the chosen
// backend. The CLI, the REPL and embedders all drive this one class.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "lang/frontend.hpp"

namespace brook {

struct EngineOptions {
  std::string backend;  // "interp", "jit", "opencl"; empty: $BROOK_BACKEND, else the best built
  int device = -1;      // OpenCL device index; -1: $BROOK_OPENCL_DEVICE, else 0
  int threads = 0;      // JIT worker threads; 0: $BROOK_THREADS, else all cores
  bool dump_plans = false;
  bool profile = false;
  bool use_disk_cache = true;
  bool color = false;  // colour diagnostics
  bool repl = false;   // later definitions replace earlier ones
  PreprocessOptions preprocess;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Parse and check; nothing runs. Diagnostics go to stderr. False on error.
  bool compile_file(const std::string& path);
  bool compile_source(std::string name, std::string text);

  // Runs the top-level statements of everything compiled and not yet run, then
  // `main(argc, argv)` when defined. Returns the exit status of LANGUAGE.md §1:
  // main's return value (0 without main), the argument of exit(), or 1 after a
  // runtime error (already printed as file:line:col: runtime error: …).
  int run(std::span<const std::string> argv);

  FrontEnd& front_end();

  // Where program output and diagnostics go: f(1, text) for stdout, f(2, text)
  // for stderr. Default: the process's stdout and stderr.
  void set_output(std::function<void(int stream, std::string_view text)> f);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace brook
