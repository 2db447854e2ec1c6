#include "runtime/engine.hpp"

#include <algorithm>
#include <cctype>
#include <cfenv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "backends/registry.hpp"
#include "interp/compiler.hpp"
#include "interp/function_pointers.hpp"
#include "interp/limits.hpp"
#include "lang/ast_dump.hpp"
#include "runtime/big_stack.hpp"
#include "runtime/call_stack.hpp"
#include "runtime/embed_values.hpp"
#include "runtime/host_library.hpp"
#include "runtime/output.hpp"
#include "runtime/stream_runtime.hpp"

namespace brook {

using interp::RuntimeError;

struct Engine::Impl {
  explicit Impl(EngineOptions o)
      : options(std::move(o)),
        front(FrontEndOptions{options.preprocess, SemaOptions{options.repl}, options.keep_macros, options.error_limit}),
        streams(choose_backend()),
        library(streams),
        compiler(machine, front.sources(), &library) {
    machine.out = &stdio;
    budget.set_cap(options.max_memory);
    machine.memory.set_budget(&budget);
    streams.set_memory_budget(&budget);
    setup_files();
    setup_plan_output();
    if (options.profile) {
      streams.set_profile(&profile);
      profile.startup_ms += ms_between(process_start(), Profile::Clock::now());
      entries_ms = profile.startup_ms;
    }
  }

  // The REPL's wall time is the time spent in entries, not in typing them.
  struct EntryClock {
    Impl& impl;
    Profile::Clock::time_point t0 = Profile::Clock::now();
    ~EntryClock() {
      if (impl.options.profile) impl.entries_ms += ms_between(t0, Profile::Clock::now());
    }
  };

  // --backend, else $BROOK_BACKEND, else the best built. A backend that is
  // not built, or cannot start (no OpenCL platform), throws std::runtime_error.
  std::unique_ptr<Backend> choose_backend() {
    std::string name = chosen_backend_name(options.backend);
    BackendOptions bo;
    bo.sources = &front.sources();
    bo.output = [this](std::string_view text) { machine.out->write(1, text); };
    bo.device = options.device;
    bo.threads = options.threads;
    bo.use_disk_cache = options.use_disk_cache;
    bo.profile = options.profile;
    bo.fp_relaxed = fp_relaxed;
    return make_backend(name, bo);
  }

  // A plan's text names its kernel on the first line ("plan map NAME @…") or,
  // for gather/scatter operators, on its "op NAME" line.
  static bool plan_matches(std::string_view text, const std::string& name) {
    if (name.empty()) return true;
    std::string_view first = text.substr(0, text.find('\n'));
    return first.find(" " + name + " @") != std::string_view::npos ||
           text.find("  op " + name + "\n") != std::string_view::npos;
  }

  // --dump-plans: each plan on stderr as it is made. emit_plans: plans on
  // stdout, the program's own stdout suppressed.
  // Every plan is remembered per kernel (the REPL's `:emit plan NAME` shows the
  // latest); --dump-plans and emit_plans also print it. Otherwise no plan
  // is described at all: formatting one per launch costs microseconds a
  // launch, which programs of many small launches feel.
  void setup_plan_output() {
    if (options.emit_plans) {
      plan_only = std::make_unique<PlanOnlySink>(*machine.out);
      machine.out = plan_only.get();
    }
    // Describing a plan costs more than a small launch: only when shown or,
    // in the REPL, remembered for `:emit plan`.
    if (!options.emit_plans && !options.dump_plans && !options.repl) {
      streams.set_plan_output(nullptr);
      return;
    }
    streams.set_plan_output([this](std::string_view text) {
      last_plans[plan_kernel(text)] = std::string(text);
      if (options.emit_plans) {
        if (plan_matches(text, options.plan_filter)) plan_only->plan(text);
      } else if (options.dump_plans) {
        machine.out->write(2, text);
      }
    });
  }

  // "plan map NAME @…" / "plan reduce NAME @…" → NAME; gather/scatter → their op.
  static std::string plan_kernel(std::string_view text) {
    std::string_view first = text.substr(0, text.find('\n'));
    size_t a = first.find(' ', 5);
    size_t b = first.find(" @");
    if (a != std::string_view::npos && b != std::string_view::npos && b > a) {
      return std::string(first.substr(a + 1, b - a - 1));
    }
    size_t op = text.find("  op ");
    if (op == std::string_view::npos) return {};
    std::string_view rest = text.substr(op + 5);
    return std::string(rest.substr(0, rest.find('\n')));
  }

