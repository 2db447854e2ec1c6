// streamPrint's text (LANGUAGE.md §4, BrookGPU's format).
#pragma once

#include <span>
#include <string>

namespace brook::stdlib {

// One component as `%3.2f`, except: |v| < 1e-6 prints "0.00" (so no "-0.00"),
// NaN prints "NaN", +inf and -inf print "inf".
std::string format_stream_component(double v);

// One element: a scalar (`is_scalar`, one component) as the component then a
// space; a vector or struct as "{" + components joined by ", " + "}".
// The newline after each row is the caller's.
std::string format_stream_element(std::span<const double> components, bool is_scalar);

}  // namespace brook::stdlib
