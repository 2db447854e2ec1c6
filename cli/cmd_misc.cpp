// `emit plan|llvm|opencl`, `devices`, `bench`, and the version line.
#include <iostream>

#include "cli/commands.hpp"
#include "runtime/engine.hpp"

namespace brook::cli {

namespace {

// emit plan: run the program with its own stdout suppressed and each launch
// plan printed instead, so a reader sees how every call's shapes resolved.
int emit_plans(CommandLine& cl) {
  cl.engine.emit_plans = true;
  if (!cl.rest.empty()) cl.engine.plan_filter = cl.rest[0];
  Engine engine(cl.engine);
  if (!engine.compile_file(cl.program)) return 1;
  std::vector<std::string> argv{cl.program};
  return engine.run(argv);
}

}  // namespace

int cmd_emit_backend(CommandLine& cl) {
  if (cl.emit_stage == "plan") return emit_plans(cl);
  std::cerr << "brook: 'emit " << cl.emit_stage << "' needs the "
            << (cl.emit_stage == "llvm" ? "JIT" : "OpenCL") << " backend, not in this build\n";
  return 2;
}

// cmd_repl lives in cli/repl.cpp.

int cmd_devices(CommandLine&) {
  std::cerr << "brook: the OpenCL backend is not available in this build\n";
  return 2;
}

int cmd_bench(CommandLine&) {
  std::cerr << "brook: the benchmark runner is not available in this build yet\n";
  return 2;
}

std::string backend_versions() { return "backends: interp\n"; }

}  // namespace brook::cli
