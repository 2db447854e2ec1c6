// `brook cc`: the command line of cc/translate.hpp.
#include <iostream>

#include "cc/translate.hpp"
#include "cli/commands.hpp"

namespace brook::cli {

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
