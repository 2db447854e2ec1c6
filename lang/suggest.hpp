// "did you mean": the known name nearest to a misspelt one, as clang picks it.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace brook {

// `; did you mean 'float'?` for the candidate nearest to `name` (optimal
// string alignment distance: an adjacent swap costs 1, so "flaot" is 1 from
// "float"), when one is near enough: at most a third of the name's length,
// and at least one edit. Empty when none is; ties go to the first candidate.
std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates);

// Spellings of brook's built-in types ("float", "float4", "uchar", "size_t", …),
// candidates for an unknown type name.
std::span<const std::string_view> builtin_type_spellings();

}  // namespace brook
