// include/brook/brook.hpp over the internal Engine. Every operation becomes a
// REPL-style entry (hidden globals carry values in and out), so embedders get
// exactly the checks and diagnostics of Brook source.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "runtime/engine.hpp"

namespace brook {
// The public header declares brook::api::Engine; name the internal one first.
using InternalEngine = Engine;
}  // namespace brook

#include "brook/brook.hpp"

namespace brook::api {

namespace detail {

class Session {
 public:
  explicit Session(const Options& o) : engine_(internal_options(o)), user_output_(o.output) {
    engine_.set_output([this](int stream, std::string_view text) {
      if (stream == 2 && !forward_errors_) {
        captured_ += text;
      } else {
        emit(stream, text);
      }
    });
  }

  // Runs one entry; throws Error with the diagnostics when it fails. With
  // `finish`, an entry that lacks only its final ';' (`6 * 7`) gets one.
  InternalEngine::EntryResult eval(std::string name, std::string text, bool finish = false) {
    captured_.clear();
    InternalEngine::EntryResult r = engine_.eval(name, text, finish);
    if (r.status == InternalEngine::EntryStatus::incomplete) {
      r = engine_.eval(name, text + "\n;", true);
      if (r.status == InternalEngine::EntryStatus::incomplete) r = engine_.eval(name, text, false);
    }
    std::string diagnostics = std::move(captured_);
    captured_.clear();
    if (r.status == InternalEngine::EntryStatus::ok) {
      if (!diagnostics.empty()) emit(2, diagnostics);  // warnings
      return r;
    }
    if (r.status == InternalEngine::EntryStatus::exited) {
      throw Error(diagnostics + "the program called exit(" + std::to_string(r.exit_status) + ")\n");
    }
    throw Error(diagnostics.empty() ? std::string("brook: the entry failed\n") : diagnostics);
  }

  // Compiles a whole file; nothing runs until run().
  void compile(std::string name, std::string text) {
    captured_.clear();
    bool ok = engine_.compile_source(name, text);
    std::string diagnostics = std::move(captured_);
    captured_.clear();
    if (!ok) throw Error(diagnostics.empty() ? std::string("brook: '" + name + "' failed to compile\n") : diagnostics);
    if (!diagnostics.empty()) emit(2, diagnostics);  // warnings
  }
  // Runs as `brook run` does; what the program and its errors print goes out as it comes.
  int run(std::span<const std::string> argv) {
    forward_errors_ = true;
    int status = engine_.run(argv);
    forward_errors_ = false;
    return status;
  }

  [[noreturn]] static void fail(const std::string& message) { throw Error("brook: " + message + "\n"); }

  const ast::FuncDecl* function(std::string_view name, ast::FuncKind kind, const char* what) {
    ast::Decl* d = engine_.front_end().sema().lookup_global(name);
    auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
    if (!f || f->fkind != kind) fail(std::string("no ") + what + " named '" + std::string(name) + "'");
    return &f->defined();
  }

  // A hidden global of `type` holding `bytes`, one per (position, type) and reused.
  std::string value_global(const std::string& key, const std::string& type, const void* bytes, size_t size) {
    std::string name = hidden_global(key, type);
    const Type* t = nullptr;
    std::optional<std::span<uint8_t>> slot = engine_.global_bytes(name, &t);
    if (!slot || slot->size() != size) fail("internal: value slot of the wrong size");
    if (bytes) std::memcpy(slot->data(), bytes, size);
    return name;
  }
  std::string hidden_global(const std::string& key, const std::string& type) {
    auto [it, fresh] = globals_.try_emplace(key + "|" + type);
    if (fresh) {
      it->second = "__brook_api_" + std::to_string(next_id_++);
      eval("<brook api>", type + " " + it->second + ";");
    }
    return it->second;
  }
  std::string fresh_name() { return "__brook_api_" + std::to_string(next_id_++); }

  InternalEngine& engine() { return engine_; }

 private:
  static EngineOptions internal_options(const Options& o) {
    EngineOptions e;
    e.backend = backend_name(o.backend);
    e.device = o.device;
    e.threads = o.threads;
    e.max_memory = o.max_memory;
    e.time_limit = o.time_limit;
    e.repl = true;  // loading a kernel again replaces it
    e.preprocess.include_dirs = o.include_dirs;
    e.preprocess.defines = o.defines;
    return e;
  }
  void emit(int stream, std::string_view text) {
    if (user_output_) {
      user_output_(stream, text);
    } else {
      std::FILE* f = stream == 2 ? stderr : stdout;
      std::fwrite(text.data(), 1, text.size(), f);
      std::fflush(f);
    }
  }

