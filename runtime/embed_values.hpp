// How the REPL and the embedding API show host values: C-like literals
// (`42`, `2.5`, `float4(1, 2, 3, 4)`, `{1, 2, 3}`, `{.x = 1, .y = 2}`, `"text"`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "interp/memory.hpp"
#include "lang/types.hpp"

namespace brook {

// The value of type `t` stored (C layout) at `bytes`. Strings behind `char*`
// are read through `memory`, checked; long arrays show their first elements.
std::string format_value(const Type* t, const uint8_t* bytes, interp::Memory& memory);

}  // namespace brook
