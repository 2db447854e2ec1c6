// Makes the Backend a program's kernels run on (`--backend`, $BROOK_BACKEND).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "lang/source.hpp"

namespace brook {

struct BackendOptions {
  const SourceManager* sources = nullptr;  // must outlive the backend
  OutputSink output;                       // printf inside kernels
  int device = -1;
  int threads = 0;
  bool use_disk_cache = true;
  bool profile = false;
  bool fp_relaxed = false;  // `#pragma brook fp_relaxed` (LANGUAGE.md §10)
};

// "interp" (always built); the JIT and OpenCL backends are added here when
// built. Null for a name this build does not have.
std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options);

// `--profile`'s per-kernel table (compiles, compile ms, launches, run ms, elements/s).
std::string backend_profile_report(const Backend& backend);

}  // namespace brook
