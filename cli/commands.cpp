#include "cli/commands.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "backends/registry.hpp"

namespace brook::cli {

namespace {

// Exit status 2 when the program file is missing or unreadable (a usage error),
// so `brook run nosuch.br` says so in one line.
bool require_program(const CommandLine& cl) {
  if (cl.program.empty()) {
    std::cerr << "brook: " << cl.command << " needs a program file (try 'brook " << cl.command
              << " --help')\n";
    return false;
  }
  if (cl.program == "-") {
    std::cerr << "brook: " << cl.command << " reads a program file ('-' for stdin works with run)\n";
    return false;
  }
  if (std::string why = unreadable_program(cl.program); !why.empty()) {
    std::cerr << "brook: " << why << "\n";
    return false;
  }
  return true;
}

}  // namespace

std::string unreadable_program(const std::string& path) {
  if (path == "-") return {};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "cannot open '" + path + "': " + std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "'" + path + "' is a directory, not a program file";
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fclose(f);
    return {};
  }
  return "cannot open '" + path + "': " + std::strerror(errno);
}

std::unique_ptr<Engine> make_engine(const EngineOptions& options) {
  try {
    return std::make_unique<Engine>(options);
  } catch (const std::exception& e) {
    std::cerr << "brook: " << e.what() << "\n";
    return nullptr;
  }
}

int dispatch(CommandLine& cl) {
  // The JIT's plugin loads while the program is read and checked.
  if (cl.command == "run" || cl.command == "repl")
    prepare_backend(chosen_backend_name(cl.engine.backend));
  if (cl.command == "run") return cmd_run(cl);
  if (cl.command == "check") return cmd_check(cl);
  if (cl.command == "emit") return cmd_emit(cl);
  if (cl.command == "repl") return cmd_repl(cl);
  if (cl.command == "devices") return cmd_devices(cl);
  if (cl.command == "bench") return cmd_bench(cl);
  if (cl.command == "cc") return cmd_cc(cl);
  std::cerr << "brook: unknown command '" << cl.command << "'\n";
  return 2;
}

// An engine that compiles `cl.program` and runs nothing: its kernels stay on
// the interpreter, so checking and emitting need no device.
std::unique_ptr<Engine> compile_only(CommandLine& cl, int* status) {
  cl.engine.backend = "interp";
  std::unique_ptr<Engine> engine = make_engine(cl.engine);
  *status = 2;
  if (!engine) return nullptr;
  *status = 1;
  if (!engine->compile_file(cl.program)) return nullptr;
  for (const std::string& more : cl.sources) {
    engine->end_translation_unit();
    if (!engine->compile_file(more)) return nullptr;
  }
  *status = 0;
  return engine;
}

int cmd_check(CommandLine& cl) {
  if (!require_program(cl)) return 2;
  if (!cl.rest.empty()) {
    std::cerr << "brook: check takes one program file, unexpected '" << cl.rest[0] << "'\n";
    return 2;
  }
  int status = 0;
  compile_only(cl, &status);
  return status;
}

int cmd_emit(CommandLine& cl) {
  if (!require_program(cl)) return 2;
  if (cl.emit_stage == "plan") return cmd_emit_plans(cl);
  int status = 0;
  std::unique_ptr<Engine> engine = compile_only(cl, &status);
  if (!engine) return status;
  const std::string wanted = cl.rest.empty() ? std::string() : cl.rest[0];
  std::string text;
  try {
    text = engine->emit(cl.emit_stage, wanted);
  } catch (const std::runtime_error& e) {
    std::cerr << "brook: " << e.what() << "\n";
    return 2;
  }
  if (text.empty()) {
    const char* what = cl.emit_stage == "ast" ? "function or kernel" : "kernel or reduction";
    std::cerr << "brook: no " << what << (wanted.empty() ? "" : " named '" + wanted + "'") << " in " << cl.program
              << "\n";
    return 2;
  }
  std::cout << text;
  return 0;
}

}  // namespace brook::cli
