#include "runtime/output.hpp"

#include <cstdio>

namespace brook {

void StdioSink::write(int stream, std::string_view text) {
  if (stream == 2) {
    std::fflush(stdout);  // keep the order the program printed in
    std::fwrite(text.data(), 1, text.size(), stderr);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
}

void StdioSink::flush() {
  std::fflush(stdout);
  std::fflush(stderr);
}

}  // namespace brook
