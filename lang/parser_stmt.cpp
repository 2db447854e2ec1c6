// Statements: C's statement forms, Brook's top-level statements, and the
// statement-level error recovery.
#include "lang/parser_impl.hpp"

#include <optional>
#include <string_view>
#include <vector>

#include "lang/suggest.hpp"

namespace brook::parser_detail {

using namespace ast;

bool Parser::reject_outside_c99() {
  const Token& t = tok();
  if (t.kind != Tok::identifier) return false;
  static constexpr std::pair<std::string_view, std::string_view> kForms[] = {
      {"class", "C++ classes are"},         {"template", "C++ templates are"},
      {"namespace", "C++ namespaces are"},  {"using", "C++ 'using' declarations are"},
      {"asm", "inline assembly ('asm') is"}, {"__asm__", "inline assembly ('__asm__') is"},
      {"__asm", "inline assembly ('__asm') is"},
  };
  for (const auto& [word, what] : kForms) {
    if (t.text != word) continue;
    // `class` or `using` as an ordinary name (`int class;` is C) is left alone.
    Tok next = tok(1).kind;
    // `asm (…)`, `asm volatile (…)`, GCC's `__asm__ __volatile__ (…)`, `asm goto`.
    bool asm_qualifier = next == Tok::kw_volatile || next == Tok::kw_inline ||
                         next == Tok::kw_goto ||
                         (next == Tok::identifier && tok(1).text.starts_with("__volatile"));
    bool construct = word.starts_with("__asm") || word == "asm"
                         ? next == Tok::l_paren || asm_qualifier
                         : next == Tok::identifier || next == Tok::less || next == Tok::l_brace;
    if (!construct) return false;
    diags_.error(t.loc, std::string(what) + " not part of Brook's host language (C99)");
    recover();
    return true;
  }
  return false;
}

void Parser::unknown_type_name(const Token& name) {
  if (unknown_types_.insert(name.text).second) {
    std::vector<std::string_view> known(builtin_type_spellings().begin(), builtin_type_spellings().end());
    for (const std::string& t : state_.typedef_names) known.push_back(t);
    diags_.error(name.loc, "unknown type name '" + name.text + "'" + did_you_mean(name.text, known));
  }
  declare_typedef(name.text);
}

// Brook+ work-group forms (LANGUAGE.md §12): `Attribute[GroupSize(x, y, z)]`
// before a kernel definition (1 to 3 positive integer sizes) and
// `shared T name[N]` declarations. Returns the declaration they introduce, or
// null when the next tokens are neither.
StmtPtr Parser::parse_work_group_forms(bool top_level) {
  const Token& t = tok();
  if (t.kind != Tok::identifier) return nullptr;
  if (t.text == "Attribute" && tok(1).kind == Tok::l_square) {
    SourceLoc where = t.loc;
    advance();  // Attribute
    expect(Tok::l_square);
    if (!(tok().kind == Tok::identifier && tok().text == "GroupSize"))
      fail_here("expected 'GroupSize' in a Brook+ kernel attribute");
    advance();
    expect(Tok::l_paren);
    std::array<int64_t, 3> sizes{1, 1, 1};
    size_t n = 0;
    do {
      if (n == 3) fail_here("'GroupSize' takes 1 to 3 sizes");
      if (!at(Tok::int_literal) || tok().int_value == 0 || tok().int_value > (1u << 20))
        fail_here("a 'GroupSize' size must be a positive integer constant");
      sizes[n++] = static_cast<int64_t>(tok().int_value);
      advance();
    } while (accept(Tok::comma));
    expect(Tok::r_paren);
    expect(Tok::r_square);
    if (!top_level)
      fail(where, "'Attribute[GroupSize(...)]' must precede a kernel definition at the top level");
    std::unique_ptr<ast::DeclStmt> d = parse_declaration(true);
    auto* f = d->decls.size() == 1 ? d->decls[0]->as<ast::FuncDecl>() : nullptr;
    if (!f || f->fkind != ast::FuncKind::Kernel || !f->body) {
      diags_.error(where, "'Attribute[GroupSize(...)]' must precede a kernel definition");
      return d;
    }
    f->group_size = sizes;
    f->group_loc = where;
    return d;
  }
  if (t.text == "shared" && starts_type_name(1)) {
    SourceLoc where = t.loc;
    advance();  // shared
    std::unique_ptr<ast::DeclStmt> d = parse_declaration(top_level);
    for (auto& decl : d->decls) {
      auto* v = decl->as<ast::VarDecl>();
      if (!v) fail(where, "'shared' declares arrays only");
      v->is_shared = true;
    }
    return d;
  }
  return nullptr;
}

bool Parser::accept_packed() {
  if (!at(Tok::identifier) || tok().text != "__brook_packed") return false;
  advance();
  return true;
}

// `#pragma pack(N)`, `pack(push)`, `pack(push, N)`, `pack(pop)`, `pack()`,
// as gcc reads them; anything else is a warning and changes nothing.
bool Parser::parse_pack_pragma() {
  if (!at(Tok::identifier) || tok().text != "__brook_pack") return false;
  const SourceLoc loc = advance().loc;
  std::vector<std::string> words;
  size_t line_end = pos_;
  if (at(Tok::l_paren)) {
    for (size_t i = pos_ + 1; tokens_[i].kind != Tok::eof; ++i) {
      if (tokens_[i].kind == Tok::r_paren) {
        line_end = i + 1;
        break;
      }
      if (tokens_[i].kind != Tok::comma) words.push_back(tokens_[i].text);
    }
  }
  auto value = [](const std::string& w) -> std::optional<uint32_t> {
    if (w == "1" || w == "2" || w == "4" || w == "8" || w == "16") return std::stoul(w);
    return std::nullopt;
  };
  bool ok = line_end != pos_;
  if (ok && words.empty()) {
    pack_ = 0;
  } else if (ok && words.size() == 1 && value(words[0])) {
    pack_ = *value(words[0]);
  } else if (ok && words[0] == "push" && words.size() <= 2 &&
             (words.size() == 1 || value(words[1]))) {
    pack_stack_.push_back(pack_);
    if (words.size() == 2) pack_ = *value(words[1]);
  } else if (ok && words.size() == 1 && words[0] == "pop") {
    if (!pack_stack_.empty()) {
      pack_ = pack_stack_.back();
      pack_stack_.pop_back();
    }
  } else {
    ok = false;
  }
  if (!ok) diags_.warning(loc, "unsupported '#pragma pack' ignored");
  if (line_end != pos_) pos_ = line_end;
  return true;
}

StmtPtr Parser::parse_top_level_item() {
  size_t start = pos_;
  if (parse_pack_pragma()) return nullptr;
  if (reject_outside_c99()) return nullptr;
  try {
    if (StmtPtr g = parse_work_group_forms(true)) return g;
    if (starts_declaration() || at_implicit_int_definition()) return parse_declaration(true);
    return parse_statement();
  } catch (const SyntaxError&) {
    recover_item(start);
    if (pos_ == start) advance();  // a stray '}' at the top level
    return nullptr;
  }
}

StmtPtr Parser::parse_statement_recovering() {
  size_t start = pos_;
  if (parse_pack_pragma()) return nullptr;
  if (reject_outside_c99()) return nullptr;
  try {
    if (StmtPtr g = parse_work_group_forms(false)) return g;
    if (starts_declaration()) return parse_declaration(false);
    return parse_statement();
  } catch (const SyntaxError&) {
    recover_item(start);
    return nullptr;
  }
}

std::unique_ptr<CompoundStmt> Parser::parse_compound() {
  DepthGuard guard(*this);
  auto block = std::make_unique<CompoundStmt>(expect(Tok::l_brace).loc);
  push_scope();
  while (!at(Tok::r_brace)) {
    if (at(Tok::eof)) {
      pop_scope();
      fail_here("expected '}'");
    }
    if (StmtPtr s = parse_statement_recovering()) block->body.push_back(std::move(s));
  }
  advance();
  pop_scope();
  return block;
}

ExprPtr Parser::parse_paren_expr() {
  expect(Tok::l_paren);
  ExprPtr e = parse_expr();
  expect(Tok::r_paren);
  return e;
}

StmtPtr Parser::parse_statement() {
  DepthGuard guard(*this);
  const Token& t = tok();
  SourceLoc loc = t.loc;
  if (t.kind == Tok::identifier && (t.text == "_Static_assert" || t.text == "static_assert") &&
      tok(1).kind == Tok::l_paren) {
    auto s = std::make_unique<EmptyStmt>(loc);
    advance();
    expect(Tok::l_paren);
    s->static_assert_cond = parse_assign();
    if (accept(Tok::comma)) {
      if (!at(Tok::string_literal)) fail(tok().loc, "expected a string literal");
      while (at(Tok::string_literal)) s->static_assert_message += advance().str_value;
    }
    expect(Tok::r_paren);
    expect(Tok::semi);
    return s;
  }
  // A label; Brook's keywords are C names too (`goto out;` ... `out:`).
  if (tok(1).kind == Tok::colon && (t.kind == Tok::identifier || at_name())) {
    auto s = std::make_unique<LabelStmt>(loc);
    s->name = t.text;
    advance();
    advance();
    // `cleanup: }`: a label ending a block labels an empty statement (C23, gcc).
    if (at(Tok::r_brace)) {
      s->stmt = std::make_unique<EmptyStmt>(tok().loc);
    } else if (starts_declaration()) {
      s->stmt = parse_declaration(false);
    } else {
      s->stmt = parse_statement();
    }
    return s;
  }
  switch (t.kind) {
    case Tok::l_brace: return parse_compound();
    case Tok::semi: advance(); return std::make_unique<EmptyStmt>(loc);
    case Tok::kw_if: {
      advance();
      auto s = std::make_unique<IfStmt>(loc);
      s->cond = parse_paren_expr();
      s->then_stmt = parse_statement();
      if (accept(Tok::kw_else)) s->else_stmt = parse_statement();
      return s;
    }
    case Tok::kw_while: {
      advance();
      auto s = std::make_unique<WhileStmt>(loc);
      s->cond = parse_paren_expr();
      s->body = parse_statement();
      return s;
    }
    case Tok::kw_do: {
      advance();
      auto s = std::make_unique<DoStmt>(loc);
      s->body = parse_statement();
      if (!at(Tok::kw_while)) fail_here("expected 'while' in do/while loop");
      advance();
      s->cond = parse_paren_expr();
      expect_semi("do/while statement");
      return s;
    }
    case Tok::kw_for: {
      advance();
      auto s = std::make_unique<ForStmt>(loc);
      expect(Tok::l_paren);
      // A declaration in the init is scoped to the loop.
      push_scope();
      try {
        if (at(Tok::semi)) {
          advance();
        } else if (starts_declaration()) {
          s->init = parse_declaration(false);
        } else {
          auto init = std::make_unique<ExprStmt>(tok().loc);
          init->expr = parse_expr();
          expect_semi("for loop initialiser");
          s->init = std::move(init);
        }
        if (!at(Tok::semi)) s->cond = parse_expr();
        expect_semi("for loop condition");
        if (!at(Tok::r_paren)) s->step = parse_expr();
        expect(Tok::r_paren);
        s->body = parse_statement();
      } catch (const SyntaxError&) {
        pop_scope();
        throw;
      }
      pop_scope();
      return s;
    }
    case Tok::kw_switch: {
      advance();
      auto s = std::make_unique<SwitchStmt>(loc);
      s->cond = parse_paren_expr();
      s->body = parse_statement();
      return s;
    }
    case Tok::kw_case: {
      advance();
      auto s = std::make_unique<CaseStmt>(loc);
      s->value = parse_conditional();
      if (accept(Tok::ellipsis)) s->high = parse_conditional();
      expect(Tok::colon);
      return s;
    }
    case Tok::kw_default: {
      advance();
      expect(Tok::colon);
      return std::make_unique<DefaultStmt>(loc);
    }
    case Tok::kw_break:
      advance();
      expect_semi("'break'");
      return std::make_unique<BreakStmt>(loc);
    case Tok::kw_continue:
      advance();
      expect_semi("'continue'");
      return std::make_unique<ContinueStmt>(loc);
    case Tok::kw_return: {
      advance();
      auto s = std::make_unique<ReturnStmt>(loc);
      if (!at(Tok::semi)) s->value = parse_expr();
      expect_semi("return statement");
      return s;
    }
    case Tok::kw_goto: {
      advance();
      auto s = std::make_unique<GotoStmt>(loc);
      if (!at_name()) fail_here("expected a label name after 'goto'");
      s->label = tok().text;
      s->label_loc = tok().loc;
      advance();
      expect_semi("'goto'");
      return s;
    }
    case Tok::kw_else: fail_here("'else' without a previous 'if'");
    case Tok::identifier:
      // `kernal void k(...)`: a misspelt keyword before a declaration. One
      // error naming the keyword meant; the item is skipped, so its body
      // raises nothing more.
      if (starts_declaration(1)) {
        static constexpr std::string_view kLeading[] = {"kernel", "reduce",   "static", "extern",  "const",
                                                        "unsigned", "signed", "typedef", "struct", "inline",
                                                        "volatile", "iter",   "out",     "vout",   "enum"};
        if (std::string hint = did_you_mean(t.text, kLeading); !hint.empty())
          fail_here("unknown word '" + t.text + "' before a declaration" + hint);
      }
      // `Foo x;` where Foo names no type: two names in a row cannot be an
      // expression. Reported once; x is declared, so its uses say nothing more.
      if (tok(1).kind == Tok::identifier && !starts_declaration()) {
        Tok after = tok(2).kind;
        bool declarator_ends = after == Tok::semi || after == Tok::comma || after == Tok::equal ||
                               after == Tok::l_square || after == Tok::l_paren || after == Tok::less;
        if (!declarator_ends) fail_here("unknown type name '" + t.text + "'");
        unknown_type_name(t);
        return parse_declaration(false);
      }
      break;
    default: break;
  }
  if (starts_declaration()) return parse_declaration(false);
  auto s = std::make_unique<ExprStmt>(loc);
  s->expr = parse_expr();
  expect_semi("expression");
  return s;
}

}  // namespace brook::parser_detail
