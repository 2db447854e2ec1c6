#include "lang/token.hpp"

namespace brook {

std::string_view tok_spelling(Tok kind) {
  switch (kind) {
#define BROOK_TOK_SPELLING(name, spelling) \
  case Tok::name: return spelling;
    BROOK_KEYWORDS(BROOK_TOK_SPELLING)
    BROOK_PUNCTUATORS(BROOK_TOK_SPELLING)
#undef BROOK_TOK_SPELLING
    default: return {};
  }
}

std::string_view tok_description(Tok kind) {
  switch (kind) {
    case Tok::eof: return "end of input";
    case Tok::identifier: return "identifier";
    case Tok::int_literal: return "integer literal";
    case Tok::float_literal: return "floating-point literal";
    case Tok::char_literal: return "character literal";
    case Tok::string_literal: return "string literal";
    case Tok::unknown: return "invalid character";
#define BROOK_TOK_DESCRIPTION(name, spelling) \
  case Tok::name: return "'" spelling "'";
    BROOK_KEYWORDS(BROOK_TOK_DESCRIPTION)
    BROOK_PUNCTUATORS(BROOK_TOK_DESCRIPTION)
#undef BROOK_TOK_DESCRIPTION
  }
  return "token";
}

}  // namespace brook
