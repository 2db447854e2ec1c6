// Temporary: lexes the file without preprocessing (being replaced).
#include "lang/preprocess.hpp"

#include "lang/lexer.hpp"

namespace brook {

PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions&) {
  PreprocessResult result;
  result.tokens = lex_file(sources, file, diags);
  return result;
}

}  // namespace brook
