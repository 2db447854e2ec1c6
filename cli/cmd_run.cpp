#include <iostream>
#include <sstream>

#include "backends/profile.hpp"
#include "cli/commands.hpp"
#include "runtime/engine.hpp"

namespace brook::cli {

int cmd_run(CommandLine& cl) {
  if (cl.program.empty()) {
    std::cerr << "brook: run needs a program file (try 'brook run --help')\n";
    return 2;
  }
  if (std::string why = unreadable_program(cl.program); !why.empty()) {
    std::cerr << "brook: " << why << "\n";
    return 2;
  }
  std::unique_ptr<Engine> made = make_engine(cl.engine);
  if (!made) return 2;
  Engine& engine = *made;
  if (cl.program == "-") {
    // `brook run -`: the program text is all of stdin (the program itself
    // then has no stdin left to read, as with `python -`).
    std::ostringstream text;
    text << std::cin.rdbuf();
    if (!engine.compile_source("<stdin>", text.str())) return 1;
  } else if (!engine.compile_file(cl.program)) {
    return 1;
  }
  for (const std::string& more : cl.sources) {
    engine.end_translation_unit();
    if (!engine.compile_file(more)) return 1;
  }
  std::vector<std::string> argv;
  argv.push_back(cl.program);
  argv.insert(argv.end(), cl.rest.begin(), cl.rest.end());
  int status = engine.run(argv);
  if (cl.engine.profile && engine.profile()) {
    // The report comes after the engine is gone, so that freeing it counts.
    Profile rows = *engine.profile();
    auto t0 = Profile::Clock::now();
    made.reset();
    rows.teardown_ms = ms_between(t0, Profile::Clock::now());
    std::cerr << rows.report(ms_between(process_start(), Profile::Clock::now()));
  } else if (cl.engine.profile) {
    std::cerr << engine.profile_report();
  }
  return status;
}

}  // namespace brook::cli
