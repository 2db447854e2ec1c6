// The preprocessor driver: splits each file into lines, runs directives,
// tracks conditionals and includes, and hands text lines to the macro expander.
#include "lang/preprocess.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>

#include "lang/lexer.hpp"
#include "lang/preprocess_expr.hpp"
#include "lang/preprocess_macros.hpp"
#include "lang/preprocess_predefined.hpp"

namespace brook {
namespace {

using pp::is_name_token;
using pp::Macro;
using pp::MacroKind;

constexpr int kMaxIncludeDepth = 64;
// Files processed in one run; an include tree without guards can otherwise grow
// exponentially without ever nesting too deeply.
constexpr size_t kMaxIncludes = 10'000;

struct Conditional {
  SourceLoc loc;       // the '#' of the #if, for "unterminated" errors
  bool parent_active;  // the enclosing region is being kept
  bool taken;          // some branch was already chosen (or none can be)
  bool in_else;
  bool active;         // the current branch is being kept
};

bool valid_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string canonical_path(const std::string& path) {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

// The directive's tokens written back as text, one space where there was some.
std::string spelled(std::span<const Token> toks) {
  std::string s;
  for (size_t i = 0; i < toks.size(); ++i) {
    if (i > 0 && toks[i].space_before) s += ' ';
    s += toks[i].text;
  }
  return s;
}

class Preprocessor {
 public:
  Preprocessor(SourceManager& sources, DiagnosticEngine& diags, const PreprocessOptions& options)
      : sources_(sources), diags_(diags), options_(options), expander_(sources, diags) {}

  // `start`: the macros an earlier run left (null or empty: a fresh unit).
  PreprocessResult run(uint32_t file,
                       const std::unordered_map<std::string, Macro>* start = nullptr) {
    if (start) {
      expander_.macros() = *start;
    } else {
      for (std::string_view def : pp::predefined_macros()) define_from_text(std::string(def));
      expander_.macros()["__FILE__"] = Macro{MacroKind::file_name, {}, false, {}, {}};
      expander_.macros()["__LINE__"] = Macro{MacroKind::line_number, {}, false, {}, {}};
      expander_.macros()["__COUNTER__"] = Macro{MacroKind::counter, {}, false, {}, {}};
      for (const std::string& def : pp::date_and_time_macros()) define_from_text(def);
      apply_command_line();
    }
    Token eof = process_file(file, 0);
    eof.at_line_start = true;
    result_.tokens.push_back(std::move(eof));
    return std::move(result_);
  }

  std::unordered_map<std::string, Macro>& macros() { return expander_.macros(); }

 private:
  void apply_command_line() {
    for (const std::string& def : options_.defines) {
      size_t eq = def.find('=');
      std::string name = def.substr(0, eq);
      std::string value = eq == std::string::npos ? "1" : def.substr(eq + 1);
      if (!valid_identifier(std::string_view(name).substr(0, name.find('(')))) {
        diags_.error(SourceLoc{}, "invalid macro name '" + name + "' in -D option");
        continue;
      }
      define_from_text(name + " " + value);
    }
  }

  void define_from_text(const std::string& text) {
    std::vector<Token> toks = lex_fragment(text, SourceLoc{}, diags_);
    define(toks, SourceLoc{});
  }

  // Returns the file's eof token.
  Token process_file(uint32_t file, int depth) {
    // The lexer's diagnostics are held back and passed on only for regions
    // that are kept, so `#if 0` can hold text like "don't" (as in C compilers).
    DiagnosticEngine lex_diags(sources_);
    std::vector<Token> tokens = lex_file(sources_, file, lex_diags);
    const std::vector<Diagnostic>& held = lex_diags.diagnostics();
    size_t next_held = 0;
    auto pass_on = [&](SourceLoc limit, bool inclusive, bool keep) {
      for (; next_held < held.size(); ++next_held) {
        const SourceLoc at = held[next_held].loc;
        bool before = at.line < limit.line || (at.line == limit.line && at.col < limit.col) ||
                      (inclusive && at == limit);
        if (!before) break;
        if (keep) diags_.report(held[next_held].severity, at, held[next_held].message);
      }
    };
    std::vector<Conditional> conds;
    std::vector<Token> pending;
    size_t i = 0;
    while (!fatal_ && tokens[i].kind != Tok::eof) {
      const Token& t = tokens[i];
      const bool active = conds.empty() || conds.back().active;
      if (t.at_line_start && t.kind == Tok::hash) {
        size_t end = i + 1;
        while (tokens[end].kind != Tok::eof && !tokens[end].at_line_start) ++end;
        pass_on(tokens[end].loc, false, active);
        // Conditionals leave the macro table alone, so a macro call may span
        // them (GCC allows `F(a,\n#ifdef X\nb\n#endif\n)`); others see the text so far.
        if (!is_conditional(std::span<const Token>(tokens).subspan(i, end - i))) flush(pending);
        directive(std::span<const Token>(tokens).subspan(i, end - i), file, depth, conds);
        i = end;
        continue;
      }
      pass_on(t.loc, true, active);
      if (active) pending.push_back(t);
      ++i;
    }
    pass_on(SourceLoc{file, UINT32_MAX, UINT32_MAX}, true, !fatal_);
    flush(pending);
    if (!fatal_) {
      for (const Conditional& c : conds) diags_.error(c.loc, "unterminated conditional directive");
    }
    return tokens.back();
  }

  static bool is_conditional(std::span<const Token> line) {
    if (line.size() < 2) return true;  // the null directive
    const std::string& name = line[1].text;
    return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" ||
           name == "else" || name == "endif";
  }

  void flush(std::vector<Token>& pending) {
    if (pending.empty()) return;
    std::vector<Token> expanded = expander_.expand(pending);
    pending.clear();
    for (size_t i = 0; i < expanded.size(); ++i) {
      // `_Pragma("text")` (C99 6.10.9), after expansion: the directive
      // `#pragma text`, leaving no tokens behind.
      if (expanded[i].text == "_Pragma" && i + 3 < expanded.size() && expanded[i + 1].text == "(" &&
          expanded[i + 2].kind == Tok::string_literal && expanded[i + 3].text == ")") {
        pragma_operator(expanded[i], expanded[i + 2]);
        i += 3;
        continue;
      }
      if (expanded[i].text == "_Pragma") {
        diags_.error(expanded[i].loc, "'_Pragma' needs one string literal in parentheses");
        // Drop its parenthesised operand too, so that no second error follows.
        if (i + 1 < expanded.size() && expanded[i + 1].text == "(") {
          int depth = 0;
          for (++i; i < expanded.size(); ++i) {
            if (expanded[i].text == "(") ++depth;
            if (expanded[i].text == ")" && --depth == 0) break;
          }
        }
        continue;
      }
      // gcc's `__attribute__((...))`: dropped, except that `packed` leaves
      // a marker the parser applies to the struct it follows or precedes.
      if ((expanded[i].text == "__attribute__" || expanded[i].text == "__attribute") &&
          i + 1 < expanded.size() && expanded[i + 1].text == "(") {
        size_t end = i + 1;
        bool packed = false;
        for (int depth = 0; end < expanded.size(); ++end) {
          const std::string& w = expanded[end].text;
          if (w == "(") ++depth;
          if (w == ")" && --depth == 0) break;
          packed |= w == "packed" || w == "__packed__";
        }
        if (end < expanded.size()) {
          // Only where the parser takes it: after `struct`/`union`, the tag,
          // or the closing brace; elsewhere gcc ignores it too.
          const size_t n = result_.tokens.size();
          auto text_at = [&](size_t back) -> std::string_view {
            return n >= back ? std::string_view(result_.tokens[n - back].text) : std::string_view();
          };
          const bool after_struct = text_at(1) == "struct" || text_at(1) == "union" ||
                                    text_at(1) == "}" ||
                                    ((text_at(2) == "struct" || text_at(2) == "union") &&
                                     result_.tokens[n - 1].kind == Tok::identifier);
          if (packed && after_struct) {
            Token marker = expanded[i];
            marker.text = "__brook_packed";
            result_.tokens.push_back(std::move(marker));
          }
          i = end;
          continue;
        }
      }
      result_.tokens.push_back(std::move(expanded[i]));
    }
  }

  void pragma_operator(const Token& op, const Token& literal) {
    const std::string& text = literal.str_value;  // destringized
    std::vector<Token> toks = lex_fragment(text, literal.loc, diags_);
    while (!toks.empty() && toks.back().kind == Tok::eof) toks.pop_back();
    pragma(toks, op.loc, op.loc.file);
  }

  void directive(std::span<const Token> line, uint32_t file, int depth,
                 std::vector<Conditional>& conds) {
    if (line.size() == 1) return;  // the null directive
    const SourceLoc loc = line[0].loc;
    const std::string name = is_name_token(line[1]) ? line[1].text : "";
    std::span<const Token> args = line.subspan(2);
    const bool active = conds.empty() || conds.back().active;

    if (name == "if" || name == "ifdef" || name == "ifndef") {
      bool value = false;
      if (active) {
        if (name == "if") {
          value = condition(args, loc);
        } else if (args.empty() || !is_name_token(args[0])) {
          diags_.error(args.empty() ? loc : args[0].loc, "macro name missing in #" + name);
        } else {
          value = (expander_.find(args[0].text) != nullptr) == (name == "ifdef");
          extra_tokens(args.subspan(1), name);
        }
      }
      conds.push_back({loc, active, !active || value, false, active && value});
      return;
    }
    if (name == "elif") {
      if (conds.empty()) return diags_.error(loc, "#elif without #if");
      Conditional& c = conds.back();
      if (c.in_else) return diags_.error(loc, "#elif after #else");
      if (c.taken) {
        c.active = false;
      } else {
        c.active = condition(args, loc);
        c.taken = c.active;
      }
      return;
    }
    if (name == "else") {
      if (conds.empty()) return diags_.error(loc, "#else without #if");
      Conditional& c = conds.back();
      if (c.in_else) return diags_.error(loc, "#else after #else");
      c.in_else = true;
      c.active = c.parent_active && !c.taken;
      c.taken = true;
      if (c.parent_active) extra_tokens(args, name);
      return;
    }
    if (name == "endif") {
      if (conds.empty()) return diags_.error(loc, "#endif without #if");
      if (conds.back().parent_active) extra_tokens(args, name);
      conds.pop_back();
      return;
    }
    if (!active) return;

    if (name == "include") return include(args, loc, file, depth);
    if (name == "define") return define(args, loc);
    if (name == "undef") {
      if (args.empty() || !is_name_token(args[0])) {
        return diags_.error(args.empty() ? loc : args[0].loc, "macro name missing in #undef");
      }
      expander_.macros().erase(args[0].text);
      extra_tokens(args.subspan(1), name);
      return;
    }
    if (name == "pragma") return pragma(args, loc, file);
    if (name == "error") return diags_.error(loc, args.empty() ? "#error" : spelled(args));
    if (name == "warning") return diags_.warning(loc, args.empty() ? "#warning" : spelled(args));
    if (name == "line") return line_directive(args, loc);
    // `# 42 "file.c" 2`: the line markers of gcc's preprocessed output (flags ignored).
    if (line[1].kind == Tok::int_literal)
      return line_directive(line.subspan(1, std::min<size_t>(line.size() - 1, 2)), loc);
    diags_.error(loc, "invalid preprocessing directive '#" + line[1].text + "'");
  }

  // `#line N` and `#line N "name"` (C99 6.10.4), their operands macro-expanded.
  void line_directive(std::span<const Token> args, SourceLoc loc) {
    std::vector<Token> operands = expander_.expand(args);
    while (!operands.empty() && operands.back().kind == Tok::eof) operands.pop_back();
    if (operands.empty() || operands[0].kind != Tok::int_literal ||
        operands[0].text.find_first_not_of("0123456789") != std::string::npos ||
        operands[0].int_value == 0 || operands[0].int_value > 2147483647u) {
      return diags_.error(operands.empty() ? loc : operands[0].loc,
                          "'#line' needs a line number from 1 to 2147483647");
    }
    std::string name;
    if (operands.size() > 1) {
      if (operands[1].kind != Tok::string_literal)
        return diags_.error(operands[1].loc, "invalid file name after '#line': expected a string");
      name = operands[1].str_value;
      extra_tokens(std::span<const Token>(operands).subspan(2), "line");
    }
    expander_.mark_line(loc.file, loc.line, static_cast<uint32_t>(operands[0].int_value),
                        std::move(name));
  }

  void extra_tokens(std::span<const Token> rest, const std::string& directive) {
    if (!rest.empty()) {
      diags_.warning(rest[0].loc, "extra tokens at end of #" + directive + " directive");
    }
  }

  bool condition(std::span<const Token> args, SourceLoc loc) {
    if (args.empty()) {
      diags_.error(loc, "#if with no expression");
      return false;
    }
    // `defined` is resolved before macro expansion, as C requires.
    std::vector<Token> resolved;
    for (size_t k = 0; k < args.size(); ++k) {
      if (!(args[k].kind == Tok::identifier && args[k].text == "defined")) {
        resolved.push_back(args[k]);
        continue;
      }
      Token result = args[k];
      size_t n = k + 1;
      bool paren = n < args.size() && args[n].kind == Tok::l_paren;
      if (paren) ++n;
      if (n >= args.size() || !is_name_token(args[n])) {
        diags_.error(args[k].loc, "macro name missing after 'defined'");
        return false;
      }
      result.kind = Tok::int_literal;
      result.int_value = expander_.find(args[n].text) != nullptr ? 1 : 0;
      result.text.assign(1, result.int_value ? '1' : '0');  // not `= "1"`: GCC 12's false -Wrestrict
      if (paren) {
        if (n + 1 >= args.size() || args[n + 1].kind != Tok::r_paren) {
          diags_.error(args[n].loc, "missing ')' after 'defined'");
          return false;
        }
        ++n;
      }
      resolved.push_back(std::move(result));
      k = n;
    }
    std::vector<Token> expanded = expander_.expand(resolved);
    return pp::evaluate_condition(expanded, loc, diags_);
  }

  void include(std::span<const Token> args, SourceLoc loc, uint32_t file, int depth) {
    std::vector<Token> spec(args.begin(), args.end());
    if (!spec.empty() && spec[0].kind != Tok::string_literal && spec[0].kind != Tok::less) {
      spec = expander_.expand(spec);  // #include MACRO
    }
    bool angled = !spec.empty() && spec[0].kind == Tok::less;
    std::string name;
    size_t used = 1;
    if (angled) {
      // The tokens up to '>' spell the name: <sys/time.h> is several tokens.
      while (used < spec.size() && spec[used].kind != Tok::greater) {
        if (used > 1 && spec[used].space_before) name += ' ';
        name += spec[used++].text;
      }
      if (used == spec.size() || name.empty()) {
        return diags_.error(loc, "#include expects \"FILENAME\" or <FILENAME>");
      }
      ++used;
    } else if (spec.empty() || spec[0].kind != Tok::string_literal || spec[0].text.size() < 2 ||
               spec[0].text.back() != '"') {
      return diags_.error(loc, "#include expects \"FILENAME\" or <FILENAME>");
    } else {
      name = spec[0].text.substr(1, spec[0].text.size() - 2);
    }
    extra_tokens(std::span<const Token>(spec).subspan(used), "include");
    if (depth + 1 >= kMaxIncludeDepth) {
      diags_.error(loc, "#include nested too deeply");
      fatal_ = true;
      return;
    }
    if (++include_count_ > kMaxIncludes) {
      diags_.error(loc, "too many #include directives processed");
      fatal_ = true;
      return;
    }
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (fs::path(name).is_absolute()) {
      candidates.emplace_back(name);
    } else {
      // As a C compiler: "…" looks beside the including file first, <…> only in -I folders.
      if (!angled) candidates.push_back(fs::path(sources_.path(file)).parent_path() / name);
      for (const std::string& dir : options_.include_dirs) candidates.push_back(fs::path(dir) / name);
    }
    // A standard header is built in: <stdio.h> is never read, and "float.h"
    // only when the program has its own file of that name.
    if (angled && pp::is_standard_header(name)) return define_header_macros(name);
    for (const fs::path& candidate : candidates) {
      if (!sources_.file_exists(candidate.string())) continue;
      std::string canon = canonical_path(candidate.string());
      if (once_.count(canon)) return;
      std::optional<uint32_t> id;
      if (auto it = loaded_.find(canon); it != loaded_.end()) {
        id = it->second;
      } else {
        id = sources_.load_file(candidate.string());
        if (id) loaded_[canon] = *id;
      }
      if (!id) continue;
      process_file(*id, depth + 1);
      return;
    }
    if (pp::is_standard_header(name)) return define_header_macros(name);
    diags_.error(loc, "cannot open include file '" + name + "'");
  }

  void define_header_macros(const std::string& header) {
    for (std::string_view def : pp::header_macros(header)) define_from_text(std::string(def));
  }

  void define(std::span<const Token> args, SourceLoc loc) {
    if (args.empty()) return diags_.error(loc, "macro name missing in #define");
    const Token& name = args[0];
    if (!is_name_token(name)) return diags_.error(name.loc, "macro names must be identifiers");
    if (name.text == "defined") {
      return diags_.error(name.loc, "'defined' cannot be used as a macro name");
    }
    Macro macro;
    macro.defined_at = name.loc;
    size_t k = 1;
    if (k < args.size() && args[k].kind == Tok::l_paren && !args[k].space_before) {
      macro.kind = MacroKind::function;
      if (!parameters(args, k, macro)) return;
    }
    macro.body.assign(args.begin() + static_cast<std::ptrdiff_t>(k), args.end());
    if (!macro.body.empty()) {
      if (macro.body.front().kind == Tok::hash_hash || macro.body.back().kind == Tok::hash_hash) {
        const Token& bad =
            macro.body.front().kind == Tok::hash_hash ? macro.body.front() : macro.body.back();
        return diags_.error(bad.loc, "'##' cannot appear at either end of a macro expansion");
      }
    }
    if (macro.kind == MacroKind::function) {
      for (size_t i = 0; i < macro.body.size(); ++i) {
        if (macro.body[i].kind != Tok::hash) continue;
        bool ok = i + 1 < macro.body.size() && is_name_token(macro.body[i + 1]);
        if (ok) {
          const std::string& p = macro.body[i + 1].text;
          ok = std::find(macro.params.begin(), macro.params.end(), p) != macro.params.end();
        }
        if (!ok) {
          return diags_.error(macro.body[i].loc, "'#' is not followed by a macro parameter");
        }
      }
    }
    auto& table = expander_.macros();
    if (auto it = table.find(name.text); it != table.end() && !same_definition(it->second, macro)) {
      diags_.warning(name.loc, "'" + name.text + "' macro redefined");
    }
    table[name.text] = std::move(macro);
  }

  // Parses "(a, b, ...)" starting at args[k] == '('; leaves k after ')'.
  bool parameters(std::span<const Token> args, size_t& k, Macro& macro) {
    ++k;
    if (k < args.size() && args[k].kind == Tok::r_paren) {
      ++k;
      return true;
    }
    for (;;) {
      if (k >= args.size()) {
        diags_.error(args[k - 1].loc, "missing ')' in macro parameter list");
        return false;
      }
      const Token& p = args[k];
      if (p.kind == Tok::ellipsis) {
        macro.variadic = true;
        macro.params.push_back("__VA_ARGS__");
        ++k;
        if (k >= args.size() || args[k].kind != Tok::r_paren) {
          diags_.error(k < args.size() ? args[k].loc : p.loc, "missing ')' in macro parameter list");
          return false;
        }
        ++k;
        return true;
      }
      if (!is_name_token(p) || p.text == "__VA_ARGS__") {
        diags_.error(p.loc, "expected a parameter name in the macro parameter list, found '" +
                                p.text + "'");
        return false;
      }
      if (std::find(macro.params.begin(), macro.params.end(), p.text) != macro.params.end()) {
        diags_.error(p.loc, "duplicate macro parameter '" + p.text + "'");
        return false;
      }
      macro.params.push_back(p.text);
      ++k;
      if (k < args.size() && args[k].kind == Tok::comma) {
        ++k;
        continue;
      }
      if (k < args.size() && args[k].kind == Tok::r_paren) {
        ++k;
        return true;
      }
      diags_.error(k < args.size() ? args[k].loc : p.loc,
                   "expected ',' or ')' in macro parameter list");
      return false;
    }
  }

  void pragma(std::span<const Token> args, SourceLoc loc, uint32_t file) {
    if (args.empty()) return;
    std::vector<std::string> words;
    for (const Token& t : args) words.push_back(t.text);
    if (words.size() == 1 && words[0] == "once") {
      once_.insert(canonical_path(sources_.path(file)));
      return;
    }
    if (words.size() == 2 && words[0] == "brook" && words[1] == "fp_relaxed") {
      result_.pragmas.push_back(Pragma{loc, std::move(words)});
      return;
    }
    // The compilers' own namespaces, which gcc does not warn about either
    // (`GCC diagnostic`, `clang loop`, `STDC FP_CONTRACT`). OpenMP's still
    // warn: the loop they mark runs on one thread.
    if (words[0] == "GCC" || words[0] == "clang" || words[0] == "STDC") return;
    // `#pragma pack(...)` (gcc's and MSVC's): the parser keeps its stack,
    // since it applies to the structs defined after it.
    if (words[0] == "pack") {
      Token marker = args[0];
      marker.text = "__brook_pack";
      result_.tokens.push_back(std::move(marker));
      for (size_t i = 1; i < args.size(); ++i) result_.tokens.push_back(args[i]);
      return;
    }
    diags_.warning(args[0].loc, "unknown pragma '" + spelled(args) + "' ignored");
  }

  SourceManager& sources_;
  DiagnosticEngine& diags_;
  const PreprocessOptions& options_;
  pp::Expander expander_;
  PreprocessResult result_;
  std::set<std::string> once_;                        // canonical paths
  std::unordered_map<std::string, uint32_t> loaded_;  // canonical path → file
  size_t include_count_ = 0;
  bool fatal_ = false;  // an include cycle or explosion: stop everything
};

}  // namespace

PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options) {
  return Preprocessor(sources, diags, options).run(file);
}

struct MacroTable::Impl {
  bool filled = false;
  std::unordered_map<std::string, Macro> macros;
};

MacroTable::MacroTable() : impl_(std::make_unique<Impl>()) {}
MacroTable::~MacroTable() = default;
MacroTable::MacroTable(const MacroTable& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
MacroTable& MacroTable::operator=(const MacroTable& other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
// A moved-from table is empty, not null, so it stays usable.
MacroTable::MacroTable(MacroTable&& other) : impl_(std::make_unique<Impl>()) {
  std::swap(impl_, other.impl_);
}
MacroTable& MacroTable::operator=(MacroTable&& other) noexcept {
  if (this == &other) return *this;
  *impl_ = std::move(*other.impl_);
  other.impl_->filled = false;
  other.impl_->macros.clear();
  return *this;
}

bool MacroTable::empty() const { return !impl_->filled; }

std::vector<MacroTable::Definition> MacroTable::user_definitions() const {
  std::vector<Definition> out;
  for (const auto& [name, m] : impl_->macros) {
    if (!m.defined_at.valid()) continue;
    std::string text = "#define " + name;
    if (m.kind == MacroKind::function) {
      text += '(';
      for (size_t i = 0; i < m.params.size(); ++i) {
        if (i) text += ", ";
        text += m.variadic && i + 1 == m.params.size() ? std::string("...") : m.params[i];
      }
      text += ')';
    }
    if (!m.body.empty()) text += " " + spelled(m.body);
    out.push_back({name, std::move(text), m.defined_at});
  }
  return out;
}
bool MacroTable::defined(std::string_view name) const {
  return impl_->macros.count(std::string(name)) != 0;
}

PreprocessResult preprocess(SourceManager& sources, uint32_t file, DiagnosticEngine& diags,
                            const PreprocessOptions& options, MacroTable& macros) {
  MacroTable::Impl& table = *macros.impl_;
  Preprocessor pp(sources, diags, options);
  PreprocessResult result = pp.run(file, table.filled ? &table.macros : nullptr);
  table.macros = std::move(pp.macros());
  table.filled = true;
  return result;
}

}  // namespace brook
