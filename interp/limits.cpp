#include "interp/limits.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "interp/interrupt.hpp"

namespace brook {

std::string size_text(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  // Whole numbers print without a fraction: "64 MiB", not "64.0 MiB".
  if (v == std::floor(v))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[unit]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

std::string MemoryBudget::exceeded(std::string_view what, uint64_t bytes) const {
  return std::string(what) + " needs " + size_text(bytes) + ", past the memory limit of " +
         size_text(cap_) + " (" + size_text(used_) + " in use; --max-memory)";
}

bool parse_size(std::string_view text, uint64_t* bytes) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end == text.data()) return false;
  std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  int shift = 0;
  if (!unit.empty()) {
    switch (unit[0]) {
      case 'k':
      case 'K':
        shift = 10;
        break;
      case 'm':
      case 'M':
        shift = 20;
        break;
      case 'g':
      case 'G':
        shift = 30;
        break;
      case 't':
      case 'T':
        shift = 40;
        break;
      default:
        return false;
    }
    std::string_view rest = unit.substr(1);
    if (!(rest.empty() || rest == "B" || rest == "iB" || rest == "b")) return false;
  }
  if (n == 0 || n > (UINT64_MAX >> shift)) return false;
  *bytes = n << shift;
  return true;
}

bool parse_seconds(std::string_view text, double* seconds) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !(v > 0) || !std::isfinite(v))
    return false;
  *seconds = v;
  return true;
}

Watchdog::Watchdog(double seconds) {
  time_limit_expired.store(false);
  if (!(seconds > 0)) return;
  const auto limit = std::chrono::duration<double>(seconds);
  thread_ = std::thread([this, limit] {
    std::unique_lock lock(mutex_);
    if (done_.wait_for(lock, limit, [this] { return finished_; })) return;
    time_limit_expired.store(true);
    interrupt_requested.store(true);
  });
}

Watchdog::~Watchdog() {
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    done_.notify_one();
    thread_.join();
  }
  // A limit that fired after the run had ended must not interrupt the next one.
  if (time_limit_expired.exchange(false)) interrupt_requested.store(false);
}

std::string time_limit_message(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", seconds);
  return std::string("the time limit of ") + buf +
         " s was reached (--time-limit); the program was stopped";
}

}  // namespace brook
