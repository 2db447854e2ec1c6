// The support block of every generated header. Identical in every header
// `brook cc` writes (it is one guarded definition of inline functions, so a
// program built from several generated files has one engine).
#include "cc/translate.hpp"

namespace brook::cc {

const char* support_text() {
  return R"brook_cc(#ifndef BROOK_CC_SUPPORT_4
#define BROOK_CC_SUPPORT_4
#include <brook/brook.hpp>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace brook_cc {

// A .br file's text, compiled by the engine on first use, with the -D and
// -I options `brook cc` had (the .br file's own folder among the latter, so
// its #include "…" files are found from any working directory).
struct Source {
  const char* name;
  const char* text;
  std::vector<std::string> defines;
  std::vector<std::string> include_dirs;
};
inline std::vector<Source>& pending_sources() {
  static std::vector<Source> sources;
  return sources;
}
// Each generated .cpp registers its files at static initialisation.
struct Register {
  Register(const char* name, const char* text, std::vector<std::string> defines,
           std::vector<std::string> include_dirs) {
    pending_sources().push_back({name, text, std::move(defines), std::move(include_dirs)});
  }
};

// The files a .br file #included when `brook cc` read it, by absolute path:
// the engine reads these instead of the disk, so the program runs anywhere.
struct EmbeddedFile {
  const char* path;
  const char* text;
};
inline std::vector<EmbeddedFile>& embedded_files() {
  static std::vector<EmbeddedFile> files;
  return files;
}
struct Embed {
  Embed(const char* path, const char* text) { embedded_files().push_back({path, text}); }
};

// The one engine of the process (brook::shared_engine(): the backend named
// by $BROOK_BACKEND, else the JIT; compiled kernels are kept in the disk
// cache, so a second run compiles nothing), which BrookGPU's ::brook::stream
// objects live on too. Each registered file adds its -D and -I options
// before it is loaded.
inline brook::Engine& raw_engine() {
  std::lock_guard<std::recursive_mutex> lock(::brook::api::detail::process_session_mutex());
  brook::Engine& e = brook::shared_engine();
  for (const Source& s : pending_sources()) e.add_preprocessor_options(s.defines, s.include_dirs);
  for (const EmbeddedFile& f : embedded_files()) e.embed_file(f.path, f.text);
  embedded_files().clear();
  return e;
}
// The engine with every registered file loaded (top-level statements run).
// Under the process lock, each file is loaded completely, and once, before
// any thread goes on to a launch (which holds the lock too); one that fails
// to load is not tried again.
inline brook::Engine& engine() {
  std::lock_guard<std::recursive_mutex> lock(::brook::api::detail::process_session_mutex());
  brook::Engine& e = raw_engine();
  std::vector<Source>& pending = pending_sources();
  while (!pending.empty()) {
    struct Done {  // leaves the list after its load, thrown or not
      std::vector<Source>& list;
      ~Done() { list.erase(list.begin()); }
    } done{pending};
    e.load_source(pending.front().text, pending.front().name);
  }
  return e;
}

// The C++ main of a .br program that defines main: `brook run` in process.
// It leaves with _Exit, as brook itself does, so that no static destructor
// tears LLVM down under OpenCL compiler threads.
inline int run_main(int argc, char** argv) {
  int status = 1;
  try {
    std::lock_guard<std::recursive_mutex> lock(::brook::api::detail::process_session_mutex());
    brook::Engine& e = raw_engine();
    std::vector<Source>& pending = pending_sources();
    while (!pending.empty()) {
      Source s = pending.front();
      pending.erase(pending.begin());
      e.compile_source(s.text, s.name);
    }
    std::vector<std::string> args(argv, argv + argc);
    status = e.run(args);
  } catch (const brook::Error& error) {
    std::fputs(error.what(), stderr);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}

// Brook's name of a C++ element type; generated headers add their vectors
// and structs.
template <class T>
struct element {
  static constexpr const char* name = nullptr;
};
// A new zeroed stream of T on the process-wide engine (extents slowest first).
template <class T>
brook::Stream<T> stream(std::initializer_list<int64_t> extents) {
  std::lock_guard<std::recursive_mutex> lock(::brook::api::detail::process_session_mutex());
  if constexpr (element<T>::name != nullptr) {
    return engine().stream<T>(element<T>::name, extents);
  } else {
    return engine().stream<T>(extents);
  }
}

}  // namespace brook_cc
#endif  // BROOK_CC_SUPPORT_4

)brook_cc";
}

}  // namespace brook::cc
