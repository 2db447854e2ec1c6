#include "cli/repl.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <sys/ioctl.h>
#include <unistd.h>

#include "backends/registry.hpp"
#include "cli/commands.hpp"
#include "stdlib/builtins.hpp"

namespace brook::cli {

namespace {

// The names of backends and emit stages come from the backend registry.
std::string help_text() {
  auto row = [](std::string command, const char* meaning) {
    command = "  " + command;
    command.resize(std::max<size_t>(command.size() + 2, 33), ' ');
    return command + meaning + "\n";
  };
  return "Enter declarations, statements and expressions; an expression shows its value.\n"
         "An entry continues over several lines ('...' prompt) until it is complete.\n"
         "Commands:\n"
         "  :help                          this text\n"
         "  :load FILE.br                  run a file's declarations and top-level statements\n" +
         row(":backend [" + backend_names(false, "|") + "]", "show or choose where kernels run") +
         "  :type EXPR                     the type of an expression (nothing runs)\n" +
         row(":emit " + emit_stage_list("|") + " NAME",
             "one stage's output for a function or kernel") +
         "  :show STREAM                   a stream (or a view) with its type and shape\n"
         "  :time                          toggle per-entry timing\n"
         "  :streams                       live streams with their shapes and sizes\n"
         "  :info [NAME]                   what the session has defined (:list too), or one name\n"
         "  :profile [on|off|show]         collect --profile's rows; show them\n"
         "  :reset                         forget everything (a fresh session)\n"
         "  :quit                          leave (Ctrl-D too)\n"
         "Ctrl-C stops a running entry; history is kept in ~/.brook_history.\n";
}

const std::vector<std::string> kCommandNames = {":help",    ":load",  ":backend", ":type", ":emit",
                                                ":show",    ":time",  ":streams", ":info", ":list",
                                                ":profile", ":reset", ":quit"};

const std::vector<std::string> kKeywords = {
    "bool",   "break",    "case",   "char",    "const",   "continue", "default", "do",
    "double", "else",     "enum",   "float",   "for",     "if",       "indexof", "int",
    "iter",   "kernel",   "long",   "out",     "reduce",  "return",   "short",   "signed",
    "sizeof", "static",   "struct", "switch",  "typedef", "unsigned", "void",    "while",
    "float2", "float3",   "float4", "int2",    "int3",    "int4",     "double2", "double3",
    "double4", "uint",    "uchar",  "true",    "false"};

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace

Repl::Repl(EngineOptions options, bool terminal) : options_(std::move(options)), terminal_(terminal) {
  options_.repl = true;
  options_.keep_macros = true;  // the session is one translation unit
  // Streams are shown as wide as the terminal is.
  if (struct winsize ws {}; terminal_ && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) {
    options_.display_width = ws.ws_col;
  }
  reset();
}

bool Repl::reset() {
  std::unique_ptr<Engine> fresh = make_engine(options_);
  if (!fresh) return false;
  engine_ = std::move(fresh);
  entry_count_ = 0;
  return true;
}

std::string Repl::next_name() { return "<repl:" + std::to_string(++entry_count_) + ">"; }

void Repl::error(const std::string& message) const {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
}

int Repl::loop(LineReader& reader) {
  reader_ = &reader;
  struct Forget {
    LineReader*& reader;
    ~Forget() { reader = nullptr; }
  } forget{reader_};
  std::string buffer;  // the entry being typed
  std::string held;    // a complete entry ending in an `if`: an `else` line may continue it
  auto starts_with_else = [](const std::string& line) {
    std::string head = trim(line);
    return head.rfind("else", 0) == 0 &&
           (head.size() == 4 || (!std::isalnum(static_cast<unsigned char>(head[4])) && head[4] != '_'));
  };
  while (!quit_) {
    take_interrupt();  // a Ctrl-C that stopped the last entry is spent
    std::optional<std::string> line = reader.read(buffer.empty() && held.empty() ? "> " : "... ");
    if (!line) {
      // End of input inside an entry: run it, so its error (if any) is shown.
      if (!held.empty()) submit(held, true);
      else if (!blank(buffer)) submit(buffer, true);
      break;
    }
    if (reader.interrupted()) {
      buffer.clear();
      held.clear();
      continue;
    }
    if (!held.empty()) {
      if (starts_with_else(*line)) {
        buffer = std::move(held);
      } else {
        submit(held, true);
        if (quit_) break;
      }
      held.clear();
    }
    if (buffer.empty() && trim(*line).rfind(':', 0) == 0) {
      reader.remember(trim(*line));
      command(trim(*line));
      continue;
    }
    buffer += *line;
    buffer += '\n';
    if (blank(buffer)) {
      buffer.clear();
      continue;
    }
    Submit r = submit(buffer, false);
    if (r == Submit::open_if) held = buffer;
    if (r != Submit::more) buffer.clear();
  }
  std::fflush(stdout);
  if (exited_ || terminal_) return exit_status_;
  return saw_error_ ? 1 : exit_status_;
}

void Repl::note_failure(Engine::EntryStatus status) {
  if (status == Engine::EntryStatus::compile_error || status == Engine::EntryStatus::runtime_error) {
    saw_error_ = true;
  }
  if (status == Engine::EntryStatus::exited) exited_ = true;
}

Repl::Submit Repl::submit(const std::string& text, bool final) {
  Engine::EntryShape entry{text, {}};
  if (std::optional<Engine::EntryShape> complete = engine_->complete_entry(text)) {
    entry = *complete;
  } else if (!final) {
    return Submit::more;
  }
  if (entry.open_if && !final) return Submit::open_if;
  // History keeps the whole entry as typed, so Up recalls a multi-line
  // kernel at once, not its last line.
  if (reader_) {
    std::string typed = text;
    while (!typed.empty() && typed.back() == '\n') typed.pop_back();
    reader_->remember(typed);
  }
  auto start = std::chrono::steady_clock::now();
  Engine::EntryResult r;
  if (!entry.stream.empty()) {
    if (!engine_->show_stream(next_name(), entry.stream)) r.status = Engine::EntryStatus::runtime_error;
  } else {
    r = engine_->eval(next_name(), entry.text, false);
  }
  note_failure(r.status);
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  if (r.status == Engine::EntryStatus::ok && !r.value.empty()) {
    std::fputs((r.value + "\n").c_str(), stdout);
  }
  if (r.status == Engine::EntryStatus::exited) {
    quit_ = true;
    exit_status_ = r.exit_status;
  }
  std::fflush(stdout);
  if (timing_) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "time: %.3f ms", elapsed.count());
    error(buf);
  }
  return Submit::done;
}

