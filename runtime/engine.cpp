// PLACEHOLDER written by the lead so the CLI links while the host interpreter is
// being built. The runtime engineer owns this file: replace it entirely.
#include "runtime/engine.hpp"

#include <iostream>

namespace brook {

struct Engine::Impl {
  EngineOptions options;
  FrontEnd front_end;
  explicit Impl(EngineOptions o) : options(std::move(o)), front_end(FrontEndOptions{options.preprocess, {options.repl}}) {}
  bool report(bool ok) {
    std::cerr << front_end.diagnostics().format_all(options.color);
    front_end.diagnostics().clear();
    return ok;
  }
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Engine::~Engine() = default;

bool Engine::compile_file(const std::string& path) {
  return impl_->report(impl_->front_end.load_file(path).status == FrontEnd::Status::ok);
}
bool Engine::compile_source(std::string name, std::string text) {
  return impl_->report(impl_->front_end.load_source(std::move(name), std::move(text)).status ==
                       FrontEnd::Status::ok);
}
int Engine::run(std::span<const std::string>) {
  std::cerr << "brook: the host interpreter is not built yet\n";
  return 1;
}
FrontEnd& Engine::front_end() { return impl_->front_end; }

}  // namespace brook
