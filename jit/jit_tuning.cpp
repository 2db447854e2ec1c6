#include "jit/jit_tuning.hpp"

#include "backends/environment.hpp"

namespace brook {

JitTuning JitTuning::from_environment() {
  namespace env = environment;
  JitTuning t;
  t.spmd.enabled = env::flag("BROOK_JIT_SPMD", true);
  if (auto w = env::number("BROOK_JIT_SPMD_WIDTH");
      w && (*w == 4 || *w == 8 || *w == 16 || *w == 32))
    t.spmd.width = static_cast<int>(*w);
  t.spmd.always = env::text("BROOK_JIT_SPMD_ALWAYS").has_value();
  t.spmd.debug = env::text("BROOK_JIT_SPMD_DEBUG").has_value();
  if (auto d = env::number("BROOK_JIT_DUMP"); d && (*d == 1 || *d == 2))
    t.dump = static_cast<int>(*d);
  t.phases = env::flag("BROOK_JIT_PHASES", false);
  t.scalar_pipeline = env::text("BROOK_JIT_PIPELINE").value_or("");
  t.spmd_pipeline = env::text("BROOK_JIT_SPMD_PIPELINE").value_or("");
  t.llvm_args = env::text("BROOK_JIT_LLVM_ARGS").value_or("");
  return t;
}

}  // namespace brook
