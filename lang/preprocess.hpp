// The preprocessor of LANGUAGE.md §2: includes, macros, conditionals, pragmas.
#pragma once

#include <string>
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

}  // namespace brook
