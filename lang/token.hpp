// Tokens produced by the lexer and the preprocessor.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lang/source.hpp"

namespace brook {

#define BROOK_KEYWORDS(X)                                                                 \
  X(kw_break, "break") X(kw_case, "case") X(kw_char, "char") X(kw_const, "const")         \
  X(kw_continue, "continue") X(kw_default, "default") X(kw_do, "do")                      \
  X(kw_double, "double") X(kw_else, "else") X(kw_enum, "enum") X(kw_extern, "extern")     \
  X(kw_float, "float") X(kw_for, "for") X(kw_goto, "goto") X(kw_if, "if")                 \
  X(kw_inline, "inline") X(kw_int, "int") X(kw_long, "long") X(kw_return, "return")       \
  X(kw_short, "short") X(kw_signed, "signed") X(kw_sizeof, "sizeof")                      \
  X(kw_static, "static") X(kw_struct, "struct") X(kw_switch, "switch")                    \
  X(kw_typedef, "typedef") X(kw_union, "union") X(kw_unsigned, "unsigned")                \
  X(kw_void, "void") X(kw_volatile, "volatile") X(kw_while, "while") X(kw_bool, "bool")   \
  X(kw_true, "true") X(kw_false, "false") X(kw_kernel, "kernel") X(kw_reduce, "reduce")   \
  X(kw_out, "out") X(kw_iter, "iter") X(kw_vout, "vout") X(kw_indexof, "indexof")

#define BROOK_PUNCTUATORS(X)                                                               \
  X(l_paren, "(") X(r_paren, ")") X(l_brace, "{") X(r_brace, "}") X(l_square, "[")         \
  X(r_square, "]") X(semi, ";") X(comma, ",") X(period, ".") X(arrow, "->")                \
  X(question, "?") X(colon, ":") X(plus, "+") X(minus, "-") X(star, "*") X(slash, "/")     \
  X(percent, "%") X(amp, "&") X(pipe, "|") X(caret, "^") X(tilde, "~") X(exclaim, "!")     \
  X(less, "<") X(greater, ">") X(equal, "=") X(plus_plus, "++") X(minus_minus, "--")       \
  X(less_less, "<<") X(greater_greater, ">>") X(less_equal, "<=")                          \
  X(greater_equal, ">=") X(equal_equal, "==") X(exclaim_equal, "!=") X(amp_amp, "&&")      \
  X(pipe_pipe, "||") X(plus_equal, "+=") X(minus_equal, "-=") X(star_equal, "*=")          \
  X(slash_equal, "/=") X(percent_equal, "%=") X(amp_equal, "&=") X(pipe_equal, "|=")       \
  X(caret_equal, "^=") X(less_less_equal, "<<=") X(greater_greater_equal, ">>=")           \
  X(hash, "#") X(hash_hash, "##") X(ellipsis, "...")

enum class Tok : uint8_t {
  eof,
  identifier,
  int_literal,
  float_literal,
  char_literal,
  string_literal,
#define BROOK_TOK_ENUM(name, spelling) name,
  BROOK_KEYWORDS(BROOK_TOK_ENUM) BROOK_PUNCTUATORS(BROOK_TOK_ENUM)
#undef BROOK_TOK_ENUM
  unknown,  // a character that starts no token; the lexer has already reported it
};

// "identifier", "'+'", "'while'", "end of input": how diagnostics name a token kind.
std::string_view tok_description(Tok kind);
// The fixed spelling of a keyword or punctuator ("while", "+="); empty otherwise.
std::string_view tok_spelling(Tok kind);

struct Token {
  Tok kind = Tok::eof;
  SourceLoc loc;
  std::string text;  // the spelling as written (identifiers, literals: the raw text)

  // Literal values, decoded by the lexer.
  uint64_t int_value = 0;    // int_literal, char_literal
  double float_value = 0.0;  // float_literal
  std::string str_value;     // string_literal: the bytes after escapes (no quotes, no NUL)
  bool is_unsigned = false;  // int_literal: 'u' suffix
  bool is_long = false;      // int_literal: 'l' suffix
  bool is_float = false;     // float_literal: 'f' suffix (float); else double
  bool is_decimal = false;   // int_literal: written in decimal (C's typing rule differs)

  // Layout facts the preprocessor needs.
  bool at_line_start = false;  // first token on its line
  bool space_before = false;   // preceded by whitespace or a comment

  bool is(Tok k) const { return kind == k; }
};

}  // namespace brook
