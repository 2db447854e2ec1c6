// stdlib/recipe.hpp: every composed builtin of the table has a recipe that
// parses, and evaluating it with plain C++ arithmetic gives the reference
// definitions' bits (stdlib/reference.hpp), NaN and -0.0 included.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "stdlib/builtins.hpp"
#include "stdlib/recipe.hpp"
#include "stdlib/recipe_eval.hpp"
#include "stdlib/reference.hpp"

namespace sl = brook::stdlib;
using sl::Builtin;
using sl::StepOp;

namespace {

// C's arithmetic on T, one rounding per operation; flags are 1 and 0.
template <class T>
struct Plain {
  using Value = T;
  T constant(double v) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<int64_t>(v));
    else
      return static_cast<T>(v);
  }
  T neg(T x) { return static_cast<T>(-x); }
  T binary(StepOp op, T x, T y) {
    switch (op) {
      case StepOp::add:
        return x + y;
      case StepOp::sub:
        return x - y;
      case StepOp::mul:
        return sl::unfused(x * y);
      case StepOp::div:
        return x / y;
      case StepOp::lt:
        return x < y;
      case StepOp::le:
        return x <= y;
      case StepOp::gt:
        return x > y;
      case StepOp::ge:
        return x >= y;
      case StepOp::eq:
        return x == y;
      case StepOp::ne:
        return x != y;
      default:
        return T(0);
    }
  }
  T select(T f, T x, T y) { return f != T(0) ? x : y; }
  T either(T f, T g) { return f != T(0) || g != T(0); }
  T both(T f, T g) { return f != T(0) && g != T(0); }
  T call(Builtin fn, std::span<const T> xs) {
    if constexpr (std::is_same_v<T, float>)
      return sl::ref_math_f32(fn, xs);
    else if constexpr (std::is_same_v<T, double>)
      return sl::ref_math_f64(fn, xs);
    else
      return sl::ref_math_int<T>(fn, xs);
  }
};

template <class T>
sl::Comps<T> run(Builtin id, std::vector<std::vector<T>> args) {
  const sl::Recipe* r = sl::recipe_of(id);
  REQUIRE(r != nullptr);
  std::vector<sl::Comps<T>> in(args.size());
  for (size_t a = 0; a < args.size(); ++a) {
    in[a].n = static_cast<uint8_t>(args[a].size());
    for (size_t k = 0; k < args[a].size(); ++k) in[a].c[k] = args[a][k];
  }
  Plain<T> low;
  return sl::evaluate(*r, low, std::span<const sl::Comps<T>>(in));
}

// Equal bits, or both NaN.
template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) && std::isnan(b)) return true;
    if constexpr (sizeof(T) == 4)
      return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
    else
      return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  } else {
    return a == b;
  }
}

template <class T>
std::vector<T> samples() {
  const T inf = std::numeric_limits<T>::infinity();
  return {T(0),    -T(0),    T(1),    T(-1),
          T(0.1),  T(-2.75), T(3),    T(0.5),
          T(7.25), T(1e-30), T(1e30), T(0.333),
          T(-0.6), inf,      -inf,    std::numeric_limits<T>::quiet_NaN()};
}

// Every per-component recipe against ref_math_f32/f64 over all sample tuples.
template <class T>
void check_per_component() {
  const std::vector<T> xs = samples<T>();
  for (const sl::BuiltinInfo& info : sl::all_builtins()) {
    const sl::Recipe* r = sl::recipe_of(info.id);
    if (!r || !r->per_component) continue;
    const int arity = sl::componentwise_arity(info.id);
    REQUIRE(arity > 0);
    CAPTURE(info.name);
    const size_t n = xs.size();
    const size_t total = arity == 1 ? n : arity == 2 ? n * n : n * n * n;
    for (size_t k = 0; k < total; ++k) {
      std::vector<T> a{xs[k % n]};
      if (arity > 1) a.push_back(xs[k / n % n]);
      if (arity > 2) a.push_back(xs[k / n / n]);
      std::vector<std::vector<T>> args;
      for (T v : a) args.push_back({v});
      T want =
          sizeof(T) == 4
              ? static_cast<T>(sl::ref_math_f32(info.id, std::vector<float>(a.begin(), a.end())))
              : static_cast<T>(sl::ref_math_f64(info.id, std::vector<double>(a.begin(), a.end())));
      T got = run<T>(info.id, args).c[0];
      if (!same(got, want)) {
        CAPTURE(a[0]);
        CAPTURE(a.size() > 1 ? a[1] : T(0));
        CAPTURE(a.size() > 2 ? a[2] : T(0));
        CHECK(same(got, want));
      }
    }
  }
}

}  // namespace

