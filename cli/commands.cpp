#include "cli/commands.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "lang/ast_dump.hpp"
#include "lang/frontend.hpp"

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
  if (cl.command == "run") return cmd_run(cl);
  if (cl.command == "check") return cmd_check(cl);
  if (cl.command == "emit") return cmd_emit(cl);
  if (cl.command == "repl") return cmd_repl(cl);
  if (cl.command == "devices") return cmd_devices(cl);
  if (cl.command == "bench") return cmd_bench(cl);
  std::cerr << "brook: unknown command '" << cl.command << "'\n";
  return 2;
}

int cmd_check(CommandLine& cl) {
  if (!require_program(cl)) return 2;
  if (!cl.rest.empty()) {
    std::cerr << "brook: check takes one program file, unexpected '" << cl.rest[0] << "'\n";
    return 2;
  }
  FrontEnd fe(FrontEndOptions{cl.engine.preprocess, {}, false, cl.engine.error_limit});
  FrontEnd::Unit unit = fe.load_file(cl.program);
  std::cerr << fe.diagnostics().format_all(cl.engine.color);
  return unit.status == FrontEnd::Status::ok ? 0 : 1;
}

int cmd_emit(CommandLine& cl) {
  if (!require_program(cl)) return 2;
  if (cl.emit_stage != "ast") return cmd_emit_backend(cl);
  FrontEnd fe(FrontEndOptions{cl.engine.preprocess, {}, false, cl.engine.error_limit});
  FrontEnd::Unit unit = fe.load_file(cl.program);
  std::cerr << fe.diagnostics().format_all(cl.engine.color);
  if (unit.status != FrontEnd::Status::ok) return 1;
  if (cl.rest.empty()) {
    std::cout << dump_ast(*unit.program);
    return 0;
  }
  const std::string& wanted = cl.rest[0];
  bool found = false;
  for (const ast::StmtPtr& item : unit.program->items) {
    const auto* decls = item->as<ast::DeclStmt>();
    if (!decls) continue;
    for (const ast::DeclPtr& d : decls->decls) {
      if (d->name == wanted && d->as<ast::FuncDecl>()) found = true;
    }
    if (found) {
      std::cout << dump_stmt(*item);
      return 0;
    }
  }
  std::cerr << "brook: no kernel or function named '" << wanted << "' in " << cl.program << "\n";
  return 2;
}

}  // namespace brook::cli
