// The JIT backend's entry points as one table. The backend registry reaches
// the JIT only through it: linked in where a program links the static
// libraries (the unit tests, the benchmarks), or loaded at the first use from
// the plugin installed next to libbrook.so. The plugin holds LLVM (about
// 40 MB), so libbrook.so and the brook executable stay small and a program
// that never runs a kernel on the JIT never maps it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/registry.hpp"
#include "lang/ast.hpp"

namespace brook {

struct JitPlugin {
  // The brook version the plugin was built for: C++ objects cross this
  // boundary, so only the plugin of the same build is accepted.
  const char* version;
  std::unique_ptr<Backend> (*make)(const BackendOptions& options);
  std::string (*emit)(const ast::Program& program, bool fp_relaxed, std::string_view only);
  std::string (*profile_report)(const Backend& backend);
  std::string (*llvm_version)();
};

}  // namespace brook

// Defined in jit/jit_plugin.cpp; the plugin's one exported C symbol.
extern "C" const brook::JitPlugin* brook_jit_plugin();
