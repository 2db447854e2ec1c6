// The JIT backend through its plugin (jit/jit_plugin.hpp), for the jit row of
// backends/registry.cpp. The plugin is linked in where a program links the
// static libraries, else loaded from next to libbrook.so (or, from the brook
// executable, from the library folder; $BROOK_JIT_PLUGIN overrides).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "backends/registry.hpp"
#include "lang/ast.hpp"

namespace brook::jit_plugin_loader {

// A missing plugin throws std::runtime_error now; the first backend of the
// process forwards to the real one while the plugin loads, and a plugin that
// fails to load throws at its first use.
std::unique_ptr<Backend> make(const BackendOptions& options);
std::string emit(const ast::Program& program, bool fp_relaxed, std::string_view only);
std::string profile_report(const Backend& backend);
// `brook --version`'s line; a plugin that cannot load is reported, not thrown.
std::string version();
// Starts loading the plugin on another thread (brook's CLI, before it reads
// the program); make() then waits for it.
void preload();

}  // namespace brook::jit_plugin_loader
