// The backend table. The only place in brook that knows which backends exist
// and the only place with an #ifdef per backend (the optional ones are built
// only when their libraries are found; see the top CMakeLists.txt).
#include "backends/registry.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "backends/environment.hpp"
#include "backends/interp/interp_backend.hpp"
#ifdef BROOK_HAVE_JIT
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <exception>
#include <future>
#include <mutex>
#include <thread>

#include "jit/jit_plugin.hpp"
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
// Linked in (a program built from the static libraries) or null: then the
// plugin next to libbrook.so provides the table (jit/jit_plugin.hpp).
extern "C" const JitPlugin* brook_jit_plugin() __attribute__((weak));

// $BROOK_JIT_PLUGIN, else the plugin next to the file holding this code
// (libbrook.so), else, from the brook executable, in the installed library
// folder or in the build tree's top folder (the executable is in cli/).
std::string plugin_path() {
  if (const char* path = std::getenv("BROOK_JIT_PLUGIN"); path && *path) return path;
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&backend_registry), &info) == 0 || !info.dli_fname) {
    return BROOK_JIT_PLUGIN_FILE;
  }
  std::string file = info.dli_fname;
  if (file.find('/') == std::string::npos) {
    // The executable, named as it was run (argv[0] without a folder).
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) file.assign(self, static_cast<size_t>(n));
  }
  std::string folder = file.substr(0, file.rfind('/') + 1);
  for (const std::string& candidate : {folder, folder + BROOK_BIN_TO_LIB + "/", folder + "../"}) {
    std::string path = candidate + BROOK_JIT_PLUGIN_FILE;
    if (access(path.c_str(), R_OK) == 0) return path;
  }
  return folder + BROOK_JIT_PLUGIN_FILE;
}

const JitPlugin* load_jit_plugin() {
  if (brook_jit_plugin) return brook_jit_plugin();
  std::string path = plugin_path();
  // RTLD_LOCAL: the plugin's LLVM stays private to it (PoCL may load another).
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw std::runtime_error("the jit backend's plugin could not be loaded (" +
                             std::string(why ? why : path) +
                             "); reinstall brook, or choose another backend with --backend");
  }
  auto entry = reinterpret_cast<const JitPlugin* (*)()>(dlsym(handle, "brook_jit_plugin"));
  const JitPlugin* plugin = entry ? entry() : nullptr;
  if (!plugin || std::string_view(plugin->version) != BROOK_JIT_PLUGIN_VERSION) {
    throw std::runtime_error(path +
                             " is not the jit plugin of this brook (" BROOK_JIT_PLUGIN_VERSION ")");
  }
  return plugin;  // never unloaded: backends made from it live until exit
}

// Loaded once; a failed load is retried (and reported) at the next use.
std::atomic<const JitPlugin*> loaded_plugin{nullptr};

const JitPlugin& jit_plugin() {
  static std::mutex mutex;
  if (const JitPlugin* p = loaded_plugin.load(std::memory_order_acquire)) return *p;
  std::lock_guard lock(mutex);
  if (!loaded_plugin.load(std::memory_order_relaxed)) {
    loaded_plugin.store(load_jit_plugin(), std::memory_order_release);
  }
  return *loaded_plugin.load(std::memory_order_relaxed);
}

// The first JIT backend of a process made while the plugin loads: loading it
// (relocating and initialising LLVM, about 2.5 ms) runs on another thread
// while this one reads, parses and checks the program, until the first call
// that needs the backend. Only a forwarder: every call waits for the real
// backend, then passes through.
class LoadingJitBackend final : public Backend {
 public:
  explicit LoadingJitBackend(const BackendOptions& options)
      : loading_(std::async(std::launch::async, [options] { return jit_plugin().make(options); })) {
  }

  std::string_view name() const override { return "jit"; }
  StorageId allocate(uint64_t bytes) override { return real().allocate(bytes); }
  // Called from destructors: after a failed load there is nothing to free.
  void release(StorageId storage) override {
    if (real_ || !failure_) real().release(storage);
  }
  void write_view(const StreamView& view, std::span<const std::byte> host) override {
    real().write_view(view, host);
  }
  void read_view(const StreamView& view, std::span<std::byte> host) override {
    real().read_view(view, host);
  }
  void run_map(const MapPlan& plan) override { real().run_map(plan); }
  std::vector<std::vector<std::byte>> run_map_vout(const MapPlan& plan) override {
    return real().run_map_vout(plan);
  }
  void run_reduce(const ReducePlan& plan, std::span<std::byte> result) override {
    real().run_reduce(plan, result);
  }
  void run_gather_scatter(const GatherScatterPlan& plan) override {
    real().run_gather_scatter(plan);
  }

  // The loaded backend; a failed load throws here, at every use.
  Backend& real() const {
    if (!real_) {
      if (failure_) std::rethrow_exception(failure_);
      try {
        real_ = loading_.get();
      } catch (...) {
        failure_ = std::current_exception();
        throw;
      }
    }
    if (real_->profile() != profile()) real_->set_profile(profile());
    return *real_;
  }

 private:
  mutable std::future<std::unique_ptr<Backend>> loading_;
  mutable std::unique_ptr<Backend> real_;
  mutable std::exception_ptr failure_;
};

std::unique_ptr<Backend> make_jit(const BackendOptions& options) {
  if (brook_jit_plugin || loaded_plugin.load(std::memory_order_acquire)) {
    return jit_plugin().make(options);
  }
  // A missing plugin is reported now, as a backend that cannot start; only a
  // plugin that is there but fails to load is reported at the first use.
  if (std::string path = plugin_path(); access(path.c_str(), R_OK) != 0) {
    throw std::runtime_error("the jit backend's plugin " + path + " is missing (" +
                             std::strerror(errno) +
                             "); reinstall brook, or choose another backend with --backend");
  }
  return std::make_unique<LoadingJitBackend>(options);
}
std::string emit_llvm_text(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  return jit_plugin().emit(program, fp_relaxed, only);
}
std::string jit_profile_report(const Backend& backend) {
  if (const auto* loading = dynamic_cast<const LoadingJitBackend*>(&backend)) {
    return jit_plugin().profile_report(loading->real());
  }
  return jit_plugin().profile_report(backend);
}
std::string jit_version() {
  try {
    return "LLVM " + jit_plugin().llvm_version() + " (jit backend)\n";
  } catch (const std::exception& e) {
    return std::string("jit backend: ") + e.what() + "\n";
  }
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
  if (name != "jit" || brook_jit_plugin || loaded_plugin.load(std::memory_order_acquire)) return;
  // A failed load is reported by make_backend, which tries again.
  std::thread([] {
    try {
      jit_plugin();
    } catch (const std::exception&) {
    }
  }).detach();
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
