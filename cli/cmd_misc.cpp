// `emit plan|llvm|opencl`, `devices`, `bench`, and the version line.
#include <iostream>
#include <sstream>

#include "backends/backends.hpp"
#include "cli/commands.hpp"
#include "lang/frontend.hpp"
#include "runtime/engine.hpp"
#ifdef BROOK_HAVE_OPENCL
#include "backends/opencl/opencl_backend.hpp"
#endif
#ifdef BROOK_HAVE_JIT
#include "jit/jit_backend.hpp"
#endif

namespace brook::cli {

namespace {

// emit plan: run the program with its own stdout suppressed and each launch
// plan printed instead, so a reader sees how every call's shapes resolved.
int emit_plans(CommandLine& cl) {
  cl.engine.emit_plans = true;
  if (!cl.rest.empty()) cl.engine.plan_filter = cl.rest[0];
  std::unique_ptr<Engine> made = make_engine(cl.engine);
  if (!made) return 2;
  Engine& engine = *made;
  if (!engine.compile_file(cl.program)) return 1;
  std::vector<std::string> argv{cl.program};
  return engine.run(argv);
}

#ifdef BROOK_HAVE_OPENCL
int emit_opencl_source(CommandLine& cl) {
  FrontEnd fe(FrontEndOptions{cl.engine.preprocess, {}, false, cl.engine.error_limit});
  FrontEnd::Unit unit = fe.load_file(cl.program);
  std::cerr << fe.diagnostics().format_all(cl.engine.color);
  if (unit.status != FrontEnd::Status::ok) return 1;
  std::string filter = cl.rest.empty() ? std::string() : cl.rest[0];
  std::string text = emit_opencl(*unit.program, filter);
  if (text.empty()) {
    std::cerr << "brook: no kernel or reduction" << (filter.empty() ? "" : " named '" + filter + "'")
              << " in " << cl.program << "\n";
    return 2;
  }
  std::cout << text;
  return 0;
}
#endif

#ifdef BROOK_HAVE_JIT
// The optimised LLVM IR of every kernel (or the one named), as the JIT builds it.
int emit_llvm_ir(CommandLine& cl) {
  FrontEnd fe(FrontEndOptions{cl.engine.preprocess, {}, false, cl.engine.error_limit});
  FrontEnd::Unit unit = fe.load_file(cl.program);
  std::cerr << fe.diagnostics().format_all(cl.engine.color);
  if (unit.status != FrontEnd::Status::ok) return 1;
  bool relaxed = false;
  for (const std::string& p : unit.program->pragmas) relaxed |= p == "brook fp_relaxed";
  const std::string wanted = cl.rest.empty() ? std::string() : cl.rest[0];
  std::string out = jit_emit_llvm(*unit.program, relaxed, wanted);
  if (out.empty() && !wanted.empty()) {
    std::cerr << "brook: no kernel named '" << wanted << "' in " << cl.program << "\n";
    return 2;
  }
  std::cout << out;
  return 0;
}
#endif

}  // namespace

int cmd_emit_backend(CommandLine& cl) {
  if (cl.emit_stage == "plan") return emit_plans(cl);
#ifdef BROOK_HAVE_OPENCL
  if (cl.emit_stage == "opencl") return emit_opencl_source(cl);
#endif
#ifdef BROOK_HAVE_JIT
  if (cl.emit_stage == "llvm") return emit_llvm_ir(cl);
#endif
  std::cerr << "brook: 'emit " << cl.emit_stage << "' needs the "
            << (cl.emit_stage == "llvm" ? "JIT" : "OpenCL") << " backend, not in this build\n";
  return 2;
}

// cmd_repl lives in cli/repl.cpp.

int cmd_devices(CommandLine&) {
#ifdef BROOK_HAVE_OPENCL
  std::cout << list_opencl_devices();
  return 0;
#else
  std::cerr << "brook: the OpenCL backend is not available in this build\n";
  return 2;
#endif
}

int cmd_bench(CommandLine&) {
  std::cerr << "brook: the benchmark runner is not available in this build yet\n";
  return 2;
}

std::string backend_versions() {
  std::string out = "backends:";
  for (const std::string& b : built_backends()) out += " " + b;
  out += "\n";
#ifdef BROOK_LLVM_VERSION
  out += "LLVM " BROOK_LLVM_VERSION " (jit backend)\n";
#endif
#ifdef BROOK_HAVE_OPENCL
  out += "OpenCL (opencl backend), devices with their OpenCL C versions:\n" + list_opencl_devices();
#endif
  return out;
}

}  // namespace brook::cli