  void setup_files() {
    // stdout/stderr are predeclared by sema as void* globals; give them
    // values that name file objects, which no access can dereference.
    machine.stdout_ptr = interp::make_pointer(machine.memory.allocate(0, interp::ObjectKind::file), 0);
    machine.stderr_ptr = interp::make_pointer(machine.memory.allocate(0, interp::ObjectKind::file), 0);
    machine.stdin_ptr = interp::make_pointer(machine.memory.allocate(0, interp::ObjectKind::file), 0);
    for (auto [name, value] : {std::pair{"stdout", machine.stdout_ptr}, std::pair{"stderr", machine.stderr_ptr},
                               std::pair{"stdin", machine.stdin_ptr}}) {
      if (auto* v = front.sema().lookup_global(name)) {
        if (auto* var = v->as<ast::VarDecl>(); var && var->type) {
          uint32_t id = compiler.global_object(var, {});
          interp::store_as<uint64_t>(machine.memory.data(id), value);
        }
      }
    }
    // getopt's globals: optind and opterr start at 1, as in C.
    for (auto [name, slot, initial] : {std::tuple{"optarg", &machine.optarg_ptr, 0},
                                       std::tuple{"optind", &machine.optind_ptr, 1},
                                       std::tuple{"opterr", &machine.opterr_ptr, 1},
                                       std::tuple{"optopt", &machine.optopt_ptr, 0}}) {
      auto* v = front.sema().lookup_global(name);
      auto* var = v ? v->as<ast::VarDecl>() : nullptr;
      if (!var || !var->type) continue;
      uint32_t id = compiler.global_object(var, {});
      *slot = interp::make_pointer(id, 0);
      if (var->type->is_pointer())
        interp::store_as<uint64_t>(machine.memory.data(id), 0);
      else
        interp::store_as<int32_t>(machine.memory.data(id), initial);
    }
  }

  // Prints diagnostics collected since the last call.
  void flush_diagnostics() {
    const auto& all = front.diagnostics().diagnostics();
    for (; printed < all.size(); ++printed) {
      machine.out->write(2, front.diagnostics().format(all[printed], options.color));
    }
    machine.out->flush();
  }

  bool accept(FrontEnd::Unit unit) {
    flush_diagnostics();
    if (unit.status != FrontEnd::Status::ok || !unit.program) return false;
    pending.push_back(unit.program);
    apply_pragmas(*unit.program);
    return true;
  }

  // `#pragma brook fp_relaxed` (LANGUAGE.md §10) is a property of the compiled
  // kernels, so the backend is remade with it; streams that already exist (a
  // REPL session) move to the new one. If that fails, kernels stay strict.
  void apply_pragmas(const ast::Program& program) {
    if (fp_relaxed) return;
    for (const std::string& p : program.pragmas) fp_relaxed |= p == "brook fp_relaxed";
    if (!fp_relaxed) return;
    // On any failure the current backend and its streams stay as they were.
    try {
      streams.move_to(choose_backend());
    } catch (const std::exception&) {
    } catch (const PlanError&) {
    } catch (const RuntimeError&) {
    } catch (const Interrupted&) {
    }
  }

  void report(const RuntimeError& e) {
    machine.out->flush();
    Diagnostic d{Severity::runtime_error, e.loc, e.message};
    machine.out->write(2, format_diagnostic(front.sources(), d, options.color) +
                              call_stack_note(machine, front, e.loc));
    machine.out->flush();
  }

