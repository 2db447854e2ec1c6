// The one table of backends: each row says what a backend is called, whether
// this build has it, how to make one, and what it adds to the CLI (an `emit`
// stage, a `--profile` table, a device list, a version line). The Engine, the
// CLI, the REPL and the embedding API read this table; nothing else knows
// which backends exist. A new backend is its folder, one row in
// backends/registry.cpp and one add_subdirectory line.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "lang/ast.hpp"
#include "lang/source.hpp"

namespace brook {

// What every backend factory may use; each takes the fields it needs.
struct BackendOptions {
  const SourceManager* sources = nullptr;  // must outlive the backend
  OutputSink output;                       // printf inside kernels
  int device = -1;
  int threads = 0;
  bool use_disk_cache = true;
  bool profile = false;
  bool fp_relaxed = false;  // `#pragma brook fp_relaxed` (LANGUAGE.md §10)
};

struct BackendInfo {
  std::string_view name;     // `--backend NAME`, `:backend NAME`, $BROOK_BACKEND
  std::string_view summary;  // one line for help texts
  // Null when this build lacks the backend. May throw std::runtime_error with
  // a message ready for the user (no OpenCL platform, bad device index).
  std::unique_ptr<Backend> (*make)(const BackendOptions&) = nullptr;
  // Among built backends the highest is the default (LANGUAGE.md §1: jit where built).
  int preference = 0;
  // `brook emit STAGE` / `:emit STAGE`: the backend's source for the kernels
  // of a program (or the one named); empty text when nothing matches.
  std::string_view emit_stage;
  std::string (*emit)(const ast::Program&, bool fp_relaxed, std::string_view only) = nullptr;
  // `--profile`'s per-kernel table; null: the backend keeps none.
  std::string (*profile_report)(const Backend&) = nullptr;
  // `brook devices`; null: the backend has no devices to choose.
  std::string (*devices)() = nullptr;
  // Extra lines for `brook --version` (library versions, devices).
  std::string (*version)() = nullptr;

  bool built() const { return make != nullptr; }
};

// Every backend brook knows, built or not, in a fixed order (interp first).
std::span<const BackendInfo> backend_registry();

// The row named `name`, built or not; null when brook has no such backend.
const BackendInfo* find_backend(std::string_view name);
// The built backend whose emit stage is `stage`; null when none is built.
const BackendInfo* find_emit_stage(std::string_view stage);

// Names of the built backends, in registry order ("interp" always).
std::vector<std::string> built_backends();
// The built backend with the highest preference.
std::string default_backend();
// "interp, jit, opencl" (every known name, or only the built ones); with
// `last_separator` " or ": "interp, jit or opencl".
std::string backend_names(bool built_only, std::string_view separator = ", ",
                          std::string_view last_separator = {});
// Every emit stage a backend offers, built or not, in registry order.
std::vector<std::string> backend_emit_stages();

// The backend a program gets: `requested` (--backend), else $BROOK_BACKEND,
// else default_backend().
std::string chosen_backend_name(std::string_view requested);

// Starts, on another thread, what backend `name` needs before it is made (the
// JIT loads its plugin, about 2 ms), so that this overlaps reading and checking
// the program; make_backend then waits for it. For the brook executable, which
// ends with _Exit and so never waits for the thread.
void prepare_backend(std::string_view name);

// The backend `name` made with `options`; throws std::runtime_error when it is
// unknown, not built, or cannot start.
std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options);

// `--profile`'s table for `backend`, or a line saying it keeps none.
std::string backend_profile_report(const Backend& backend);

}  // namespace brook
