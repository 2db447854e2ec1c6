#include "stdlib/stream_print.hpp"

#include <cmath>
#include <cstdio>

namespace brook::stdlib {

std::string format_stream_component(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return "inf";
  if (std::fabs(v) < 1e-6) return "0.00";
  int n = std::snprintf(nullptr, 0, "%3.2f", v);
  if (n < 0) return "NaN";
  std::string text(static_cast<std::size_t>(n), '\0');
  std::snprintf(text.data(), text.size() + 1, "%3.2f", v);
  return text;
}

std::string format_stream_element(std::span<const double> components, bool is_scalar) {
  if (is_scalar && components.size() == 1) return format_stream_component(components[0]) + " ";
  std::string text = "{";
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (i > 0) text += ", ";
    text += format_stream_component(components[i]);
  }
  text += "}";
  return text;
}

}  // namespace brook::stdlib
