// Recipes: how a composed builtin (lerp, smoothstep, dot, reflect, …) is built
// from primitive operations on its arguments' components. The builtin table
// (builtins.cpp) writes each one as a line of math, "lerp(a, b, t) = a + t * (b
// - a)"; recipe_of() turns it into a list of Steps once. Every backend lowers
// Steps with one generic routine (stdlib/recipe_eval.hpp), so a new composed
// builtin needs a table row and no backend code.
//
// The meaning of a Step is exactly C's on the component type T of the
// arguments: each operation rounds to T on its own (never fused), in the
// order written (left to right for + - * /), and every argument is read once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stdlib/builtins.hpp"

namespace brook::stdlib {

enum class StepOp : uint8_t {
  arg,        // argument `index` (all its components)
  constant,   // `value`, converted to T: one value for every component
  component,  // component `index` of in[0] (x y z w): one value
  vec,        // the vector of in[0..count): one value each
  neg,        // -in[0]
  add,        // in[0] + in[1], per component; a one-value operand broadcasts
  sub,
  mul,
  div,
  lt,  // comparisons give flags: 1 or 0, never a value of T
  le,
  gt,
  ge,
  eq,
  ne,      // true for NaN, as C's != is
  select,  // flag in[0] ? in[1] : in[2], per component
  call,    // the primitive builtin `fn` (sqrt, floor) on in[0..count)
  sum,     // in[0]'s components added left to right: ((x0 + x1) + x2) + x3
  any_of,  // 1 when some flag of in[0] is 1 (one flag)
  all_of,  // 1 when every flag of in[0] is 1
};

// The most steps a recipe may take (smoothstep, the longest, takes 21), so
// that a backend can keep every step's values on the stack.
inline constexpr size_t kMaxRecipeSteps = 32;

// One operation; its operands are earlier steps.
struct Step {
  StepOp op;
  uint8_t count = 0;  // operands used in `in`
  std::array<uint8_t, 4> in{};
  uint8_t index = 0;           // arg: the argument; component: 0 to 3
  Builtin fn = Builtin::none;  // call
  double value = 0;            // constant
  bool flag = false;    // the step gives flags (comparisons, any_of, all_of), not values of T
  bool single = false;  // one value for every component (constant, component, sum, …)
};

struct Recipe {
  Builtin id = Builtin::none;
  std::vector<Step> steps;  // the result is the last step
  // Every step works component by component (no sum, component or vec): the
  // result's component k depends only on the arguments' components k.
  bool per_component = true;
};

// The recipe of a composed builtin, or null for a primitive one (sqrt, abs,
// sin, …) that each backend lowers itself. Built once from the table's text.
const Recipe* recipe_of(Builtin id);

// Parses a table recipe such as "lerp(a, b, t) = a + t * (b - a)". The
// language: numbers, the parameter names, + - * / (left to right), unary -,
// comparisons, `c ? x : y`, v.x … v.w, vec(x, y, z), sum(v), any_of(flags),
// all_of(flags), and calls of builtins: a composed one's recipe is inlined,
// a primitive one becomes a call step. "… where t = e1, u = e2" names shared
// values, each computed once. Returns false and sets `error` on a mistake.
bool parse_recipe(Builtin id, std::string_view text, Recipe& out, std::string& error);

}  // namespace brook::stdlib
