// The parser's declarations: declarators after the specifiers, function and
// kernel definitions, and parameter lists (host, K&R, kernel and reduce).
#include <algorithm>

#include "lang/parser_impl.hpp"

namespace brook::parser_detail {

using namespace ast;

// ---------------------------------------------------------------------------
// Declarations

std::unique_ptr<DeclStmt> Parser::parse_declaration(bool top_level) {
  auto stmt = std::make_unique<DeclStmt>(tok().loc);
  DeclSpec spec = parse_decl_specifiers(&stmt->decls);
  if (accept(Tok::semi)) return stmt;  // `struct S { … };`, `enum E { … };`
  bool first = true;
  do {
    TypeSyntax ts = copy_base(spec.type);
    while (accept(Tok::star)) {
      ++ts.pointer_depth;
      while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
      }
    }
    const Token* paren_name = nullptr;
    std::shared_ptr<ParenDeclarator> returned;  // `R (*f(params))(fparams)`: f's result
    if (at_function_returning_pointer()) {
      // `int (*getop(char c))(int, int)`: getop(char c) returns a pointer to
      // a function (int, int) -> int, as `typedef int (*op)(int, int); op getop(char c)`.
      advance();  // (
      returned = std::make_shared<ParenDeclarator>();
      while (accept(Tok::star)) {
        ++returned->pointer_depth;
        while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
        }
      }
    } else if (at_paren_declarator()) {
      SourceLoc at = tok().loc;
      paren_name = parse_paren_declarator(ts);
      if (!paren_name) fail(at, "expected a name in declaration");
    } else if (!at_name()) {
      if (at(Tok::kw_goto)) fail_here("'goto' is not supported in Brook");
      fail_here("expected a name in declaration");
    }
    const Token& name = paren_name ? *paren_name : take_name();
    if (first) stmt->loc = name.loc;

    if (returned && spec.is_typedef)
      fail(name.loc,
           "a typedef of a function returning a function pointer is not supported; "
           "name the returned pointer's type with a typedef first");
    if (!paren_name && spec.is_typedef && at(Tok::l_paren)) {
      // `typedef int binop(int, int);`: a function type, used as `binop*`.
      auto pd = std::make_shared<ParenDeclarator>();
      pd->is_function = true;
      parse_function_suffix(*pd);
      auto td = std::make_unique<TypedefDecl>(name.loc);
      td->name = name.text;
      td->type_syntax = std::move(ts);
      td->type_syntax.paren = std::move(pd);
      declare_typedef(name.text);
      stmt->decls.push_back(std::move(td));
    } else if (!paren_name && at(Tok::l_paren)) {
      auto fn = std::make_unique<FuncDecl>(name.loc);
      fn->name = name.text;
      fn->fkind = spec.is_kernel   ? FuncKind::Kernel
                  : spec.is_reduce ? FuncKind::Reduce
                                   : FuncKind::Host;
      fn->return_syntax = std::move(ts);
      fn->is_static = spec.is_static;
      push_scope();
      try {
        parse_params(*fn);
        if (returned) {
          expect(Tok::r_paren);
          if (!at(Tok::l_paren))
            fail_here("expected '(' and the parameters of the returned function");
          returned->is_function = true;
          parse_function_suffix(*returned);
          fn->return_syntax.paren = std::move(returned);
        }
        if (at(Tok::l_brace)) {
          if (!top_level || !first) fail_here("a function can only be defined at the top level");
          fn->body = parse_compound();
          pop_scope();
          stmt->decls.push_back(std::move(fn));
          return stmt;
        }
      } catch (const SyntaxError&) {
        pop_scope();
        throw;
      }
      pop_scope();
      stmt->decls.push_back(std::move(fn));
    } else {
      if (spec.is_kernel || (spec.is_reduce && !spec.is_typedef))
        fail(name.loc, std::string("only functions can be declared '") +
                           (spec.is_kernel ? "kernel" : "reduce") + "'");
      if (spec.is_out) fail(name.loc, "'out' applies only to kernel parameters");
      if (!paren_name) parse_array_dims(ts);
      if (spec.is_typedef) {
        auto td = std::make_unique<TypedefDecl>(name.loc);
        td->name = name.text;
        td->type_syntax = std::move(ts);
        declare_typedef(name.text);
        stmt->decls.push_back(std::move(td));
      } else {
        auto var = std::make_unique<VarDecl>(name.loc);
        var->name = name.text;
        var->type_syntax = std::move(ts);
        var->is_global = top_level;
        var->is_static = spec.is_static;
        var->is_extern = spec.is_extern;
        var->is_iter = spec.is_iter;
        // After a declarator name `<` always opens stream extents.
        if (!paren_name && accept(Tok::less)) {
          var->is_stream = true;
          while (!at(Tok::greater)) {
            var->extents.push_back(parse_binary(kShiftPrec));
            if (!accept(Tok::comma)) break;
          }
          expect(Tok::greater);
        }
        if (accept(Tok::equal)) var->init = parse_initializer();
        stmt->decls.push_back(std::move(var));
      }
    }
    first = false;
  } while (accept(Tok::comma));
  expect_semi("declaration");
  return stmt;
}