bool Repl::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (std::string why = unreadable_program(path); !why.empty()) {
    error("brook: " + why);
    saw_error_ = true;
    return false;
  }
  if (!in) {
    error("brook: cannot open '" + path + "'");
    saw_error_ = true;
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  // Named by its path, so diagnostics and #include "…" work as in `brook run`.
  Engine::EntryResult r = engine_->eval(path, text.str(), false);
  note_failure(r.status);
  if (r.status == Engine::EntryStatus::exited) {
    quit_ = true;
    exit_status_ = r.exit_status;
  }
  std::fflush(stdout);
  return r.status == Engine::EntryStatus::ok;
}

void Repl::command(const std::string& line) {
  std::vector<std::string> words = split_words(line);
  const std::string& name = words[0];
  std::string rest = trim(line.substr(name.size()));
  if (name == ":help" || name == ":h" || name == ":?") {
    std::fputs(help_text().c_str(), stdout);
  } else if (name == ":quit" || name == ":q" || name == ":exit") {
    quit_ = true;
  } else if (name == ":load") {
    if (rest.empty()) return error("usage: :load FILE.br");
    load(rest);
  } else if (name == ":type") {
    if (rest.empty()) return error("usage: :type EXPRESSION");
    std::string t = engine_->type_of(next_name(), rest);
    if (!t.empty()) std::fputs((t + "\n").c_str(), stdout);
  } else if (name == ":time") {
    timing_ = words.size() > 1 ? words[1] == "on" : !timing_;
    std::fputs(timing_ ? "timing on\n" : "timing off\n", stdout);
  } else if (name == ":reset") {
    if (reset()) {
      std::fputs("session reset\n", stdout);
    } else {
      error("the session was not reset");
    }
  } else if (name == ":show") {
    if (rest.empty()) return error("usage: :show STREAM");
    engine_->show_stream(next_name(), rest);
  } else if (name == ":streams") {
    show_streams();
  } else if (name == ":info" || name == ":list") {
    show_info(rest);
  } else if (name == ":profile") {
    profile(words);
  } else if (name == ":backend") {
    set_backend(words);
  } else if (name == ":emit") {
    emit(words);
  } else {
    error("unknown command '" + name + "' (try :help)");
  }
  std::fflush(stdout);
}

