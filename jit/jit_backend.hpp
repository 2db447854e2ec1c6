// The LLVM ORC JIT backend: kernels compiled to native code for the host CPU,
// run over the domain on a thread pool. LLVM stays behind this header.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "jit/jit_tuning.hpp"
#include "lang/ast.hpp"

namespace brook {

struct JitOptions {
  int threads = 0;          // 0: every core
  std::string cache_dir;    // compiled objects persist here; empty: no disk cache
  bool profile = false;     // collect per-kernel statistics (jit_profile_report)
  OutputSink output;        // kernel printf; default: stdout
  bool fp_relaxed = false;  // `#pragma brook fp_relaxed`: fast-math flags
  JitTuning tuning;         // defaults; the registry fills it from BROOK_JIT_*
};

std::unique_ptr<Backend> make_jit_backend(const JitOptions& options);

// Per kernel: compiles, compile ms, launches, run ms, elements/s. Empty when
// `backend` is not a JIT backend or profiling is off.
std::string jit_profile_report(const Backend& backend);

// Number of kernels compiled (not loaded from the disk cache) so far.
int jit_compile_count(const Backend& backend);

// `brook emit llvm`: the optimised IR of every kernel launchable from the host
// (1-D streams, same-shape inputs) and every reduce function of `program`;
// with `only`, of the kernel or reduction of that name alone (empty result
// when there is none). Each module follows a header line "; kernel NAME (…)",
// "; reduce NAME" or "; NAME: why it has none".
std::string jit_emit_llvm(const ast::Program& program, bool fp_relaxed, std::string_view only = {},
                          const JitTuning& tuning = {});

// The version of the LLVM this backend was built with ("19.1.7").
std::string jit_llvm_version();

}  // namespace brook