void Parser::parse_params(FuncDecl& fn) {
  expect(Tok::l_paren);
  if (accept(Tok::r_paren)) {
    fn.no_prototype = fn.fkind == FuncKind::Host;
    return;
  }
  if (at(Tok::kw_void) && tok(1).kind == Tok::r_paren) {
    advance();
    advance();
    return;
  }
  // A K&R definition `int f(a, b) int a; float b; { … }` (C89): names, then
  // their declarations before the body. Recognised only where a declaration
  // or the body follows the `)`, so `void f(T);` with an unknown T stays a
  // prototype (and its error).
  size_t close = 0;
  while (fn.fkind == FuncKind::Host && tok(close).kind == Tok::identifier &&
         !starts_type_name(close) &&
         (tok(close + 1).kind == Tok::comma || tok(close + 1).kind == Tok::r_paren)) {
    close += 2;
    if (tok(close - 1).kind == Tok::r_paren) break;
  }
  if (close > 0 && tok(close - 1).kind == Tok::r_paren &&
      (tok(close).kind == Tok::l_brace || starts_type_name(close))) {
    parse_old_style_params(fn);
    return;
  }
  int index = 0;
  for (;;) {
    if (accept(Tok::ellipsis)) {
      fn.is_variadic = true;
      expect(Tok::r_paren);
      return;
    }
    fn.params.push_back(parse_param(fn.fkind, index++));
    if (accept(Tok::r_paren)) return;
    if (!at(Tok::comma)) fail_here("expected ')'");
    advance();
  }
}

void Parser::parse_old_style_params(FuncDecl& fn) {
  fn.old_style = fn.no_prototype = true;
  do {
    auto p = std::make_unique<ParamDecl>(tok().loc);
    p->name = advance().text;
    p->pkind = ParamKind::Value;
    p->index = static_cast<int>(fn.params.size());
    for (const auto& q : fn.params)
      if (q->name == p->name) fail(p->loc, "redefinition of parameter '" + p->name + "'");
    fn.params.push_back(std::move(p));
  } while (accept(Tok::comma));
  expect(Tok::r_paren);
  std::vector<bool> declared(fn.params.size(), false);
  while (!at(Tok::l_brace)) {
    if (at(Tok::eof))
      fail_here("expected '{' after the parameter declarations of '" + fn.name + "'");
    SourceLoc start = tok().loc;
    if (!starts_type_name())
      fail_here("expected a declaration of a parameter of '" + fn.name + "' or '{'");
    DeclSpec spec = parse_decl_specifiers(nullptr);
    if (spec.is_typedef || spec.is_kernel || spec.is_static || spec.is_extern)
      fail(start, "invalid storage class for a parameter");
    do {
      TypeSyntax ts = copy_base(spec.type);
      while (accept(Tok::star)) {
        ++ts.pointer_depth;
        while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
        }
      }
      const Token* name = nullptr;
      if (at_paren_declarator()) {
        SourceLoc at = tok().loc;
        name = parse_paren_declarator(ts);
        if (!name) fail(at, "expected a parameter name");
      } else {
        if (!at_name()) fail_here("expected a parameter name");
        name = &take_name();
        parse_array_dims(ts);
      }
      size_t i = 0;
      while (i < fn.params.size() && fn.params[i]->name != name->text) ++i;
      if (i == fn.params.size())
        fail(name->loc,
             "declaration of '" + name->text + "', which is not a parameter of '" + fn.name + "'");
      if (declared[i]) fail(name->loc, "redefinition of parameter '" + name->text + "'");
      declared[i] = true;
      fn.params[i]->type_syntax = std::move(ts);
    } while (accept(Tok::comma));
    expect_semi("parameter declaration");
  }
  for (size_t i = 0; i < fn.params.size(); ++i) {
    if (declared[i]) continue;
    // C89: an undeclared parameter is an int (gcc warns the same way).
    ParamDecl& p = *fn.params[i];
    p.type_syntax.loc = p.loc;
    p.type_syntax.builtin = types_.int_type();
    diags_.warning(p.loc, "type of '" + p.name + "' defaults to 'int'");
  }
}

namespace {
// The base type as written, for suggestions in messages ("float4", "struct S").
std::string base_type_text(const TypeSyntax& ts) {
  switch (ts.base) {
    case TypeSyntax::Base::Builtin:
      return ts.builtin ? ts.builtin->name() : "int";
    case TypeSyntax::Base::Named:
      return ts.name;
    case TypeSyntax::Base::Struct:
      return (ts.is_union ? "union " : "struct ") + ts.name;
    case TypeSyntax::Base::Enum:
      return "enum " + ts.name;
    case TypeSyntax::Base::Typeof:
      return "typeof(...)";
  }
  return ts.name;
}
}  // namespace

