// Preprocessor: macros, conditionals, includes, pragmas and their errors.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "lang/preprocess.hpp"

using namespace brook;

namespace {

struct Preprocessed {
  SourceManager sources;
  std::vector<Token> tokens;
  std::vector<Pragma> pragmas;
  std::vector<Diagnostic> diags;

  // The output spelled with single spaces, without the eof token.
  std::string text() const {
    std::string s;
    for (const Token& t : tokens) {
      if (t.kind == Tok::eof) break;
      if (!s.empty()) s += ' ';
      s += t.text;
    }
    return s;
  }
  std::string first(Severity severity) const {
    for (const Diagnostic& d : diags) {
      if (d.severity == severity) return d.message;
    }
    return "";
  }
  std::string first_error() const { return first(Severity::error); }
  bool has_errors() const { return !first_error().empty(); }
};

void run_on(Preprocessed& p, uint32_t file, const PreprocessOptions& options) {
  DiagnosticEngine diags(p.sources);
  PreprocessResult r = preprocess(p.sources, file, diags, options);
  p.tokens = std::move(r.tokens);
  p.pragmas = std::move(r.pragmas);
  p.diags = diags.diagnostics();
}

std::unique_ptr<Preprocessed> pp(const std::string& text, PreprocessOptions options = {}) {
  auto p = std::make_unique<Preprocessed>();
  uint32_t f = p->sources.add_file("main.br", text);
  run_on(*p, f, options);
  return p;
}

// A fresh folder under /tmp for include tests, removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("brook_pp_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = path / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

std::unique_ptr<Preprocessed> pp_file(const std::string& path, PreprocessOptions options = {}) {
  auto p = std::make_unique<Preprocessed>();
  auto f = p->sources.load_file(path);
  REQUIRE(f);
  run_on(*p, *f, options);
  return p;
}

}  // namespace

TEST_CASE("preprocess: plain text passes through and ends with one eof") {
  auto p = pp("int x = 1;\nfloat y;\n");
  CHECK(p->text() == "int x = 1 ; float y ;");
  CHECK(p->diags.empty());
  REQUIRE(!p->tokens.empty());
  CHECK(p->tokens.back().kind == Tok::eof);
  int eofs = 0;
  for (const Token& t : p->tokens) eofs += t.kind == Tok::eof;
  CHECK(eofs == 1);
  CHECK(p->tokens.back().loc.line >= 2);
  CHECK(p->tokens.back().loc.line <= 3);
}

TEST_CASE("preprocess: object-like macros, nested, located at the use") {
  auto p = pp("#define N 4\n#define TWO_N (N*2)\nint a[TWO_N];\n");
  CHECK(p->text() == "int a [ ( 4 * 2 ) ] ;");
  CHECK(p->diags.empty());
  const Token& four = p->tokens[4];
  CHECK(four.text == "4");
  CHECK(four.kind == Tok::int_literal);
  CHECK(four.int_value == 4);
  CHECK(four.loc.line == 3);
  CHECK(four.loc.col == 7);  // where TWO_N is written
}

TEST_CASE("preprocess: function-like macros with nested calls") {
  auto p = pp("#define SQ(x) ((x)*(x))\n#define ADD(a, b) (a + b)\nSQ(ADD(1, 2))\n");
  CHECK(p->text() == "( ( ( 1 + 2 ) ) * ( ( 1 + 2 ) ) )");
  p = pp("#define F(x) [x]\nF((a, b)) F() F( )\n");
  CHECK(p->text() == "[ ( a , b ) ] [ ] [ ]");
  CHECK(p->diags.empty());
}

TEST_CASE("preprocess: function-like macro name without parentheses is left alone") {
  auto p = pp("#define F(x) x\nint F; F (2)\n");
  CHECK(p->text() == "int F ; 2");
}

TEST_CASE("preprocess: stringize") {
  auto p = pp("#define S(x) #x\nS(a  +   b) S(\"q\\n\") S()\n");
  REQUIRE(p->tokens.size() == 4);
  CHECK(p->tokens[0].kind == Tok::string_literal);
  CHECK(p->tokens[0].str_value == "a + b");
  CHECK(p->tokens[1].text == "\"\\\"q\\\\n\\\"\"");
  CHECK(p->tokens[1].str_value == "\"q\\n\"");
  CHECK(p->tokens[2].str_value.empty());
  // Arguments of # are not expanded; XS's are.
  p = pp("#define S(x) #x\n#define XS(x) S(x)\n#define V 42\nS(V) XS(V)\n");
  REQUIRE(p->tokens.size() == 3);
  CHECK(p->tokens[0].str_value == "V");
  CHECK(p->tokens[1].str_value == "42");
}

