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

// streamPrint output cut to its first rows (and long rows to their start), so
// a large stream does not flood the terminal.
std::string abbreviate_rows(std::string_view text, size_t max_rows = 8, size_t max_columns = 100);

}  // namespace brook
