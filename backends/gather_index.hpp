// How streamGatherOp/streamScatterOp read a position from an index element
// (LANGUAGE.md §4): component j is the position along the j-th dimension
// from the last; floats round as (int)(f + 0.5f) after clamping to ±1e18,
// NaN is -1 (out of range). Every backend checks indices with this on the
// host (OpenCL's device code spells the same rule in OpenCL C).
#pragma once

#include <cstddef>
#include <cstdint>

#include "lang/types.hpp"

namespace brook {

int64_t gather_index_component(const Type* index_elem, const std::byte* element, uint32_t j);

}  // namespace brook
