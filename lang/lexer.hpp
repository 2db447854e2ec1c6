// The lexer: one source file's text → raw tokens (no preprocessing).
#pragma once

#include <vector>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace brook {

// Lexes the whole of `file`. Always ends with a Tok::eof token. Malformed input
// (unterminated comment/string/char, bad number, stray character) is reported
// through `diags` and lexing continues. Keywords are recognised here; identifiers
// such as `float4` or `uchar` stay identifiers (the parser knows type names).
std::vector<Token> lex_file(const SourceManager& sources, uint32_t file, DiagnosticEngine& diags);

}  // namespace brook
