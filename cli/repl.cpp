#include "cli/repl.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include "backends/backends.hpp"
#include "cli/commands.hpp"
#include "lang/ast_dump.hpp"
#include "lang/parser.hpp"
#include "lang/preprocess.hpp"
#include "stdlib/builtins.hpp"
#ifdef BROOK_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif
#ifdef BROOK_HAVE_JIT
#include "jit/jit_backend.hpp"
#endif

namespace brook::cli {

namespace {

constexpr const char* kHelp =
    "Enter declarations, statements and expressions; an expression shows its value.\n"
    "An entry continues over several lines ('...' prompt) until it is complete.\n"
    "Commands:\n"
    "  :help                          this text\n"
    "  :load FILE.br                  run a file's declarations and top-level statements\n"
    "  :backend [interp|jit|opencl]   show or choose where kernels run\n"
    "  :type EXPR                     the type of an expression (nothing runs)\n"
    "  :emit ast|plan|llvm|opencl NAME  one stage's output for a function or kernel\n"
    "  :time                          toggle per-entry timing\n"
    "  :streams                       live streams with their shapes and sizes\n"
    "  :reset                         forget everything (a fresh session)\n"
    "  :quit                          leave (Ctrl-D too)\n"
    "Ctrl-C stops a running entry; history is kept in ~/.brook_history.\n";

const std::vector<std::string> kCommandNames = {":help", ":load",    ":backend", ":type", ":emit",
                                                ":time", ":streams", ":reset",   ":quit"};

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
    reader.remember(*line);
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

// Parses `text` on its own (nothing is registered) to see whether it needs
// more lines; typedef names of the session are known to the scratch parser.
std::optional<Repl::Entry> Repl::complete_entry(const std::string& text) const {
  auto probe = [&](const std::string& candidate, bool* incomplete) -> std::optional<ast::Program> {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    TypeContext types;
    ParserState state;
    for (const std::string& n : global_names()) {
      const ast::Decl* d = engine_->front_end().sema().lookup_global(n);
      if (d && d->as<ast::TypedefDecl>()) state.typedef_names.insert(n);
    }
    uint32_t file = sources.add_file("<probe>", candidate);
    // The session's macros, so `BEGIN` defined as `{` opens a block here too.
    MacroTable macros = engine_->front_end().macros();
    PreprocessResult pp = preprocess(sources, file, diags, options_.preprocess, macros);
    ParseResult parsed = parse(pp.tokens, types, diags, state);
    *incomplete = parsed.incomplete;
    // The lexer, not the parser, sees a comment still open at the end, and
    // the preprocessor an #if still waiting for its #endif.
    for (const Diagnostic& d : diags.diagnostics()) {
      if (d.message.rfind("unterminated comment", 0) == 0 ||
          d.message.rfind("unterminated conditional directive", 0) == 0) {
        *incomplete = true;
      }
    }
    if (diags.has_errors()) return std::nullopt;
    return std::move(parsed.program);
  };
  // `s` or `s.domain(a, b)` alone: sema calls that a no-op, the REPL shows it.
  auto bare_stream = [&](const ast::Program& p, const std::string& entry) -> std::string {
    if (p.items.size() != 1) return {};
    const auto* es = p.items[0]->as<ast::ExprStmt>();
    const ast::Expr* e = es ? es->expr.get() : nullptr;
    while (const auto* d = e ? e->as<ast::DomainExpr>() : nullptr) e = d->stream.get();
    const auto* name = e ? e->as<ast::NameExpr>() : nullptr;
    const ast::Decl* decl = name ? engine_->front_end().sema().lookup_global(name->name) : nullptr;
    const auto* var = decl ? decl->as<ast::VarDecl>() : nullptr;
    if (!var || !var->is_stream) return {};
    std::string expr = trim(entry);
    while (!expr.empty() && (expr.back() == ';' || std::isspace(static_cast<unsigned char>(expr.back()))))
      expr.pop_back();
    return expr;
  };
  // A line ending in '\\' continues (a long #define, most often).
  std::string_view tail(text);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.remove_suffix(1);
  if (tail.ends_with('\\')) return std::nullopt;
  bool incomplete = false;
  if (std::optional<ast::Program> p = probe(text, &incomplete); !incomplete) {
    Entry e{text, p ? bare_stream(*p, text) : std::string()};
    if (p && !p->items.empty()) {
      const ast::Stmt* last = p->items.back().get();
      while (const auto* i = last ? last->as<ast::IfStmt>() : nullptr) {
        if (!i->else_stmt) e.open_if = true;
        last = i->else_stmt.get();
      }
    }
    return e;
  }
  // `2 * 21` or `int x = 5` without the ';': finish it when that gives an
  // expression statement or variable declaration (not `for (…)` or `int f()`).
  std::string with_semicolon = text;
  while (!with_semicolon.empty() && std::isspace(static_cast<unsigned char>(with_semicolon.back())))
    with_semicolon.pop_back();
  with_semicolon += ";\n";
  std::optional<ast::Program> p = probe(with_semicolon, &incomplete);
  if (incomplete || !p || p->items.empty()) return std::nullopt;
  const ast::Stmt& last = *p->items.back();
  if (last.as<ast::ExprStmt>()) return Entry{with_semicolon, bare_stream(*p, with_semicolon)};
  if (auto* ds = last.as<ast::DeclStmt>()) {
    bool vars = !ds->decls.empty() && std::all_of(ds->decls.begin(), ds->decls.end(),
                                                   [](const ast::DeclPtr& d) { return d->as<ast::VarDecl>(); });
    if (vars) return Entry{with_semicolon, {}};
  }
  return std::nullopt;
}

Repl::Submit Repl::submit(const std::string& text, bool final) {
  Entry entry{text, {}};
  if (std::optional<Entry> complete = complete_entry(text)) {
    entry = *complete;
  } else if (!final) {
    return Submit::more;
  }
  if (entry.open_if && !final) return Submit::open_if;
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
    std::fputs(kHelp, stdout);
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
  } else if (name == ":streams") {
    show_streams();
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
  if (wanted != "interp" && wanted != "jit" && wanted != "opencl") {
    return error("unknown backend '" + wanted + "' (interp, jit or opencl)");
  }
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

namespace {
// `:emit llvm|opencl`: the backend's source for one kernel of `program`; empty
// when this build lacks the backend.
std::string emit_backend_source(const std::string& stage, [[maybe_unused]] const ast::Program& program,
                                [[maybe_unused]] const std::string& name) {
#ifdef BROOK_HAVE_OPENCL
  if (stage == "opencl") return emit_opencl(program, name);
#endif
#ifdef BROOK_HAVE_JIT
  if (stage == "llvm") {
    return jit_emit_llvm(program, false, name);
  }
#endif
  (void)stage;
  return {};
}
}  // namespace

void Repl::emit(const std::vector<std::string>& words) {
  if (words.size() != 3) return error("usage: :emit ast|plan|llvm|opencl NAME");
  const std::string& stage = words[1];
  const std::string& name = words[2];
  if (stage != "ast" && stage != "plan" && stage != "llvm" && stage != "opencl") {
    return error("unknown stage '" + stage + "' (ast, plan, llvm or opencl)");
  }
  const ast::Decl* d = engine_->front_end().sema().lookup_global(name);
  const auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
  if (!f) return error("no function or kernel named '" + name + "'");
  if (stage == "plan") {
    std::string plan = engine_->last_plan(name);
    if (plan.empty()) return error("'" + name + "' has not been launched yet, so it has no plan");
    std::fputs(plan.c_str(), stdout);
    return;
  }
  // The newest definition is the one calls reach.
  if (f->definition) f = f->definition;
  for (const auto& program : engine_->front_end().programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& decl : ds->decls) {
        if (decl.get() != f) continue;
        std::string text = stage == "ast" ? dump_stmt(*item) : emit_backend_source(stage, *program, name);
        if (text.empty()) return error("':emit " + stage + "' is not available in this build");
        std::fputs(text.c_str(), stdout);
        return;
      }
    }
  }
  error("no definition of '" + name + "' to show");
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

std::vector<std::string> Repl::global_names() const {
  std::set<std::string> names;
  for (const auto& program : engine_->front_end().programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (!d->name.empty() && d->name[0] != '<') names.insert(d->name);
      }
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> Repl::completions(const std::string& line, const std::string& word) {
  std::vector<std::string> out;
  auto offer = [&](const std::string& c) {
    if (c.rfind(word, 0) == 0) out.push_back(c);
  };
  std::string head = trim(line);
  if (!head.empty() && head[0] == ':' && head.find(' ') == std::string::npos) {
    for (const std::string& c : kCommandNames) offer(c);
    return out;
  }
  if (head.rfind(":backend", 0) == 0) {
    for (const char* b : {"interp", "jit", "opencl"}) offer(b);
    return out;
  }
  if (head.rfind(":emit", 0) == 0 && split_words(head).size() <= 2 && !head.ends_with(' ')) {
    for (const char* s : {"ast", "plan", "llvm", "opencl"}) offer(s);
    return out;
  }
  for (const std::string& k : kKeywords) offer(k);
  for (const std::string& n : global_names()) offer(n);
  for (const stdlib::BuiltinName& b : stdlib::all_builtin_names()) offer(std::string(b.name));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
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
  if (repl.quit_requested()) return repl.exit_status();
  return repl.loop(*reader);
}

}  // namespace brook::cli
