// Lexer: every literal form and value, punctuators, keywords, layout flags, errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lang/lexer.hpp"

using namespace brook;

namespace {

struct Lexed {
  std::vector<Token> tokens;
  std::vector<Diagnostic> diags;
};

Lexed lex(std::string text) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  uint32_t f = sources.add_file("test.br", std::move(text));
  Lexed out;
  out.tokens = lex_file(sources, f, diags);
  out.diags = diags.diagnostics();
  return out;
}

// The single non-eof token of `text`, which must lex without diagnostics.
Token one(const std::string& text) {
  Lexed l = lex(text);
  CHECK(l.diags.empty());
  REQUIRE(l.tokens.size() == 2);
  CHECK(l.tokens[1].kind == Tok::eof);
  return l.tokens[0];
}

std::string first_error(const std::string& text) {
  Lexed l = lex(text);
  for (const Diagnostic& d : l.diags) {
    if (d.severity == Severity::error) return d.message;
  }
  return "";
}

}  // namespace

TEST_CASE("lexer: decimal, octal and hex integers with suffixes") {
  Token t = one("42");
  CHECK(t.kind == Tok::int_literal);
  CHECK(t.int_value == 42);
  CHECK(t.is_decimal);
  CHECK_FALSE(t.is_unsigned);
  CHECK_FALSE(t.is_long);

  t = one("0644");
  CHECK(t.int_value == 0644);
  CHECK_FALSE(t.is_decimal);

  t = one("0");
  CHECK(t.int_value == 0);
  CHECK(t.is_decimal);

  t = one("0x1Fu");
  CHECK(t.int_value == 31);
  CHECK(t.is_unsigned);
  CHECK_FALSE(t.is_decimal);

  t = one("10ul");
  CHECK(t.int_value == 10);
  CHECK(t.is_unsigned);
  CHECK(t.is_long);

  t = one("7LL");
  CHECK(t.is_long);
  CHECK_FALSE(t.is_unsigned);
  t = one("7LU");
  CHECK(t.is_long);
  CHECK(t.is_unsigned);
  t = one("0xFFFFFFFFFFFFFFFF");
  CHECK(t.int_value == UINT64_MAX);
}

TEST_CASE("lexer: float literals") {
  Token t = one("1.0");
  CHECK(t.kind == Tok::float_literal);
  CHECK(t.float_value == 1.0);
  CHECK_FALSE(t.is_float);
  CHECK(one(".5").float_value == 0.5);
  CHECK(one("1e-3").float_value == doctest::Approx(0.001));
  t = one("1.f");
  CHECK(t.is_float);
  CHECK(t.float_value == 1.0);
  t = one("2.0f");
  CHECK(t.is_float);
  CHECK(t.float_value == 2.0);
  t = one("1e10f");
  CHECK(t.is_float);
  CHECK(t.float_value == 1e10);
  t = one("3.5E+2");
  CHECK(t.float_value == 350.0);
  CHECK(one("0x1p3").float_value == 8.0);
}

TEST_CASE("lexer: char literals and escapes have int values") {
  CHECK(one("'a'").int_value == 97);
  CHECK(one("'a'").kind == Tok::char_literal);
  CHECK(one("'\\n'").int_value == 10);
  CHECK(one("'\\t'").int_value == 9);
  CHECK(one("'\\\\'").int_value == '\\');
  CHECK(one("'\\''").int_value == '\'');
  CHECK(one("'\\\"'").int_value == '"');
  CHECK(one("'\\0'").int_value == 0);
  CHECK(one("'\\x41'").int_value == 0x41);
  CHECK(one("'\\101'").int_value == 65);
  CHECK(one("'\"'").int_value == '"');
  // A plain char is signed: '\xff' is -1 as an int.
  CHECK(static_cast<int64_t>(one("'\\xff'").int_value) == -1);
}

TEST_CASE("lexer: string literals decode escapes") {
  Token t = one("\"a\\tb\\\"c\\\\\"");
  CHECK(t.kind == Tok::string_literal);
  CHECK(t.text == "\"a\\tb\\\"c\\\\\"");
  CHECK(t.str_value == "a\tb\"c\\");
  CHECK(one("\"\\x41\\102\\0z\"").str_value == std::string("AB\0z", 4));
  CHECK(one("\"\"").str_value.empty());
  CHECK(one("\"it's\"").str_value == "it's");
}

