// Expressions: precedence climbing for binary operators, recursive descent for
// the rest (C's precedence and associativity, plus Brook's constructors,
// `indexof`, `.domain()` and `iter()`).
#include <optional>
#include <utility>

#include "lang/parser_impl.hpp"

namespace brook::parser_detail {

using namespace ast;

namespace {

struct BinaryInfo {
  BinaryOp op;
  int prec;
};

std::optional<BinaryInfo> binary_info(Tok k) {
  switch (k) {
    case Tok::pipe_pipe: return BinaryInfo{BinaryOp::LogOr, 1};
    case Tok::amp_amp: return BinaryInfo{BinaryOp::LogAnd, 2};
    case Tok::pipe: return BinaryInfo{BinaryOp::BitOr, 3};
    case Tok::caret: return BinaryInfo{BinaryOp::BitXor, 4};
    case Tok::amp: return BinaryInfo{BinaryOp::BitAnd, 5};
    case Tok::equal_equal: return BinaryInfo{BinaryOp::Eq, 6};
    case Tok::exclaim_equal: return BinaryInfo{BinaryOp::Ne, 6};
    case Tok::less: return BinaryInfo{BinaryOp::Lt, 7};
    case Tok::greater: return BinaryInfo{BinaryOp::Gt, 7};
    case Tok::less_equal: return BinaryInfo{BinaryOp::Le, 7};
    case Tok::greater_equal: return BinaryInfo{BinaryOp::Ge, 7};
    case Tok::less_less: return BinaryInfo{BinaryOp::Shl, 8};
    case Tok::greater_greater: return BinaryInfo{BinaryOp::Shr, 8};
    case Tok::plus: return BinaryInfo{BinaryOp::Add, 9};
    case Tok::minus: return BinaryInfo{BinaryOp::Sub, 9};
    case Tok::star: return BinaryInfo{BinaryOp::Mul, 10};
    case Tok::slash: return BinaryInfo{BinaryOp::Div, 10};
    case Tok::percent: return BinaryInfo{BinaryOp::Mod, 10};
    default: return std::nullopt;
  }
}

// nullopt: not an assignment; an engaged empty optional: plain `=`.
std::optional<std::optional<BinaryOp>> assign_op(Tok k) {
  switch (k) {
    case Tok::equal: return std::optional<BinaryOp>{};
    case Tok::plus_equal: return BinaryOp::Add;
    case Tok::minus_equal: return BinaryOp::Sub;
    case Tok::star_equal: return BinaryOp::Mul;
    case Tok::slash_equal: return BinaryOp::Div;
    case Tok::percent_equal: return BinaryOp::Mod;
    case Tok::amp_equal: return BinaryOp::BitAnd;
    case Tok::pipe_equal: return BinaryOp::BitOr;
    case Tok::caret_equal: return BinaryOp::BitXor;
    case Tok::less_less_equal: return BinaryOp::Shl;
    case Tok::greater_greater_equal: return BinaryOp::Shr;
    default: return std::nullopt;
  }
}

// The scalar named by a type keyword used as a constructor: `int(x)`, `float(y)`.
std::optional<TypeKind> keyword_constructor(Tok k) {
  switch (k) {
    case Tok::kw_int: return TypeKind::Int;
    case Tok::kw_float: return TypeKind::Float;
    case Tok::kw_double: return TypeKind::Double;
    case Tok::kw_char: return TypeKind::Char;
    case Tok::kw_bool: return TypeKind::Bool;
    default: return std::nullopt;
  }
}

}  // namespace

ExprPtr Parser::parse_expr() {
  ExprPtr e = parse_assign();
  while (at(Tok::comma)) {
    auto c = std::make_unique<CommaExpr>(advance().loc);
    c->lhs = std::move(e);
    c->rhs = parse_assign();
    e = std::move(c);
  }
  return e;
}

ExprPtr Parser::parse_assign() {
  DepthGuard guard(*this);
  ExprPtr lhs = parse_conditional();
  auto op = assign_op(tok().kind);
  if (!op) return lhs;
  auto a = std::make_unique<AssignExpr>(advance().loc);
  a->op = *op;
  a->lhs = std::move(lhs);
  a->rhs = parse_assign();
  return a;
}

ExprPtr Parser::parse_conditional() {
  DepthGuard guard(*this);
  ExprPtr cond = parse_binary(1);
  if (!at(Tok::question)) return cond;
  auto c = std::make_unique<ConditionalExpr>(advance().loc);
  c->cond = std::move(cond);
  if (!at(Tok::colon)) c->then_expr = parse_expr();  // else gcc's `a ?: b`
  expect(Tok::colon);
  c->else_expr = parse_conditional();
  return c;
}

ExprPtr Parser::parse_binary(int min_prec) {
  ExprPtr lhs = parse_unary();
  for (;;) {
    auto info = binary_info(tok().kind);
    if (!info || info->prec < min_prec) return lhs;
    auto b = std::make_unique<BinaryExpr>(advance().loc);
    b->op = info->op;
    b->lhs = std::move(lhs);
    b->rhs = parse_binary(info->prec + 1);
    lhs = std::move(b);
  }
}

ExprPtr Parser::parse_unary() {
  DepthGuard guard(*this);
  const Token& t = tok();
  auto unary = [&](UnaryOp op) -> ExprPtr {
    auto u = std::make_unique<UnaryExpr>(advance().loc);
    u->op = op;
    u->operand = parse_unary();
    return u;
  };
  // `(T)` starts a cast unless T( is a constructor: `(float4(1, 2, 3, 4))`.
  auto type_in_parens = [&]() {
    if (!starts_type_name(1)) return false;
    bool ctor = builtin_type_name(tok(1)) || keyword_constructor(tok(1).kind);
    // `(int (*)(int))f` is a cast to a function pointer type.
    return !(ctor && tok(2).kind == Tok::l_paren && tok(3).kind != Tok::star);
  };
  // sizeof and C11's _Alignof: `(T)` or an expression (_Alignof of an
  // expression is GCC's).
  auto size_query = [&](bool alignment) -> ExprPtr {
    auto s = std::make_unique<SizeofExpr>(advance().loc);
    s->alignment = alignment;
    if (at(Tok::l_paren) && type_in_parens()) {
      SourceLoc loc = advance().loc;
      s->target = parse_type_name();
      expect(Tok::r_paren);
      if (at(Tok::l_brace)) {  // `sizeof (int[]){1, 2, 3}`: the size of a compound literal
        s->operand = parse_postfix(compound_literal(loc, std::move(*s->target)));
        s->target.reset();
      }
    } else {
      s->operand = parse_unary();
    }
    return s;
  };
  if (t.kind == Tok::identifier && t.text == "_Alignof" && tok(1).kind == Tok::l_paren)
    return size_query(true);
  switch (t.kind) {
    case Tok::plus: return unary(UnaryOp::Plus);
    case Tok::minus: return unary(UnaryOp::Neg);
    case Tok::exclaim: return unary(UnaryOp::Not);
    case Tok::tilde: return unary(UnaryOp::BitNot);
    case Tok::star: return unary(UnaryOp::Deref);
    case Tok::amp: return unary(UnaryOp::AddrOf);
    case Tok::plus_plus: return unary(UnaryOp::PreInc);
    case Tok::minus_minus: return unary(UnaryOp::PreDec);
    case Tok::kw_sizeof:
      return size_query(false);
    case Tok::kw_indexof: {
      auto i = std::make_unique<IndexofExpr>(advance().loc);
      if (at(Tok::semi) || at(Tok::r_paren) || at(Tok::comma)) {
        // BrookGPU accepted a bare `indexof` (`f = indexof;`) in a kernel.
        fail(i->loc,
             "a bare 'indexof' without a stream (BrookGPU) is not supported; "
             "write 'indexof(s)' for a stream parameter s");
      }
      // `indexof(a).xy` is used like a call, and BrookGPU reads `indexof a.xy`
      // as `(indexof a).xy` too: a postfix applies to the result.
      i->operand = parse_primary();
      return parse_postfix(std::move(i));
    }
    case Tok::l_paren:
      if (type_in_parens()) {
        SourceLoc loc = advance().loc;
        TypeSyntax target = parse_type_name();
        expect(Tok::r_paren);
        // `(T){ … }`: a compound literal, a postfix expression (`(int[]){1, 2}[i]`).
        if (at(Tok::l_brace)) return parse_postfix(compound_literal(loc, std::move(target)));
        auto c = std::make_unique<CastExpr>(loc);
        c->target = std::move(target);
        c->operand = parse_unary();
        return c;
      }
      break;
    default: break;
  }
  return parse_postfix(parse_primary());
}

ExprPtr Parser::compound_literal(SourceLoc loc, TypeSyntax target) {
  auto lit = std::make_unique<CompoundLitExpr>(loc);
  lit->object = std::make_unique<VarDecl>(loc);
  lit->object->type_syntax = std::move(target);
  lit->object->init = parse_initializer();
  return lit;
}

std::vector<ExprPtr> Parser::parse_call_args() {
  std::vector<ExprPtr> args;
  expect(Tok::l_paren);
  if (accept(Tok::r_paren)) return args;
  for (;;) {
    args.push_back(parse_assign());
    if (accept(Tok::r_paren)) return args;
    if (!at(Tok::comma)) fail_here("expected ')'");
    advance();
  }
}

ExprPtr Parser::parse_postfix(ExprPtr base) {
  for (;;) {
    const Token& t = tok();
    switch (t.kind) {
      case Tok::l_paren: {
        auto call = std::make_unique<CallExpr>(base->loc);
        call->callee_loc = base->loc;
        if (auto* name = base->as<NameExpr>()) {
          call->callee = name->name;
        } else {
          // `(*f)(x)`, `ops[i](a, b)`, `s->fn(x)`: a call through a function pointer.
          call->callee_expr = std::move(base);
        }
        call->args = parse_call_args();
        base = std::move(call);
        break;
      }
      case Tok::l_square: {
        auto ix = std::make_unique<IndexExpr>(advance().loc);
        ix->base = std::move(base);
        ix->index = parse_expr();
        expect(Tok::r_square);
        base = std::move(ix);
        break;
      }
      case Tok::period:
      case Tok::arrow: {
        SourceLoc loc = advance().loc;
        bool arrow = t.kind == Tok::arrow;
        if (!at_name())
          fail_here(std::string("expected a field name after '") + (arrow ? "->" : ".") + "'");
        const Token& field = take_name();
        if (!arrow && field.text == "domain" && at(Tok::l_paren)) {
          auto d = std::make_unique<DomainExpr>(loc);
          SourceLoc args_loc = tok().loc;
          auto args = parse_call_args();
          if (args.size() != 2) fail(args_loc, "'domain' takes two arguments, a start and an end");
          d->stream = std::move(base);
          d->start = std::move(args[0]);
          d->end = std::move(args[1]);
          base = std::move(d);
          break;
        }
        auto m = std::make_unique<MemberExpr>(loc);
        m->base = std::move(base);
        m->field = field.text;
        m->arrow = arrow;
        base = std::move(m);
        break;
      }
      case Tok::plus_plus:
      case Tok::minus_minus: {
        auto u = std::make_unique<UnaryExpr>(advance().loc);
        u->op = t.kind == Tok::plus_plus ? UnaryOp::PostInc : UnaryOp::PostDec;
        u->operand = std::move(base);
        base = std::move(u);
        break;
      }
      default: return base;
    }
  }
}

ExprPtr Parser::parse_primary() {
  const Token& t = tok();
  switch (t.kind) {
    case Tok::int_literal:
    case Tok::char_literal: {
      auto lit = std::make_unique<IntLit>(t.loc);
      lit->value = t.int_value;
      lit->is_char = t.kind == Tok::char_literal;
      if (!lit->is_char) {
        lit->is_unsigned = t.is_unsigned;
        lit->is_long = t.is_long;
        lit->is_decimal = t.is_decimal;
      }
      advance();
      return lit;
    }
    case Tok::float_literal: {
      auto lit = std::make_unique<FloatLit>(t.loc);
      lit->value = t.float_value;
      lit->is_float = t.is_float;
      advance();
      return lit;
    }
    case Tok::string_literal: {
      auto lit = std::make_unique<StringLit>(t.loc);
      while (at(Tok::string_literal)) lit->value += advance().str_value;
      return lit;
    }
    case Tok::kw_true:
    case Tok::kw_false: {
      auto lit = std::make_unique<BoolLit>(t.loc);
      lit->value = t.kind == Tok::kw_true;
      advance();
      return lit;
    }
    case Tok::identifier: {
      if (t.text == "BRTIter" && tok(1).kind == Tok::l_paren) return parse_brt_iter();
      if (const Type* b = builtin_type_name(t); b && tok(1).kind == Tok::l_paren) {
        auto c = std::make_unique<ConstructExpr>(t.loc);
        c->target.loc = t.loc;
        c->target.builtin = b;
        c->target.name = t.text;  // sema: a function of this name (`half(x)`) wins
        advance();
        c->args = parse_call_args();
        return c;
      }
      auto n = std::make_unique<NameExpr>(t.loc);
      n->name = t.text;
      advance();
      return n;
    }
    case Tok::kw_kernel: case Tok::kw_reduce: case Tok::kw_out: case Tok::kw_iter:
    case Tok::kw_vout:
      if (t.kind == Tok::kw_iter && tok(1).kind == Tok::l_paren) {
        auto it = std::make_unique<IterInitExpr>(advance().loc);
        SourceLoc args_loc = tok().loc;
        auto args = parse_call_args();
        if (args.size() != 2) fail(args_loc, "'iter' takes two arguments, a low and a high value");
        it->lo = std::move(args[0]);
        it->hi = std::move(args[1]);
        return it;
      }
      if (at_name()) {
        auto n = std::make_unique<NameExpr>(t.loc);
        n->name = take_name().text;
        return n;
      }
      break;
    case Tok::l_paren: {
      if (tok(1).kind == Tok::l_brace) {  // gcc's statement expression
        auto se = std::make_unique<StmtExprExpr>(advance().loc);
        se->body = parse_compound();
        expect(Tok::r_paren);
        if (!se->body->body.empty() && se->body->body.back()->kind == StmtKind::Expr) {
          se->result = std::move(se->body->body.back()->as<ExprStmt>()->expr);
          se->body->body.pop_back();
        }
        return se;
      }
      advance();
      ExprPtr e = parse_expr();
      expect(Tok::r_paren);
      return e;
    }
    default:
      if (auto k = keyword_constructor(t.kind); k && tok(1).kind == Tok::l_paren) {
        auto c = std::make_unique<ConstructExpr>(t.loc);
        c->target.loc = t.loc;
        c->target.builtin = types_.scalar(*k);
        advance();
        c->args = parse_call_args();
        return c;
      }
      break;
  }
  fail_here("expected expression");
}

// `BRTIter(lo, hi)` / `BRTIter(lo.x, lo.y, hi.x, hi.y)` ...: the name BrookGPU's
// brcc gave `iter()`, which its regression programs call directly, with a
// floatN iterator's N low components and then its N high ones.
ExprPtr Parser::parse_brt_iter() {
  auto it = std::make_unique<IterInitExpr>(advance().loc);
  SourceLoc args_loc = tok().loc;
  auto args = parse_call_args();
  size_t n = args.size();
  if (n < 2 || n > 8 || n % 2 != 0) {
    fail(args_loc,
         "'BRTIter' (BrookGPU's iterator initialiser) takes 2, 4, 6 or 8 arguments: "
         "the low components, then the high ones");
  }
  size_t k = n / 2;
  if (k == 1) {
    it->lo = std::move(args[0]);
    it->hi = std::move(args[1]);
    return it;
  }
  std::string vec = "float" + std::to_string(k);
  auto make = [&](size_t first) {
    auto c = std::make_unique<ConstructExpr>(args[first]->loc);
    c->target.loc = args[first]->loc;
    c->target.builtin = types_.builtin_by_name(vec);
    c->target.name = vec;
    for (size_t i = first; i < first + k; ++i) c->args.push_back(std::move(args[i]));
    return c;
  };
  it->lo = make(0);
  it->hi = make(k);
  return it;
}

}  // namespace brook::parser_detail
