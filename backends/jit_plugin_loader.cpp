// The JIT backend reached through its plugin (jit/jit_plugin.hpp): found,
// loaded at first use (or ahead of it, on another thread), and a forwarding
// backend while it loads. backends/registry.cpp's jit row calls only this.
#include "backends/jit_plugin_loader.hpp"

// Built only with the JIT (its definitions come from brook_add_backend).
#ifdef BROOK_HAVE_JIT
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "jit/jit_plugin.hpp"

namespace brook::jit_plugin_loader {

namespace {

// Linked in (a program built from the static libraries) or null: then the
// plugin next to libbrook.so provides the table (jit/jit_plugin.hpp).
extern "C" const JitPlugin* brook_jit_plugin() __attribute__((weak));

// $BROOK_JIT_PLUGIN, else the plugin next to the file holding this code
// (libbrook.so), else, from the brook executable, in the installed library
// folder or in the build tree's top folder (the executable is in cli/).
std::string plugin_path() {
  if (const char* path = std::getenv("BROOK_JIT_PLUGIN"); path && *path) return path;
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&preload), &info) == 0 || !info.dli_fname) {
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

}  // namespace

std::unique_ptr<Backend> make(const BackendOptions& options) {
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
std::string emit(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  return jit_plugin().emit(program, fp_relaxed, only);
}
std::string profile_report(const Backend& backend) {
  if (const auto* loading = dynamic_cast<const LoadingJitBackend*>(&backend)) {
    return jit_plugin().profile_report(loading->real());
  }
  return jit_plugin().profile_report(backend);
}
std::string version() {
  try {
    return "LLVM " + jit_plugin().llvm_version() + " (jit backend)\n";
  } catch (const std::exception& e) {
    return std::string("jit backend: ") + e.what() + "\n";
  }
}

void preload() {
  if (brook_jit_plugin || loaded_plugin.load(std::memory_order_acquire)) return;
  // A failed load is reported by make(), which tries again.
  std::thread([] {
    try {
      jit_plugin();
    } catch (const std::exception&) {
    }
  }).detach();
}

}  // namespace brook::jit_plugin_loader

#endif  // BROOK_HAVE_JIT