TEST_CASE("lexer: adjacent strings stay separate tokens") {
  Lexed l = lex("\"a\" \"b\"");
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[0].str_value == "a");
  CHECK(l.tokens[1].str_value == "b");
}

TEST_CASE("lexer: every punctuator lexes to its kind") {
#define BROOK_CHECK_PUNCT(name, spelling)  \
  {                                        \
    Token t = one(spelling);               \
    CHECK(t.kind == Tok::name);            \
    CHECK(t.text == spelling);             \
    CHECK(tok_spelling(Tok::name) == spelling); \
  }
  BROOK_PUNCTUATORS(BROOK_CHECK_PUNCT)
#undef BROOK_CHECK_PUNCT
}

TEST_CASE("lexer: maximal munch") {
  Lexed l = lex("a<<=b>>c...d->e++f--g..h");
  std::vector<Tok> kinds;
  for (const Token& t : l.tokens) kinds.push_back(t.kind);
  std::vector<Tok> expected = {
      Tok::identifier, Tok::less_less_equal, Tok::identifier, Tok::greater_greater,
      Tok::identifier, Tok::ellipsis, Tok::identifier, Tok::arrow, Tok::identifier,
      Tok::plus_plus, Tok::identifier, Tok::minus_minus, Tok::identifier, Tok::period,
      Tok::period, Tok::identifier, Tok::eof};
  CHECK(kinds == expected);
}

TEST_CASE("lexer: keywords versus identifiers") {
#define BROOK_CHECK_KW(name, spelling) CHECK(one(spelling).kind == Tok::name);
  BROOK_KEYWORDS(BROOK_CHECK_KW)
#undef BROOK_CHECK_KW
  for (const char* id : {"float4", "uchar", "whilex", "_x", "Kernel", "iter2", "x_1"}) {
    Token t = one(id);
    CHECK(t.kind == Tok::identifier);
    CHECK(t.text == id);
  }
}

TEST_CASE("lexer: locations, line starts and spacing") {
  Lexed l = lex("int  x;\n\tfoo(/*c*/y)\n");
  REQUIRE(l.tokens.size() == 8);
  const Token& kw = l.tokens[0];
  CHECK(kw.loc.line == 1);
  CHECK(kw.loc.col == 1);
  CHECK(kw.at_line_start);
  CHECK_FALSE(kw.space_before);
  CHECK(l.tokens[1].loc.col == 6);
  CHECK(l.tokens[1].space_before);
  CHECK_FALSE(l.tokens[1].at_line_start);
  CHECK_FALSE(l.tokens[2].space_before);
  const Token& foo = l.tokens[3];
  CHECK(foo.loc.line == 2);
  CHECK(foo.loc.col == 2);  // a tab is one column
  CHECK(foo.at_line_start);
  CHECK(l.tokens[5].text == "y");
  CHECK(l.tokens[5].space_before);  // a comment counts as space
  CHECK(l.tokens[5].loc.col == 11);
  CHECK(l.tokens[7].kind == Tok::eof);
}

TEST_CASE("lexer: comments and line continuation") {
  Lexed l = lex("a // x \\\n still comment\nb /* multi\nline */ c\nd \\\n e");
  REQUIRE(l.diags.empty());
  REQUIRE(l.tokens.size() == 6);
  CHECK(l.tokens[1].text == "b");
  CHECK(l.tokens[1].loc.line == 3);
  CHECK(l.tokens[2].text == "c");
  CHECK(l.tokens[2].loc.line == 4);
  CHECK_FALSE(l.tokens[2].at_line_start);
  CHECK(l.tokens[4].text == "e");
  CHECK(l.tokens[4].loc.line == 6);
  CHECK_FALSE(l.tokens[4].at_line_start);  // continued line is the same logical line
}

TEST_CASE("lexer: eof token and empty input") {
  Lexed l = lex("");
  REQUIRE(l.tokens.size() == 1);
  CHECK(l.tokens[0].kind == Tok::eof);
  CHECK(l.tokens[0].loc.line == 1);
  l = lex("x\n");
  REQUIRE(l.tokens.size() == 2);
  CHECK(l.tokens[1].loc.line >= 1);
}

