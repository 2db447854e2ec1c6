#include "backends/profile.hpp"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace brook {

namespace {

// How long the process ran before this library's static initialisers (exec,
// dynamic loading of LLVM and OpenCL libraries), from the kernel's start time
// of the process (/proc/self/stat, in clock ticks since boot, so to 10 ms)
// against CLOCK_BOOTTIME now. 0 where that cannot be read.
double ms_since_start_tick() {
  std::FILE* f = std::fopen("/proc/self/stat", "r");
  if (!f) return 0;
  char buf[1024];
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = 0;
  const char* p = std::strrchr(buf, ')');  // the command name may hold spaces
  if (!p) return 0;
  // Field 22 (starttime); the text after ')' starts at field 3.
  int field = 2;
  unsigned long long start = 0;
  for (const char* q = p + 1; *q; ++q) {
    if (*q == ' ' && ++field == 22) {
      start = std::strtoull(q + 1, nullptr, 10);
      break;
    }
  }
  long ticks = sysconf(_SC_CLK_TCK);
  timespec now{};
  if (!start || ticks <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0;
  double ms = (static_cast<double>(now.tv_sec) + now.tv_nsec / 1e9 - static_cast<double>(start) / ticks) * 1000.0;
  return ms > 0 && ms < 60000 ? ms : 0;
}

// The start tick says the process began up to one tick (10 ms) after it;
// the process's CPU time so far (exec and dynamic loading, single-threaded
// and on the CPU unless it waited for the disk) says where in that window,
// to the microsecond. Without it, a 150 ms program's report was off by up
// to 7 % against the time its parent measured.
double ms_before_static_init() {
  const double tick = ms_since_start_tick();
  timespec cpu{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0) return tick;
  const double ran = static_cast<double>(cpu.tv_sec) * 1e3 + cpu.tv_nsec / 1e6;
  if (tick <= 0) return ran < 60000 ? ran : 0;
  const long ticks = sysconf(_SC_CLK_TCK);
  const double window = ticks > 0 ? 1000.0 / static_cast<double>(ticks) : 10.0;
  return ran < tick - window ? tick - window : ran > tick ? tick : ran;
}

// When the process started: set by this library's first static initialiser,
// before main, moved back by the time the process ran before it.
const Profile::Clock::time_point g_start =
    Profile::Clock::now() - std::chrono::duration_cast<Profile::Clock::duration>(
                                std::chrono::duration<double, std::milli>(ms_before_static_init()));

std::string megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

Profile::Clock::time_point process_start() { return g_start; }

double Profile::overhead_ms() const {
  double c = 0;
  for (const auto& [name, k] : kernels) c += k.compile_ms;
  return c + alias_ms + startup_ms;
}

std::string Profile::report(double wall_ms, std::string_view wall_label) const {
  std::string out;
  char line[320];
  out +=
      "kernel                compiles cached compile ms  launches  total run ms    mean ms     "
      "elements/s  bytes moved\n";
  double compile = 0, run = 0;
  for (const auto& [name, k] : kernels) {
    double eps = k.run_ms > 0 ? static_cast<double>(k.elements) / (k.run_ms / 1000.0) : 0;
    double mean = k.launches ? k.run_ms / static_cast<double>(k.launches) : 0;
    std::snprintf(line, sizeof line, "%-20s %9d %6d %11.2f %9lld %13.3f %10.4f %14.4g  %s\n",
                  name.c_str(), k.compiles, k.cache_loads, k.compile_ms,
                  static_cast<long long>(k.launches), k.run_ms, mean, eps,
                  megabytes(k.bytes).c_str());
    out += line;
    compile += k.compile_ms;
    run += k.run_ms;
  }
  const double counted = startup_ms + frontend_ms + compile + run + alloc_ms + transfer_ms + alias_ms + teardown_ms;
  const double host = wall_ms > counted ? wall_ms - counted : 0;
  auto row = [&](const std::string& what, double ms) {
    std::snprintf(line, sizeof line, "  %-52s %11.2f ms %6.1f %%\n", what.c_str(), ms,
                  wall_ms > 0 ? 100.0 * ms / wall_ms : 0.0);
    out += line;
  };
  out += "where the wall time went\n";
  row("start-up (process, backend, one-time JIT set-up)", startup_ms);
  row("front end (preprocess, parse, check)", frontend_ms);
  row("kernel compilation (and loads from the disk cache)", compile);
  row("kernels and reductions running", run);
  row("stream allocation (" + std::to_string(allocations) + " streams, " + megabytes(alloc_bytes) + ")", alloc_ms);
  row("host<->device copies (" + std::to_string(transfers) + ", " + megabytes(transfer_bytes) + ")", transfer_ms);
  row("copies made for aliasing (" + std::to_string(alias_copies) + ", " + megabytes(alias_bytes) + ")", alias_ms);
  row("host code (the interpreter running the program)", host);
  row("exit (freeing the engine and backend)", teardown_ms);
  row(std::string(wall_label), wall_ms);
  return out;
}

}  // namespace brook
