#include "backends/backend.hpp"

namespace brook {

std::vector<std::vector<std::byte>> Backend::run_map_vout(const MapPlan& plan) {
  throw PlanError{plan.loc,
                  "vout outputs are not supported on the '" + std::string(name()) + "' backend"};
}

}  // namespace brook
