// libFuzzer target (issue 17): the host interpreter. Each input is compiled
// and, when it checks, run by an Engine on the interpreter backend with a
// time limit and a memory cap (--time-limit, --max-memory), its output
// discarded. A crash, a sanitizer report or a hang past libFuzzer's -timeout
// is a finding; compile and runtime errors are the program's own business.
// Programs run in a scratch directory, so files they fopen land there.
// Built only with -DBROOK_LIBFUZZER=ON and clang; see tests/fuzz/README.md.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "runtime/engine.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* base = std::getenv("TMPDIR");
  std::string dir = std::string(base && *base ? base : "/tmp") + "/brook-fuzz-host-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr || chdir(dir.c_str()) != 0) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  brook::EngineOptions options;
  options.backend = "interp";
  options.use_disk_cache = false;
  options.time_limit = 1.0;
  options.max_memory = uint64_t{256} << 20;
  brook::Engine engine(options);
  engine.set_output([](int, std::string_view) {});
  if (engine.compile_source("fuzz.br", std::string(reinterpret_cast<const char*>(data), size))) {
    static const std::string argv0 = "fuzz.br";
    (void)engine.run(std::span<const std::string>(&argv0, 1));
  }
  return 0;
}
