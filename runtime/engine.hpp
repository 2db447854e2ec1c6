// The Engine: owns a program (front end), the host interpreter and the chosen
// backend. The CLI, the REPL and embedders all drive this one class.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lang/frontend.hpp"

namespace brook {

struct Profile;
struct Type;

struct EngineOptions {
  std::string backend;  // "interp", "jit", "opencl"; empty: $BROOK_BACKEND, else the best built
  int device = -1;      // OpenCL device index; -1: $BROOK_OPENCL_DEVICE, else 0
  int threads = 0;      // JIT worker threads; 0: $BROOK_THREADS, else all cores
  bool dump_plans = false;
  // `brook emit plan`: run the program printing each launch plan on stdout
  // (the program's own stdout is suppressed; stderr is kept).
  bool emit_plans = false;
  // With emit_plans: only plans of this kernel or reduction (empty: all).
  std::string plan_filter;
  bool profile = false;
  bool use_disk_cache = true;
  bool color = false;  // colour diagnostics
  bool repl = false;   // later definitions replace earlier ones
  // #define/#undef persist from one compile or eval to the next, as if all
  // were one translation unit (the REPL).
  bool keep_macros = false;
  PreprocessOptions preprocess;
  // --max-memory: bytes of stream storage, aliasing scratch and host heap a
  // program may hold at once (0: no cap); going past it is a runtime error.
  uint64_t max_memory = 0;
  // --time-limit: wall seconds one run (`run`, one REPL entry, one embedding
  // call) may take before it is stopped with a runtime error (0: none).
  double time_limit = 0;
  // --error-limit: errors shown per file or entry before "too many errors" (0: all).
  size_t error_limit = 20;
  // The REPL's stream display: characters per line before columns are elided.
  size_t display_width = 100;
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Parse and check; nothing runs. Diagnostics go to stderr. False on error.
  bool compile_file(const std::string& path);
  bool compile_source(std::string name, std::string text);
  // Between the files of a program of several translation units: the file
  // compiled last keeps its `static` names to itself (C's linkage).
  void end_translation_unit();

  // Runs the top-level statements of everything compiled and not yet run, then
  // `main(argc, argv)` when defined. Returns the exit status of LANGUAGE.md §1:
  // main's return value (0 without main), the argument of exit(), or 1 after a
  // runtime error (already printed as file:line:col: runtime error: …).
  int run(std::span<const std::string> argv);

  // --- REPL and embedding (REPL.md, include/brook/brook.hpp) ---
  enum class EntryStatus { ok, incomplete, compile_error, runtime_error, interrupted, exited };
  struct EntryResult {
    EntryStatus status = EntryStatus::ok;
    // The value of a trailing expression statement as the REPL prints it
    // ("42", "float4(1, 2, 3, 4)"); empty when the entry has none, or when it
    // is a stream (then streamPrint's output went to stdout already).
    std::string value;
    std::string type;  // the expression's type name when `value` is set
    int exit_status = 0;  // exited: the argument of exit()
  };
  // Compiles one entry and runs its top-level statements (never `main`).
  // With `allow_incomplete`, text that ends inside a construct returns
  // `incomplete` and reports nothing. Diagnostics and runtime errors are
  // printed; the state built by earlier entries survives any failure.
  EntryResult eval(std::string name, std::string text, bool allow_incomplete = false);
  // Whether text typed so far is a complete entry, and how to run it
  // (FrontEnd::complete_entry); nullopt while more lines are needed.
  using EntryShape = FrontEnd::EntryShape;
  std::optional<EntryShape> complete_entry(std::string_view text);
  // The type of an expression as users write it ("float4"), or "" after a
  // diagnostic was printed. Nothing runs.
  std::string type_of(std::string name, std::string_view expr);
  // Shows a stream expression as the REPL does (runtime/stream_display.hpp):
  // its type and shape, then its elements as numpy shows an array, long
  // dimensions elided with a count. False after a diagnostic or runtime error.
  bool show_stream(std::string name, std::string_view expr);
  // The top-level streams whose declarations have run (REPL `:streams`).
  struct StreamInfo {
    std::string name;
    std::string element_type;          // "float4"
    const Type* elem =
        nullptr;  // the element type itself (a typedef'd anonymous struct has no name)
    std::vector<int64_t> extents;      // slowest first
    uint64_t bytes = 0;
  };
  std::vector<StreamInfo> live_streams();
  // Copies a top-level stream's elements from (`to_stream`) or to host
  // memory; `bytes` must be exactly the stream's size. False with `*error`
  // set when `name` is not a live stream or the size differs.
  bool stream_data(std::string_view name, bool to_stream, std::span<std::byte> bytes, std::string* error);
  // Frees a top-level stream's storage now; later uses are runtime errors.
  void release_stream(std::string_view name);
  // The backend kernels run on ("interp", "jit", "opencl").
  std::string backend_name();
  // Moves the session to another backend ("interp", "jit", "opencl"): every
  // live stream keeps its contents, shape and type, and later launches run
  // there. False with `*error` set when the backend is not built or cannot
  // start, or a stream cannot be moved; the current backend then stays, with
  // every stream intact. `*moved` (optional): how many streams moved.
  bool switch_backend(std::string_view name, std::string* error, size_t* moved = nullptr);
  // Asks the running entry to stop at its next loop iteration or call.
  // Async-signal-safe; the entry ends with EntryStatus::interrupted.
  static void interrupt();
  // Bytes of a host global (nullopt when `name` is not a global variable);
  // its type in `*type`.
  std::optional<std::span<uint8_t>> global_bytes(std::string_view name, const Type** type);

  // Whether `name` is a function, kernel or reduction declared so far.
  bool is_function(std::string_view name);
  // Names declared at top level so far, sorted (REPL completion).
  std::vector<std::string> global_names() const;

  // The latest launch plan made for a kernel or reduction (empty: none yet).
  std::string last_plan(const std::string& kernel) const;

  // `brook emit STAGE`, `:emit STAGE NAME` for "ast" or a backend's stage
  // ("llvm", "opencl"; backends/registry.hpp): the typed AST, or that
  // backend's source for the kernels, of everything compiled so far; with
  // `name`, of the newest definition of that function (ast) or kernel or
  // reduction alone. Empty when nothing matches. Nothing runs, and the
  // backend need not be the one kernels run on. Throws std::runtime_error
  // when no backend of this build has the stage.
  std::string emit(std::string_view stage, std::string_view name = {});

  // --profile: per-kernel statistics and where the wall time went, so far.
  std::string profile_report();
  // The rows themselves (null when not profiling).
  const Profile* profile() const;
  // The REPL's `:profile on|off`: start collecting the rows afresh, or stop
  // (the rows so far stay until the next start). In a REPL session the wall
  // time of the report is the time spent running entries, not typing them.
  void set_profiling(bool on);

  // What the session has defined, newest definition of each name (REPL
  // `:info`): kind is "kernel", "reduction", "function", "stream",
  // "variable", "type" or "struct"; text is the declaration as written in
  // Brook ("kernel void k(float a<>, out float b<>)", "float a<4, 6>").
  struct Definition {
    std::string kind;
    std::string name;
    std::string text;
  };
  std::vector<Definition> definitions();

  FrontEnd& front_end();

  // Where program output and diagnostics go: f(1, text) for stdout, f(2, text)
  // for stderr. Default: the process's stdout and stderr.
  void set_output(std::function<void(int stream, std::string_view text)> f);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace brook
