#include "runtime/engine.hpp"

#include <cstdio>
#include <cstring>

#include "backends/interp/compiler.hpp"
#include "runtime/big_stack.hpp"
#include "runtime/host_library.hpp"
#include "runtime/output.hpp"

namespace brook {

using interp::RuntimeError;

struct Engine::Impl {
  explicit Impl(EngineOptions o)
      : options(std::move(o)),
        front(FrontEndOptions{options.preprocess, SemaOptions{options.repl}}),
        library(streams),
        compiler(machine, front.sources(), &library) {
    machine.out = &stdio;
    setup_files();
  }

  void setup_files() {
    // stdout/stderr are predeclared by sema as void* globals; give them
    // values that name file objects, which no access can dereference.
    machine.stdout_ptr = interp::make_pointer(machine.memory.allocate(0, interp::ObjectKind::file), 0);
    machine.stderr_ptr = interp::make_pointer(machine.memory.allocate(0, interp::ObjectKind::file), 0);
    for (auto [name, value] : {std::pair{"stdout", machine.stdout_ptr}, std::pair{"stderr", machine.stderr_ptr}}) {
      if (auto* v = front.sema().lookup_global(name)) {
        if (auto* var = v->as<ast::VarDecl>(); var && var->type) {
          uint32_t id = compiler.global_object(var, {});
          interp::store_as<uint64_t>(machine.memory.data(id), value);
        }
      }
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
    return true;
  }

  void report(const RuntimeError& e) {
    machine.out->flush();
    Diagnostic d{Severity::runtime_error, e.loc, e.message};
    machine.out->write(2, format_diagnostic(front.sources(), d, options.color));
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

  int run(std::span<const std::string> argv) {
    int status = 0;
    auto body = [&] {
      try {
        while (!pending.empty()) {
          ast::Program* p = pending.front();
          pending.erase(pending.begin());
          interp::CompiledFunction* top = compiler.compile_toplevel(*p);
          interp::invoke(machine, *top, {}, nullptr, [](uint8_t*) {});
        }
        status = run_main(argv);
      } catch (const RuntimeError& e) {
        report(e);
        status = 1;
      } catch (const interp::ExitRequest& e) {
        status = e.status;
      } catch (const std::bad_alloc&) {
        report(RuntimeError{{}, "out of memory"});
        status = 1;
      }
      // An error may leave frames behind; the next run starts clean.
      machine.fp = nullptr;
      machine.depth = 0;
      machine.stack.release({0, 0});
    };
    run_with_big_stack(body);
    machine.out->flush();
    return status;
  }

  EngineOptions options;
  FrontEnd front;
  interp::Machine machine;
  StdioSink stdio;
  std::unique_ptr<CallbackSink> callback;
  StreamHost streams;
  HostLibrary library;
  interp::Compiler compiler;
  std::vector<ast::Program*> pending;
  size_t printed = 0;
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Engine::~Engine() = default;

bool Engine::compile_file(const std::string& path) {
  return impl_->accept(impl_->front.load_file(path));
}

bool Engine::compile_source(std::string name, std::string text) {
  return impl_->accept(impl_->front.load_source(std::move(name), std::move(text)));
}

int Engine::run(std::span<const std::string> argv) { return impl_->run(argv); }

FrontEnd& Engine::front_end() { return impl_->front; }

void Engine::set_output(std::function<void(int, std::string_view)> f) {
  impl_->callback = std::make_unique<CallbackSink>(std::move(f));
  impl_->machine.out = impl_->callback.get();
}

}  // namespace brook
