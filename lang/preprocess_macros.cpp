#include "lang/preprocess_macros.hpp"

#include <algorithm>
#include <optional>

#include "lang/lexer.hpp"

namespace brook::pp {
namespace {

// Total tokens macro expansion may produce in one preprocessing run; beyond it
// the input is hostile (exponential macros), not a program.
constexpr size_t kMaxExpansionWork = 1'000'000;
// Nesting of macro invocations inside macro arguments.
constexpr int kMaxArgumentDepth = 100;

bool hidden(const HideSet& hs, uint32_t name) {
  return hs && std::binary_search(hs->begin(), hs->end(), name);
}

HideSet with_name(const HideSet& hs, uint32_t name) {
  auto names = hs ? std::vector<uint32_t>(*hs) : std::vector<uint32_t>{};
  auto it = std::lower_bound(names.begin(), names.end(), name);
  if (it == names.end() || *it != name) names.insert(it, name);
  return std::make_shared<const std::vector<uint32_t>>(std::move(names));
}

HideSet united(const HideSet& a, const HideSet& b) {
  if (!a || a->empty()) return b;
  if (!b || b->empty() || a == b) return a;
  std::vector<uint32_t> names;
  std::set_union(a->begin(), a->end(), b->begin(), b->end(), std::back_inserter(names));
  return std::make_shared<const std::vector<uint32_t>>(std::move(names));
}

HideSet intersected(const HideSet& a, const HideSet& b) {
  if (!a || !b) return nullptr;
  if (a == b) return a;
  std::vector<uint32_t> names;
  std::set_intersection(a->begin(), a->end(), b->begin(), b->end(),
                        std::back_inserter(names));
  return std::make_shared<const std::vector<uint32_t>>(std::move(names));
}

std::string quoted(std::string_view raw) {
  std::string s = "\"";
  for (char c : raw) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + '"';
}

}  // namespace

bool is_name_token(const Token& t) {
  return t.kind == Tok::identifier || (t.kind >= Tok::kw_break && t.kind <= Tok::kw_indexof);
}

bool same_definition(const Macro& a, const Macro& b) {
  if (a.kind != b.kind || a.params != b.params || a.variadic != b.variadic ||
      a.body.size() != b.body.size()) {
    return false;
  }
  for (size_t i = 0; i < a.body.size(); ++i) {
    if (a.body[i].text != b.body[i].text) return false;
    if (i > 0 && a.body[i].space_before != b.body[i].space_before) return false;
  }
  return true;
}

uint32_t Expander::intern(const std::string& name) {
  auto [it, inserted] = name_ids_.try_emplace(name, static_cast<uint32_t>(name_ids_.size()));
  return it->second;
}

const Macro* Expander::find(const std::string& name) const {
  auto it = macros_.find(name);
  return it == macros_.end() ? nullptr : &it->second;
}

std::vector<Token> Expander::expand(std::span<const Token> input) {
  std::vector<PPToken> list;
  list.reserve(input.size());
  for (const Token& t : input) list.push_back(PPToken{t, nullptr, false});
  std::vector<Token> out;
  for (PPToken& t : expand_list(std::move(list), 0)) {
    if (!t.placemarker) out.push_back(std::move(t.tok));
  }
  return out;
}

std::vector<PPToken> Expander::expand_list(std::vector<PPToken> input, int depth) {
  // The unread input as a stack (next token at the back), so an expansion is
  // pushed back and rescanned together with the rest of the input, as in C.
  std::vector<PPToken> stack(std::make_move_iterator(input.rbegin()),
                             std::make_move_iterator(input.rend()));
  std::vector<PPToken> out;
  while (!stack.empty()) {
    PPToken t = std::move(stack.back());
    stack.pop_back();
    if (!blown_ && is_name_token(t.tok)) {
      const Macro* m = find(t.tok.text);
      if (m && !hidden(t.hide, intern(t.tok.text)) && expand_one(t, *m, stack, depth)) continue;
    }
    out.push_back(std::move(t));
  }
  return out;
}

bool Expander::charge(size_t tokens, SourceLoc loc) {
  work_ += tokens;
  if (work_ <= kMaxExpansionWork) return true;
  if (!blown_) diags_.error(loc, "macro expansion too large");
  blown_ = true;
  return false;
}

void Expander::mark_line(uint32_t file, uint32_t directive_line, uint32_t next_line,
                         std::string name) {
  line_marks_[file].push_back(LineMark{directive_line, next_line, std::move(name)});
}

std::pair<uint32_t, std::string> Expander::presumed(SourceLoc loc) const {
  std::pair<uint32_t, std::string> out{
      loc.line, loc.file < sources_.file_count() ? sources_.path(loc.file) : ""};
  auto it = line_marks_.find(loc.file);
  if (it == line_marks_.end()) return out;
  for (const LineMark& m : it->second) {
    if (m.after >= loc.line) break;
    out.first = m.next + (loc.line - m.after - 1);
    if (!m.name.empty()) out.second = m.name;
  }
  return out;
}

bool Expander::expand_one(const PPToken& name, const Macro& macro, std::vector<PPToken>& stack,
                          int depth) {
  const SourceLoc loc = name.tok.loc;
  auto push_reversed = [&](std::vector<PPToken> result) {
    if (!charge(result.size(), loc)) return;
    for (auto it = result.rbegin(); it != result.rend(); ++it) stack.push_back(std::move(*it));
  };
  auto dynamic_token = [&](Tok kind) {
    PPToken t{name.tok, with_name(name.hide, intern(name.tok.text)), false};
    t.tok.kind = kind;
    return t;
  };
  switch (macro.kind) {
    case MacroKind::file_name: {
      PPToken t = dynamic_token(Tok::string_literal);
      t.tok.str_value = presumed(loc).second;
      t.tok.text = quoted(t.tok.str_value);
      stack.push_back(std::move(t));
      return true;
    }
    case MacroKind::line_number: {
      PPToken t = dynamic_token(Tok::int_literal);
      const uint32_t line = presumed(loc).first;
      t.tok.int_value = line;
      t.tok.text = std::to_string(line);
      t.tok.is_decimal = true;
      stack.push_back(std::move(t));
      return true;
    }
    case MacroKind::counter: {  // gcc's __COUNTER__: 0, 1, 2, ... in the unit
      PPToken t = dynamic_token(Tok::int_literal);
      t.tok.int_value = counter_;
      t.tok.text = std::to_string(counter_++);
      t.tok.is_decimal = true;
      stack.push_back(std::move(t));
      return true;
    }
    case MacroKind::object:
      push_reversed(substitute(macro, name, {}, with_name(name.hide, intern(name.tok.text)), depth));
      return true;
    case MacroKind::function: break;
  }

  if (stack.empty() || stack.back().tok.kind != Tok::l_paren) return false;
  stack.pop_back();
  const size_t named = macro.variadic ? macro.params.size() - 1 : macro.params.size();
  std::vector<std::vector<PPToken>> args(1);
  int level = 0;
  std::optional<PPToken> r_paren;
  while (!stack.empty()) {
    PPToken t = std::move(stack.back());
    stack.pop_back();
    if (t.tok.kind == Tok::r_paren && level == 0) {
      r_paren = std::move(t);
      break;
    }
    if (t.tok.kind == Tok::l_paren) ++level;
    if (t.tok.kind == Tok::r_paren) --level;
    if (t.tok.kind == Tok::comma && level == 0 && !(macro.variadic && args.size() > named)) {
      args.emplace_back();
      continue;
    }
    args.back().push_back(std::move(t));
  }
  const std::string& mname = name.tok.text;
  if (!r_paren) {
    diags_.error(loc, "unterminated argument list invoking macro '" + mname + "'");
    return true;
  }
  if (macro.params.empty() && args.size() == 1 && args[0].empty()) args.clear();
  if (macro.variadic && args.size() == named) args.emplace_back();  // F(a) for F(x, ...)
  if (args.size() < macro.params.size()) {
    diags_.error(loc, "macro '" + mname + "' requires " + std::to_string(macro.params.size()) +
                          " argument" + (macro.params.size() == 1 ? "" : "s") +
                          ", but only " + std::to_string(args.size()) + " given");
    return true;
  }
  if (args.size() > macro.params.size()) {
    diags_.error(loc, "macro '" + mname + "' passed " + std::to_string(args.size()) +
                          " arguments, but takes just " + std::to_string(macro.params.size()));
    return true;
  }
  HideSet hs = with_name(intersected(name.hide, r_paren->hide), intern(mname));
  push_reversed(substitute(macro, name, args, hs, depth));
  return true;
}

std::vector<PPToken> Expander::substitute(const Macro& macro, const PPToken& use,
                                          const std::vector<std::vector<PPToken>>& args,
                                          const HideSet& hide, int depth) {
  const SourceLoc loc = use.tok.loc;
  auto param_index = [&](const Token& t) -> int {
    if (macro.kind != MacroKind::function || !is_name_token(t)) return -1;
    for (size_t p = 0; p < macro.params.size(); ++p) {
      if (macro.params[p] == t.text) return static_cast<int>(p);
    }
    return -1;
  };
  std::vector<std::optional<std::vector<PPToken>>> expanded(args.size());
  std::vector<PPToken> out;
  const std::vector<Token>& body = macro.body;
  for (size_t i = 0; i < body.size(); ++i) {
    const Token& bt = body[i];
    const bool before_paste = i + 1 < body.size() && body[i + 1].kind == Tok::hash_hash;
    if (bt.kind == Tok::hash && i + 1 < body.size()) {
      if (int p = param_index(body[i + 1]); p >= 0) {
        out.push_back(stringize(args[p], loc));
        out.back().tok.space_before = bt.space_before;
        ++i;
        continue;
      }
    }
    if (bt.kind == Tok::hash_hash && i + 1 < body.size() && !out.empty()) {
      const Token& rt = body[++i];
      if (int p = param_index(rt); p >= 0) {
        const auto& arg = args[p];
        const bool is_va = macro.variadic && p + 1 == static_cast<int>(macro.params.size());
        if (arg.empty()) {
          // GNU: `, ## __VA_ARGS__` drops the comma when there are no extra arguments.
          if (is_va && out.back().tok.kind == Tok::comma && !out.back().placemarker) {
            out.pop_back();
          }
          continue;
        }
        if (is_va && out.back().tok.kind == Tok::comma && !out.back().placemarker) {
          out.insert(out.end(), arg.begin(), arg.end());  // GNU: `, ## __VA_ARGS__` keeps both
          continue;
        }
        paste(out, arg.front(), loc);
        out.insert(out.end(), arg.begin() + 1, arg.end());
      } else {
        PPToken r{rt, nullptr, false};
        r.tok.loc = loc;
        paste(out, r, loc);
      }
      continue;
    }
    if (int p = param_index(bt); p >= 0) {
      size_t first = out.size();
      if (before_paste) {
        if (args[p].empty()) {
          PPToken mark{bt, nullptr, true};
          out.push_back(std::move(mark));
        } else {
          out.insert(out.end(), args[p].begin(), args[p].end());
        }
      } else {
        if (!expanded[p]) {
          if (depth >= kMaxArgumentDepth) {
            // Give up on expansion altogether: rescanning such input is quadratic.
            if (!blown_) diags_.error(loc, "macro arguments nested too deeply");
            blown_ = true;
            expanded[p] = args[p];
          } else {
            expanded[p] = expand_list(args[p], depth + 1);
          }
        }
        out.insert(out.end(), expanded[p]->begin(), expanded[p]->end());
      }
      if (out.size() > first) out[first].tok.space_before = bt.space_before;
      continue;
    }
    PPToken t{bt, nullptr, false};
    t.tok.loc = loc;
    out.push_back(std::move(t));
  }

  std::vector<PPToken> result;
  result.reserve(out.size());
  for (PPToken& t : out) {
    if (t.placemarker) continue;
    t.hide = united(t.hide, hide);
    t.tok.at_line_start = false;
    result.push_back(std::move(t));
  }
  if (!result.empty()) {
    result.front().tok.space_before = use.tok.space_before;
    result.front().tok.at_line_start = use.tok.at_line_start;
  }
  return result;
}

PPToken Expander::stringize(const std::vector<PPToken>& arg, SourceLoc loc) {
  std::string raw;
  for (size_t k = 0; k < arg.size(); ++k) {
    const Token& t = arg[k].tok;
    if (k > 0 && t.space_before) raw += ' ';
    raw += t.text;
  }
  PPToken s;
  s.tok.kind = Tok::string_literal;
  s.tok.loc = loc;
  s.tok.text = quoted(raw);
  s.tok.str_value = raw;
  return s;
}

void Expander::paste(std::vector<PPToken>& out, const PPToken& rhs, SourceLoc loc) {
  if (out.back().placemarker) {
    out.back() = rhs;
    return;
  }
  if (rhs.placemarker) return;
  PPToken& lhs = out.back();
  std::string text = lhs.tok.text + rhs.tok.text;
  std::vector<Token> lexed = lex_fragment(text, loc, diags_);
  if (lexed.size() != 1) {
    diags_.error(loc, "pasting \"" + lhs.tok.text + "\" and \"" + rhs.tok.text +
                          "\" does not give a valid preprocessing token");
    out.push_back(rhs);
    return;
  }
  Token pasted = std::move(lexed.front());
  pasted.space_before = lhs.tok.space_before;
  pasted.at_line_start = false;
  lhs.tok = std::move(pasted);
  lhs.hide = united(lhs.hide, rhs.hide);
}

}  // namespace brook::pp
