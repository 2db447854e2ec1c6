// libFuzzer target (issue 17): the whole front end (preprocess, parse, check) on
// one buffer. A crash, a sanitizer report, a hang (libFuzzer's -timeout) or a
// rejection without an error diagnostic is a finding. The first byte's low bit
// picks the REPL's mode (text that ends inside a construct is "incomplete").
// Built only with -DBROOK_LIBFUZZER=ON and clang; see tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/frontend.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool repl = size > 0 && (data[0] & 1) != 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  brook::FrontEnd fe;
  brook::FrontEnd::Unit unit = fe.load_source("fuzz.br", std::move(text), repl);
  (void)fe.diagnostics().format_all();
  if (unit.status == brook::FrontEnd::Status::error && !fe.diagnostics().has_errors()) {
    __builtin_trap();  // rejected, but the user was told nothing
  }
  return 0;
}