TEST_CASE("preprocess: token pasting") {
  auto p = pp("#define CAT(a, b) a##b\nCAT(x, 1) CAT(1, 2) CAT(<, =) CAT(, y) CAT(z, )\n");
  REQUIRE(p->tokens.size() == 6);
  CHECK(p->tokens[0].kind == Tok::identifier);
  CHECK(p->tokens[0].text == "x1");
  CHECK(p->tokens[1].kind == Tok::int_literal);
  CHECK(p->tokens[1].int_value == 12);
  CHECK(p->tokens[2].kind == Tok::less_equal);
  CHECK(p->text() == "x1 12 <= y z");
  CHECK(p->diags.empty());
  // Pasted tokens are rescanned; arguments of ## are not pre-expanded.
  p = pp("#define CAT(a, b) a##b\n#define xy 7\n#define A x\nCAT(x, y) CAT(A, y)\n");
  CHECK(p->text() == "7 Ay");
}

TEST_CASE("preprocess: invalid paste is an error") {
  auto p = pp("#define CAT(a, b) a##b\nCAT(+, /)\n");
  CHECK(p->first_error() == "pasting \"+\" and \"/\" does not give a valid preprocessing token");
}

TEST_CASE("preprocess: self-reference does not recurse") {
  auto p = pp("#define foo foo + 1\nfoo\n");
  CHECK(p->text() == "foo + 1");
  p = pp("#define a b\n#define b a\na b\n");
  CHECK(p->text() == "a b");
  p = pp("#define f(x) x + f(x)\nf(1)\n");
  CHECK(p->text() == "1 + f ( 1 )");
  CHECK(p->diags.empty());
}

TEST_CASE("preprocess: rescanning picks up a call completed by the following text") {
  auto p = pp("#define f(x) x*g\n#define g(x) (x)\nf(2)(9)\n");
  CHECK(p->text() == "2 * ( 9 )");
  p = pp("#define LPAREN (\n#define F(x) <x>\n#define G F LPAREN 1)\nG\n");
  CHECK(p->text() == "F ( 1 )");
}

TEST_CASE("preprocess: variadic macros") {
  auto p = pp("#define P(fmt, ...) printf(fmt, __VA_ARGS__)\nP(\"%d %d\", 1, 2)\n");
  CHECK(p->text() == "printf ( \"%d %d\" , 1 , 2 )");
  p = pp("#define P(fmt, ...) printf(fmt, ## __VA_ARGS__)\nP(\"a\") P(\"b\", 3)\n");
  CHECK(p->text() == "printf ( \"a\" ) printf ( \"b\" , 3 )");
  CHECK(p->diags.empty());
}

TEST_CASE("preprocess: wrong argument counts") {
  auto p = pp("#define F(a, b) a\nF(1)\n");
  CHECK(p->first_error() == "macro 'F' requires 2 arguments, but only 1 given");
  p = pp("#define F(a) a\nF(1, 2)\n");
  CHECK(p->first_error() == "macro 'F' passed 2 arguments, but takes just 1");
  p = pp("#define F(a) a\nF(1, 2\n");
  CHECK(p->first_error() == "unterminated argument list invoking macro 'F'");
  CHECK(p->tokens.back().kind == Tok::eof);
}

TEST_CASE("preprocess: macro invocation across lines") {
  auto p = pp("#define ADD(a, b) a + b\nint x = ADD(1,\n  2);\n");
  CHECK(p->text() == "int x = 1 + 2 ;");
}

TEST_CASE("preprocess: conditionals inside macro arguments") {
  auto p = pp("#define F(a, b) a + b\n#define X\nF(1,\n#ifdef X\n2\n#else\n3\n#endif\n)\n");
  CHECK(p->text() == "1 + 2");
  CHECK(p->diags.empty());
}

TEST_CASE("preprocess: #undef and redefinition") {
  auto p = pp("#define X 1\n#undef X\nX\n#define X 2\nX\n");
  CHECK(p->text() == "X 2");
  p = pp("#define X 1\n#define X 1\n#define X 2\nX\n");
  CHECK(p->first(Severity::warning) == "'X' macro redefined");
  CHECK(p->text() == "2");
}

