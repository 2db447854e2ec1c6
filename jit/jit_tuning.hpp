// The JIT's knobs for experiments and tests. Each has a BROOK_JIT_*
// environment variable that JitTuning::from_environment() reads; the backend
// registry calls it once per engine, and the code generator and compiler see
// only this struct. LLVM stays behind it.
#pragma once

#include <string>

namespace brook {

// What the SPMD code generator may choose (jit/spmd.hpp).
struct SpmdTuning {
  bool enabled = true;  // BROOK_JIT_SPMD=0: every map kernel takes the scalar path
  int width = 0;        // BROOK_JIT_SPMD_WIDTH=4|8|16|32 fixes the gang width; 0: per kernel
  bool always = false;  // BROOK_JIT_SPMD_ALWAYS=1: SPMD even where the scalar path measured faster
  bool debug = false;   // BROOK_JIT_SPMD_DEBUG=1: say on stderr which path each kernel took
};

struct JitTuning {
  SpmdTuning spmd;
  int dump = 0;                 // BROOK_JIT_DUMP=1: IR before optimisation on stderr; 2: after
  bool phases = false;          // BROOK_JIT_PHASES=1: each compile's phases, in CPU ms, on stderr
  std::string scalar_pipeline;  // BROOK_JIT_PIPELINE: an `opt -passes=` text; empty: brook's own
  std::string spmd_pipeline;    // BROOK_JIT_SPMD_PIPELINE: the same for SPMD modules
  // BROOK_JIT_LLVM_ARGS: LLVM's own command-line options. LLVM keeps them
  // process-wide, so the first JIT of a process applies them.
  std::string llvm_args;

  static JitTuning from_environment();
};

}  // namespace brook
