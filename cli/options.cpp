#include "cli/options.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <set>

namespace brook::cli {

namespace {

const std::set<std::string> kCommands = {"run", "repl", "check", "emit", "devices", "bench"};
const std::set<std::string> kStages = {"ast", "plan", "llvm", "opencl"};

int parse_int(const std::string& option, const std::string& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    throw UsageError{"option '" + option + "' needs a non-negative number, not '" + text + "'"};
  }
  return value;
}

}  // namespace

bool stderr_wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDERR_FILENO) && (no_color == nullptr || *no_color == '\0');
}

std::string usage_text() {
  return "usage: brook [COMMAND] [OPTIONS] [FILE] [ARGS...]\n"
         "\n"
         "commands:\n"
         "  repl [file.br]                      interactive REPL (the default)\n"
         "  run [options] prog.br [args...]     run a program: top-level statements, then main\n"
         "  check prog.br                       parse and check only; diagnostics, no execution\n"
         "  emit ast|plan|llvm|opencl prog.br [kernel]\n"
         "                                      print one stage's output\n"
         "  devices                             list OpenCL platforms and devices\n"
         "  bench [workload...]                 run the benchmarks\n"
         "\n"
         "options:\n"
         "  --backend interp|jit|opencl   where kernels run (env BROOK_BACKEND)\n"
         "  --device N                    OpenCL device index (env BROOK_OPENCL_DEVICE)\n"
         "  --threads N                   JIT worker threads (env BROOK_THREADS)\n"
         "  --profile                     per-kernel timing table at exit\n"
         "  --dump-plans                  print each launch plan as it is made\n"
         "  -D NAME[=VALUE], -I DIR       preprocessor defines and include paths\n"
         "  --no-cache                    do not use the on-disk kernel cache\n"
         "  --help, --version\n";
}

std::string command_usage(const std::string& command) {
  if (command == "run") return "usage: brook run [options] prog.br [args...]\n";
  if (command == "check") return "usage: brook check [-D NAME[=VALUE]] [-I DIR] prog.br\n";
  if (command == "emit") return "usage: brook emit ast|plan|llvm|opencl [options] prog.br [kernel]\n";
  if (command == "repl") return "usage: brook repl [options] [file.br]\n";
  return usage_text();
}

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine cl;
  size_t i = 0;
  if (i < args.size() && kCommands.count(args[i])) {
    cl.command = args[i++];
  } else if (i < args.size() && !args[i].empty() && args[i][0] != '-') {
    throw UsageError{"unknown command '" + args[i] + "' (try 'brook --help')"};
  } else {
    cl.command = "repl";
  }
  if (cl.command == "emit") {
    if (i >= args.size()) throw UsageError{"emit needs a stage: ast, plan, llvm or opencl"};
    if (args[i] == "--help" || args[i] == "-h") {
      cl.help = true;
      return cl;
    }
    if (!kStages.count(args[i])) {
      throw UsageError{"unknown emit stage '" + args[i] + "' (ast, plan, llvm, opencl)"};
    }
    cl.emit_stage = args[i++];
  }
  auto value_of = [&](const std::string& option) -> std::string {
    if (i + 1 >= args.size()) throw UsageError{"option '" + option + "' needs a value"};
    i += 1;
    return args[i];
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!cl.program.empty()) {  // everything after the program belongs to it
      cl.rest.push_back(a);
      continue;
    }
    if (a == "--help" || a == "-h") {
      cl.help = true;
    } else if (a == "--backend") {
      std::string b = value_of(a);
      if (b != "interp" && b != "jit" && b != "opencl") {
        throw UsageError{"unknown backend '" + b + "' (interp, jit, opencl)"};
      }
      cl.engine.backend = b;
    } else if (a == "--device") {
      cl.engine.device = parse_int(a, value_of(a));
    } else if (a == "--threads") {
      cl.engine.threads = parse_int(a, value_of(a));
    } else if (a == "--profile") {
      cl.engine.profile = true;
    } else if (a == "--dump-plans") {
      cl.engine.dump_plans = true;
    } else if (a == "--no-cache") {
      cl.engine.use_disk_cache = false;
    } else if (a == "-D" || a == "-I") {
      std::string v = value_of(a);
      (a == "-D" ? cl.engine.preprocess.defines : cl.engine.preprocess.include_dirs).push_back(v);
    } else if (a.size() > 2 && (a.rfind("-D", 0) == 0 || a.rfind("-I", 0) == 0)) {
      (a[1] == 'D' ? cl.engine.preprocess.defines : cl.engine.preprocess.include_dirs)
          .push_back(a.substr(2));
    } else if (a == "--") {
      if (i + 1 < args.size()) cl.program = args[++i];
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      throw UsageError{"unknown option '" + a + "'"};
    } else {
      cl.program = a;
    }
  }
  if (const char* env = std::getenv("BROOK_CACHE"); env && std::string(env) == "0") {
    cl.engine.use_disk_cache = false;
  }
  if (const char* env = std::getenv("BROOK_PROFILE"); env && std::string(env) == "1") cl.engine.profile = true;
  return cl;
}

}  // namespace brook::cli