TEST_CASE("preprocess: #define errors") {
  CHECK(pp("#define 3 x\n")->first_error() == "macro names must be identifiers");
  CHECK(pp("#define defined 1\n")->first_error() == "'defined' cannot be used as a macro name");
  CHECK(pp("#define F(a, a) a\n")->first_error() == "duplicate macro parameter 'a'");
  CHECK(pp("#define F(a a\n")->first_error() == "expected ',' or ')' in macro parameter list");
  CHECK(pp("#define F(a, \n")->first_error() == "missing ')' in macro parameter list");
  CHECK(pp("#define F(a) #b\n")->first_error() == "'#' is not followed by a macro parameter");
  CHECK(pp("#define F(a) ## a\n")->first_error() ==
        "'##' cannot appear at either end of a macro expansion");
  CHECK(pp("#define\n")->first_error() == "macro name missing in #define");
}

TEST_CASE("preprocess: conditionals with defined, elif and else") {
  auto p = pp(
      "#define A\n"
      "#if defined(A) && !defined B\n one\n#else\n two\n#endif\n"
      "#ifdef B\n three\n#elif 2 > 1\n four\n#elif 1\n five\n#else\n six\n#endif\n"
      "#ifndef B\n seven\n#endif\n"
      "#if 0\n#if 1\n eight\n#else\n nine\n#endif\n#elif 0\n ten\n#else\n eleven\n#endif\n");
  CHECK(p->text() == "one four seven eleven");
  CHECK(p->diags.empty());
}

TEST_CASE("preprocess: #if arithmetic") {
  auto yes = [](const std::string& expr) {
    auto p = pp("#if " + expr + "\nyes\n#else\nno\n#endif\n");
    CHECK(p->diags.empty());
    return p->text() == "yes";
  };
  CHECK(yes("1 + 2 * 3 == 7"));
  CHECK(yes("(1 + 2) * 3 == 9"));
  CHECK(yes("7 / 2 == 3 && 7 % 2 == 1"));
  CHECK(yes("-1 < 0"));
  CHECK_FALSE(yes("-1 < 0u"));  // unsigned comparison, as in C
  CHECK(yes("1 ? 2 : 0"));
  CHECK_FALSE(yes("0 ? 2 : 0"));
  CHECK(yes("(1 << 4) == 16 && (256 >> 4) == 0x10"));
  CHECK(yes("~0 == -1 && !0 && (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6"));
  CHECK(yes("'a' == 97"));
  CHECK(yes("UNKNOWN_NAME == 0"));
  CHECK(yes("(0, 1)"));
  CHECK(yes("0 || 1"));
  CHECK_FALSE(yes("1 && 0"));
  CHECK(yes("INT_MAX == 2147483647 && __BROOK__"));
  CHECK(yes("1 || 1 / 0"));  // unevaluated operand: no division-by-zero error
  CHECK(yes("1 >= 1 && 2 <= 3 && 2 != 3 && 3 > 2"));
}

TEST_CASE("preprocess: #if errors") {
  CHECK(pp("#if 1 / 0\n#endif\n")->first_error() == "division by zero in preprocessor expression");
  CHECK(pp("#if 5 % 0\n#endif\n")->first_error() == "division by zero in preprocessor expression");
  CHECK(pp("#if\n#endif\n")->first_error() == "#if with no expression");
  CHECK(pp("#if (1\n#endif\n")->first_error() == "missing ')' in expression");
  CHECK(pp("#if 1 +\n#endif\n")->first_error() == "expected value in expression");
  CHECK(pp("#if 1 2\n#endif\n")->first_error() == "missing binary operator before token '2'");
  CHECK(pp("#if 1.0\n#endif\n")->first_error() == "floating constant in preprocessor expression");
  CHECK(pp("#if defined\n#endif\n")->first_error() == "macro name missing after 'defined'");
  std::string deep(100000, '(');
  CHECK(pp("#if " + deep + "\n#endif\n")->has_errors());  // no stack overflow
}

TEST_CASE("preprocess: conditional structure errors") {
  auto p = pp("int a;\n#if 1\nint b;\n");
  CHECK(p->first_error() == "unterminated conditional directive");
  REQUIRE(!p->diags.empty());
  CHECK(p->diags[0].loc.line == 2);
  CHECK(p->diags[0].loc.col == 1);
  CHECK(pp("#else\n")->first_error() == "#else without #if");
  CHECK(pp("#endif\n")->first_error() == "#endif without #if");
  CHECK(pp("#elif 1\n")->first_error() == "#elif without #if");
  CHECK(pp("#if 1\n#else\n#elif 1\n#endif\n")->first_error() == "#elif after #else");
  CHECK(pp("#if 1\n#else\n#else\n#endif\n")->first_error() == "#else after #else");
}

