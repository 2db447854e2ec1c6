// The lexer: one source file's text → raw tokens (no preprocessing).
#pragma once

#include <string_view>
#include <vector>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace brook {

// Lexes the whole of `file`. Always ends with a Tok::eof token. Malformed input
// (unterminated comment/string/char, bad number, stray character) is reported
// through `diags` and lexing continues. Keywords are recognised here; identifiers
// such as `float4` or `uchar` stay identifiers (the parser knows type names).
std::vector<Token> lex_file(const SourceManager& sources, uint32_t file, DiagnosticEngine& diags);

// Lexes `text` as if every token were written at `loc` (the preprocessor uses it
// for `##` pasting and `#` stringizing). No eof token is appended.
std::vector<Token> lex_fragment(std::string_view text, SourceLoc loc, DiagnosticEngine& diags);

}  // namespace brook