  InternalEngine engine_;
  std::function<void(int, std::string_view)> user_output_;
  std::string captured_;
  bool forward_errors_ = false;
  std::unordered_map<std::string, std::string> globals_;
  int next_id_ = 1;
};

struct StreamState {
  std::shared_ptr<Session> session;
  std::string name;  // the hidden top-level stream
  std::string element_type;
  size_t element_size = 0;
  std::vector<int64_t> extents;
  size_t count = 0;
  ~StreamState() {
    if (session) session->engine().release_stream(name);
  }
};

}  // namespace detail

namespace {

std::string describe(const ast::ParamDecl& p) {
  std::string what;
  switch (p.pkind) {
    case ast::ParamKind::Input: what = "input stream"; break;
    case ast::ParamKind::Iter: what = "iterator stream"; break;
    case ast::ParamKind::Out: what = "output stream"; break;
    case ast::ParamKind::Gather: what = "gather array"; break;
    case ast::ParamKind::Reduce: what = "reduce target"; break;
    default: what = "value"; break;
  }
  return "'" + p.name + "' (" + what + (p.type ? " of " + p.type->name() : "") + ")";
}

bool takes_stream(ast::ParamKind k) {
  return k == ast::ParamKind::Input || k == ast::ParamKind::Iter || k == ast::ParamKind::Out ||
         k == ast::ParamKind::Gather || k == ast::ParamKind::Reduce;
}

}  // namespace

// ---------------------------------------------------------------------------
// Streams

const std::vector<int64_t>& AnyStream::extents() const {
  static const std::vector<int64_t> none;
  return state_ ? state_->extents : none;
}
std::string_view AnyStream::element_type() const {
  return state_ ? std::string_view(state_->element_type) : std::string_view();
}
std::size_t AnyStream::element_size() const { return state_ ? state_->element_size : 0; }
std::size_t AnyStream::size() const { return state_ ? state_->count : 0; }

void AnyStream::read_bytes(const void* host, std::size_t bytes) {
  if (!state_) detail::Session::fail("read into an empty stream handle");
  std::string error;
  auto* p = static_cast<std::byte*>(const_cast<void*>(host));
  if (!state_->session->engine().stream_data(state_->name, true, std::span<std::byte>(p, bytes), &error))
    detail::Session::fail("Stream::read: " + error);
}

void AnyStream::write_bytes(void* host, std::size_t bytes) const {
  if (!state_) detail::Session::fail("write from an empty stream handle");
  std::string error;
  auto* p = static_cast<std::byte*>(host);
  if (!state_->session->engine().stream_data(state_->name, false, std::span<std::byte>(p, bytes), &error))
    detail::Session::fail("Stream::write: " + error);
}

// ---------------------------------------------------------------------------
// Engine

Engine::Engine(Options options) : session_(std::make_shared<detail::Session>(options)) {}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) detail::Session::fail("cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  session_->eval(path, text.str());
}

void Engine::load_source(std::string_view source, std::string_view name) {
  session_->eval(std::string(name), std::string(source));
}

std::string Engine::eval(std::string_view entry) {
  return session_->eval("<eval>", std::string(entry), true).value;
}

bool Engine::has(std::string_view name) const {
  return session_->engine().front_end().sema().lookup_global(name) != nullptr;
}

std::string Engine::backend() const { return session_->engine().backend_name(); }

void Engine::set_backend(std::string_view name) {
  std::string error;
  if (!session_->engine().switch_backend(name, &error)) detail::Session::fail(error);
}

