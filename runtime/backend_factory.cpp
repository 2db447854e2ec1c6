#include "runtime/backend_factory.hpp"

#include "backends/interp/interp_backend.hpp"
#ifdef BROOK_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif
#ifdef BROOK_HAVE_JIT
#include "jit/jit_backend.hpp"
#endif

namespace brook {

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options) {
  if (name == "interp" && options.sources) {
    return std::make_unique<InterpBackend>(*options.sources, options.output);
  }
#ifdef BROOK_HAVE_JIT
  if (name == "jit") {
    JitOptions o;
    o.threads = options.threads;
    o.use_disk_cache = options.use_disk_cache;
    o.profile = options.profile;
    o.output = options.output;
    o.fp_relaxed = options.fp_relaxed;
    return make_jit_backend(o);
  }
#endif
#ifdef BROOK_HAVE_OPENCL
  if (name == "opencl") {
    OpenCLOptions o;
    o.device = options.device;
    o.output = options.output;
    o.use_disk_cache = options.use_disk_cache;
    return make_opencl_backend(o);  // throws OpenCLSetupError with a ready message
  }
#endif
  return nullptr;
}

std::string backend_profile_report([[maybe_unused]] const Backend& backend) {
#ifdef BROOK_HAVE_JIT
  if (backend.name() == "jit") return jit_profile_report(backend);
#endif
  return "brook: --profile reports per-kernel statistics for the jit backend only\n";
}

}  // namespace brook
