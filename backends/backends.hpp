#pragma once

#include <string>
#include <vector>

namespace brook {

// "interp" always; "jit" and "opencl" when built. The first is the fallback,
// the last built of jit/interp is the default (LANGUAGE.md §1: jit where built).
std::vector<std::string> built_backends();

}  // namespace brook
