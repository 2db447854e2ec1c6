// Runtime hooks called from generated code. They never throw: errors are
// recorded in the LaunchState and reported by the backend after the launch.
#include <cstring>

#include "jit/launch_state.hpp"
#include "stdlib/format.hpp"

namespace brook::jit {

extern "C" int brook_jit_printf(void* launch_ptr, const char* format, const void* args_ptr,
                                int64_t n, int64_t loc) {
  const auto* launch = static_cast<const Launch*>(launch_ptr);
  LaunchState* state = launch->state;
  const auto* args = static_cast<const PrintfArg*>(args_ptr);
  std::vector<stdlib::FormatArg> fa;
  fa.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    stdlib::FormatArg a;
    a.kind = static_cast<stdlib::FormatArg::Kind>(args[i].kind);
    switch (a.kind) {
      case stdlib::FormatArg::Kind::Int: a.i = static_cast<int32_t>(args[i].bits); break;
      case stdlib::FormatArg::Kind::Long: a.i = args[i].bits; break;
      case stdlib::FormatArg::Kind::UInt: a.u = static_cast<uint32_t>(args[i].bits); break;
      case stdlib::FormatArg::Kind::ULong:
      case stdlib::FormatArg::Kind::Pointer: a.u = static_cast<uint64_t>(args[i].bits); break;
      case stdlib::FormatArg::Kind::Double: std::memcpy(&a.d, &args[i].bits, 8); break;
    }
    fa.push_back(a);
  }
  // Kernels only hold string literals, which live in the JIT's constant data.
  auto read_string = [](uint64_t p, std::string& error) -> std::optional<std::string> {
    if (p == 0) {
      error = "'%s' needs a string, but the argument is a null pointer";
      return std::nullopt;
    }
    return std::string(reinterpret_cast<const char*>(p));
  };
  auto r = stdlib::format_printf(format ? format : "", fa, read_string, 2);
  if (!state) return 0;
  std::lock_guard lock(state->mu);
  if (!r.ok()) {
    if (!state->failed) {
      state->failed = true;
      state->error = r.error;
      state->error_loc = {state->file, static_cast<uint32_t>(loc >> 32), static_cast<uint32_t>(loc & 0xffffffff)};
    }
    return -1;
  }
  if (state->output && *state->output) (*state->output)(r.text);
  else std::fwrite(r.text.data(), 1, r.text.size(), stdout);
  return static_cast<int>(r.text.size());
}

}  // namespace brook::jit
