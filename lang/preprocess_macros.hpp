// Macro definitions and C's expansion algorithm (hide sets, after Prosser),
// shared by the preprocessor's text lines and its #if expressions.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace brook::pp {

// The macros (interned name ids, sorted) a token must not be expanded by again.
using HideSet = std::shared_ptr<const std::vector<uint32_t>>;

struct PPToken {
  Token tok;
  HideSet hide;
  bool placemarker = false;  // an empty argument next to ## (removed after pasting)
};

enum class MacroKind { object, function, file_name, line_number, counter };

struct Macro {
  MacroKind kind = MacroKind::object;
  std::vector<std::string> params;  // "__VA_ARGS__" last when variadic
  bool variadic = false;
  std::vector<Token> body;
  SourceLoc defined_at;  // the name in its #define; invalid for predefined and -D macros
};

bool same_definition(const Macro& a, const Macro& b);
// Keywords can be macro names too (`#define inline`).
bool is_name_token(const Token& t);

class Expander {
 public:
  Expander(const SourceManager& sources, DiagnosticEngine& diags)
      : sources_(sources), diags_(diags) {}

  std::unordered_map<std::string, Macro>& macros() { return macros_; }
  const Macro* find(const std::string& name) const;

  // Fully macro-expands `input` (C's rescanning included).
  std::vector<Token> expand(std::span<const Token> input);

  // `#line N "name"` on line `directive_line` of `file`: from the next line on,
  // __LINE__ counts from N and __FILE__ is `name` (kept when empty). Only
  // these two macros follow it; diagnostics name the real file and line.
  void mark_line(uint32_t file, uint32_t directive_line, uint32_t next_line, std::string name);

 private:
  std::vector<PPToken> expand_list(std::vector<PPToken> input, int depth);
  // Returns false (leaving `stack` untouched) when `name` is a function-like
  // macro not followed by '('.
  bool expand_one(const PPToken& name, const Macro& macro, std::vector<PPToken>& stack,
                  int depth);
  std::vector<PPToken> substitute(const Macro& macro, const PPToken& use,
                                  const std::vector<std::vector<PPToken>>& args,
                                  const HideSet& hide, int depth);
  PPToken stringize(const std::vector<PPToken>& arg, SourceLoc loc);
  void paste(std::vector<PPToken>& out, const PPToken& rhs, SourceLoc loc);
  bool charge(size_t tokens, SourceLoc loc);
  uint32_t intern(const std::string& name);

  const SourceManager& sources_;
  DiagnosticEngine& diags_;
  std::unordered_map<std::string, Macro> macros_;
  uint64_t counter_ = 0;  // __COUNTER__'s next value
  struct LineMark {
    uint32_t after = 0;  // the #line directive's own (real) line
    uint32_t next = 0;   // the presumed number of the line after it
    std::string name;    // the presumed file name (the file's own when empty)
  };
  std::unordered_map<uint32_t, std::vector<LineMark>> line_marks_;  // by file, in order
  // The presumed line and file name of `loc` after #line directives.
  std::pair<uint32_t, std::string> presumed(SourceLoc loc) const;
  std::unordered_map<std::string, uint32_t> name_ids_;
  size_t work_ = 0;
  bool blown_ = false;
};

}  // namespace brook::pp