TEST_CASE("recipes: the composed builtins have one, and every recipe parses") {
  // §9's builtins defined from others (no backend lowers these itself).
  for (Builtin id :
       {Builtin::frac, Builtin::rsqrt, Builtin::min, Builtin::max, Builtin::clamp,
        Builtin::saturate, Builtin::lerp, Builtin::step, Builtin::smoothstep, Builtin::sign,
        Builtin::mad, Builtin::dot, Builtin::cross, Builtin::length, Builtin::distance,
        Builtin::normalize, Builtin::reflect, Builtin::any, Builtin::all})
    CHECK(sl::recipe_of(id) != nullptr);
  for (const sl::BuiltinInfo& info : sl::all_builtins()) {
    CAPTURE(info.name);
    if (info.recipe.empty()) {
      CHECK(sl::recipe_of(info.id) == nullptr);
      continue;
    }
    sl::Recipe r;
    std::string error;
    CHECK_MESSAGE(sl::parse_recipe(info.id, info.recipe, r, error), error);
    const sl::Recipe* table = sl::recipe_of(info.id);
    REQUIRE(table != nullptr);
    CHECK(table->id == info.id);
    CHECK(table->steps.size() == r.steps.size());
    CHECK(table->steps.size() <= sl::kMaxRecipeSteps);
    // Operands come before the steps that use them.
    for (size_t s = 0; s < table->steps.size(); ++s)
      for (unsigned k = 0; k < table->steps[s].count; ++k) CHECK(table->steps[s].in[k] < s);
  }
}

TEST_CASE("recipes: shared values and inlined builtins are computed once") {
  // distance(a, b) = length(a - b): one subtraction, read twice by dot.
  const sl::Recipe* r = sl::recipe_of(Builtin::distance);
  REQUIRE(r != nullptr);
  int subs = 0, args = 0;
  for (const sl::Step& st : r->steps) {
    subs += st.op == StepOp::sub;
    args += st.op == StepOp::arg;
  }
  CHECK(subs == 1);
  CHECK(args == 2);
  CHECK_FALSE(r->per_component);
  CHECK(sl::recipe_of(Builtin::smoothstep)->per_component);
  CHECK(r->steps.back().op == StepOp::call);  // sqrt
  CHECK(sl::recipe_of(Builtin::any)->steps.back().flag);
}

TEST_CASE("recipes: mistakes are reported, not guessed") {
  sl::Recipe r;
  std::string error;
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = a +", r, error));
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "mix(a, b, t) = a", r, error));
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = a + u", r, error));
  CHECK(error.find("unknown name 'u'") != std::string::npos);
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = (a < b) + t", r, error));
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = a ? b : t", r, error));
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = sin(a, b)", r, error));
  CHECK_FALSE(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = a.q", r, error));
  CHECK(sl::parse_recipe(Builtin::lerp, "lerp(a, b, t) = u * u where u = a - b", r, error));
}

TEST_CASE("recipes: per-component ones give the reference's bits") {
  check_per_component<float>();
  check_per_component<double>();
}

TEST_CASE("recipes: integer ones give the reference's values") {
  const std::vector<int32_t> xs{0, 1, -1, 7, -9, 2147483647, -2147483647 - 1};
  for (Builtin id : {Builtin::min, Builtin::max, Builtin::sign, Builtin::clamp}) {
    const int arity = sl::componentwise_arity(id);
    for (int32_t x : xs)
      for (int32_t y : xs)
        for (int32_t z : xs) {
          std::vector<int32_t> a{x, y, z};
          a.resize(static_cast<size_t>(arity));
          std::vector<std::vector<int32_t>> args;
          for (int32_t v : a) args.push_back({v});
          CHECK(run<int32_t>(id, args).c[0] == sl::ref_math_int<int32_t>(id, a));
        }
  }
  CHECK(run<int32_t>(Builtin::dot, {{1, 2, 3}, {4, -5, 6}}).c[0] == 12);
  CHECK(run<uint32_t>(Builtin::sign, {{5u}}).c[0] == 1u);
}

TEST_CASE("recipes: vector functions give the reference's bits") {
  const std::vector<float> xs = samples<float>();
  for (size_t n = 1; n <= 4; ++n) {
    for (size_t k = 0; k + 2 * n <= xs.size(); ++k) {
      std::vector<float> a(xs.begin() + static_cast<long>(k),
                           xs.begin() + static_cast<long>(k + n));
      std::vector<float> b(xs.rbegin() + static_cast<long>(k),
                           xs.rbegin() + static_cast<long>(k + n));
      CAPTURE(n);
      CAPTURE(k);
      CHECK(same(run<float>(Builtin::dot, {a, b}).c[0], sl::ref_dot<float>(a, b)));
      CHECK(same(run<float>(Builtin::length, {a}).c[0], sl::ref_length<float>(a)));
      CHECK(same(run<float>(Builtin::distance, {a, b}).c[0], sl::ref_distance<float>(a, b)));
      CHECK(run<float>(Builtin::any, {a}).c[0] == static_cast<float>(sl::ref_any<float>(a)));
      CHECK(run<float>(Builtin::all, {a}).c[0] == static_cast<float>(sl::ref_all<float>(a)));
      std::vector<float> want(n);
      sl::ref_normalize<float>(a, want);
      sl::Comps<float> got = run<float>(Builtin::normalize, {a});
      for (size_t i = 0; i < n; ++i) CHECK(same(got[static_cast<unsigned>(i)], want[i]));
      sl::ref_reflect<float>(a, b, want);
      got = run<float>(Builtin::reflect, {a, b});
      for (size_t i = 0; i < n; ++i) CHECK(same(got[static_cast<unsigned>(i)], want[i]));
      if (n == 3) {
        sl::ref_cross<float>(a, b, want);
        got = run<float>(Builtin::cross, {a, b});
        for (size_t i = 0; i < 3; ++i) CHECK(same(got[static_cast<unsigned>(i)], want[i]));
      }
    }
  }
}