AnyStream Engine::make_stream(std::string_view element_type, std::size_t element_size,
                              std::initializer_list<int64_t> extents) {
  if (extents.size() < 1 || extents.size() > 4) detail::Session::fail("a stream has 1 to 4 extents");
  auto state = std::make_shared<detail::StreamState>();
  state->name = session_->fresh_name();
  state->element_type = std::string(element_type);
  state->extents.assign(extents.begin(), extents.end());
  std::string decl = state->element_type + " " + state->name + "<";
  size_t count = 1;
  for (size_t i = 0; i < state->extents.size(); ++i) {
    int64_t e = state->extents[i];
    if (e < 1) detail::Session::fail("stream extents must be positive, not " + std::to_string(e));
    decl += (i ? ", " : "") + std::to_string(e);
    count *= static_cast<size_t>(e);
  }
  decl += ">;";
  session_->eval("<stream>", decl);
  state->session = session_;  // from here on the destructor releases it
  state->count = count;
  for (const InternalEngine::StreamInfo& s : session_->engine().live_streams()) {
    if (s.name == state->name) state->element_size = count ? s.bytes / count : 0;
  }
  if (state->element_size != element_size) {
    detail::Session::fail("a " + state->element_type + " element is " + std::to_string(state->element_size) +
                          " bytes, but the C++ element type has " + std::to_string(element_size));
  }
  return AnyStream(std::move(state));
}

namespace {

// The text of a positional call of `f` (a kernel or reduce function) with
// `args`, each value argument copied into a hidden global (its name in
// `*values`, empty for streams), after checking every argument.
std::string call_text(detail::Session& session, const ast::FuncDecl& f, const std::string& k, const char* what,
                      std::span<const detail::Arg> args, std::vector<std::string>* values) {
  if (args.size() != f.params.size()) {
    detail::Session::fail(std::string(what) + " '" + k + "' takes " + std::to_string(f.params.size()) +
                          " argument" + (f.params.size() == 1 ? "" : "s") + ", but " + std::to_string(args.size()) +
                          (args.size() == 1 ? " was" : " were") + " given");
  }
  std::string text = k + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *f.params[i];
    const detail::Arg& a = args[i];
    std::string where = "argument " + std::to_string(i + 1) + " of " + what + " '" + k + "', " + describe(p);
    // A reduce target may be a host variable as well as a stream (§7).
    bool may_be_value = p.pkind == ast::ParamKind::Reduce;
    if (takes_stream(p.pkind) != (a.stream != nullptr) && !(may_be_value && !a.stream)) {
      detail::Session::fail(where + (a.stream ? ", is a stream" : ", is not a stream"));
    }
    if (i) text += ", ";
    values->emplace_back();
    if (a.stream) {
      bool elementwise = p.pkind != ast::ParamKind::Gather;
      if (elementwise && p.type && p.type->name() != a.stream->element_type) {
        detail::Session::fail(where + ", is given a stream of " + a.stream->element_type);
      }
      text += a.stream->name;
      continue;
    }
    std::string type = a.scalar.empty() ? p.type->name() : std::string(a.scalar);
    if (a.scalar.empty() && a.size != p.type->size) {
      detail::Session::fail(where + ": a " + p.type->name() + " is " + std::to_string(p.type->size) +
                            " bytes, the C++ value " + std::to_string(a.size));
    }
    values->back() = session.value_global("arg" + std::to_string(i), type, a.data, a.size);
    text += values->back();
  }
  return text + ");";
}

}  // namespace

void Engine::call_erased(std::string_view kernel, std::span<const detail::Arg> args) {
  const ast::FuncDecl* f = session_->function(kernel, ast::FuncKind::Kernel, "kernel");
  std::string k(kernel);
  std::vector<std::string> values;
  std::string text = call_text(*session_, *f, k, "kernel", args, &values);
  session_->eval("<call " + k + ">", text);
}

void Engine::reduce_call_erased(std::string_view reducer, std::span<const detail::Arg> args) {
  const ast::FuncDecl* f = session_->function(reducer, ast::FuncKind::Reduce, "reduce function");
  std::string r(reducer);
  std::vector<std::string> values;
  std::string text = call_text(*session_, *f, r, "reduce function", args, &values);
  session_->eval("<reduce " + r + ">", text);
  // A host-variable target receives the fold (the caller passed an lvalue).
  for (size_t i = 0; i < args.size(); ++i) {
    if (f->params[i]->pkind != ast::ParamKind::Reduce || args[i].stream) continue;
    const Type* t = nullptr;
    std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(values[i], &t);
    if (bytes) std::memcpy(const_cast<void*>(args[i].data), bytes->data(), args[i].size);
  }
}

void Engine::compile_source(std::string_view source, std::string_view name) {
  session_->compile(std::string(name), std::string(source));
}

