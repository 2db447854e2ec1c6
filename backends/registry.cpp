// The backend table. The only place in brook that knows which backends exist
// and the only place with an #ifdef per backend (the optional ones are built
// only when their libraries are found; see the top CMakeLists.txt).
#include "backends/registry.hpp"

#include <cstdlib>
#include <stdexcept>

#include "backends/environment.hpp"
#include "backends/interp/interp_backend.hpp"
#ifdef BROOK_HAVE_JIT
#include "backends/jit_plugin_loader.hpp"
#endif
#ifdef BROOK_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif

namespace brook {

namespace {

std::unique_ptr<Backend> make_interp(const BackendOptions& options) {
  if (!options.sources) throw std::runtime_error("the interp backend needs the program's sources");
  return std::make_unique<InterpBackend>(*options.sources, options.output);
}

#ifdef BROOK_HAVE_JIT
std::unique_ptr<Backend> make_jit(const BackendOptions& options) {
  return jit_plugin_loader::make(options);
}
std::string emit_llvm_text(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  return jit_plugin_loader::emit(program, fp_relaxed, only);
}
std::string jit_profile_report(const Backend& backend) {
  return jit_plugin_loader::profile_report(backend);
}
std::string jit_version() {
  return jit_plugin_loader::version();
}
#endif

#ifdef BROOK_HAVE_OPENCL
std::unique_ptr<Backend> make_opencl(const BackendOptions& options) {
  OpenCLOptions o;
  o.device = options.device;
  if (o.device < 0) {
    auto env = environment::text("BROOK_OPENCL_DEVICE");
    auto index = environment::number("BROOK_OPENCL_DEVICE");
    if (env && !index) throw OpenCLSetupError("BROOK_OPENCL_DEVICE must be a device index, not '" + *env + "'");
    o.device = static_cast<int>(index.value_or(0));
  }
  o.output = options.output;
  if (options.use_disk_cache) o.cache_dir = environment::cache_dir("opencl");
  o.dump_dir = environment::text("BROOK_OPENCL_DUMP").value_or("");
  return make_opencl_backend(o);  // throws OpenCLSetupError with a ready message
}
std::string emit_opencl_text(const ast::Program& program, bool, std::string_view only) {
  return emit_opencl(program, only);
}
std::string opencl_version() {
  return "OpenCL (opencl backend), devices with their OpenCL C versions:\n" + list_opencl_devices();
}
#endif

// Every field is spelled out (GCC warns on designated initializers that skip one).
constexpr BackendInfo kBackends[] = {
    {.name = "interp",
     .summary = "the reference interpreter",
     .make = make_interp,
     .preference = 1,
     .emit_stage = "",
     .emit = nullptr,
     .profile_report = nullptr,
     .devices = nullptr,
     .version = nullptr},
#ifdef BROOK_HAVE_JIT
    {.name = "jit",
     .summary = "LLVM ORC JIT, SPMD-vectorised and multi-threaded",
     .make = make_jit,
     .preference = 2,
     .emit_stage = "llvm",
     .emit = emit_llvm_text,
     .profile_report = jit_profile_report,
     .devices = nullptr,
     .version = jit_version},
#else
    {.name = "jit",
     .summary = "LLVM ORC JIT (not in this build)",
     .make = nullptr,
     .preference = 2,
     .emit_stage = "llvm",
     .emit = nullptr,
     .profile_report = nullptr,
     .devices = nullptr,
     .version = nullptr},
#endif
#ifdef BROOK_HAVE_OPENCL
    {.name = "opencl",
     .summary = "OpenCL C for any OpenCL device",
     .make = make_opencl,
     .preference = 0,
     .emit_stage = "opencl",
     .emit = emit_opencl_text,
     .profile_report = nullptr,
     .devices = list_opencl_devices,
     .version = opencl_version},
#else
    {.name = "opencl",
     .summary = "OpenCL C (not in this build)",
     .make = nullptr,
     .preference = 0,
     .emit_stage = "opencl",
     .emit = nullptr,
     .profile_report = nullptr,
     .devices = nullptr,
     .version = nullptr},
#endif
};

}  // namespace

std::span<const BackendInfo> backend_registry() {
  return kBackends;
}

const BackendInfo* find_backend(std::string_view name) {
  for (const BackendInfo& b : kBackends) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

const BackendInfo* find_emit_stage(std::string_view stage) {
  for (const BackendInfo& b : kBackends) {
    if (b.built() && b.emit && b.emit_stage == stage) return &b;
  }
  return nullptr;
}

std::vector<std::string> built_backends() {
  std::vector<std::string> names;
  for (const BackendInfo& b : kBackends) {
    if (b.built()) names.emplace_back(b.name);
  }
  return names;
}

std::string default_backend() {
  const BackendInfo* best = nullptr;
  for (const BackendInfo& b : kBackends) {
    if (b.built() && (!best || b.preference > best->preference)) best = &b;
  }
  return best ? std::string(best->name) : std::string();
}

std::string backend_names(bool built_only, std::string_view separator,
                          std::string_view last_separator) {
  std::vector<std::string_view> names;
  for (const BackendInfo& b : kBackends) {
    if (!built_only || b.built()) names.push_back(b.name);
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() && !last_separator.empty() ? last_separator : separator;
    out += names[i];
  }
  return out;
}

std::vector<std::string> backend_emit_stages() {
  std::vector<std::string> stages;
  for (const BackendInfo& b : kBackends) {
    if (!b.emit_stage.empty()) stages.emplace_back(b.emit_stage);
  }
  return stages;
}

std::string chosen_backend_name(std::string_view requested) {
  if (!requested.empty()) return std::string(requested);
  if (const char* env = std::getenv("BROOK_BACKEND"); env && *env) return env;
  return default_backend();
}

void prepare_backend([[maybe_unused]] std::string_view name) {
#ifdef BROOK_HAVE_JIT
  if (name == "jit") jit_plugin_loader::preload();
#endif
}

std::unique_ptr<Backend> make_backend(std::string_view name, const BackendOptions& options) {
  const BackendInfo* b = find_backend(name);
  if (!b || !b->built()) {
    throw std::runtime_error("backend '" + std::string(name) +
                             "' is not built into this brook (built: " + backend_names(true) + ")");
  }
  return b->make(options);
}

std::string backend_profile_report(const Backend& backend) {
  const BackendInfo* b = find_backend(backend.name());
  if (b && b->profile_report) return b->profile_report(backend);
  std::string with;
  for (const BackendInfo& r : kBackends) {
    if (r.profile_report) with += (with.empty() ? "" : ", ") + std::string(r.name);
  }
  return "brook: --profile reports per-kernel statistics for the " + with + " backend only\n";
}

}  // namespace brook
