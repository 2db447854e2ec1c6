#include "backends/environment.hpp"

#include <cstdlib>

namespace brook::environment {

std::optional<std::string> text(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

bool flag(const char* name, bool fallback) {
  auto v = text(name);
  if (v == "1") return true;
  if (v == "0") return false;
  return fallback;
}

std::optional<long> number(const char* name) {
  auto v = text(name);
  if (!v) return std::nullopt;
  char* end = nullptr;
  long n = std::strtol(v->c_str(), &end, 10);
  if (*end != '\0' || n < 0) return std::nullopt;
  return n;
}

std::string cache_dir(std::string_view sub) {
  if (!flag("BROOK_CACHE", true)) return {};
  std::string base;
  if (auto x = text("XDG_CACHE_HOME"))
    base = *x + "/brook";
  else if (auto h = text("HOME"))
    base = *h + "/.cache/brook";
  else
    return {};
  if (!sub.empty()) {
    base += '/';  // appended piecewise: GCC 12's -Wrestrict misfires on "/" + string
    base += sub;
  }
  return base;
}

}  // namespace brook::environment
