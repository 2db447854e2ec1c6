// What every translation unit starts with: the predefined macros (C's
// standard ones, the C library's constants and classification macros,
// BrookGPU's names) and the standard headers brook provides built in.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brook::pp {

// Each as the text of a #define after the word: "NAME value" or "NAME(args) body".
std::span<const std::string_view> predefined_macros();
// __DATE__ and __TIME__ for a translation starting now, in the same form.
std::vector<std::string> date_and_time_macros();
// `#include <name>` (or "name" when no such file exists) of a header whose
// declarations are built in: it reads nothing.
bool is_standard_header(std::string_view name);
// Macros a built-in header defines that are ordinary names, so that they are
// defined only where the header is included (<iso646.h>'s `and`, `or`, ...).
std::span<const std::string_view> header_macros(std::string_view name);

}  // namespace brook::pp