  int run_main(std::span<const std::string> argv) {
    ast::Decl* d = front.sema().lookup_global("main");
    auto* main_decl = d ? d->as<ast::FuncDecl>() : nullptr;
    if (!main_decl || main_decl->fkind != ast::FuncKind::Host) return 0;
    interp::CompiledFunction* fn = compiler.function(main_decl);
    // argv: the strings, then the array of pointers ending in null.
    uint64_t argv_ptr = 0;
    size_t nparams = fn->param_offsets.size();
    if (nparams >= 2) {
      uint32_t array = machine.memory.allocate((argv.size() + 1) * 8, interp::ObjectKind::argv);
      for (size_t i = 0; i < argv.size(); ++i) {
        uint32_t s = machine.memory.allocate(argv[i].size() + 1, interp::ObjectKind::argv);
        std::memcpy(machine.memory.data(s), argv[i].data(), argv[i].size());
        interp::store_as<uint64_t>(machine.memory.data(array) + i * 8, interp::make_pointer(s, 0));
      }
      argv_ptr = interp::make_pointer(array, 0);
    }
    int32_t argc = static_cast<int32_t>(argv.size());
    interp::invoke(machine, *fn, main_decl->loc, nullptr, [&](uint8_t* frame) {
      if (nparams >= 1) interp::store_fn(fn->param_types[0])(frame + fn->param_offsets[0], interp::put<int32_t>(argc));
      if (nparams >= 2) interp::store_as<uint64_t>(frame + fn->param_offsets[1], argv_ptr);
    });
    const Type* rt = main_decl->return_type;
    if (!rt || !rt->is_integer()) return 0;
    return static_cast<int>(machine.ret.i);
  }

  // The last exit was _Exit's: no atexit handlers run after it.
  bool exit_immediately = false;

  void run_atexit_handlers() {
    static const std::vector<const Type*> kNoArgs;
    TypeContext& types = front.types();
    const Type* fn_type = types.function(types.void_type(), {}, false, false);
    while (!machine.atexit_handlers.empty()) {
      uint64_t p = machine.atexit_handlers.back();
      machine.atexit_handlers.pop_back();
      interp::CompiledFunction& f = interp::function_at(machine, p, fn_type, kNoArgs, {});
      interp::invoke(machine, f, {}, nullptr, [](uint8_t*) {});
    }
  }

  // LANGUAGE.md §1's exit status: main's value, exit()'s argument, 1 after a
  // runtime error (or the time limit), 130 after Ctrl-C.
  int run(std::span<const std::string> argv) {
    int main_status = 0;
    int exit_status = 0;
    Engine::EntryStatus how = execute(
        [&] {
          while (!pending.empty()) {
            ast::Program* p = pending.front();
            pending.erase(pending.begin());
            interp::CompiledFunction* top = compiler.compile_toplevel(*p);
            interp::invoke(machine, *top, {}, nullptr, [](uint8_t*) {});
          }
          main_status = run_main(argv);
        },
        &exit_status);
    if ((how == Engine::EntryStatus::ok || how == Engine::EntryStatus::exited) &&
        !exit_immediately) {
      // C's exit sequence: atexit's handlers, the last registered first; an
      // exit() inside one ends the sequence with its status.
      int handler_status = how == Engine::EntryStatus::ok ? main_status : exit_status;
      Engine::EntryStatus after = execute([&] { run_atexit_handlers(); }, &handler_status);
      if (after == Engine::EntryStatus::exited) return handler_status;
      if (after != Engine::EntryStatus::ok)
        return after == Engine::EntryStatus::interrupted ? 130 : 1;
    }
    switch (how) {
      case Engine::EntryStatus::ok: return main_status;
      case Engine::EntryStatus::exited: return exit_status;
      case Engine::EntryStatus::interrupted: return 130;
      case Engine::EntryStatus::runtime_error:
      case Engine::EntryStatus::compile_error:
      case Engine::EntryStatus::incomplete: break;
    }
    return 1;
  }

  // An Interrupted that reached the top: the time limit (a runtime error,
  // status 1) or Ctrl-C (130, as a shell reports SIGINT).
  int report_interrupt() {
    if (time_limit_expired.load()) {
      report(RuntimeError{{}, time_limit_message(options.time_limit)});
      return 1;
    }
    machine.out->flush();
    machine.out->write(2, "interrupted\n");
    return 130;
  }

  // --- REPL entries ---