TEST_CASE("lexer: unterminated comment is reported at its start") {
  Lexed l = lex("a\n  /* never closed\n\n");
  REQUIRE(l.diags.size() == 1);
  CHECK(l.diags[0].message == "unterminated comment");
  CHECK(l.diags[0].loc.line == 2);
  CHECK(l.diags[0].loc.col == 3);
  CHECK(l.tokens.back().kind == Tok::eof);
}

TEST_CASE("lexer: unterminated string and char literals") {
  CHECK(first_error("\"abc\nx") == "unterminated string literal");
  CHECK(first_error("\"abc") == "unterminated string literal");
  CHECK(first_error("'a") == "unterminated character literal");
  CHECK(first_error("\"abc\\") == "unterminated string literal");
  Lexed l = lex("\"abc\nx");
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[1].text == "x");  // lexing continues on the next line
}

TEST_CASE("lexer: empty char literal") {
  CHECK(first_error("''") == "empty character constant");
}

TEST_CASE("lexer: bad numbers") {
  // BrookGPU's rule (LANGUAGE.md §2): an 8 or 9 ends an octal constant, with
  // a warning, so 06294306 is 062.
  CHECK(first_error("08") == "");
  Lexed oct = lex("06294306");
  REQUIRE(!oct.tokens.empty());
  CHECK(oct.tokens[0].int_value == 50);
  REQUIRE(oct.diags.size() == 1);
  CHECK(oct.diags[0].severity == Severity::warning);
  CHECK(oct.diags[0].message ==
        "invalid digit '9' in octal constant; BrookGPU reads it as its octal prefix 062 = 50");
  CHECK(first_error("12abc") == "invalid suffix 'abc' on integer constant");
  CHECK(first_error("1uu") == "invalid suffix 'uu' on integer constant");
  CHECK(first_error("1.0q") == "invalid suffix 'q' on floating constant");
  CHECK(first_error("99999999999999999999") ==
        "integer literal is too large to be represented in any integer type");
  CHECK(first_error("1e") == "exponent has no digits");
  Lexed l = lex("12abc + 1");
  REQUIRE(l.tokens.size() == 4);
  CHECK(l.tokens[0].kind == Tok::int_literal);
}

TEST_CASE("lexer: stray characters become unknown tokens") {
  Lexed l = lex("a @ b");
  REQUIRE(l.tokens.size() == 4);
  CHECK(l.tokens[1].kind == Tok::unknown);
  REQUIRE(l.diags.size() == 1);
  CHECK(l.diags[0].message == "stray '@' in program");
  CHECK(l.diags[0].loc.col == 3);
  CHECK(first_error("$") == "stray '$' in program");
  CHECK(first_error("\\ x") == "stray '\\' in program");
  CHECK(first_error(std::string("a\0b", 3)) == "stray '\\000' in program");
}

TEST_CASE("lexer: arbitrary binary input never crashes") {
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1103515245u + 12345u;
    junk += static_cast<char>((x >> 16) & 0xff);
  }
  for (std::string s : {junk, std::string("'\\"), std::string("\"\\x"), std::string("0x"),
                        std::string("1e+"), std::string("/*"), std::string("'"),
                        std::string("\\"), std::string(".")}) {
    Lexed l = lex(s);
    REQUIRE_FALSE(l.tokens.empty());
    CHECK(l.tokens.back().kind == Tok::eof);
  }
}

TEST_CASE("lexer: fragments take the given location") {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  SourceLoc at{0, 7, 3};
  std::vector<Token> toks = lex_fragment("a ## 12", at, diags);
  REQUIRE(toks.size() == 3);
  for (const Token& t : toks) CHECK(t.loc == at);
  CHECK(toks[1].kind == Tok::hash_hash);
}

TEST_CASE("tok_description names tokens in the user's words") {
  CHECK(tok_description(Tok::identifier) == "identifier");
  CHECK(tok_description(Tok::int_literal) == "integer literal");
  CHECK(tok_description(Tok::eof) == "end of input");
  CHECK(tok_description(Tok::kw_while) == "'while'");
  CHECK(tok_description(Tok::plus_equal) == "'+='");
  CHECK(tok_spelling(Tok::identifier).empty());
}
