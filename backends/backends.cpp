// Names of the backends this build contains (the JIT and OpenCL ones are optional).
#include "backends/backends.hpp"

namespace brook {

std::vector<std::string> built_backends() {
  std::vector<std::string> names{"interp"};
#ifdef BROOK_HAVE_JIT
  names.push_back("jit");
#endif
#ifdef BROOK_HAVE_OPENCL
  names.push_back("opencl");
#endif
  return names;
}

}  // namespace brook

#include "backends/backend.hpp"

namespace brook {

std::vector<std::vector<std::byte>> Backend::run_map_vout(const MapPlan& plan) {
  throw PlanError{plan.loc, "vout outputs are not supported on the '" + std::string(name()) + "' backend"};
}

}  // namespace brook
