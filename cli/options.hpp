// Command-line parsing shared by the `brook` subcommands (spec/CLI.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/engine.hpp"

namespace brook::cli {

// Usage errors exit with status 2 and a one-line message naming the problem.
struct UsageError {
  std::string message;
};

struct CommandLine {
  std::string command;              // run, repl, check, emit, devices, bench, cc
  std::string emit_stage;           // emit: ast, plan, llvm, opencl
  std::string program;              // the .br file (may be empty for repl/devices)
  std::vector<std::string> rest;    // run: program arguments; emit: optional kernel name
  // run, check: further translation units after the program (`brook run
  // app.br common.c timer.c -- args`), compiled into the same program.
  std::vector<std::string> sources;
  std::string output;               // cc: -o NAME
  bool brookplus = false;           // cc: --brookplus (Brook+'s bindings)
  EngineOptions engine;
  bool help = false;
};

// Throws UsageError. `args` excludes argv[0].
CommandLine parse_command_line(const std::vector<std::string>& args);

// Whether stderr is a colour terminal (and NO_COLOR is unset).
bool stderr_wants_color();

std::string usage_text();
// "ast", "plan" and each backend's stage (backends/registry.hpp).
std::vector<std::string> emit_stages();
std::string emit_stage_list(std::string_view separator, std::string_view last_separator = {});
bool is_emit_stage(const std::string& stage);
std::string command_usage(const std::string& command);

}  // namespace brook::cli
