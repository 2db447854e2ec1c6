#include "runtime/backend_factory.hpp"

#include "backends/interp/interp_backend.hpp"

namespace brook {

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options) {
  if (name == "interp" && options.sources) {
    return std::make_unique<InterpBackend>(*options.sources, options.output);
  }
  return nullptr;
}

}  // namespace brook
