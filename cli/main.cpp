// `brook`: one executable with git-style subcommands over the same Engine.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"

#ifndef BROOK_VERSION
#define BROOK_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--version" || args[0] == "-V")) {
    std::cout << "brook " << BROOK_VERSION << "\n" << brook::cli::backend_versions();
    return 0;
  }
  brook::cli::CommandLine cl;
  try {
    cl = brook::cli::parse_command_line(args);
  } catch (const brook::cli::UsageError& e) {
    std::cerr << "brook: " << e.message << "\n";
    return 2;
  }
  if (cl.help) {
    std::cout << brook::cli::command_usage(args.empty() || args[0].rfind("-", 0) == 0 ? ""
                                                                                      : cl.command);
    return 0;
  }
  cl.engine.color = brook::cli::stderr_wants_color();
  return brook::cli::dispatch(cl);
}
