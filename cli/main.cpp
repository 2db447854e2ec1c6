// `brook`: one executable with git-style subcommands over the same Engine.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"

#ifndef BROOK_VERSION
#define BROOK_VERSION "0.0.0"
#endif

namespace {

// Every Engine is gone by the time this runs. Skip static destructors: PoCL can
// still be compiling on its own threads with its own LLVM, and tearing LLVM's
// globals down under it crashes the process after the program has finished.
[[noreturn]] void leave(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--version" || args[0] == "-V")) {
    std::cout << "brook " << BROOK_VERSION << "\n" << brook::cli::backend_versions();
    leave(0);
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
  leave(brook::cli::dispatch(cl));
}
