// The OpenCL backend's public face: the factory the Engine calls, the device
// list `brook devices` prints, and the generated source `brook emit opencl`
// prints. Everything else in backends/opencl/ is internal.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "lang/ast.hpp"

namespace brook {

struct OpenCLOptions {
  int device = 0;         // index from list_opencl_devices()
  OutputSink output;      // where printf inside kernels goes; null: the process's stdout
  std::string cache_dir;  // built programs persist here; empty: no disk cache
  std::string dump_dir;   // every generated program's source is written here (BROOK_OPENCL_DUMP)
};

// A failure to set the backend up (no platform, bad device index): the
// message is ready to show the user.
struct OpenCLSetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws OpenCLSetupError when no usable device exists.
std::unique_ptr<Backend> make_opencl_backend(const OpenCLOptions& options);

// "0: Portable Computing Language / pthread-… (OpenCL C 1.2, fp64)\n" per device,
// in the order --device indexes them; a one-line explanation when none exist.
std::string list_opencl_devices();

// The OpenCL C of every kernel and reduce function in `program` (or only the
// one named `kernel_filter` when non-empty), as each would be launched on
// whole streams of its declared rank (1-D). Empty when nothing matches.
std::string emit_opencl(const ast::Program& program, std::string_view kernel_filter = {});

}  // namespace brook
