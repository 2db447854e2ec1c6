// `brook cc`: the command line of cc/translate.hpp.
#include <iostream>

#include "cc/translate.hpp"
#include "cli/commands.hpp"

namespace brook::cli {

// Flags of BrookGPU's brcc (brcc/main.cpp: -k -n -t -y -A -N -v -d, -p
// SHADER, -w SIZE) and Brook+'s (-r -pp -e -a -c -k, -p cal|cpu), which SDK
// makefiles pass. None changes what brook writes: brook always preprocesses,
// type-checks, and compiles kernels for the backend chosen at run time.
int brcc_flag_values(const std::string& flag) {
  static const char* const kNoValue[] = {"-k", "-n", "-t",  "-y", "-A", "-N", "-v",
                                         "-d", "-r", "-pp", "-e", "-a", "-c"};
  for (const char* f : kNoValue)
    if (flag == f) return 0;
  return flag == "-p" || flag == "-w" ? 1 : -1;
}

int cmd_cc(CommandLine& cl) {
  cc::Request request;
  request.output = cl.output;
  request.brookplus = cl.brookplus;
  request.preprocess = cl.engine.preprocess;
  request.color = cl.engine.color;
  request.error_limit = cl.engine.error_limit;
  if (!cl.program.empty()) request.inputs.push_back(cl.program);
  // After the first file every word is a file, except `-o NAME` (brcc's order).
  for (size_t i = 0; i < cl.rest.size(); ++i) {
    if (cl.rest[i] == "-o") {
      if (i + 1 >= cl.rest.size()) {
        std::cerr << "brook: option '-o' needs a value\n";
        return 2;
      }
      request.output = cl.rest[++i];
    } else if (int values = brcc_flag_values(cl.rest[i]); values >= 0) {
      if (i + static_cast<size_t>(values) >= cl.rest.size()) {
        std::cerr << "brook: option '" << cl.rest[i] << "' needs a value\n";
        return 2;
      }
      i += static_cast<size_t>(values);  // brcc's flags after the files: ignored as before them
    } else if (!cl.rest[i].empty() && cl.rest[i][0] == '-') {
      std::cerr << "brook: cc: put option '" << cl.rest[i] << "' before the .br files\n";
      return 2;
    } else {
      request.inputs.push_back(cl.rest[i]);
    }
  }
  for (const std::string& input : request.inputs) {
    if (std::string why = unreadable_program(input); !why.empty() || input == "-") {
      std::cerr << "brook: " << (why.empty() ? "cc reads .br files, not stdin" : why) << "\n";
      return 2;
    }
  }
  return cc::translate(request);
}

}  // namespace brook::cli
