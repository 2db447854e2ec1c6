// The recipe parser: one line of math from the builtin table becomes Steps.
// A recursive-descent parser over C's precedence (?: below comparisons below
// + - below * / below unary -); calls of composed builtins are inlined by
// parsing their own recipe with the parameters bound to the caller's steps.
#include "stdlib/recipe.hpp"

#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

#include "stdlib/reference.hpp"

namespace brook::stdlib {
namespace {

struct ParseError {
  std::string what;
};

class Parser {
 public:
  Parser(std::string_view text, std::vector<Step>& steps, int depth)
      : s_(text), steps_(steps), depth_(depth) {}

  // "name(p0, p1) = body [where t = e, …]" with the parameters bound to
  // `params` (the caller's steps), or to new arg steps when `params` is empty.
  uint8_t recipe(std::string_view name, const std::vector<uint8_t>* params) {
    std::string_view body = s_;
    std::string_view where;
    if (size_t w = s_.find(" where "); w != std::string_view::npos) {
      body = s_.substr(0, w);
      where = s_.substr(w + 7);
    }
    s_ = body;
    if (ident() != name) fail("the recipe must start with its builtin's name");
    expect('(');
    std::vector<std::string> names;
    if (!peek(')')) {
      do names.push_back(std::string(ident()));
      while (take(','));
    }
    expect(')');
    expect('=');
    if (params && params->size() != names.size()) fail("wrong number of arguments");
    for (size_t i = 0; i < names.size(); ++i) {
      if (params) {
        env_[names[i]] = (*params)[i];
      } else {
        Step st{StepOp::arg};
        st.index = static_cast<uint8_t>(i);
        env_[names[i]] = push(st);
      }
    }
    const size_t body_at = pos_;
    // The shared values first, so the body can use them.
    if (!where.empty()) {
      std::string_view saved = s_;
      s_ = where;
      pos_ = 0;
      do {
        std::string n(ident());
        expect('=');
        env_[n] = expr();
      } while (take(','));
      end();
      s_ = saved;
      pos_ = body_at;
    }
    uint8_t r = expr();
    end();
    return r;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  std::vector<Step>& steps_;
  int depth_;
  std::map<std::string, uint8_t, std::less<>> env_;

  [[noreturn]] void fail(const std::string& why) {
    throw ParseError{why + " at '" + std::string(s_.substr(pos_)) + "'"};
  }
  void space() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool peek(char c) {
    space();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool peek2(std::string_view two) {
    space();
    return s_.substr(pos_, 2) == two;
  }
  bool take(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  void end() {
    space();
    if (pos_ != s_.size()) fail("unexpected text");
  }
  std::string_view ident() {
    space();
    size_t start = pos_;
    auto ok = [](char c) {
      return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    while (pos_ < s_.size() && ok(s_[pos_])) ++pos_;
    if (start == pos_ || (s_[start] >= '0' && s_[start] <= '9')) fail("expected a name");
    return s_.substr(start, pos_ - start);
  }

  const Step& at(uint8_t i) const { return steps_[i]; }
  uint8_t push(const Step& st) {
    if (steps_.size() >= kMaxRecipeSteps) fail("recipe too long");
    steps_.push_back(st);
    return static_cast<uint8_t>(steps_.size() - 1);
  }
  // A step of `op` over operands `in`: one value when all of them are.
  uint8_t make(StepOp op, std::initializer_list<uint8_t> in, bool flag = false) {
    Step st{op};
    st.single = true;
    for (uint8_t i : in) {
      st.in[st.count++] = i;
      st.single = st.single && at(i).single;
    }
    st.flag = flag;
    return push(st);
  }
  uint8_t value(uint8_t i) {
    if (at(i).flag) fail("a comparison used as a number");
    return i;
  }
  uint8_t flags(uint8_t i) {
    if (!at(i).flag) fail("a number used as a condition; compare it");
    return i;
  }

  bool digit() const { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; }
  double number() {
    double v = 0;
    auto [end, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
    if (ec != std::errc()) fail("bad number");
    pos_ = static_cast<size_t>(end - s_.data());
    return v;
  }
  // One step per distinct constant: sign's three zeros are one value.
  uint8_t constant(double v) {
    for (size_t i = 0; i < steps_.size(); ++i) {
      if (steps_[i].op == StepOp::constant &&
          std::bit_cast<uint64_t>(steps_[i].value) == std::bit_cast<uint64_t>(v))
        return static_cast<uint8_t>(i);
    }
    Step st{StepOp::constant};
    st.value = v;
    st.single = true;
    return push(st);
  }

  uint8_t expr() {
    uint8_t c = comparison();
    if (!take('?')) return c;
    uint8_t x = value(expr());
    expect(':');
    uint8_t y = value(expr());
    return make(StepOp::select, {flags(c), x, y});
  }
  uint8_t comparison() {
    uint8_t l = additive();
    static constexpr std::pair<std::string_view, StepOp> kOps[] = {
        {"<=", StepOp::le}, {">=", StepOp::ge}, {"==", StepOp::eq},
        {"!=", StepOp::ne}, {"<", StepOp::lt},  {">", StepOp::gt}};
    for (auto [text, op] : kOps) {
      if (text.size() == 2 ? peek2(text) : peek(text[0])) {
        pos_ += text.size();
        uint8_t r = additive();
        return make(op, {value(l), value(r)}, true);
      }
    }
    return l;
  }
  uint8_t additive() {
    uint8_t l = term();
    for (;;) {
      if (take('+'))
        l = make(StepOp::add, {value(l), value(term())});
      else if (take('-'))
        l = make(StepOp::sub, {value(l), value(term())});
      else
        return l;
    }
  }
  uint8_t term() {
    uint8_t l = unary();
    for (;;) {
      if (take('*'))
        l = make(StepOp::mul, {value(l), value(unary())});
      else if (take('/'))
        l = make(StepOp::div, {value(l), value(unary())});
      else
        return l;
    }
  }
  uint8_t unary() {
    if (!take('-')) return postfix();
    space();
    // -1 is the constant -1 (for integers too), not a negation of 1.
    if (digit()) return constant(-number());
    return make(StepOp::neg, {value(unary())});
  }
  uint8_t postfix() {
    uint8_t x = primary();
    while (take('.')) {
      std::string_view c = ident();
      static constexpr std::string_view kNames = "xyzw";
      if (c.size() != 1 || kNames.find(c[0]) == std::string_view::npos)
        fail("expected x, y, z or w");
      Step st{StepOp::component};
      st.in[0] = value(x);
      st.count = 1;
      st.index = static_cast<uint8_t>(kNames.find(c[0]));
      st.single = true;
      x = push(st);
    }
    return x;
  }
  uint8_t primary() {
    space();
    if (take('(')) {
      uint8_t x = expr();
      expect(')');
      return x;
    }
    if (digit()) return constant(number());
    std::string_view name = ident();
    if (!take('(')) {
      auto it = env_.find(name);
      if (it == env_.end()) fail("unknown name '" + std::string(name) + "'");
      return it->second;
    }
    std::vector<uint8_t> args;
    if (!peek(')')) {
      do args.push_back(expr());
      while (take(','));
    }
    expect(')');
    return call(name, args);
  }

  uint8_t call(std::string_view name, const std::vector<uint8_t>& args) {
    auto one = [&](StepOp op, bool want_flags, bool gives_flag) {
      if (args.size() != 1) fail(std::string(name) + " takes one argument");
      Step st{op};
      st.in[0] = want_flags ? flags(args[0]) : value(args[0]);
      st.count = 1;
      st.single = true;
      st.flag = gives_flag;
      return push(st);
    };
    if (name == "sum") return one(StepOp::sum, false, false);
    if (name == "any_of") return one(StepOp::any_of, true, true);
    if (name == "all_of") return one(StepOp::all_of, true, true);
    if (name == "vec") {
      if (args.empty() || args.size() > 4) fail("vec takes 1 to 4 values");
      Step st{StepOp::vec};
      for (uint8_t a : args) {
        if (!at(a).single) fail("vec takes one value per component");
        st.in[st.count++] = value(a);
      }
      return push(st);
    }
    const BuiltinName* b = find_builtin(name);
    if (!b) fail("unknown function '" + std::string(name) + "'");
    const BuiltinInfo& info = builtin_info(b->id);
    if (!info.recipe.empty()) {
      // A composed builtin: its own recipe over these operands.
      if (depth_ > 8) fail("recipes call each other too deeply");
      for (uint8_t a : args) value(a);
      Parser inner(info.recipe, steps_, depth_ + 1);
      return inner.recipe(info.name, &args);
    }
    if (componentwise_arity(b->id) != static_cast<int>(args.size()))
      fail("'" + std::string(name) + "' is not a component-wise builtin of this arity");
    Step st{StepOp::call};
    st.fn = b->id;
    st.single = true;
    for (uint8_t a : args) {
      st.in[st.count++] = value(a);
      st.single = st.single && at(a).single;
    }
    return push(st);
  }
};

}  // namespace

bool parse_recipe(Builtin id, std::string_view text, Recipe& out, std::string& error) {
  out = Recipe{};
  out.id = id;
  try {
    Parser p(text, out.steps, 0);
    p.recipe(builtin_info(id).name, nullptr);
  } catch (const ParseError& e) {
    error = e.what;
    return false;
  }
  for (const Step& st : out.steps) {
    if (st.op == StepOp::component || st.op == StepOp::vec || st.op == StepOp::sum ||
        st.op == StepOp::any_of || st.op == StepOp::all_of)
      out.per_component = false;
  }
  return true;
}

const Recipe* recipe_of(Builtin id) {
  // Parsed once, all together; a table typo stops the program at its first
  // use (tests/unit/test_recipes.cpp parses every recipe first).
  static const auto table = [] {
    std::vector<std::unique_ptr<Recipe>> t(static_cast<size_t>(Builtin::count_));
    for (const BuiltinInfo& info : all_builtins()) {
      if (info.recipe.empty()) continue;
      auto r = std::make_unique<Recipe>();
      std::string error;
      if (!parse_recipe(info.id, info.recipe, *r, error)) {
        std::fprintf(stderr, "brook: internal error: the recipe of '%s': %s\n",
                     std::string(info.name).c_str(), error.c_str());
        std::abort();
      }
      t[static_cast<size_t>(info.id)] = std::move(r);
    }
    return t;
  }();
  auto k = static_cast<size_t>(id);
  return k < table.size() ? table[k].get() : nullptr;
}

}  // namespace brook::stdlib
