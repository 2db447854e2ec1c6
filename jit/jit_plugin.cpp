// The table of jit/jit_plugin.hpp. The environment is read here, once per
// backend made (backends/environment.hpp), as the registry does for the
// backends it links directly.
#include "jit/jit_plugin.hpp"

#include "backends/environment.hpp"
#include "backends/registry.hpp"
#include "jit/jit_backend.hpp"

namespace brook {
namespace {

std::unique_ptr<Backend> make(const BackendOptions& options) {
  JitOptions o;
  o.threads = options.threads > 0 ? options.threads
                                  : static_cast<int>(environment::number("BROOK_THREADS").value_or(0));
  if (options.use_disk_cache) o.cache_dir = environment::cache_dir("");
  o.profile = options.profile;
  o.output = options.output;
  o.fp_relaxed = options.fp_relaxed;
  o.tuning = JitTuning::from_environment();
  return make_jit_backend(o);
}

std::string emit(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  return jit_emit_llvm(program, fp_relaxed, only, JitTuning::from_environment());
}

constexpr JitPlugin kPlugin{.version = BROOK_JIT_PLUGIN_VERSION,
                            .make = make,
                            .emit = emit,
                            .profile_report = jit_profile_report,
                            .llvm_version = jit_llvm_version};

}  // namespace
}  // namespace brook

extern "C" __attribute__((visibility("default"))) const brook::JitPlugin* brook_jit_plugin() {
  return &brook::kPlugin;
}
