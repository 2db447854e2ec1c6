// Private to the parser (parser*.cpp): the Parser class shared by the files
// that implement declarations, statements and expressions.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.hpp"
#include "lang/parser.hpp"
#include "lang/token.hpp"
#include "lang/types.hpp"

namespace brook::parser_detail {

// Thrown after a syntax error has been reported; caught at the nearest
// statement or declaration boundary, which then resynchronises. This keeps
// recovery to one error per statement.
struct SyntaxError {};

// What the declaration specifiers of one declaration said.
struct DeclSpec {
  ast::TypeSyntax type;
  bool is_typedef = false, is_static = false, is_extern = false;
  bool is_kernel = false, is_reduce = false, is_out = false, is_iter = false;
  bool has_type = false;
  int vout_bound = -1;  // `vout [N]` (§12): N, `vout []`: 0
};

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, TypeContext& types, DiagnosticEngine& diags,
         ParserState& state);
  ParseResult run();

  // --- tokens
  const Token& tok(size_t ahead = 0) const;
  bool at(Tok k) const { return tok().kind == k; }
  const Token& advance();
  bool accept(Tok k);
  // Reports "expected X" at the current token and throws.
  const Token& expect(Tok k);
  // A missing ';' is reported just after the previous token, like clang.
  void expect_semi(std::string_view after);
  [[noreturn]] void fail(SourceLoc loc, std::string message);
  [[noreturn]] void fail_here(std::string message) { fail(tok().loc, std::move(message)); }
  void recover();
  // Recovery for a statement or declaration that began at token `start`: also
  // closes the braces the failed item opened (`enum E { A B };`).
  void recover_item(size_t start);
  // C++ and extensions outside C99 (class, template, namespace, asm): one
  // located error naming the construct, which is skipped (parser_stmt.cpp).
  bool reject_outside_c99();
  // An unknown type name in a declaration: reported once, then taken as a
  // type that silences every use (parser_stmt.cpp).
  void unknown_type_name(const Token& name);
  std::set<std::string> unknown_types_;

  // Guards recursion so deeply nested input cannot overflow the stack.
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser);
    ~DepthGuard() { --p.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  // --- type names and declarations (parser.cpp)
  bool is_typedef_name(const std::string& name) const;
  bool starts_type_name(size_t ahead = 0) const;   // a type specifier or qualifier
  bool starts_declaration(size_t ahead = 0) const;  // also storage / Brook keywords
  static bool is_typeof_word(std::string_view w) {
    return w == "typeof" || w == "__typeof__" || w == "__typeof";
  }
  const Type* builtin_type_name(const Token& t) const;
  ast::ExprPtr parse_brt_iter();
  // `unsigned int4` → uint4 (also char and short vectors); nullptr otherwise.
  const Type* unsigned_vector(const Type* t) const;
  bool kernel_after_type(bool type_seen) const;
  // Brook's keywords (kernel, reduce, out, iter, vout) are keywords only where
  // a type follows; elsewhere they are plain names, as in C (`int* out`).
  bool brook_specifier_at(size_t ahead = 0) const;
  bool at_name() const;
  const Token& take_name();  // the current token, which at_name() accepted
  DeclSpec parse_decl_specifiers(std::vector<ast::DeclPtr>* defs);
  ast::TypeSyntax parse_type_name();  // for casts and sizeof: specifiers + `*`s
  void parse_struct_body(ast::StructDecl& sd, std::vector<ast::DeclPtr>* defs);
  void parse_enum_body(ast::EnumDecl& ed);
  // Parses a declaration through its ';' (or a function body).
  std::unique_ptr<ast::DeclStmt> parse_declaration(bool top_level);
  void parse_params(ast::FuncDecl& fn);
  void parse_old_style_params(ast::FuncDecl& fn);  // K&R: `(a, b) int a; float b;`
  std::unique_ptr<ast::ParamDecl> parse_param(ast::FuncKind fkind, int index);
  void parse_array_dims(ast::TypeSyntax& ts);
  // C's parenthesised declarator at `( *`: `(*name[dims])(params)` (pointer to
  // function) or `(*name)[dims]` (pointer to array), host code only. Sets
  // ts.paren; returns the name token, or nullptr for an abstract declarator
  // (casts, sizeof, unnamed parameters).
  const Token* parse_paren_declarator(ast::TypeSyntax& ts);
  // The parameter list of a function declarator, into `pd`.
  void parse_function_suffix(ast::ParenDeclarator& pd);
  // `( *` here, or at `ahead`: where a parenthesised declarator starts.
  bool at_paren_declarator() const {
    return at(Tok::l_paren) && tok(1).kind == Tok::star;
  }
  // `( * NAME (` here: a function returning a function pointer,
  // `R (*NAME(params))(fparams)`.
  bool at_function_returning_pointer() const {
    if (!at_paren_declarator()) return false;
    size_t i = 1;
    while (tok(i).kind == Tok::star || tok(i).kind == Tok::kw_const ||
           tok(i).kind == Tok::kw_volatile)
      ++i;
    return tok(i).kind == Tok::identifier && tok(i + 1).kind == Tok::l_paren;
  }
  ast::ExprPtr parse_initializer();
  // `(T)` already read, at `{`: the compound literal `(T){ … }`.
  ast::ExprPtr compound_literal(SourceLoc loc, ast::TypeSyntax target);
  void declare_typedef(const std::string& name);
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope();

  // --- statements (parser_stmt.cpp)
  ast::StmtPtr parse_statement();
  ast::StmtPtr parse_statement_recovering();
  std::unique_ptr<ast::CompoundStmt> parse_compound();
  ast::StmtPtr parse_top_level_item();
  bool at_implicit_int_definition() const;

  // --- expressions (parser_expr.cpp)
  ast::ExprPtr parse_expr();
  ast::ExprPtr parse_assign();
  void parse_vout_bound(DeclSpec& spec);
  ast::StmtPtr parse_work_group_forms(bool top_level);
  ast::ExprPtr parse_conditional();
  ast::ExprPtr parse_binary(int min_prec);
  ast::ExprPtr parse_unary();
  ast::ExprPtr parse_postfix(ast::ExprPtr base);
  ast::ExprPtr parse_primary();
  std::vector<ast::ExprPtr> parse_call_args();
  ast::ExprPtr parse_paren_expr();  // `( expr )` as in if/while/switch

  static constexpr int kMaxDepth = 256;
  // Precedence of the shift operators: stream extents parse at this level so
  // that `>` closes them.
  static constexpr int kShiftPrec = 8;

  const std::vector<Token>& tokens_;
  size_t pos_ = 0;
  TypeContext& types_;
  DiagnosticEngine& diags_;
  ParserState& state_;
  int depth_ = 0;
  bool any_error_ = false;
  bool incomplete_ = false;
  // Typedef names introduced in each open block, removed when it closes.
  std::vector<std::vector<std::string>> scopes_;
  // `#pragma pack`: the alignment limit for structs defined from here on (0:
  // none) and the ones `push` saved.
  uint32_t pack_ = 0;
  std::vector<uint32_t> pack_stack_;
  bool parse_pack_pragma();  // at the preprocessor's `__brook_pack` marker
  bool accept_packed();      // the `__attribute__((packed))` marker
};

// Copies the base of a type (for each declarator of `int a, *b[3];`);
// pointers and array dimensions belong to the declarator.
ast::TypeSyntax copy_base(const ast::TypeSyntax& ts);

}  // namespace brook::parser_detail
