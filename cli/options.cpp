#include "cli/options.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <cstdlib>
#include <set>

#include "interp/limits.hpp"
#include "backends/registry.hpp"

namespace brook::cli {

std::vector<std::string> emit_stages() {
  std::vector<std::string> stages{"ast", "plan"};
  for (const std::string& s : backend_emit_stages()) stages.push_back(s);
  return stages;
}

std::string emit_stage_list(std::string_view separator, std::string_view last_separator) {
  std::vector<std::string> stages = emit_stages();
  std::string out;
  for (size_t i = 0; i < stages.size(); ++i) {
    if (i > 0) out += i + 1 == stages.size() && !last_separator.empty() ? last_separator : separator;
    out += stages[i];
  }
  return out;
}

bool is_emit_stage(const std::string& stage) {
  std::vector<std::string> all = emit_stages();
  return std::find(all.begin(), all.end(), stage) != all.end();
}

namespace {

const std::set<std::string> kCommands = {"run", "repl", "check", "emit", "devices", "bench", "cc"};

uint64_t parse_memory(const std::string& what, const std::string& text) {
  uint64_t bytes = 0;
  if (!parse_size(text, &bytes)) {
    throw UsageError{what + " needs a size such as 512M or 4G (K, M, G, T: powers of 1024), not '" + text + "'"};
  }
  return bytes;
}

double parse_limit(const std::string& what, const std::string& text) {
  double seconds = 0;
  if (!parse_seconds(text, &seconds)) {
    throw UsageError{what + " needs a positive number of seconds, not '" + text + "'"};
  }
  return seconds;
}

int parse_int(const std::string& option, const std::string& text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    throw UsageError{"option '" + option + "' needs a non-negative number, not '" + text + "'"};
  }
  return value;
}

// One line per option; each command's --help lists the ones it takes.
struct OptionHelp {
  std::string spelling;
  const char* meaning;
};

const OptionHelp kBackendOption{"--backend " + backend_names(false, "|"), "where kernels run (env BROOK_BACKEND)"};
const OptionHelp kDeviceOption{"--device N", "OpenCL device index from 'brook devices' (env BROOK_OPENCL_DEVICE)"};
const OptionHelp kThreadsOption{"--threads N", "JIT worker threads (env BROOK_THREADS; default: all cores)"};
const OptionHelp kProfileOption{"--profile", "where the time went, printed at exit (env BROOK_PROFILE=1)"};
const OptionHelp kDumpPlansOption{"--dump-plans", "print each launch plan as it is made"};
const OptionHelp kDefineOption{"-D NAME[=VALUE]", "define a preprocessor macro"};
const OptionHelp kIncludeOption{"-I DIR", "add DIR to the #include search path"};
const OptionHelp kNoCacheOption{"--no-cache", "ignore the on-disk kernel cache (env BROOK_CACHE=0)"};
const OptionHelp kMaxMemoryOption{"--max-memory SIZE",
                                  "cap on streams plus host heap, e.g. 512M, 4G (env BROOK_MAX_MEMORY)"};
const OptionHelp kTimeLimitOption{"--time-limit SECONDS",
                                  "stop the program after this much wall time (env BROOK_TIME_LIMIT)"};
const OptionHelp kErrorLimitOption{"--error-limit N", "stop after N errors per file or entry (default 20; 0: no limit)"};
const OptionHelp kHelpOption{"--help", "this text"};

std::string option_lines(std::initializer_list<OptionHelp> options) {
  std::string text = "\noptions:\n";
  for (const OptionHelp& o : options) {
    std::string line = "  " + o.spelling;
    line.resize(std::max<size_t>(line.size() + 2, 32), ' ');
    text += line + o.meaning + "\n";
  }
  text += "Long options also take the form --option=value.\n";
  return text;
}

std::string run_options() {
  return option_lines({kBackendOption, kDeviceOption, kThreadsOption, kProfileOption, kDumpPlansOption,
                       kDefineOption, kIncludeOption, kNoCacheOption, kMaxMemoryOption, kTimeLimitOption,
                       kErrorLimitOption, kHelpOption});
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
         "  run [options] prog.br [more.c...] [--] [args...]\n"
         "                                      run a program: top-level statements, then main\n"
         "                                      ('-' reads the program from stdin)\n"
         "  prog.br [args...]                   the same as 'brook run prog.br'\n"
         "  check prog.br [more.c...]           parse and check only; diagnostics, no execution\n"
         "  emit " +
         emit_stage_list("|") +
         " prog.br [kernel]\n"
         "                                      print one stage's output\n"
         "  cc [-o NAME] prog.br...             translate .br files to NAME.h + NAME.cpp for a C++ "
         "build\n"
         "  devices                             list OpenCL platforms and devices\n"
         "  bench [workload...]                 run the benchmarks\n"
         "\n"
         "'brook COMMAND --help' lists the options of each command.\n" +
         run_options() + "  --version                     brook, LLVM and OpenCL versions\n";
}

std::string command_usage(const std::string& command) {
  if (command == "run") {
    return "usage: brook run [options] prog.br [more.br|.c|.cpp...] [--] [args...]\n"
           "Runs the program's top-level statements, then main(argc, argv) if defined;\n"
           "'-' as prog.br reads the program from stdin. Source files named right after\n"
           "prog.br are more translation units of the same program (a C program's other\n"
           ".c files, BrookGPU's common.cpp); '--' ends them, so that an argument that\n"
           "names a source file can follow. Exit status: main's, 1 after a compile or\n"
           "runtime error, 2 for a usage error.\n" +
           run_options();
  }
  if (command == "check") {
    return "usage: brook check [options] prog.br [more.br|.c|.cpp...]\n"
           "Parses and checks the program; prints diagnostics; runs nothing (exit 1 on error).\n" +
           option_lines({kDefineOption, kIncludeOption, kErrorLimitOption, kHelpOption});
  }
  if (command == "emit") {
    return "usage: brook emit " + emit_stage_list("|") + " [options] prog.br [kernel]\n"
           "Prints one stage's output for every kernel and reduction, or only the one named.\n" +
           run_options();
  }
  if (command == "repl") {
    return "usage: brook repl [options] [file.br]\n"
           "The interactive REPL (see REPL.md), optionally loading file.br first.\n" +
           run_options();
  }
  if (command == "cc") {
    return "usage: brook cc [options] [-o NAME] prog.br... [-o NAME]\n"
           "Translates the .br files into NAME.h and NAME.cpp (NAME: the first file's stem):\n"
           "one C++ function per kernel, reduction and host function, launching through one\n"
           "process-wide engine ($BROOK_BACKEND, default jit); a .br main becomes the C++ main.\n"
           "Build them against the installed package (brook_add_kernels(), pkg-config brook).\n"
           "The header serves a BrookGPU host (it includes <brook/brook.hpp> first) and a\n"
           "Brook+ one (brook/Stream.h first, or alone in brookgenfiles/ for kernels only).\n" +
           option_lines(
               {{"-o NAME", "write NAME.h and NAME.cpp (NAME may name a folder: gen/prog)"},
                {"--brookplus", "write Brook+'s bindings only (functors over brook/Stream.h)"},
                {"-p TARGET, -w N", "brcc's shader target and workspace: ignored"},
                {"-r -pp -e -a -c -k", "Brook+'s brcc flags: ignored"},
                {"-v -n -d -t -y -A -N", "BrookGPU's brcc flags: ignored"},
                kDefineOption,
                kIncludeOption,
                kErrorLimitOption,
                kHelpOption});
  }
  if (command == "devices") {
    return "usage: brook devices\n"
           "Lists the OpenCL platforms and devices with the indices --device takes.\n" +
           option_lines({kHelpOption});
  }
  if (command == "bench") {
    return "usage: brook bench [workload...]\n"
           "Runs the JIT benchmarks (bench/README.md) and prints ratios against C++.\n" +
           option_lines({kThreadsOption, kHelpOption});
  }
  return usage_text();
}

namespace {

bool is_backend_name(const std::string& b) { return find_backend(b) != nullptr; }

// Environment variables the CLI documents are checked like the options they
// stand for: a typo must not be silently ignored.
void check_environment(CommandLine& cl) {
  if (const char* env = std::getenv("BROOK_BACKEND"); env && *env && !is_backend_name(env)) {
    throw UsageError{"environment variable BROOK_BACKEND='" + std::string(env) +
                     "' is not a backend (" + backend_names(false) + ")"};
  }
  for (const char* name : {"BROOK_THREADS", "BROOK_OPENCL_DEVICE"}) {
    if (const char* env = std::getenv(name); env && *env) {
      try {
        parse_int(name, env);
      } catch (const UsageError&) {
        throw UsageError{"environment variable " + std::string(name) + " needs a non-negative number, not '" +
                         env + "'"};
      }
    }
  }
  for (const char* name : {"BROOK_PROFILE", "BROOK_CACHE"}) {
    if (const char* env = std::getenv(name); env && *env) {
      std::string v = env;
      if (v != "0" && v != "1") {
        throw UsageError{"environment variable " + std::string(name) + " must be 0 or 1, not '" + v + "'"};
      }
    }
  }
  // The options win over the environment.
  if (const char* env = std::getenv("BROOK_MAX_MEMORY"); env && *env) {
    uint64_t bytes = parse_memory("environment variable BROOK_MAX_MEMORY", env);
    if (cl.engine.max_memory == 0) cl.engine.max_memory = bytes;
  }
  if (const char* env = std::getenv("BROOK_TIME_LIMIT"); env && *env) {
    double seconds = parse_limit("environment variable BROOK_TIME_LIMIT", env);
    if (cl.engine.time_limit == 0) cl.engine.time_limit = seconds;
  }
  if (const char* env = std::getenv("BROOK_PROFILE"); env && std::string(env) == "1") cl.engine.profile = true;
  if (const char* env = std::getenv("BROOK_CACHE"); env && std::string(env) == "0") {
    cl.engine.use_disk_cache = false;
  }
}

// `brook prog.br`: a first word that names a file (or looks like a program)
// runs it, as `python prog.py` does.
bool looks_like_program(const std::string& word) {
  if (word.size() > 3 && word.compare(word.size() - 3, 3, ".br") == 0) return true;
  return word.find('/') != std::string::npos;
}

}  // namespace

// Whether `flag` is one of brcc's that `brook cc` accepts: -1 if not, else
// how many values follow it (cli/cmd_cc.cpp).
int brcc_flag_values(const std::string& flag);

namespace {

// A further translation unit of the program: a Brook or C source that exists.
bool is_source_file(const std::string& arg) {
  static constexpr std::string_view kExtensions[] = {".br", ".c", ".cpp", ".cc", ".cxx"};
  std::string_view a = arg;
  bool named = false;
  for (std::string_view e : kExtensions) named = named || (a.size() > e.size() && a.ends_with(e));
  struct stat st {};
  return named && ::stat(arg.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// `brook run app.br common.cpp timer.c -- args`: the source files right after
// the program are more of it; `--` ends them (and is not an argument).
void take_sources(CommandLine& cl) {
  if ((cl.command != "run" && cl.command != "check") || cl.program.empty() || cl.program == "-")
    return;
  size_t n = 0;
  while (n < cl.rest.size() && is_source_file(cl.rest[n])) cl.sources.push_back(cl.rest[n++]);
  if (n < cl.rest.size() && cl.rest[n] == "--") ++n;
  cl.rest.erase(cl.rest.begin(), cl.rest.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
  CommandLine cl;
  size_t i = 0;
  if (i < args.size() && kCommands.count(args[i])) {
    cl.command = args[i++];
  } else if (i < args.size() && !args[i].empty() && args[i][0] != '-') {
    if (!looks_like_program(args[i])) {
      throw UsageError{"unknown command '" + args[i] + "' (try 'brook --help'; a program file ends in .br)"};
    }
    cl.command = "run";
  } else {
    cl.command = "repl";
  }
  if (cl.command == "emit") {
    if (i >= args.size()) throw UsageError{"emit needs a stage: " + emit_stage_list(", ", " or ")};
    if (args[i] == "--help" || args[i] == "-h") {
      cl.help = true;
      return cl;
    }
    if (!is_emit_stage(args[i])) {
      throw UsageError{"unknown emit stage '" + args[i] + "' (" + emit_stage_list(", ") + ")"};
    }
    cl.emit_stage = args[i++];
  }
  std::optional<std::string> inline_value;  // the VALUE of --option=VALUE
  auto value_of = [&](const std::string& option) -> std::string {
    if (inline_value) {
      std::string v = *inline_value;
      inline_value.reset();
      return v;
    }
    if (i + 1 >= args.size()) throw UsageError{"option '" + option + "' needs a value"};
    i += 1;
    return args[i];
  };
  for (; i < args.size(); ++i) {
    if (!cl.program.empty()) {  // everything after the program belongs to it
      cl.rest.push_back(args[i]);
      continue;
    }
    std::string a = args[i];
    inline_value.reset();
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      inline_value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      if (a != "--backend" && a != "--device" && a != "--threads" && a != "--max-memory" && a != "--time-limit" &&
          a != "--error-limit") {
        throw UsageError{"option '" + a + "' takes no value"};
      }
    }
    if (a == "--help" || a == "-h") {
      cl.help = true;
    } else if (a == "--backend") {
      std::string b = value_of(a);
      if (!is_backend_name(b)) {
        throw UsageError{"unknown backend '" + b + "' (" + backend_names(false) + ")"};
      }
      cl.engine.backend = b;
    } else if (a == "--device") {
      cl.engine.device = parse_int(a, value_of(a));
    } else if (a == "--threads") {
      cl.engine.threads = parse_int(a, value_of(a));
    } else if (a == "--error-limit") {
      cl.engine.error_limit = static_cast<size_t>(parse_int(a, value_of(a)));
    } else if (a == "--max-memory") {
      cl.engine.max_memory = parse_memory("option '--max-memory'", value_of(a));
    } else if (a == "--time-limit") {
      cl.engine.time_limit = parse_limit("option '--time-limit'", value_of(a));
    } else if (a == "--profile") {
      cl.engine.profile = true;
    } else if (a == "--dump-plans") {
      cl.engine.dump_plans = true;
    } else if (a == "--no-cache") {
      cl.engine.use_disk_cache = false;
    } else if (a == "-o" && cl.command == "cc") {
      cl.output = value_of(a);
    } else if (a == "--brookplus" && cl.command == "cc") {
      cl.brookplus = true;
    } else if (cl.command == "cc" && brcc_flag_values(a) >= 0) {
      if (brcc_flag_values(a) > 0) value_of(a);  // makefiles written for brcc: ignored
    } else if (a == "-D" || a == "-I") {
      std::string v = value_of(a);
      (a == "-D" ? cl.engine.preprocess.defines : cl.engine.preprocess.include_dirs).push_back(v);
    } else if (a.size() > 2 && (a.rfind("-D", 0) == 0 || a.rfind("-I", 0) == 0)) {
      (a[1] == 'D' ? cl.engine.preprocess.defines : cl.engine.preprocess.include_dirs)
          .push_back(a.substr(2));
    } else if (a == "--") {
      if (i + 1 < args.size()) cl.program = args[++i];
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      throw UsageError{"unknown option '" + a + "' (try 'brook " + cl.command + " --help')"};
    } else {
      cl.program = a;
    }
  }
  take_sources(cl);
  check_environment(cl);
  return cl;
}

}  // namespace brook::cli
