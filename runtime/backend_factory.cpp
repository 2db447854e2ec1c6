#include "runtime/backend_factory.hpp"

#include "backends/interp/interp_backend.hpp"
#ifdef BROOK_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif

namespace brook {

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options) {
  if (name == "interp" && options.sources) {
    return std::make_unique<InterpBackend>(*options.sources, options.output);
  }
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

}  // namespace brook