TEST_CASE("preprocess: skipped regions ignore unknown directives and bad code") {
  auto p = pp("#if 0\n#foo\n#error no\n#include \"missing.h\"\n@ don't 08\n#endif\nok\n");
  CHECK(p->text() == "ok");
  CHECK(p->diags.empty());
  p = pp("#if 1\n@\n#else\n@\n#endif\n");
  REQUIRE(p->diags.size() == 1);
  CHECK(p->diags[0].message == "stray '@' in program");
  CHECK(p->diags[0].loc.line == 2);
  CHECK(pp("#if 0\n/* open\n")->first_error() == "unterminated comment");
}

TEST_CASE("preprocess: #error, #warning, unknown directives, null directive") {
  auto p = pp("#error stop right here\n");
  CHECK(p->first_error() == "stop right here");
  p = pp("#warning careful now\n");
  CHECK(p->first(Severity::warning) == "careful now");
  CHECK_FALSE(p->has_errors());
  p = pp("#foo bar\n");
  CHECK(p->first_error() == "invalid preprocessing directive '#foo'");
  p = pp("#\nx\n");
  CHECK(p->diags.empty());
  CHECK(p->text() == "x");
}

TEST_CASE("preprocess: pragmas") {
  auto p = pp("#pragma brook fp_relaxed\nx\n#pragma omp parallel\n");
  REQUIRE(p->pragmas.size() == 1);
  CHECK(p->pragmas[0].words == std::vector<std::string>{"brook", "fp_relaxed"});
  CHECK(p->pragmas[0].loc.line == 1);
  CHECK(p->first(Severity::warning) == "unknown pragma 'omp parallel' ignored");
  CHECK_FALSE(p->has_errors());
  CHECK(p->text() == "x");
  // _Pragma is the directive; the compilers' own pragmas pass in silence.
  p =
      pp("a _Pragma(\"brook fp_relaxed\") b\n#pragma GCC diagnostic push\n_Pragma(\"STDC "
         "FP_CONTRACT OFF\")\n");
  REQUIRE(p->pragmas.size() == 1);
  CHECK(p->pragmas[0].words == std::vector<std::string>{"brook", "fp_relaxed"});
  CHECK(p->first(Severity::warning).empty());
  CHECK(p->text() == "a b");
}

TEST_CASE("preprocess: predefined macros") {
  auto p = pp("NULL RAND_MAX EXIT_SUCCESS EXIT_FAILURE INT_MIN UINT_MAX FLT_MAX\n");
  CHECK(p->text() ==
        "( ( void * ) 0 ) 2147483647 0 1 ( - 2147483647 - 1 ) 4294967295U 3.40282347e+38F");
  p = pp("M_PI INFINITY STREAM_SCATTER_MUL STREAM_GATHER_INC __BROOK__\n");
  CHECK(p->text() == "3.14159265358979323846 ( 1.0f / 0.0f ) 2 1 1");
  p = pp("\n  __LINE__ __FILE__\n");
  REQUIRE(p->tokens.size() == 3);
  CHECK(p->tokens[0].kind == Tok::int_literal);
  CHECK(p->tokens[0].int_value == 2);
  CHECK(p->tokens[1].kind == Tok::string_literal);
  CHECK(p->tokens[1].str_value == "main.br");
}

TEST_CASE("preprocess: command-line defines") {
  PreprocessOptions opts;
  opts.defines = {"N=16", "DEBUG", "SQ(x)=((x)*(x))"};
  auto p = pp("N DEBUG SQ(2)\n", opts);
  CHECK(p->text() == "16 1 ( ( 2 ) * ( 2 ) )");
  CHECK(p->diags.empty());
  opts.defines = {"1BAD=2"};
  p = pp("x\n", opts);
  CHECK(p->first_error() == "invalid macro name '1BAD' in -D option");
  REQUIRE(!p->diags.empty());
  CHECK_FALSE(p->diags[0].loc.valid());
}

TEST_CASE("preprocess: #include resolves relative to the including file") {
  TempDir dir;
  dir.write("sub/helper.h", "int helper;\n#include \"other.h\"\n");
  dir.write("sub/other.h", "\n\nint other = __LINE__;\n");
  std::string main = dir.write("main.br", "#include <stdio.h>\n#include \"sub/helper.h\"\nint m;\n");
  auto p = pp_file(main);
  CHECK(p->diags.empty());
  CHECK(p->text() == "int helper ; int other = 3 ; int m ;");
  REQUIRE(p->tokens.size() >= 9);
  const Token& other = p->tokens[4];
  CHECK(other.text == "other");
  CHECK(p->sources.path(other.loc.file).find("other.h") != std::string::npos);
  CHECK(other.loc.line == 3);
  CHECK(other.loc.col == 5);
  const Token& m = p->tokens[9];
  CHECK(m.text == "m");
  CHECK(p->sources.path(m.loc.file) == main);
  CHECK(m.loc.line == 3);
  CHECK(p->sources.path(p->tokens.back().loc.file) == main);
}

