// The Brook sources of `brook cc`'s Brook+ bindings, registered by each
// generated .cpp at static initialisation and loaded into the process session
// before the first Brook+ stream is made: a stream of a .br struct
// (`brook::Stream<Pair>`) needs the struct's declaration before any kernel of
// that file has run. Each is loaded through a Launch of no kernel, so that the
// launches that follow (brookplus_launch.cpp) find it loaded and do not load
// it again.
#include <mutex>
#include <utility>
#include <vector>

#include "runtime/brookplus_impl.hpp"

namespace brook::plus {

namespace {

std::vector<std::pair<const char*, const char*>>& pending() {
  static std::vector<std::pair<const char*, const char*>> sources;
  return sources;
}

}  // namespace

void register_source(const char* text, const char* name) {
  std::lock_guard lock(api::detail::process_session_mutex());
  pending().emplace_back(text, name);
}

void load_pending_sources() {
  // Held throughout: a second thread waits until every file is loaded.
  std::lock_guard lock(api::detail::process_session_mutex());
  while (!pending().empty()) {
    auto [text, name] = pending().front();
    pending().erase(pending().begin());
    // The empty kernel name fails after the load, silently: a launch of no
    // kernel has no output stream to report on. A source that does not
    // compile is reported by its first real launch.
    Launch load(text, name, "");
    load.run(nullptr);
  }
}

}  // namespace brook::plus