void Repl::set_backend(const std::vector<std::string>& words) {
  std::vector<std::string> built = built_backends();
  std::string current = engine_->backend_name();
  if (words.size() < 2) {
    std::string all;
    for (const std::string& b : built) all += (all.empty() ? "" : ", ") + b;
    std::fputs(("backend: " + current + " (built: " + all + ")\n").c_str(), stdout);
    return;
  }
  const std::string& wanted = words[1];
  if (!find_backend(wanted)) return error("unknown backend '" + wanted + "' (" + backend_names(false, ", ", " or ") + ")");
  if (std::find(built.begin(), built.end(), wanted) == built.end()) {
    return error("the " + wanted + " backend is not built into this brook; still using " + current);
  }
  if (wanted == current) {
    std::fputs(("backend: " + wanted + "\n").c_str(), stdout);
    return;
  }
  // The session moves with its state: streams are copied to the new backend.
  std::string why;
  size_t moved = 0;
  if (!engine_->switch_backend(wanted, &why, &moved)) {
    return error("cannot switch to " + wanted + ": " + why + "; still using " + current);
  }
  options_.backend = wanted;  // :reset keeps the backend chosen last
  std::string note;
  if (moved > 0) {
    note = " (" + std::to_string(moved) + (moved == 1 ? " stream" : " streams") + " moved from " +
           current + ")";
  }
  std::fputs(("backend: " + wanted + note + "\n").c_str(), stdout);
}

void Repl::emit(const std::vector<std::string>& words) {
  if (words.size() != 3) return error("usage: :emit " + emit_stage_list("|") + " NAME");
  const std::string& stage = words[1];
  const std::string& name = words[2];
  if (!is_emit_stage(stage)) return error("unknown stage '" + stage + "' (" + emit_stage_list(", ", " or ") + ")");
  if (!engine_->is_function(name)) return error("no function or kernel named '" + name + "'");
  if (stage == "plan") {
    std::string plan = engine_->last_plan(name);
    if (plan.empty()) return error("'" + name + "' has not been launched yet, so it has no plan");
    std::fputs(plan.c_str(), stdout);
    return;
  }
  std::string text;
  try {
    text = engine_->emit(stage, name);
  } catch (const std::runtime_error& e) {
    return error(e.what());
  }
  if (text.empty() && stage == "ast") return error("no definition of '" + name + "' to show");
  if (text.empty()) return error("'" + name + "' is not a kernel or reduction, so it has no " + stage + " form");
  std::fputs(text.c_str(), stdout);
}

void Repl::show_streams() {
  std::vector<Engine::StreamInfo> streams = engine_->live_streams();
  if (streams.empty()) {
    std::fputs("no live streams\n", stdout);
    return;
  }
  for (const Engine::StreamInfo& s : streams) {
    std::string shape;
    for (int64_t e : s.extents) shape += (shape.empty() ? "" : ", ") + std::to_string(e);
    std::string line = s.element_type + " " + s.name + "<" + shape + ">  " + std::to_string(s.bytes) + " bytes\n";
    std::fputs(line.c_str(), stdout);
  }
}

void Repl::show_info(const std::string& name) {
  std::vector<Engine::Definition> defs = engine_->definitions();
  if (!name.empty()) {
    for (const Engine::Definition& d : defs) {
      if (d.name == name) {
        std::fputs((d.kind + ": " + d.text + "\n").c_str(), stdout);
        return;
      }
    }
    return error("nothing named '" + name + "' is defined");
  }
  if (defs.empty()) {
    std::fputs("nothing defined yet\n", stdout);
    return;
  }
  // Grouped by kind, in the order a reader looks for them.
  struct Group {
    const char* kind;
    const char* heading;
  };
  for (Group g : {Group{"kernel", "kernels"},
                  {"reduction", "reductions"},
                  {"function", "functions"},
                  {"stream", "streams"},
                  {"variable", "variables"},
                  {"type", "typedefs"},
                  {"struct", "structs"},
                  {"macro", "macros"}}) {
    std::vector<std::string> texts;
    for (const Engine::Definition& d : defs) {
      if (d.kind == g.kind) texts.push_back(d.text);
    }
    if (texts.empty()) continue;
    std::sort(texts.begin(), texts.end());
    std::fputs((std::string(g.heading) + ":\n").c_str(), stdout);
    for (const std::string& t : texts) std::fputs(("  " + t + "\n").c_str(), stdout);
  }
}

