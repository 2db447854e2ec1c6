#include "lang/preprocess_expr.hpp"

#include <cstdint>
#include <string>

#include "lang/preprocess_macros.hpp"

namespace brook::pp {
namespace {

constexpr int kMaxNesting = 256;

// C's #if arithmetic: intmax_t, or uintmax_t once either operand is unsigned.
struct Value {
  uint64_t bits = 0;
  bool is_unsigned = false;
  int64_t s() const { return static_cast<int64_t>(bits); }
  bool truthy() const { return bits != 0; }
};

Value signed_value(int64_t v) { return {static_cast<uint64_t>(v), false}; }

class ExprParser {
 public:
  ExprParser(std::span<const Token> toks, SourceLoc directive, DiagnosticEngine& diags)
      : toks_(toks), directive_(directive), diags_(diags) {}

  bool run() {
    Value v = comma(true);
    if (!failed_ && pos_ < toks_.size()) {
      fail(toks_[pos_].loc, "missing binary operator before token '" + toks_[pos_].text + "'");
    }
    return !failed_ && v.truthy();
  }

 private:
  const Token* peek() const { return pos_ < toks_.size() ? &toks_[pos_] : nullptr; }
  bool at(Tok k) const { return pos_ < toks_.size() && toks_[pos_].kind == k; }
  SourceLoc here() const { return pos_ < toks_.size() ? toks_[pos_].loc : directive_; }

  Value fail(SourceLoc loc, std::string message) {
    if (!failed_) diags_.error(loc, std::move(message));
    failed_ = true;
    pos_ = toks_.size();
    return {};
  }

  Value comma(bool eval) {
    Value v = conditional(eval);
    while (!failed_ && at(Tok::comma)) {
      ++pos_;
      v = conditional(eval);
    }
    return v;
  }

  Value conditional(bool eval) {
    if (++depth_ > kMaxNesting) return fail(here(), "expression nested too deeply");
    Value c = binary(0, eval);
    if (!failed_ && at(Tok::question)) {
      ++pos_;
      Value a = comma(eval && c.truthy());
      if (!at(Tok::colon)) {
        --depth_;
        return fail(here(), "expected ':' in conditional expression");
      }
      ++pos_;
      Value b = conditional(eval && !c.truthy());
      Value r = c.truthy() ? a : b;
      r.is_unsigned = a.is_unsigned || b.is_unsigned;
      c = r;
    }
    --depth_;
    return c;
  }

  static int precedence(Tok k) {
    switch (k) {
      case Tok::pipe_pipe: return 1;
      case Tok::amp_amp: return 2;
      case Tok::pipe: return 3;
      case Tok::caret: return 4;
      case Tok::amp: return 5;
      case Tok::equal_equal: case Tok::exclaim_equal: return 6;
      case Tok::less: case Tok::greater: case Tok::less_equal: case Tok::greater_equal:
        return 7;
      case Tok::less_less: case Tok::greater_greater: return 8;
      case Tok::plus: case Tok::minus: return 9;
      case Tok::star: case Tok::slash: case Tok::percent: return 10;
      default: return 0;
    }
  }

  Value binary(int min_prec, bool eval) {
    Value lhs = unary(eval);
    while (!failed_ && pos_ < toks_.size()) {
      const Token& op = toks_[pos_];
      int prec = precedence(op.kind);
      if (prec == 0 || prec <= min_prec) break;
      ++pos_;
      bool rhs_eval = eval;
      if (op.kind == Tok::amp_amp) rhs_eval = eval && lhs.truthy();
      if (op.kind == Tok::pipe_pipe) rhs_eval = eval && !lhs.truthy();
      Value rhs = binary(prec, rhs_eval);
      if (failed_) break;
      lhs = apply(op, lhs, rhs, rhs_eval);
    }
    return lhs;
  }

