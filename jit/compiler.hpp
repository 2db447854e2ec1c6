// LLVM ORC LLJIT for the host CPU, a hand-picked function pass pipeline (the
// loop vectoriser for scalar element loops; the scalar cleanups alone for
// modules marked brook.spmd, which are vector code already), and a
// compiled-object cache on disk keyed by a hash of the unoptimised IR, the
// pipelines, the LLVM version and the CPU, so a second run compiles nothing.
//
// Developer knobs (phase times, pipelines, LLVM options, IR dumps) come in
// a JitTuning (jit/jit_tuning.hpp).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "jit/jit_tuning.hpp"

namespace llvm {
class Module;
}

namespace brook::jit {

class JitCompiler {
 public:
  // Objects persist under `cache_dir` (none when empty).
  JitCompiler(const JitTuning& tuning, std::string cache_dir);
  ~JitCompiler();
  JitCompiler(const JitCompiler&) = delete;
  JitCompiler& operator=(const JitCompiler&) = delete;

  // `emit` fills a module whose entry function is named `entry`.
  using Emit = std::function<void(llvm::Module& module, const std::string& entry)>;

  struct Result {
    void* address = nullptr;
    bool compiled = false;  // false: the code came from the disk cache
    double ms = 0;          // IR generation + optimisation + code generation (or cache load)
  };
  // Throws CodegenError (from `emit`) or std::runtime_error (LLVM failures).
  Result get(const Emit& emit);

  // The optimised IR `emit` produces, as text.
  std::string optimized_ir(const Emit& emit);

  // An Emit that parses textual IR into the module, "$entry" standing for the
  // entry's name: hand-written modules for tests and pipeline experiments.
  // Throws std::runtime_error when the text does not parse.
  static Emit emit_ir_text(std::string text);

  // Names the optimisation pipeline; part of the disk cache key, so objects
  // made by another pipeline are never loaded.
  static const char* pipeline_version();

  // LLVM's one-time start-up, paid before the first compile of the process
  // and not counted in any kernel's Result::ms (0 before the first compile).
  double startup_ms() const;

  // The cache folder in use ("" when the disk cache is off).
  const std::string& cache_dir() const { return cache_dir_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string cache_dir_;
  int dump_ = 0;
  bool phases_ = false;
  std::mutex mu_;
};

}  // namespace brook::jit