void Repl::profile(const std::vector<std::string>& words) {
  const std::string what = words.size() > 1 ? words[1] : "";
  if (what.empty()) {
    std::fputs(engine_->profile() ? "profiling on\n" : "profiling off\n", stdout);
  } else if (what == "on") {
    engine_->set_profiling(true);
    std::fputs("profiling on\n", stdout);
  } else if (what == "off") {
    engine_->set_profiling(false);
    std::fputs("profiling off\n", stdout);
  } else if (what == "show") {
    if (!engine_->profile()) return error("profiling is off (:profile on starts it)");
    std::fputs(engine_->profile_report().c_str(), stdout);
  } else {
    error("usage: :profile [on|off|show]");
  }
}

std::vector<std::string> Repl::completions(const std::string& line, const std::string& word) {
  std::vector<std::string> out;
  auto offer = [&](const std::string& c) {
    if (c.rfind(word, 0) == 0) out.push_back(c);
  };
  auto finish = [&] {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  // Which word of a command is being completed: `:backend |` is the second.
  std::string head = line;
  head.erase(0, std::min(head.size(), head.find_first_not_of(" \t")));
  const std::vector<std::string> before = split_words(head);
  const std::string& first = head.empty() ? word : head;
  if (!first.empty() && first[0] == ':') {
    const std::string command = before.empty() ? std::string() : before[0];
    const size_t index = before.size();  // 0: the command itself
    if (index == 0) {
      for (const std::string& c : kCommandNames) offer(c);
    } else if (command == ":backend" && index == 1) {
      for (const BackendInfo& b : backend_registry()) offer(std::string(b.name));
    } else if (command == ":profile" && index == 1) {
      for (const char* p : {"on", "off", "show"}) offer(p);
    } else if ((command == ":info" || command == ":list") && index == 1) {
      for (const std::string& n : engine_->global_names()) offer(n);
    } else if (command == ":emit" && index == 1) {
      for (const std::string& st : emit_stages()) offer(st);
    } else if (command == ":emit" && index == 2) {
      for (const std::string& n : engine_->global_names()) {
        if (engine_->is_function(n)) offer(n);
      }
    } else if ((command == ":show" || command == ":type") && index >= 1) {
      for (const Engine::StreamInfo& st : engine_->live_streams()) offer(st.name);
      if (command == ":type") {
        for (const std::string& n : engine_->global_names()) offer(n);
      }
    }
    return finish();
  }
  // `s.do` → `s.domain(` for a live stream `s`.
  if (size_t dot = word.rfind('.'); dot != std::string::npos) {
    const std::string stream = word.substr(0, dot);
    for (const Engine::StreamInfo& st : engine_->live_streams()) {
      if (st.name == stream) offer(stream + ".domain(");
    }
    return finish();
  }
  for (const std::string& k : kKeywords) offer(k);
  for (const std::string& n : engine_->global_names()) offer(n);
  // Names starting with "__" are the implementation's (__fpclassify, __streamAssign).
  for (const stdlib::BuiltinName& b : stdlib::all_builtin_names()) {
    if (b.name.rfind("__", 0) != 0) offer(std::string(b.name));
  }
  return finish();
}

// ---------------------------------------------------------------------------

int cmd_repl(CommandLine& cl) {
  bool terminal = isatty(STDIN_FILENO) != 0;
  EngineOptions options = cl.engine;
  options.color = terminal && stderr_wants_color();
  Repl repl(options, terminal);
  if (!repl.started()) return 2;
  install_interrupt_handler();
  if (!cl.program.empty()) {
    if (std::string why = unreadable_program(cl.program); !why.empty()) {
      std::fprintf(stderr, "brook: %s\n", why.c_str());
      return 2;
    }
    repl.load(cl.program);
  }
  std::string history;
  if (const char* h = std::getenv("BROOK_HISTORY")) {
    history = h;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    history = std::string(home) + "/.brook_history";
  }
  if (terminal) std::fputs("brook REPL: :help for commands, Ctrl-D to leave\n", stdout);
  std::unique_ptr<LineReader> reader = make_line_reader(
      terminal, history, [&repl](const std::string& line, const std::string& word) {
        return repl.completions(line, word);
      });
  int status = repl.quit_requested() ? repl.exit_status() : repl.loop(*reader);
  if (cl.engine.profile) std::fputs(repl.profile_report().c_str(), stderr);
  return status;
}

}  // namespace brook::cli