  // Runs `body` on the big stack under the time limit and says how it ended
  // (the one place runtime errors, Ctrl-C, exit() and out-of-memory are
  // caught); the machine is left clean for the next entry whatever happened.
  Engine::EntryStatus execute(const std::function<void()>& body, int* exit_status) {
    Engine::EntryStatus status = Engine::EntryStatus::ok;
    auto guarded = [&] {
      try {
        body();
      } catch (const RuntimeError& e) {
        report(e);
        status = Engine::EntryStatus::runtime_error;
      } catch (const interp::Interrupted&) {
        status = report_interrupt() == 1 ? Engine::EntryStatus::runtime_error : Engine::EntryStatus::interrupted;
      } catch (const interp::LongJump& j) {
        report(RuntimeError{j.loc,
                            "longjmp to a setjmp that is no longer active (its block or "
                            "function has ended)"});
        status = Engine::EntryStatus::runtime_error;
      } catch (const interp::ExitRequest& e) {
        *exit_status = e.status;
        exit_immediately = e.immediate;
        status = Engine::EntryStatus::exited;
      } catch (const std::bad_alloc&) {
        report(RuntimeError{{}, "out of memory"});
        status = Engine::EntryStatus::runtime_error;
      } catch (const std::exception& e) {
        // A backend that fails outside a launch (the JIT's plugin failing to
        // load at its first use): a runtime error, never an abort.
        report(RuntimeError{{}, e.what()});
        status = Engine::EntryStatus::runtime_error;
      }
      machine.fp = nullptr;
      machine.depth = 0;
      machine.stack.release({0, 0});
      std::fesetround(FE_TONEAREST);  // a program's fesetround ends with its run
    };
    interp::interrupt_requested.store(false);
    {
      Watchdog limit(options.time_limit);
      run_with_big_stack(guarded);
    }
    machine.out->flush();
    return status;
  }

  // Code compiled against an earlier definition reaches the newest one.
  void note_definitions(const ast::Program& p) {
    for (const ast::StmtPtr& item : p.items) {
      auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        auto* f = d->as<ast::FuncDecl>();
        if (!f || !f->body) continue;
        auto [it, fresh] = definitions.try_emplace(f->name, f);
        if (!fresh && it->second != f) {
          if (f->fkind == ast::FuncKind::Host) compiler.redefine(it->second, f);
          it->second = f;
        }
      }
    }
  }

  Engine::EntryResult eval_unit(FrontEnd::Unit unit) {
    Engine::EntryResult result;
    if (unit.status == FrontEnd::Status::incomplete) {
      result.status = Engine::EntryStatus::incomplete;
      return result;
    }
    flush_diagnostics();
    if (unit.status != FrontEnd::Status::ok || !unit.program) {
      result.status = Engine::EntryStatus::compile_error;
      return result;
    }
    ast::Program& program = *unit.program;
    note_definitions(program);
    ValueCapture capture = capture_trailing_value(program);
    result.status = execute(
        [&] {
          // Files compiled earlier with compile_file run first, as `run` would.
          while (!pending.empty()) {
            ast::Program* p = pending.front();
            pending.erase(pending.begin());
            interp::invoke(machine, *compiler.compile_toplevel(*p), {}, nullptr, [](uint8_t*) {});
          }
          interp::CompiledFunction* top = compiler.compile_toplevel(program);
          interp::invoke(machine, *top, {}, nullptr, [](uint8_t*) {});
          if (capture.holder) {
            uint32_t id = compiler.global_object(capture.holder, {});
            result.value = format_value(capture.holder->type, machine.memory.data(id), machine.memory);
            result.type = capture.holder->type->name();
          } else if (!capture.immediate.empty()) {
            result.value = capture.immediate;
            result.type = capture.type;
          } else if (capture.global) {
            uint32_t id = compiler.global_object(capture.global, {});
            result.value = format_value(capture.global->type, machine.memory.data(id), machine.memory);
            result.type = capture.global->type->name();
          }
        },
        &result.exit_status);
    if (result.status == Engine::EntryStatus::ok && capture.stream) {
      show_stream(std::move(capture.stream));
    }
    return result;
  }

  struct ValueCapture {
    ast::VarDecl* holder = nullptr;        // a hidden global the value is stored into
    const ast::VarDecl* global = nullptr;  // or a global array shown in place
    ast::StmtPtr stream;                   // or a stream expression statement, shown by show_stream
    std::string immediate, type;           // or a value known without running (literals)
  };

