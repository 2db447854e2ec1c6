// LLVM ORC LLJIT for the host CPU, an O3 pipeline with the vectorisers on,
// and a compiled-object cache on disk keyed by a hash of the unoptimised IR,
// the LLVM version and the CPU, so a second run compiles nothing.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class Module;
}

namespace brook::jit {

class JitCompiler {
 public:
  explicit JitCompiler(bool use_disk_cache);
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

  // The cache folder in use ("" when the disk cache is off).
  const std::string& cache_dir() const { return cache_dir_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string cache_dir_;
  std::mutex mu_;
};

}  // namespace brook::jit
