// The preprocessor of LANGUAGE.md §2: includes, macros, conditionals, pragmas.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace brook {

struct PreprocessOptions {
  std::vector<std::string> include_dirs;  // -I, searched after the including file's folder
  // -D NAME[=VALUE] (VALUE defaults to 1), in order; "NAME" or "NAME=VALUE".
  std::vector<std::string> defines;
};

// A pragma the preprocessor recognised, for later stages
// (`#pragma brook fp_relaxed` → {"brook", "fp_relaxed"}).
struct Pragma {
  SourceLoc loc;
  std::vector<std::string> words;
};

struct PreprocessResult {
  std::vector<Token> tokens;  // ends with Tok::eof
  std::vector<Pragma> pragmas;
};

// Preprocesses `file` (already registered in `sources`; included files are
// loaded into it). Directives are consumed; macro-expanded tokens keep the
// location of the macro use. Predefined macros: __BROOK__, NULL, RAND_MAX,
// EXIT_SUCCESS, EXIT_FAILURE, M_PI, M_E, INFINITY, NAN, FLT_MAX, FLT_MIN,
// INT_MAX, INT_MIN, UINT_MAX, __FILE__, __LINE__, and the stream-operator
// constants STREAM_GATHER_FETCH/INC and STREAM_SCATTER_ASSIGN/ADD/MUL.
// `#include <...>` of any header is accepted and ignored; unknown pragmas warn.
PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options = {});

// The macros in force at the end of a preprocessing run, so that a later run
// can go on where it stopped: the REPL treats a session as one translation
// unit. A value: copy it to try an entry and keep the copy only if wanted.
// Macro bodies keep the locations they were written at, so a table belongs to
// the SourceManager its runs read from.
class MacroTable {
 public:
  MacroTable();
  ~MacroTable();
  MacroTable(const MacroTable& other);
  MacroTable& operator=(const MacroTable& other);
  MacroTable(MacroTable&&);
  MacroTable& operator=(MacroTable&&) noexcept;

  // No run has filled the table yet (the next one starts from the predefined
  // macros and -D, as preprocess() does).
  bool empty() const;
  bool defined(std::string_view name) const;
  // The macros a #define in a source made (not the predefined ones, which
  // include the built-in headers', nor -D), as `#define` spells them.
  struct Definition {
    std::string name, text;
    SourceLoc at;
  };
  std::vector<Definition> user_definitions() const;

  struct Impl;

 private:
  friend PreprocessResult preprocess(SourceManager&, uint32_t, DiagnosticEngine&,
                                     const PreprocessOptions&, MacroTable&);
  std::unique_ptr<Impl> impl_;
};

// As above, but starting from the macros in `macros` (when a run has filled
// it; -D options are applied only to an empty table) and leaving there the
// macros in force at the end, #undef included.
PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options, MacroTable& macros);

}  // namespace brook