int Engine::run(std::span<const std::string> argv) { return session_->run(argv); }

void Engine::reduce_erased(std::string_view reducer, const AnyStream& input, void* out, std::size_t size,
                           std::string_view scalar) {
  const ast::FuncDecl* f = session_->function(reducer, ast::FuncKind::Reduce, "reduce function");
  std::string r(reducer);
  if (!input.state_) detail::Session::fail("reduce '" + r + "' of an empty stream handle");
  const ast::ParamDecl* target = nullptr;
  for (const auto& p : f->params)
    if (p->pkind == ast::ParamKind::Reduce) target = p.get();
  if (!target || f->params.size() != 2) {
    detail::Session::fail("reduce function '" + r + "' needs more than a stream; call it through eval()");
  }
  std::string type = scalar.empty() ? target->type->name() : std::string(scalar);
  if (scalar.empty() && size != target->type->size) {
    detail::Session::fail("reduce function '" + r + "' produces a " + target->type->name() + " of " +
                          std::to_string(target->type->size) + " bytes, the C++ type has " + std::to_string(size));
  }
  std::string result = session_->value_global("result", type, nullptr, size);
  std::string text = r + "(";
  for (size_t i = 0; i < f->params.size(); ++i) {
    text += i ? ", " : "";
    text += f->params[i]->pkind == ast::ParamKind::Reduce ? result : input.state_->name;
  }
  session_->eval("<reduce " + r + ">", text + ");");
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(result, &t);
  if (bytes) std::memcpy(out, bytes->data(), size);
}

void Engine::invoke_erased(std::string_view function, std::span<const detail::Arg> args, void* out,
                           std::size_t size, std::string_view scalar) {
  const ast::FuncDecl* f = session_->function(function, ast::FuncKind::Host, "function");
  std::string fn(function);
  if (args.size() != f->params.size()) {
    detail::Session::fail("function '" + fn + "' takes " + std::to_string(f->params.size()) + " argument" +
                          (f->params.size() == 1 ? "" : "s") + ", but " + std::to_string(args.size()) +
                          (args.size() == 1 ? " was" : " were") + " given");
  }
  std::string text = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *f->params[i];
    const detail::Arg& a = args[i];
    if (a.stream) detail::Session::fail("argument " + std::to_string(i + 1) + " of function '" + fn + "' is a stream");
    std::string type = a.scalar.empty() ? p.type->name() : std::string(a.scalar);
    if (a.scalar.empty() && a.size != p.type->size) {
      detail::Session::fail("argument " + std::to_string(i + 1) + " of function '" + fn + "': a " +
                            p.type->name() + " is " + std::to_string(p.type->size) + " bytes, the C++ value " +
                            std::to_string(a.size));
    }
    text += (i ? ", " : "") + session_->value_global("arg" + std::to_string(i), type, a.data, a.size);
  }
  text += ")";
  if (!out) {
    session_->eval("<invoke " + fn + ">", text + ";");
    return;
  }
  const Type* rt = f->return_type;
  if (!rt || rt->is_void()) detail::Session::fail("function '" + fn + "' returns nothing");
  std::string type = scalar.empty() ? rt->name() : std::string(scalar);
  if (scalar.empty() && size != rt->size) {
    detail::Session::fail("function '" + fn + "' returns a " + rt->name() + " of " + std::to_string(rt->size) +
                          " bytes, the C++ type has " + std::to_string(size));
  }
  std::string result = session_->value_global("return", type, nullptr, size);
  session_->eval("<invoke " + fn + ">", result + " = " + text + ";");
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(result, &t);
  if (bytes) std::memcpy(out, bytes->data(), size);
}

void Engine::global_erased(std::string_view name, void* data, std::size_t size, bool write) const {
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(name, &t);
  if (!bytes) detail::Session::fail("no global variable named '" + std::string(name) + "'");
  if (bytes->size() != size) {
    detail::Session::fail("global '" + std::string(name) + "' is a " + t->name() + " of " +
                          std::to_string(bytes->size()) + " bytes, the C++ type has " + std::to_string(size));
  }
  if (write) {
    std::memcpy(bytes->data(), data, size);
  } else {
    std::memcpy(data, bytes->data(), size);
  }
}

}  // namespace brook::api
