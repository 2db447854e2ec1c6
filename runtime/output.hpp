// The output layer: everything a program prints goes through an OutputSink,
// so the REPL, tests and embedders can capture or redirect it.
#pragma once

#include <cstdio>
#include <functional>
#include <string_view>

#include "interp/machine.hpp"

namespace brook {

// Writes to the process's stdout/stderr.
class StdioSink : public interp::OutputSink {
 public:
  void write(int stream, std::string_view text) override;
  void flush() override;
};

// Hands every write to a callback (stream 1 = stdout, 2 = stderr).
class CallbackSink : public interp::OutputSink {
 public:
  explicit CallbackSink(std::function<void(int, std::string_view)> f) : f_(std::move(f)) {}
  void write(int stream, std::string_view text) override { f_(stream, text); }
  // The callback may write to the C library's stdout (the embedding API's
  // default does): the program's fflush reaches it.
  void flush() override { std::fflush(stdout); }

 private:
  std::function<void(int, std::string_view)> f_;
};

}  // namespace brook
