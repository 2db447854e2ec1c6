// include/brook/brook.hpp over the internal Engine. Every operation becomes a
// REPL-style entry (hidden globals carry values in and out), so embedders get
// exactly the checks and diagnostics of Brook source.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "runtime/api_session.hpp"

namespace brook::api {

namespace {

std::string describe(const ast::ParamDecl& p) {
  std::string what;
  switch (p.pkind) {
    case ast::ParamKind::Input:
      what = "input stream";
      break;
    case ast::ParamKind::Iter:
      what = "iterator stream";
      break;
    case ast::ParamKind::Out:
      what = "output stream";
      break;
    case ast::ParamKind::Gather:
      what = "gather array";
      break;
    case ast::ParamKind::Reduce:
      what = "reduce target";
      break;
    default:
      what = "value";
      break;
  }
  return "'" + p.name + "' (" + what + (p.type ? " of " + p.type->name() : "") + ")";
}

// A Brook type's scalars in memory order, as brook::Layout lists a C++ type's.
void brook_layout_of(const Type* t, std::size_t offset,
                     std::vector<std::pair<std::size_t, std::string>>& out) {
  if (!t) return;
  if (t->is_scalar()) {
    out.emplace_back(offset, t->name());
  } else if (t->is_vector() || t->is_array()) {
    for (uint32_t i = 0; i < t->count; ++i)
      brook_layout_of(t->elem, offset + i * t->elem->size, out);
  } else if (t->kind == TypeKind::Struct && t->decl) {
    for (const ast::FieldDecl& f : t->decl->fields) brook_layout_of(f.type, offset + f.offset, out);
  }
}

// Empty when `layout` is `t`'s; otherwise what differs first, in words.
std::string layout_mismatch(const Type* t, const Layout& layout) {
  std::vector<std::pair<std::size_t, std::string>> want;
  brook_layout_of(t, 0, want);
  auto field = [](std::size_t offset, std::string_view scalar) {
    const bool vowel =
        !scalar.empty() && std::string_view("aeiou").find(scalar[0]) != std::string_view::npos;
    return (vowel ? "an " : "a ") + std::string(scalar) + " at offset " + std::to_string(offset);
  };
  for (std::size_t i = 0; i < std::max(want.size(), layout.fields.size()); ++i) {
    const std::string n = std::to_string(i + 1);
    if (i >= layout.fields.size()) {
      return "the C++ type's layout ends after " + std::to_string(i) + " scalars, but " +
             t->name() + " has " + std::to_string(want.size()) + " (scalar " + n + ": " +
             field(want[i].first, want[i].second) + ")";
    }
    const LayoutField& got = layout.fields[i];
    if (i >= want.size()) {
      return "the C++ type has more scalars than " + t->name() + "'s " +
             std::to_string(want.size()) + " (scalar " + n + ": " + field(got.offset, got.scalar) +
             ")";
    }
    if (got.offset != want[i].first || got.scalar != want[i].second) {
      return "scalar " + n + " of the C++ type is " + field(got.offset, got.scalar) + ", but " +
             t->name() + " has " + field(want[i].first, want[i].second);
    }
  }
  return {};
}

bool takes_stream(ast::ParamKind k) {
  return k == ast::ParamKind::Input || k == ast::ParamKind::Iter || k == ast::ParamKind::Out ||
         k == ast::ParamKind::Gather || k == ast::ParamKind::Reduce;
}

}  // namespace

namespace detail {

// The process-wide session is shared by every thread of the program (Brook+'s
// and BrookGPU's APIs, `brook cc`'s code): each Engine operation on it, and
// each stream's release, holds process_session_mutex(). Separate engines stay
// independent and unlocked.
std::unique_lock<std::recursive_mutex> lock_session(const Session& session) {
  return session.process_wide ? std::unique_lock(process_session_mutex())
                              : std::unique_lock<std::recursive_mutex>();
}

// A new stream state whose release (its hidden stream freed in the session)
// holds the process lock: the last handle may go on any thread.
std::shared_ptr<StreamState> locked_state() {
  return std::shared_ptr<StreamState>(new StreamState, [](StreamState* s) {
    std::lock_guard lock(process_session_mutex());
    delete s;
  });
}

std::shared_ptr<StreamState> new_stream(const std::shared_ptr<Session>& session,
                                        std::string_view element_type, std::size_t element_size,
                                        std::span<const int64_t> extents) {
  if (extents.size() < 1 || extents.size() > 4) Session::fail("a stream has 1 to 4 extents");
  auto lock = lock_session(*session);
  auto state = locked_state();
  state->name = session->fresh_name();
  state->element_type = std::string(element_type);
  state->extents.assign(extents.begin(), extents.end());
  std::string decl = state->element_type + " " + state->name + "<";
  size_t count = 1;
  for (size_t i = 0; i < state->extents.size(); ++i) {
    int64_t e = state->extents[i];
    if (e < 1) Session::fail("stream extents must be positive, not " + std::to_string(e));
    decl += (i ? ", " : "") + std::to_string(e);
    count *= static_cast<size_t>(e);
  }
  decl += ">;";
  session->eval("<stream>", decl);
  state->session = session;  // from here on the destructor releases it
  state->count = count;
  for (const InternalEngine::StreamInfo& s : session->engine().live_streams()) {
    if (s.name != state->name) continue;
    state->element_size = count ? s.bytes / count : 0;
    state->elem = s.elem;
  }
  if (state->element_size != element_size) {
    Session::fail("a " + state->element_type + " element is " +
                  std::to_string(state->element_size) + " bytes, but the C++ element type has " +
                  std::to_string(element_size));
  }
  return state;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Streams

const std::vector<int64_t>& AnyStream::extents() const {
  static const std::vector<int64_t> none;
  return state_ ? state_->extents : none;
}
std::string_view AnyStream::element_type() const {
  return state_ ? std::string_view(state_->element_type) : std::string_view();
}
std::size_t AnyStream::element_size() const {
  return state_ ? state_->element_size : 0;
}
std::size_t AnyStream::size() const {
  return state_ ? state_->count : 0;
}

void AnyStream::read_bytes(const void* host, std::size_t bytes) {
  if (!state_) detail::Session::fail("read into an empty stream handle");
  auto lock = detail::lock_session(*state_->session);
  std::string error;
  auto* p = static_cast<std::byte*>(const_cast<void*>(host));
  if (!state_->session->engine().stream_data(state_->name, true, std::span<std::byte>(p, bytes),
                                             &error))
    detail::Session::fail("Stream::read: " + error);
}

void AnyStream::write_bytes(void* host, std::size_t bytes) const {
  if (!state_) detail::Session::fail("write from an empty stream handle");
  auto lock = detail::lock_session(*state_->session);
  std::string error;
  auto* p = static_cast<std::byte*>(host);
  if (!state_->session->engine().stream_data(state_->name, false, std::span<std::byte>(p, bytes),
                                             &error))
    detail::Session::fail("Stream::write: " + error);
}

// ---------------------------------------------------------------------------
// Engine

Engine::Engine(Options options) : session_(std::make_shared<detail::Session>(options)) {}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::load_file(const std::string& path) {
  auto lock = detail::lock_session(*session_);
  std::ifstream in(path, std::ios::binary);
  if (!in) detail::Session::fail("cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  session_->eval(path, text.str());
}

void Engine::load_source(std::string_view source, std::string_view name) {
  auto lock = detail::lock_session(*session_);
  session_->eval(std::string(name), std::string(source));
}

std::string Engine::eval(std::string_view entry) {
  auto lock = detail::lock_session(*session_);
  // A stream or a view is described, not printed (the REPL prints it).
  if (auto shape = session_->engine().complete_entry(entry); shape && !shape->stream.empty()) {
    std::string type = session_->engine().type_of("<eval>", shape->stream);
    if (!type.empty()) return type;
  }
  return session_->eval("<eval>", std::string(entry), true).value;
}

void Engine::embed_file(std::string_view path, std::string_view text) {
  auto lock = detail::lock_session(*session_);
  session_->engine().front_end().sources().embed_file(std::string(path), std::string(text));
}

void Engine::add_preprocessor_options(std::span<const std::string> defines,
                                      std::span<const std::string> include_dirs) {
  auto lock = detail::lock_session(*session_);
  PreprocessOptions& o = session_->engine().front_end().preprocess_options();
  auto add = [](std::vector<std::string>& to, std::span<const std::string> from) {
    for (const std::string& s : from) {
      if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
    }
  };
  add(o.defines, defines);
  add(o.include_dirs, include_dirs);
}

bool Engine::has(std::string_view name) const {
  auto lock = detail::lock_session(*session_);
  return session_->engine().front_end().sema().lookup_global(name) != nullptr;
}

std::string Engine::backend() const {
  auto lock = detail::lock_session(*session_);
  return session_->engine().backend_name();
}

void Engine::set_backend(std::string_view name) {
  auto lock = detail::lock_session(*session_);
  std::string error;
  if (!session_->engine().switch_backend(name, &error)) detail::Session::fail(error);
}

AnyStream Engine::make_stream(std::string_view element_type, std::size_t element_size,
                              std::initializer_list<int64_t> extents) {
  return AnyStream(detail::new_stream(session_, element_type, element_size,
                                      std::span<const int64_t>(extents.begin(), extents.size())));
}

AnyStream Engine::stream_named(std::string_view name) {
  auto lock = detail::lock_session(*session_);
  for (const InternalEngine::StreamInfo& s : session_->engine().live_streams()) {
    if (s.name != name || name.rfind("__brook_api_", 0) == 0) continue;
    auto state = detail::locked_state();
    state->session = session_;
    state->owned = false;
    state->name = s.name;
    state->element_type = s.element_type;
    state->elem = s.elem;
    state->extents = s.extents;
    state->count = 1;
    for (int64_t e : s.extents) state->count *= static_cast<std::size_t>(e);
    state->element_size = state->count ? s.bytes / state->count : 0;
    return AnyStream(std::move(state));
  }
  bool declared = session_->engine().front_end().sema().lookup_global(name) != nullptr;
  detail::Session::fail(declared ? "'" + std::string(name) +
                                       "' is not a stream whose declaration has run"
                                 : "no stream named '" + std::string(name) + "'");
}

void Engine::check_element_size(const AnyStream& s, std::size_t size) {
  if (s.element_size() != size) {
    detail::Session::fail("a " + std::string(s.element_type()) + " element is " +
                          std::to_string(s.element_size()) +
                          " bytes, but the C++ element type has " + std::to_string(size));
  }
}

void Engine::check_element_layout(const AnyStream& s, const Layout& layout) {
  if (!s.state_ || !s.state_->session) return;
  auto lock = detail::lock_session(*s.state_->session);
  const ast::Decl* d = s.state_->session->engine().front_end().sema().lookup_global(s.state_->name);
  const auto* v = d ? d->as<ast::VarDecl>() : nullptr;
  const Type* t = v && v->type ? v->type->elem : nullptr;
  if (!t) return;
  if (std::string why = layout_mismatch(t, layout); !why.empty()) {
    detail::Session::fail("stream of " + std::string(s.element_type()) + ": " + why);
  }
}

namespace {

// The text of a positional call of `f` (a kernel or reduce function) with
// `args`, each value argument copied into a hidden global (its name in
// `*values`, empty for streams), after checking every argument.
// How the session's Brook spells type `t`: its name, or for an anonymous
// struct (`typedef struct { ... } Sample;`, whose name is "struct
// <anonymous>") the typedef that names it.
std::string spelling(detail::Session& session, const Type* t) {
  if (!t->is_struct() || !t->decl || !t->decl->name.empty()) return t->name();
  for (const auto& program : session.engine().front_end().programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* td = d->as<ast::TypedefDecl>();
        if (td && td->type == t) return td->name;
      }
    }
  }
  return t->name();
}

std::string call_text(detail::Session& session, const ast::FuncDecl& f, const std::string& k,
                      const char* what, std::span<const detail::Arg> args,
                      std::vector<std::string>* values) {
  if (args.size() != f.params.size()) {
    detail::Session::fail(
        std::string(what) + " '" + k + "' takes " + std::to_string(f.params.size()) + " argument" +
        (f.params.size() == 1 ? "" : "s") + ", but " + std::to_string(args.size()) +
        (args.size() == 1 ? " was" : " were") + " given");
  }
  std::string text = k + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *f.params[i];
    const detail::Arg& a = args[i];
    std::string where =
        "argument " + std::to_string(i + 1) + " of " + what + " '" + k + "', " + describe(p);
    // A reduce target may be a host variable as well as a stream (§7).
    bool may_be_value = p.pkind == ast::ParamKind::Reduce;
    if (takes_stream(p.pkind) != (a.stream != nullptr) && !(may_be_value && !a.stream)) {
      detail::Session::fail(where + (a.stream ? ", is a stream" : ", is not a stream"));
    }
    if (i) text += ", ";
    values->emplace_back();
    if (a.stream) {
      bool elementwise = p.pkind != ast::ParamKind::Gather;
      // By name, or by the type itself: `typedef struct { ... } Pair;` is
      // "struct <anonymous>" to the checker and "Pair" to the stream's maker.
      const bool same_type = p.type && (p.type->name() == a.stream->element_type ||
                                        (a.stream->elem && p.type == a.stream->elem));
      if (elementwise && p.type && !same_type) {
        detail::Session::fail(where + ", is given a stream of " + a.stream->element_type);
      }
      text += a.stream->name;
      continue;
    }
    std::string type = a.scalar.empty() ? spelling(session, p.type) : std::string(a.scalar);
    if (a.scalar.empty() && a.size != p.type->size) {
      detail::Session::fail(where + ": a " + p.type->name() + " is " +
                            std::to_string(p.type->size) + " bytes, the C++ value " +
                            std::to_string(a.size));
    }
    if (a.layout) {
      if (std::string why = layout_mismatch(p.type, a.layout()); !why.empty())
        detail::Session::fail(where + ": " + why);
    }
    values->back() = session.value_global("arg" + std::to_string(i), type, a.data, a.size);
    text += values->back();
  }
  return text + ");";
}

}  // namespace

void Engine::call_erased(std::string_view kernel, std::span<const detail::Arg> args) {
  auto lock = detail::lock_session(*session_);
  const ast::FuncDecl* f = session_->function(kernel, ast::FuncKind::Kernel, "kernel");
  std::string k(kernel);
  std::vector<std::string> values;
  std::string text = call_text(*session_, *f, k, "kernel", args, &values);
  session_->eval("<call " + k + ">", text);
  session_->launched();
}

void Engine::reduce_call_erased(std::string_view reducer, std::span<const detail::Arg> args) {
  auto lock = detail::lock_session(*session_);
  const ast::FuncDecl* f = session_->function(reducer, ast::FuncKind::Reduce, "reduce function");
  std::string r(reducer);
  std::vector<std::string> values;
  std::string text = call_text(*session_, *f, r, "reduce function", args, &values);
  session_->eval("<reduce " + r + ">", text);
  session_->launched();
  // A host-variable target receives the fold (the caller passed an lvalue).
  for (size_t i = 0; i < args.size(); ++i) {
    if (f->params[i]->pkind != ast::ParamKind::Reduce || args[i].stream) continue;
    const Type* t = nullptr;
    std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(values[i], &t);
    if (bytes) std::memcpy(const_cast<void*>(args[i].data), bytes->data(), args[i].size);
  }
}

void Engine::compile_source(std::string_view source, std::string_view name) {
  auto lock = detail::lock_session(*session_);
  session_->compile(std::string(name), std::string(source));
}

int Engine::run(std::span<const std::string> argv) {
  auto lock = detail::lock_session(*session_);
  return session_->run(argv);
}

void Engine::reduce_erased(std::string_view reducer, const AnyStream& input, void* out,
                           std::size_t size, std::string_view scalar) {
  auto lock = detail::lock_session(*session_);
  const ast::FuncDecl* f = session_->function(reducer, ast::FuncKind::Reduce, "reduce function");
  std::string r(reducer);
  if (!input.state_) detail::Session::fail("reduce '" + r + "' of an empty stream handle");
  const ast::ParamDecl* target = nullptr;
  for (const auto& p : f->params)
    if (p->pkind == ast::ParamKind::Reduce) target = p.get();
  if (!target || f->params.size() != 2) {
    detail::Session::fail("reduce function '" + r +
                          "' needs more than a stream; call it through eval()");
  }
  std::string type = scalar.empty() ? target->type->name() : std::string(scalar);
  if (scalar.empty() && size != target->type->size) {
    detail::Session::fail("reduce function '" + r + "' produces a " + target->type->name() +
                          " of " + std::to_string(target->type->size) +
                          " bytes, the C++ type has " + std::to_string(size));
  }
  std::string result = session_->value_global("result", type, nullptr, size);
  std::string text = r + "(";
  for (size_t i = 0; i < f->params.size(); ++i) {
    text += i ? ", " : "";
    text += f->params[i]->pkind == ast::ParamKind::Reduce ? result : input.state_->name;
  }
  session_->eval("<reduce " + r + ">", text + ");");
  session_->launched();
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(result, &t);
  if (bytes) std::memcpy(out, bytes->data(), size);
}

void Engine::invoke_erased(std::string_view function, std::span<const detail::Arg> args, void* out,
                           std::size_t size, std::string_view scalar) {
  auto lock = detail::lock_session(*session_);
  const ast::FuncDecl* f = session_->function(function, ast::FuncKind::Host, "function");
  std::string fn(function);
  if (args.size() != f->params.size()) {
    detail::Session::fail("function '" + fn + "' takes " + std::to_string(f->params.size()) +
                          " argument" + (f->params.size() == 1 ? "" : "s") + ", but " +
                          std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") +
                          " given");
  }
  std::string text = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *f->params[i];
    const detail::Arg& a = args[i];
    if (a.stream)
      detail::Session::fail("argument " + std::to_string(i + 1) + " of function '" + fn +
                            "' is a stream");
    std::string type = a.scalar.empty() ? p.type->name() : std::string(a.scalar);
    if (a.scalar.empty() && a.size != p.type->size) {
      detail::Session::fail("argument " + std::to_string(i + 1) + " of function '" + fn + "': a " +
                            p.type->name() + " is " + std::to_string(p.type->size) +
                            " bytes, the C++ value " + std::to_string(a.size));
    }
    text +=
        (i ? ", " : "") + session_->value_global("arg" + std::to_string(i), type, a.data, a.size);
  }
  text += ")";
  if (!out) {
    session_->eval("<invoke " + fn + ">", text + ";");
    session_->launched();
    return;
  }
  const Type* rt = f->return_type;
  if (!rt || rt->is_void()) detail::Session::fail("function '" + fn + "' returns nothing");
  std::string type = scalar.empty() ? rt->name() : std::string(scalar);
  if (scalar.empty() && size != rt->size) {
    detail::Session::fail("function '" + fn + "' returns a " + rt->name() + " of " +
                          std::to_string(rt->size) + " bytes, the C++ type has " +
                          std::to_string(size));
  }
  std::string result = session_->value_global("return", type, nullptr, size);
  session_->eval("<invoke " + fn + ">", result + " = " + text + ";");
  session_->launched();
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(result, &t);
  if (bytes) std::memcpy(out, bytes->data(), size);
}

void Engine::global_erased(std::string_view name, void* data, std::size_t size, bool write) const {
  auto lock = detail::lock_session(*session_);
  const Type* t = nullptr;
  std::optional<std::span<uint8_t>> bytes = session_->engine().global_bytes(name, &t);
  if (!bytes) detail::Session::fail("no global variable named '" + std::string(name) + "'");
  if (bytes->size() != size) {
    detail::Session::fail("global '" + std::string(name) + "' is a " + t->name() + " of " +
                          std::to_string(bytes->size()) + " bytes, the C++ type has " +
                          std::to_string(size));
  }
  if (write) {
    std::memcpy(bytes->data(), data, size);
  } else {
    std::memcpy(data, bytes->data(), size);
  }
}

}  // namespace brook::api
