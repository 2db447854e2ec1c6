// The embedding API's engine session and stream state, shared by the two C++
// APIs over one internal Engine: include/brook/brook.hpp (api_engine.cpp) and
// Brook+'s include/brook/Stream.h (brookplus_*.cpp). Internal: never installed.
#pragma once

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>

#include "runtime/engine.hpp"

namespace brook {
// The public header declares brook::api::Engine; name the internal one first.
using InternalEngine = Engine;
}  // namespace brook

#include "brook/brook.hpp"

namespace brook::api::detail {

class Session;
void release_device_at_exit(Session* session);

// The one process-wide session (plus::process_session(): Brook+'s streams and
// kernels, BrookGPU's ::brook::stream, brook cc's generated code, and
// shared_engine()) is used from any thread a program launches from, as Brook+
// programs do; every operation on it holds this lock.
std::recursive_mutex& process_session_mutex();

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
    if (!ok)
      throw Error(diagnostics.empty() ? std::string("brook: '" + name + "' failed to compile\n")
                                      : diagnostics);
    if (!diagnostics.empty()) emit(2, diagnostics);  // warnings
  }
  // Runs as `brook run` does; what the program and its errors print goes out as it comes.
  int run(std::span<const std::string> argv) {
    forward_errors_ = true;
    int status = engine_.run(argv);
    forward_errors_ = false;
    return status;
  }

  [[noreturn]] static void fail(const std::string& message) {
    throw Error("brook: " + message + "\n");
  }

  const ast::FuncDecl* function(std::string_view name, ast::FuncKind kind, const char* what) {
    ast::Decl* d = engine_.front_end().sema().lookup_global(name);
    auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
    if (!f || f->fkind != kind)
      fail(std::string("no ") + what + " named '" + std::string(name) + "'");
    return &f->defined();
  }

  // A hidden global of `type` holding `bytes`, one per (position, type) and reused.
  std::string value_global(const std::string& key, const std::string& type, const void* bytes,
                           size_t size) {
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
  // A hidden global array `type name extents;` (extents such as "[3][3]").
  std::string hidden_array(const std::string& key, const std::string& type,
                           const std::string& extents) {
    auto [it, fresh] = globals_.try_emplace(key + "|" + type);
    if (fresh) {
      it->second = "__brook_api_" + std::to_string(next_id_++);
      eval("<brook api>", type + " " + it->second + extents + ";");
    }
    return it->second;
  }
  std::string fresh_name() { return "__brook_api_" + std::to_string(next_id_++); }
  // The process-wide session (Brook+'s API, BrookGPU's, `brook cc`'s code)
  // outlives main(), but a device backend must not be torn down in the exit
  // handlers after the driver's own (PoCL registers one on its first
  // compile, and crashes when a program is released after it ran). After a
  // launch, an exit handler registered then runs before the driver's: it
  // moves the streams to the interpreter while the driver is still alive.
  bool process_wide = false;
  void launched() {
    if (process_wide) release_device_at_exit(this);
  }

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
      // As C buffers it: stdout flushed only before stderr is written (so
      // the two keep the order they were printed in), the C++ program's own
      // printf in the same buffer.
      if (stream == 2) std::fflush(stdout);
      std::fwrite(text.data(), 1, text.size(), stream == 2 ? stderr : stdout);
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
  const Type* elem = nullptr;  // when known: matches a kernel parameter's type exactly
  size_t element_size = 0;
  std::vector<int64_t> extents;
  size_t count = 0;
  bool owned = true;  // false: a stream the Brook program declared (stream_named), or a view
  std::shared_ptr<StreamState> parent;  // a view's stream, kept alive
  ~StreamState() {
    if (session && owned) session->engine().release_stream(name);
  }
};

// A new zeroed top-level stream of `session` (extents slowest first); throws
// Error when the type or extents are wrong or the element size differs.
std::shared_ptr<StreamState> new_stream(const std::shared_ptr<Session>& session,
                                        std::string_view element_type, std::size_t element_size,
                                        std::span<const int64_t> extents);

}  // namespace brook::api::detail