// `vout [N]` or `vout []` (§12): the pushes allowed per invocation, 0 for any.
void Parser::parse_vout_bound(DeclSpec& spec) {
  advance();  // vout
  spec.is_out = true;
  spec.vout_bound = 0;
  if (!accept(Tok::l_square))
    fail_here("expected '[' after 'vout': write 'vout [] T e<>' or 'vout [N] T e<>'");
  if (at(Tok::int_literal)) {
    const Token& n = advance();
    if (n.int_value == 0 || n.int_value > (1u << 30))
      fail(n.loc, "the bound of 'vout [N]' must be a positive integer");
    spec.vout_bound = static_cast<int>(n.int_value);
  } else if (!at(Tok::r_square)) {
    fail_here("the bound of 'vout [N]' must be an integer literal");
  }
  if (!accept(Tok::r_square)) fail_here("expected ']' after the bound of 'vout'");
}

std::unique_ptr<ParamDecl> Parser::parse_param(FuncKind fkind, int index) {
  SourceLoc start = tok().loc;
  DeclSpec spec = parse_decl_specifiers(nullptr);
  if (spec.is_typedef || spec.is_kernel || spec.is_static || spec.is_extern)
    fail(start, "invalid storage class for a parameter");
  TypeSyntax ts = std::move(spec.type);
  while (accept(Tok::star)) {
    ++ts.pointer_depth;
    while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
    }
  }
  auto param = std::make_unique<ParamDecl>(start);
  // `float (*o)<4,3>`: a host function's pointer to a stream (LANGUAGE.md §12).
  bool paren_name =
      at_paren_declarator() &&
      (tok(2).kind == Tok::r_paren ? tok(3).kind == Tok::less
                                   : tok(3).kind == Tok::r_paren && tok(4).kind == Tok::less);
  if (at_paren_declarator() && !paren_name) {
    // `int (*cmp)(const void*, const void*)`, `int (*)(int)`, `float (*rows)[4]`.
    if (const Token* name = parse_paren_declarator(ts)) {
      param->loc = name->loc;
      param->name = name->text;
    }
    param->pkind = ParamKind::Value;
    if (fkind != FuncKind::Host) fail(start, "pointers are not allowed in kernels");
    param->type_syntax = std::move(ts);
    param->index = index;
    return param;
  }
  if (paren_name) {
    advance();
    advance();
    param->stream_pointer = true;
  }
  if (at_name()) {
    param->loc = tok().loc;
    param->name = take_name().text;
  }
  if (!paren_name && fkind == FuncKind::Host && at(Tok::l_paren)) {
    // `int f(int, int)` as a parameter: a pointer to the function (C99 6.7.5.3p8).
    auto pd = std::make_shared<ParenDeclarator>();
    pd->is_function = true;
    parse_function_suffix(*pd);
    ts.paren = std::move(pd);
  }
  if (paren_name) {
    expect(Tok::r_paren);
    if (!at(Tok::less))
      fail_here("expected '<' after '(*" + param->name +
                ")': only pointers to streams are declared this way");
  }
  parse_array_dims(ts);
  bool is_stream = false;
  if (accept(Tok::less)) {
    // Kernel parameters are written `<>`; extents there mean nothing. A host
    // function's stream parameter keeps them, to check each call.
    is_stream = true;
    while (!at(Tok::greater)) {
      if (accept(Tok::comma)) continue;
      ExprPtr x = parse_binary(kShiftPrec);
      if (fkind == FuncKind::Host) param->extents.push_back(std::move(x));
    }
    advance();
  }
  // Report (without abandoning the declaration) an out/reduce parameter that is
  // not written as a stream: sema cannot tell `out float y` from `out float y<>`.
  // `reduce float r` (no `<>`) is BrookGPU's spelling of `reduce float r<>`.
  // `out T a[]` / `out T a[][]` is Brook+'s scatter output (§12): a gather
  // array the kernel writes at computed positions.
  const bool scatter = spec.is_out && !is_stream && !ts.array_dims.empty() && spec.vout_bound < 0 &&
                       fkind == FuncKind::Kernel;
  if (spec.is_out && !is_stream && !scatter) {
    const char* word = "out";
    diags_.error(param->loc, std::string("'") + word + "' parameter '" + param->name +
                                 "' must be a stream: declare it '" + word + " " +
                                 base_type_text(ts) + " " + param->name + "<>'");
  }
  if (spec.is_reduce)
    param->pkind = ParamKind::Reduce;
  else if (scatter)
    param->pkind = ParamKind::Gather, param->scatter = true;
  else if (spec.is_out)
    param->pkind = ParamKind::Out;
  else if (spec.is_iter)
    param->pkind = ParamKind::Iter;
  else if (is_stream)
    param->pkind = ParamKind::Input;
  else if (fkind == FuncKind::Host)
    param->pkind = ParamKind::Value;
  else if (!ts.array_dims.empty())
    param->pkind = ParamKind::Gather;
  else
    param->pkind = ParamKind::Const;
  if (param->pkind == ParamKind::Gather)
    param->gather_rank = static_cast<int>(ts.array_dims.size());
  if (param->pkind == ParamKind::Out) param->vout_bound = spec.vout_bound;
  param->type_syntax = std::move(ts);
  param->index = index;
  return param;
}

}  // namespace brook::parser_detail