  // A trailing expression statement of non-void type becomes the initialiser
  // of a hidden global, so the interpreter evaluates it exactly once and the
  // REPL reads the value back from memory.
  ValueCapture capture_trailing_value(ast::Program& program) {
    ValueCapture c;
    if (program.items.empty()) return c;
    auto* es = program.items.back()->as<ast::ExprStmt>();
    if (!es || !es->expr || !es->expr->type) return c;
    const Type* t = es->expr->type;
    if (t->is_void() || t->is_error() || is_quiet(*es->expr)) return c;
    if (t->is_stream()) {
      // Shown after the rest of the entry ran, from the checked expression
      // itself, so that an error names the entry's text as the user typed it.
      c.stream = std::move(program.items.back());
      program.items.pop_back();
      return c;
    }
    if (t->is_array()) {
      auto* name = es->expr->as<ast::NameExpr>();
      auto* var = name && name->decl ? name->decl->as<ast::VarDecl>() : nullptr;
      if (var && var->is_global) {
        c.global = var;
        return c;
      }
      if (auto* lit = es->expr->as<ast::StringLit>()) {
        c.immediate = format_value(t, reinterpret_cast<const uint8_t*>(lit->value.c_str()), machine.memory);
        c.type = t->name();
        return c;
      }
    }
    auto holder = std::make_unique<ast::VarDecl>(es->loc);
    holder->name = "<value>";
    holder->type = t;
    holder->is_global = true;
    holder->init = std::move(es->expr);
    c.holder = holder.get();
    auto decl = std::make_unique<ast::DeclStmt>(es->loc);
    decl->decls.push_back(std::move(holder));
    program.items.back() = std::move(decl);
    return c;
  }

  // Statements whose value nobody wants echoed: assignments, ++/--, printing.
  static bool is_quiet(const ast::Expr& e) {
    if (e.as<ast::AssignExpr>()) return true;
    if (auto* u = e.as<ast::UnaryExpr>()) {
      using Op = ast::UnaryOp;
      return u->op == Op::PreInc || u->op == Op::PreDec || u->op == Op::PostInc || u->op == Op::PostDec;
    }
    if (auto* call = e.as<ast::CallExpr>()) {
      static constexpr std::string_view kQuiet[] = {"printf", "fprintf", "puts",   "putchar", "sprintf",
                                                    "snprintf", "memset", "memcpy", "strcpy", "srand"};
      for (std::string_view q : kQuiet)
        if (call->target == ast::CallTarget::Builtin && call->callee == q) return true;
    }
    return false;
  }

  // A stream value is shown through streamPrint; long output is abbreviated.
  // The expression is checked as typed, so that an error shows the user's
  // text; only a value that is not a stream goes through streamPrint's own
  // check, for its message.
  bool print_stream(const std::string& expr, std::string name = "<value>") {
    size_t errors = front.diagnostics().error_count();
    front.sema().set_stream_echo(true);
    FrontEnd::Unit unit = front.load_source(name, expr + ";");
    front.sema().set_stream_echo(false);
    ast::ExprStmt* es = nullptr;
    if (unit.status == FrontEnd::Status::ok && unit.program && unit.program->items.size() == 1)
      es = unit.program->items.back()->as<ast::ExprStmt>();
    if (es && es->expr && es->expr->type && es->expr->type->is_stream()) {
      flush_diagnostics();
      ast::StmtPtr stmt = std::move(unit.program->items.back());
      unit.program->items.pop_back();
      return show_stream(std::move(stmt));
    }
    if (es && es->expr && es->expr->type && front.diagnostics().error_count() == errors)
      front.diagnostics().error(es->expr->loc, "only a stream can be shown here, not '" +
                                                   es->expr->type->name() + "'");
    flush_diagnostics();
    return false;
  }

  // The REPL's echo of a stream-valued entry: its own checked expression
  // becomes streamPrint's argument (kept alive with the entry's other trees).
  bool show_stream(ast::StmtPtr stmt) {
    auto* es = stmt->as<ast::ExprStmt>();
    auto call = std::make_unique<ast::CallExpr>(es->loc);
    call->callee = "streamPrint";
    call->callee_loc = es->loc;
    call->target = ast::CallTarget::Builtin;
    call->builtin = static_cast<uint16_t>(stdlib::Builtin::streamPrint);
    call->type = front.types().void_type();
    call->args.push_back(std::move(es->expr));
    es->expr = std::move(call);
    auto program = std::make_unique<ast::Program>();
    program->items.push_back(std::move(stmt));
    shown.push_back(std::move(program));
    return run_display(*shown.back());
  }

