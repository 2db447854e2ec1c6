// The subcommands of `brook`. Each returns the process exit status.
#pragma once

#include <string>

#include "cli/options.hpp"

namespace brook::cli {

int dispatch(CommandLine& cl);
int cmd_run(CommandLine& cl);
int cmd_check(CommandLine& cl);
int cmd_emit(CommandLine& cl);
int cmd_emit_backend(CommandLine& cl);  // emit plan|llvm|opencl
int cmd_repl(CommandLine& cl);
int cmd_devices(CommandLine& cl);
int cmd_bench(CommandLine& cl);

// "LLVM 19.1.7 (JIT backend)\nOpenCL: …\n" for --version.
std::string backend_versions();

}  // namespace brook::cli
