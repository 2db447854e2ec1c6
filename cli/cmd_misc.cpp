// Subcommands whose backends arrive in later issues report that plainly.
#include <iostream>

#include "cli/commands.hpp"

namespace brook::cli {

int cmd_emit_backend(CommandLine& cl) {
  std::cerr << "brook: 'emit " << cl.emit_stage << "' is not available in this build yet\n";
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