  bool run_display(ast::Program& program) {
    std::string captured;
    interp::OutputSink* saved = machine.out;
    CallbackSink sink([&](int stream, std::string_view t) {
      if (stream == 1) captured += t;
      else saved->write(stream, t);
    });
    machine.out = &sink;
    StreamDisplay how;
    how.width = options.display_width;
    streams.set_display(how);
    int ignored = 0;
    Engine::EntryStatus st = execute(
        [&] { interp::invoke(machine, *compiler.compile_toplevel(program), {}, nullptr, [](uint8_t*) {}); },
        &ignored);
    streams.set_display(std::nullopt);
    machine.out = saved;
    if (st == Engine::EntryStatus::ok) machine.out->write(1, captured);
    machine.out->flush();
    return st == Engine::EntryStatus::ok;
  }

  std::string type_of(std::string name, std::string_view expr) {
    // Checked as typed (a stream name alone is fine here), so that an error
    // shows the user's text.
    front.sema().set_stream_echo(true);
    FrontEnd::Unit unit = front.load_source(std::move(name), std::string(expr) + ";");
    front.sema().set_stream_echo(false);
    flush_diagnostics();
    if (unit.status != FrontEnd::Status::ok || !unit.program || unit.program->items.empty()) return {};
    auto* es = unit.program->items.back()->as<ast::ExprStmt>();
    if (!es || !es->expr || !es->expr->type) return {};
    return es->expr->type->name();
  }

  std::unordered_map<std::string, const ast::FuncDecl*> definitions;

  EngineOptions options;
  // A compiled program asked for `#pragma brook fp_relaxed`. Declared before
  // `streams`, whose initialiser reads it through choose_backend().
  bool fp_relaxed = false;
  FrontEnd front;
  MemoryBudget budget;  // --max-memory: streams, scratch and the host heap together
  interp::Machine machine;
  StdioSink stdio;
  std::unique_ptr<CallbackSink> callback;
  std::unique_ptr<PlanOnlySink> plan_only;  // emit_plans
  std::unordered_map<std::string, std::string> last_plans;  // kernel name → its latest plan
  Profile profile;  // --profile; before `streams`, whose backend writes to it
  double entries_ms = 0;  // the REPL: start-up plus entries run while profiling
  StreamRuntime streams;
  HostLibrary library;
  interp::Compiler compiler;
  std::vector<ast::Program*> pending;
  std::vector<std::unique_ptr<ast::Program>> shown;  // the REPL's stream echoes (compiled code points into them)
  size_t printed = 0;
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Engine::~Engine() = default;

bool Engine::compile_file(const std::string& path) {
  ProfileTimer timer(impl_->options.profile ? &impl_->profile.frontend_ms : nullptr);
  return impl_->accept(impl_->front.load_file(path));
}

bool Engine::compile_source(std::string name, std::string text) {
  return impl_->accept(impl_->front.load_source(std::move(name), std::move(text)));
}

void Engine::end_translation_unit() {
  impl_->front.sema().end_translation_unit();
}

int Engine::run(std::span<const std::string> argv) { return impl_->run(argv); }

FrontEnd& Engine::front_end() { return impl_->front; }

Engine::EntryResult Engine::eval(std::string name, std::string text, bool allow_incomplete) {
  Impl::EntryClock clock{*impl_};
  FrontEnd::Unit unit = [&] {
    ProfileTimer timer(impl_->options.profile ? &impl_->profile.frontend_ms : nullptr);
    return impl_->front.load_source(std::move(name), text, allow_incomplete);
  }();
  return impl_->eval_unit(std::move(unit));
}

bool Engine::is_function(std::string_view name) {
  const ast::Decl* d = impl_->front.sema().lookup_global(std::string(name));
  return d && d->as<ast::FuncDecl>();
}

std::vector<std::string> Engine::global_names() const { return impl_->front.global_names(); }

std::optional<Engine::EntryShape> Engine::complete_entry(std::string_view text) {
  return impl_->front.complete_entry(text);
}

std::string Engine::type_of(std::string name, std::string_view expr) {
  // A function's type is its signature; a live stream's, its element type and shape.
  std::string_view word = expr;
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.front()))) word.remove_prefix(1);
  while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) word.remove_suffix(1);
  if (const ast::Decl* d = impl_->front.sema().lookup_global(word)) {
    if (const auto* f = d->as<ast::FuncDecl>()) return signature_text(f->defined());
    if (const auto* v = d->as<ast::VarDecl>(); v && v->is_stream) {
      for (const StreamInfo& s : live_streams()) {
        if (s.name != word) continue;
        std::string shape;
        for (int64_t e : s.extents) shape += (shape.empty() ? "" : ", ") + std::to_string(e);
        return s.element_type + "<" + shape + ">";
      }
    }
  }
  return impl_->type_of(std::move(name), expr);
}

