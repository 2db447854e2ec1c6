// Preprocessing runs that share a MacroTable (the REPL's one translation
// unit): macros, #undef and -D carry from one run to the next.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lang/preprocess.hpp"

using namespace brook;

namespace {

// One SourceManager for several runs, as the REPL's FrontEnd has.
struct Session {
  SourceManager sources;
  MacroTable macros;
  PreprocessOptions options;
  std::vector<Diagnostic> diags;

  // The output spelled with single spaces, without the eof token.
  std::string run(const std::string& text, MacroTable* table = nullptr) {
    uint32_t file = sources.add_file("<entry>", text);
    DiagnosticEngine d(sources);
    PreprocessResult r = preprocess(sources, file, d, options, table ? *table : macros);
    diags = d.diagnostics();
    std::string s;
    for (const Token& t : r.tokens) {
      if (t.kind == Tok::eof) break;
      if (!s.empty()) s += ' ';
      s += t.text;
    }
    return s;
  }
  bool warned(const std::string& text) const {
    for (const Diagnostic& d : diags)
      if (d.severity == Severity::warning && d.message.find(text) != std::string::npos) return true;
    return false;
  }
};

}  // namespace

TEST_CASE("preprocess session: object and function-like macros outlive their run") {
  Session s;
  CHECK(s.macros.empty());
  CHECK(s.run("#define N 4\n#define SQ(x) ((x) * (x))\n").empty());
  CHECK_FALSE(s.macros.empty());
  CHECK(s.macros.defined("N"));
  CHECK(s.macros.defined("SQ"));
  CHECK(s.run("SQ(N)") == "( ( 4 ) * ( 4 ) )");
  // Predefined macros are still there after the first run.
  CHECK(s.run("INT_MAX __BROOK__") == "2147483647 1");
}

TEST_CASE("preprocess session: #undef and redefinition carry over") {
  Session s;
  s.run("#define A 1\n#define B 2\n");
  s.run("#undef A\n");
  CHECK_FALSE(s.macros.defined("A"));
  CHECK(s.run("A B") == "A 2");
  s.run("#define B 3\n");
  CHECK(s.warned("'B' macro redefined"));
  CHECK(s.run("B") == "3");
  s.run("#define B 3\n");
  CHECK_FALSE(s.warned("redefined"));  // the same definition again is fine
}

TEST_CASE("preprocess session: conditionals see earlier runs' macros") {
  Session s;
  s.run("#define FEATURE\n");
  CHECK(s.run("#ifdef FEATURE\nyes\n#else\nno\n#endif\n") == "yes");
  CHECK(s.run("#if defined(FEATURE) && !defined(OTHER)\nboth\n#endif\n") == "both");
}

TEST_CASE("preprocess session: -D applies once, to the empty table") {
  Session s;
  s.options.defines = {"WIDTH=8"};
  CHECK(s.run("WIDTH") == "8");
  s.run("#undef WIDTH\n");
  CHECK(s.run("WIDTH") == "WIDTH");  // not brought back by the next run
}

TEST_CASE("preprocess session: a copy is a trial that leaves the original alone") {
  Session s;
  s.run("#define KEEP 1\n");
  MacroTable trial = s.macros;
  s.run("#define TRIED 2\n#undef KEEP\n", &trial);
  CHECK(trial.defined("TRIED"));
  CHECK_FALSE(trial.defined("KEEP"));
  CHECK(s.macros.defined("KEEP"));
  CHECK_FALSE(s.macros.defined("TRIED"));
  // Kept by assignment, as the FrontEnd does for a complete entry.
  s.macros = std::move(trial);
  CHECK(s.run("TRIED KEEP") == "2 KEEP");
  // A moved-from table is empty again and still usable.
  CHECK(trial.empty());
  CHECK(s.run("__LINE__", &trial) == "1");
}

TEST_CASE("preprocess session: the plain call still preprocesses alone") {
  Session s;
  s.run("#define ONLY_HERE 5\n");
  uint32_t file = s.sources.add_file("<alone>", "ONLY_HERE");
  DiagnosticEngine d(s.sources);
  PreprocessResult r = preprocess(s.sources, file, d, s.options);
  REQUIRE(r.tokens.size() == 2);
  CHECK(r.tokens[0].text == "ONLY_HERE");
}