TEST_CASE("preprocess: #include searches include_dirs and reports missing files") {
  TempDir dir;
  dir.write("inc/lib.h", "#define LIBVAL 5\n");
  std::string main = dir.write("src/main.br", "#include \"lib.h\"\nLIBVAL\n#include \"nope.h\"\n");
  PreprocessOptions opts;
  opts.include_dirs = {(dir.path / "inc").string()};
  auto p = pp_file(main, opts);
  CHECK(p->text() == "5");
  CHECK(p->first_error() == "cannot open include file 'nope.h'");
  REQUIRE(!p->diags.empty());
  CHECK(p->diags[0].loc.line == 3);
  CHECK(pp("#include\n")->first_error() == "#include expects \"FILENAME\" or <FILENAME>");
  CHECK(pp("#include 42\n")->first_error() == "#include expects \"FILENAME\" or <FILENAME>");
  // #include MACRO expands the macro first.
  std::string lib = (dir.path / "inc" / "lib.h").string();
  opts.defines = {"HEADER=\"" + lib + "\""};
  auto q = pp("#include HEADER\nLIBVAL\n", opts);
  CHECK(q->text() == "5");
  CHECK(q->diags.empty());
  CHECK(pp("#include \"" + lib + "\" junk\n")->first(Severity::warning) ==
        "extra tokens at end of #include directive");
}

TEST_CASE("preprocess: include guards and #pragma once") {
  TempDir dir;
  dir.write("g.h", "#ifndef G_H\n#define G_H\nint g;\n#endif\n");
  dir.write("o.h", "#pragma once\nint o;\n");
  std::string main =
      dir.write("main.br", "#include \"g.h\"\n#include \"g.h\"\n#include \"o.h\"\n#include \"o.h\"\n");
  auto p = pp_file(main);
  CHECK(p->diags.empty());
  CHECK(p->text() == "int g ; int o ;");
}

TEST_CASE("preprocess: include cycles stop with an error") {
  TempDir dir;
  dir.write("a.h", "int a;\n#include \"b.h\"\n#include \"b.h\"\n");
  dir.write("b.h", "#include \"a.h\"\n#include \"a.h\"\n");
  std::string main = dir.write("main.br", "#include \"a.h\"\n");
  auto p = pp_file(main);
  CHECK(p->first_error() == "#include nested too deeply");
  CHECK(p->tokens.back().kind == Tok::eof);
}

TEST_CASE("preprocess: conditionals must balance within each file") {
  TempDir dir;
  dir.write("open.h", "#if 1\nint x;\n");
  std::string main = dir.write("main.br", "#include \"open.h\"\n#endif\n");
  auto p = pp_file(main);
  CHECK(p->first_error() == "unterminated conditional directive");
  bool endif_error = false;
  for (const Diagnostic& d : p->diags) endif_error |= d.message == "#endif without #if";
  CHECK(endif_error);
}

TEST_CASE("preprocess: exponential macros are capped") {
  std::string text = "#define A0 x x\n";
  for (int i = 1; i < 40; ++i) {
    text += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" +
            std::to_string(i - 1) + "\n";
  }
  text += "A39\n";
  auto p = pp(text);
  CHECK(p->first_error() == "macro expansion too large");
  CHECK(p->tokens.back().kind == Tok::eof);
}

TEST_CASE("preprocess: deeply nested macro arguments do not overflow the stack") {
  std::string text = "#define F(x) x\n";
  for (int i = 0; i < 2000; ++i) text += "F(";
  text += "1";
  for (int i = 0; i < 2000; ++i) text += ")";
  auto p = pp(text + "\n");
  CHECK(p->tokens.back().kind == Tok::eof);
}

TEST_CASE("preprocess: expanded tokens keep the macro use's location") {
  auto p = pp("#define ONE 1\n\n   int x = ONE;\n");
  REQUIRE(p->tokens.size() == 6);
  CHECK(p->tokens[3].text == "1");
  CHECK(p->tokens[3].loc.line == 3);
  CHECK(p->tokens[3].loc.col == 12);
}