bool Engine::show_stream(std::string name, std::string_view expr) {
  Impl::EntryClock clock{*impl_};
  return impl_->print_stream(std::string(expr), std::move(name));
}

std::vector<Engine::StreamInfo> Engine::live_streams() {
  std::vector<StreamInfo> out;
  std::unordered_map<std::string, bool> seen;
  const auto& programs = impl_->front.programs();
  for (auto p = programs.rbegin(); p != programs.rend(); ++p) {
    for (const ast::StmtPtr& item : (*p)->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* v = d->as<ast::VarDecl>();
        if (!v || !v->is_stream || !v->type || seen[v->name]) continue;
        if (impl_->front.sema().lookup_global(v->name) != v) continue;
        seen[v->name] = true;
        uint64_t handle = interp::load_as<uint64_t>(impl_->machine.memory.data(impl_->compiler.global_object(v, {})));
        if (handle == 0) continue;
        try {
          const StreamView& view = impl_->streams.view_of(handle, {});
          StreamInfo info{v->name, view.elem ? view.elem->name() : "?", view.elem, view.extents, 0};
          uint64_t count = 1;
          for (int64_t e : view.extents) count *= static_cast<uint64_t>(e);
          info.bytes = count * (view.elem ? view.elem->size : 0);
          out.push_back(std::move(info));
        } catch (const RuntimeError&) {
          // Released, or never created: not live.
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const StreamInfo& a, const StreamInfo& b) { return a.name < b.name; });
  return out;
}

namespace {
const ast::VarDecl* top_level_stream(FrontEnd& front, std::string_view name) {
  ast::Decl* d = front.sema().lookup_global(name);
  auto* v = d ? d->as<ast::VarDecl>() : nullptr;
  return v && v->is_stream ? v : nullptr;
}
}  // namespace

bool Engine::stream_data(std::string_view name, bool to_stream, std::span<std::byte> bytes,
                         std::string* error) {
  const ast::VarDecl* v = top_level_stream(impl_->front, name);
  uint64_t handle = v ? interp::load_as<uint64_t>(impl_->machine.memory.data(impl_->compiler.global_object(v, {}))) : 0;
  if (handle == 0) {
    *error = "no live stream named '" + std::string(name) + "'";
    return false;
  }
  try {
    const StreamView& view = impl_->streams.view_of(handle, {});
    uint64_t count = 1;
    for (int64_t e : view.extents) count *= static_cast<uint64_t>(e);
    uint64_t need = count * (view.elem ? view.elem->size : 0);
    if (bytes.size() != need) {
      *error = std::string(to_stream ? "reading " : "writing ") + std::to_string(bytes.size()) +
               " bytes " + (to_stream ? "into" : "out of") + " stream '" + std::string(name) + "' of " +
               std::to_string(need) + " bytes (" + std::to_string(count) + " elements of " +
               (view.elem ? view.elem->name() : "?") + ")";
      return false;
    }
    if (to_stream) {
      impl_->streams.backend().write_view(view, bytes);
    } else {
      impl_->streams.backend().read_view(view, bytes);
    }
    return true;
  } catch (const RuntimeError& e) {
    *error = e.message;
    return false;
  }
}

void Engine::release_stream(std::string_view name) {
  const ast::VarDecl* v = top_level_stream(impl_->front, name);
  if (!v) return;
  uint8_t* slot = impl_->machine.memory.data(impl_->compiler.global_object(v, {}));
  uint64_t handle = interp::load_as<uint64_t>(slot);
  if (handle == 0) return;
  try {
    impl_->streams.release(impl_->machine, handle);
  } catch (const RuntimeError&) {
    // Already gone.
  }
  interp::store_as<uint64_t>(slot, 0);
}

std::string Engine::last_plan(const std::string& kernel) const {
  auto it = impl_->last_plans.find(kernel);
  return it == impl_->last_plans.end() ? std::string() : it->second;
}

std::string Engine::emit(std::string_view stage, std::string_view name) {
  const BackendInfo* backend = nullptr;
  if (stage != "ast") {
    backend = find_emit_stage(stage);
    if (!backend) {
      const BackendInfo* known = nullptr;
      for (const BackendInfo& b : backend_registry()) {
        if (b.emit_stage == stage) known = &b;
      }
      throw std::runtime_error(known ? "'emit " + std::string(stage) + "' needs the " + std::string(known->name) +
                                           " backend, not in this build"
                                     : "no backend emits '" + std::string(stage) + "'");
    }
  }
  const bool relaxed = impl_->fp_relaxed;
  // `item` is the declaration named `name` (null: the whole program).
  auto render = [&](const ast::Program& program, const ast::Stmt* item) -> std::string {
    if (!backend) return item ? dump_stmt(*item) : dump_ast(program);
    return backend->emit(program, relaxed, name);
  };
  const auto& programs = impl_->front.programs();
  if (name.empty()) {
    std::string out;
    for (const auto& program : programs) out += render(*program, nullptr);
    return out;
  }
  // The newest definition is the one calls reach (a REPL session may hold
  // older ones of the same name); a function only declared shows its prototype.
  const ast::Decl* d = impl_->front.sema().lookup_global(std::string(name));
  const auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
  if (!f) return {};
  if (f->definition) f = f->definition;
  for (const auto& program : programs) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& decl : ds->decls) {
        if (decl.get() == f) return render(*program, item.get());
      }
    }
  }
  return {};
}

