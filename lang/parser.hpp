// The recursive-descent parser (precedence climbing for expressions) for the
// grammar of LANGUAGE.md: C host subset, streams, kernels, iterators, reductions.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lang/ast.hpp"
#include "lang/token.hpp"
#include "lang/types.hpp"

namespace brook {

// What a parse remembers for the next one: C needs to know which identifiers
// are typedef names. The REPL keeps one ParserState for the whole session.
struct ParserState {
  std::set<std::string> typedef_names;
};

struct ParseResult {
  ast::Program program;
  // True when the first error is "unexpected end of input": the text is a
  // prefix of something valid (an open brace, an unfinished statement). The
  // REPL then asks for another line instead of reporting the error.
  bool incomplete = false;
};

// Parses preprocessed tokens (ending in Tok::eof). Reports syntax errors to
// `diags` and recovers at statement/declaration boundaries, so independent
// errors are all reported; the returned Program holds whatever parsed.
// Builtin type names (float4, uchar, …) are resolved through `types`.
ParseResult parse(const std::vector<Token>& tokens, TypeContext& types, DiagnosticEngine& diags,
                  ParserState& state);

}  // namespace brook
