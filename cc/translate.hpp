// `brook cc`: .br files → NAME.h + NAME.cpp for a C++ build (spec/CLI.md).
// The header declares one C++ function per kernel and reduction and per host
// function that C++ can call; the source embeds the Brook text and launches
// through one process-wide brook::Engine (include/brook/brook.hpp).
#pragma once

#include <string>
#include <vector>

#include "lang/preprocess.hpp"

namespace brook::cc {

struct Request {
  std::vector<std::string> inputs;  // .br files, as the user named them
  std::string output;               // NAME: writes NAME.h and NAME.cpp (empty: first input's stem)
  PreprocessOptions preprocess;
  bool color = false;
  size_t error_limit = 20;
  // Brook+'s bindings instead (cc/brookplus_bindings.hpp): functors over
  // brook::Stream<T> of include/brook/Stream.h, kernels and reductions only.
  bool brookplus = false;
};

// Checks every input (diagnostics on stderr as `brook check` prints them),
// then writes both files. Returns the exit status: 0, 1 after a diagnostic
// (nothing written), 2 when an input or output file cannot be used.
int translate(const Request& request);

// The support code every generated header carries behind one guard: the
// process-wide engine, source registration, brook_cc::stream<T>().
const char* support_text();

}  // namespace brook::cc
