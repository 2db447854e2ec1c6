// The subcommands of `brook`. Each returns the process exit status.
#pragma once

#include <memory>
#include <string>

#include "runtime/engine.hpp"

#include "cli/options.hpp"

namespace brook::cli {

int dispatch(CommandLine& cl);
int cmd_run(CommandLine& cl);
int cmd_check(CommandLine& cl);
int cmd_emit(CommandLine& cl);
int cmd_emit_plans(CommandLine& cl);  // emit plan: runs the program, prints its launch plans
int cmd_repl(CommandLine& cl);
int cmd_devices(CommandLine& cl);
int cmd_bench(CommandLine& cl);
int cmd_cc(CommandLine& cl);  // cli/cmd_cc.cpp over cc/

// An Engine with the requested backend, or null after printing why it cannot
// be had (a backend not built, no OpenCL platform): the caller exits with 2.
std::unique_ptr<Engine> make_engine(const EngineOptions& options);

// Why `path` cannot be a program ("cannot open 'x'", "'d' is a directory"),
// or empty when it can be read. "-" (stdin) is always readable.
std::string unreadable_program(const std::string& path);

// "LLVM 19.1.7 (JIT backend)\nOpenCL: …\n" for --version.
std::string backend_versions();

}  // namespace brook::cli
