// FrontEnd::complete_entry: whether a REPL entry is complete, from a parse of
// the text alone. The REPL asks this through the Engine before running an
// entry, so the CLI needs no front end of its own.
#include <algorithm>
#include <cctype>
#include <set>

#include "lang/frontend.hpp"

namespace brook {

namespace {

std::string trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

std::vector<std::string> FrontEnd::global_names() const {
  std::set<std::string> names;
  for (const auto& program : programs_) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (!d->name.empty() && d->name[0] != '<') names.insert(d->name);
      }
    }
  }
  return {names.begin(), names.end()};
}

std::optional<FrontEnd::EntryShape> FrontEnd::complete_entry(std::string_view text) {
  auto probe = [&](const std::string& candidate, bool* incomplete) -> std::optional<ast::Program> {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    TypeContext types;
    ParserState state;
    for (const std::string& n : global_names()) {
      const ast::Decl* d = sema_->lookup_global(n);
      if (d && d->as<ast::TypedefDecl>()) state.typedef_names.insert(n);
    }
    uint32_t file = sources.add_file("<probe>", candidate);
    // The session's macros, so `BEGIN` defined as `{` opens a block here too.
    MacroTable macros = macros_;
    PreprocessResult pp = preprocess(sources, file, diags, options_.preprocess, macros);
    ParseResult parsed = parse(pp.tokens, types, diags, state);
    *incomplete = parsed.incomplete;
    // The lexer, not the parser, sees a comment still open at the end, and
    // the preprocessor an #if still waiting for its #endif.
    for (const Diagnostic& d : diags.diagnostics()) {
      if (d.message.rfind("unterminated comment", 0) == 0 ||
          d.message.rfind("unterminated conditional directive", 0) == 0) {
        *incomplete = true;
      }
    }
    if (diags.has_errors()) return std::nullopt;
    return std::move(parsed.program);
  };
  // `s` or `s.domain(a, b)` alone: sema calls that a no-op, the REPL shows it.
  auto bare_stream = [&](const ast::Program& p, const std::string& entry) -> std::string {
    if (p.items.size() != 1) return {};
    const auto* es = p.items[0]->as<ast::ExprStmt>();
    const ast::Expr* e = es ? es->expr.get() : nullptr;
    while (const auto* d = e ? e->as<ast::DomainExpr>() : nullptr) e = d->stream.get();
    const auto* name = e ? e->as<ast::NameExpr>() : nullptr;
    const ast::Decl* decl = name ? sema_->lookup_global(name->name) : nullptr;
    const auto* var = decl ? decl->as<ast::VarDecl>() : nullptr;
    if (!var || !var->is_stream) return {};
    std::string expr = trimmed(entry);
    while (!expr.empty() &&
           (expr.back() == ';' || std::isspace(static_cast<unsigned char>(expr.back()))))
      expr.pop_back();
    return expr;
  };
  // A line ending in '\\' continues (a long #define, most often).
  std::string_view tail(text);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.remove_suffix(1);
  if (tail.ends_with('\\')) return std::nullopt;
  const std::string entry(text);
  bool incomplete = false;
  if (std::optional<ast::Program> p = probe(entry, &incomplete); !incomplete) {
    EntryShape e{entry, p ? bare_stream(*p, entry) : std::string()};
    if (p && !p->items.empty()) {
      const ast::Stmt* last = p->items.back().get();
      while (const auto* i = last ? last->as<ast::IfStmt>() : nullptr) {
        if (!i->else_stmt) e.open_if = true;
        last = i->else_stmt.get();
      }
    }
    return e;
  }
  // `2 * 21` or `int x = 5` without the ';': finish it when that gives an
  // expression statement or variable declaration (not `for (…)` or `int f()`).
  std::string with_semicolon = entry;
  while (!with_semicolon.empty() && std::isspace(static_cast<unsigned char>(with_semicolon.back())))
    with_semicolon.pop_back();
  with_semicolon += ";\n";
  std::optional<ast::Program> p = probe(with_semicolon, &incomplete);
  if (incomplete || !p || p->items.empty()) return std::nullopt;
  const ast::Stmt& last = *p->items.back();
  if (last.as<ast::ExprStmt>()) return EntryShape{with_semicolon, bare_stream(*p, with_semicolon)};
  if (auto* ds = last.as<ast::DeclStmt>()) {
    bool vars = !ds->decls.empty() &&
                std::all_of(ds->decls.begin(), ds->decls.end(),
                            [](const ast::DeclPtr& d) { return d->as<ast::VarDecl>(); });
    if (vars) return EntryShape{with_semicolon, {}};
  }
  return std::nullopt;
}

}  // namespace brook