  Value apply(const Token& op, Value a, Value b, bool eval) {
    bool uns = a.is_unsigned || b.is_unsigned;
    auto boolean = [](bool v) { return signed_value(v ? 1 : 0); };
    switch (op.kind) {
      case Tok::pipe_pipe: return boolean(a.truthy() || b.truthy());
      case Tok::amp_amp: return boolean(a.truthy() && b.truthy());
      case Tok::pipe: return {a.bits | b.bits, uns};
      case Tok::caret: return {a.bits ^ b.bits, uns};
      case Tok::amp: return {a.bits & b.bits, uns};
      case Tok::equal_equal: return boolean(a.bits == b.bits);
      case Tok::exclaim_equal: return boolean(a.bits != b.bits);
      case Tok::less: return boolean(uns ? a.bits < b.bits : a.s() < b.s());
      case Tok::greater: return boolean(uns ? a.bits > b.bits : a.s() > b.s());
      case Tok::less_equal: return boolean(uns ? a.bits <= b.bits : a.s() <= b.s());
      case Tok::greater_equal: return boolean(uns ? a.bits >= b.bits : a.s() >= b.s());
      case Tok::plus: return {a.bits + b.bits, uns};
      case Tok::minus: return {a.bits - b.bits, uns};
      case Tok::star: return {a.bits * b.bits, uns};
      case Tok::less_less: {
        bool negative = !b.is_unsigned && b.s() < 0;
        if (negative || b.bits >= 64) return {0, a.is_unsigned};
        return {a.bits << b.bits, a.is_unsigned};
      }
      case Tok::greater_greater: {
        bool negative = !b.is_unsigned && b.s() < 0;
        if (negative || b.bits >= 64) {
          return {(!a.is_unsigned && a.s() < 0) ? ~uint64_t{0} : 0, a.is_unsigned};
        }
        if (a.is_unsigned) return {a.bits >> b.bits, true};
        return signed_value(a.s() >> b.bits);
      }
      case Tok::slash:
      case Tok::percent: {
        if (b.bits == 0) {
          if (eval) return fail(op.loc, "division by zero in preprocessor expression");
          return {0, uns};
        }
        bool div = op.kind == Tok::slash;
        if (uns) return {div ? a.bits / b.bits : a.bits % b.bits, true};
        if (a.s() == INT64_MIN && b.s() == -1) return signed_value(div ? INT64_MIN : 0);
        return signed_value(div ? a.s() / b.s() : a.s() % b.s());
      }
      default: return fail(op.loc, "token is not valid in preprocessor expressions");
    }
  }

  Value unary(bool eval) {
    if (++depth_ > kMaxNesting) return fail(here(), "expression nested too deeply");
    Value v = prefixed(eval);
    --depth_;
    return v;
  }

  Value prefixed(bool eval) {
    const Token* t = peek();
    if (!t) return fail(directive_, "expected value in expression");
    switch (t->kind) {
      case Tok::plus: ++pos_; return unary(eval);
      case Tok::minus: { ++pos_; Value v = unary(eval); return {0 - v.bits, v.is_unsigned}; }
      case Tok::tilde: { ++pos_; Value v = unary(eval); return {~v.bits, v.is_unsigned}; }
      case Tok::exclaim: { ++pos_; Value v = unary(eval); return signed_value(!v.truthy()); }
      default: return primary(eval);
    }
  }

  Value primary(bool eval) {
    const Token& t = toks_[pos_];
    switch (t.kind) {
      case Tok::l_paren: {
        if (++depth_ > kMaxNesting) return fail(t.loc, "expression nested too deeply");
        ++pos_;
        Value v = comma(eval);
        --depth_;
        if (failed_) return v;
        if (!at(Tok::r_paren)) return fail(here(), "missing ')' in expression");
        ++pos_;
        return v;
      }
      case Tok::int_literal:
        ++pos_;
        return {t.int_value, t.is_unsigned || t.int_value > uint64_t{INT64_MAX}};
      case Tok::char_literal: ++pos_; return {t.int_value, false};
      case Tok::kw_true: ++pos_; return signed_value(1);
      case Tok::float_literal:
        return fail(t.loc, "floating constant in preprocessor expression");
      default: break;
    }
    if (is_name_token(t)) {
      ++pos_;
      return signed_value(0);
    }
    if (t.kind == Tok::r_paren || precedence(t.kind) != 0 || t.kind == Tok::question ||
        t.kind == Tok::colon || t.kind == Tok::comma) {
      return fail(t.loc, "expected value in expression");
    }
    return fail(t.loc, "token is not valid in preprocessor expressions");
  }

  std::span<const Token> toks_;
  SourceLoc directive_;
  DiagnosticEngine& diags_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
};

}  // namespace

bool evaluate_condition(std::span<const Token> tokens, SourceLoc directive,
                        DiagnosticEngine& diags) {
  return ExprParser(tokens, directive, diags).run();
}

}  // namespace brook::pp
