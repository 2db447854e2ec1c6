// `emit plan`, `devices`, `bench`, and the version line.
#include <iostream>
#include <sstream>

#include "backends/registry.hpp"
#include "cli/commands.hpp"
#include "runtime/engine.hpp"

namespace brook::cli {

// emit plan: run the program with its own stdout suppressed and each launch
// plan printed instead, so a reader sees how every call's shapes resolved.
int cmd_emit_plans(CommandLine& cl) {
  cl.engine.emit_plans = true;
  if (!cl.rest.empty()) cl.engine.plan_filter = cl.rest[0];
  std::unique_ptr<Engine> made = make_engine(cl.engine);
  if (!made) return 2;
  Engine& engine = *made;
  if (!engine.compile_file(cl.program)) return 1;
  std::vector<std::string> argv{cl.program};
  return engine.run(argv);
}

// cmd_repl lives in cli/repl.cpp.

int cmd_devices(CommandLine&) {
  std::string listed;
  for (const BackendInfo& b : backend_registry()) {
    if (b.built() && b.devices) listed += b.devices();
  }
  if (listed.empty()) {
    std::cerr << "brook: no backend with selectable devices (opencl) is available in this build\n";
    return 2;
  }
  std::cout << listed;
  return 0;
}

int cmd_bench(CommandLine&) {
  std::cerr << "brook: the benchmark runner is not available in this build yet\n";
  return 2;
}

std::string backend_versions() {
  std::string out = "backends: " + backend_names(true, " ") + "\n";
  for (const BackendInfo& b : backend_registry()) {
    if (b.built() && b.version) out += b.version();
  }
  return out;
}

}  // namespace brook::cli