std::string Engine::profile_report() {
  if (!impl_->options.profile) return backend_profile_report(impl_->streams.backend());
  if (impl_->options.repl)
    return impl_->profile.report(impl_->entries_ms, "time in entries (and start-up)");
  return impl_->profile.report(ms_between(process_start(), Profile::Clock::now()));
}

void Engine::set_profiling(bool on) {
  Impl& impl = *impl_;
  if (on && !impl.options.profile) {
    impl.profile = Profile{};  // rows from now on
    impl.entries_ms = 0;
  }
  impl.options.profile = on;
  impl.streams.set_profile(on ? &impl.profile : nullptr);
}

const Profile* Engine::profile() const { return impl_->options.profile ? &impl_->profile : nullptr; }

std::string Engine::backend_name() { return std::string(impl_->streams.backend().name()); }

bool Engine::switch_backend(std::string_view name, std::string* error, size_t* moved) {
  Impl& impl = *impl_;
  std::string previous = impl.options.backend;
  impl.options.backend = std::string(name);
  std::string failure;
  try {
    size_t n = impl.streams.move_to(impl.choose_backend());
    if (moved) *moved = n;
    return true;
  } catch (const std::exception& e) {
    failure = e.what();
  } catch (const PlanError& e) {
    failure = e.message;
  } catch (const RuntimeError& e) {
    failure = e.message;
  } catch (const Interrupted&) {
    failure = "interrupted";  // Ctrl-C while a transfer waited on the device
  }
  // choose_backend reads options.backend, as later pragmas and resets will.
  impl.options.backend = previous;
  if (error) *error = failure.empty() ? "the backend could not be started" : failure;
  return false;
}

void Engine::interrupt() { interp::interrupt_requested.store(true); }

std::optional<std::span<uint8_t>> Engine::global_bytes(std::string_view name, const Type** type) {
  ast::Decl* d = impl_->front.sema().lookup_global(name);
  auto* var = d ? d->as<ast::VarDecl>() : nullptr;
  if (!var || var->is_stream || !var->type || var->type->is_void()) return std::nullopt;
  uint32_t id = impl_->compiler.global_object(var, {});
  if (type) *type = var->type;
  return std::span<uint8_t>(impl_->machine.memory.data(id), var->type->size);
}

void Engine::set_output(std::function<void(int, std::string_view)> f) {
  impl_->callback = std::make_unique<CallbackSink>(std::move(f));
  impl_->machine.out = impl_->callback.get();
  impl_->setup_plan_output();
}

}  // namespace brook
