// The backend table. The only place in brook that knows which backends exist
// and the only place with an #ifdef per backend (the optional ones are built
// only when their libraries are found; see the top CMakeLists.txt).
#include "backends/registry.hpp"

#include <stdexcept>

#include "backends/environment.hpp"
#include "backends/interp/interp_backend.hpp"
#ifdef BROOK_HAVE_JIT
#include "jit/jit_backend.hpp"
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
// The environment is read here, once per backend made (backends/environment.hpp).
std::unique_ptr<Backend> make_jit(const BackendOptions& options) {
  JitOptions o;
  o.threads = options.threads > 0 ? options.threads
                                  : static_cast<int>(environment::number("BROOK_THREADS").value_or(0));
  if (options.use_disk_cache) o.cache_dir = environment::cache_dir("");
  o.profile = options.profile;
  o.output = options.output;
  o.fp_relaxed = options.fp_relaxed;
  o.tuning = JitTuning::from_environment();
  return make_jit_backend(o);
}
std::string emit_llvm_text(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  return jit_emit_llvm(program, fp_relaxed, only, JitTuning::from_environment());
}
std::string jit_version() {
  return "LLVM " + jit_llvm_version() + " (jit backend)\n";
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
