// Brook+'s instance() (LANGUAGE.md §5): the invocation's position in the
// first output's stream, so a domain's offset is included. Every backend adds
// this to the domain position; the rule lives in the scheduler.
#pragma once

#include <array>
#include <cstdint>

#include "backends/plan.hpp"

namespace brook {

// (x, y, z, w): x is the last dimension. Zero when the first output is a whole stream.
std::array<int32_t, 4> instance_offset(const MapPlan& plan);

}  // namespace brook
