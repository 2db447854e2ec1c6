#include <iostream>

#include "backends/profile.hpp"
#include "cli/commands.hpp"
#include "runtime/engine.hpp"

namespace brook::cli {

int cmd_run(CommandLine& cl) {
  if (cl.program.empty()) {
    std::cerr << "brook: run needs a program file (try 'brook run --help')\n";
    return 2;
  }
  if (std::FILE* f = std::fopen(cl.program.c_str(), "rb")) {
    std::fclose(f);
  } else {
    std::cerr << "brook: cannot open '" << cl.program << "'\n";
    return 2;
  }
  std::unique_ptr<Engine> made = make_engine(cl.engine);
  if (!made) return 2;
  Engine& engine = *made;
  if (!engine.compile_file(cl.program)) return 1;
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
