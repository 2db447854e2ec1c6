// Composed builtins (stdlib/recipe.hpp) in the interpreter: one node type
// runs any recipe on the arguments' component type, its steps compiled once
// per call site, so no builtin has code of its own here.
#pragma once

#include <vector>

#include "interp/node.hpp"
#include "stdlib/recipe.hpp"

namespace brook::interp {

// args already converted by sema (a scalar argument of a vector call is
// broadcast). Null for component types the interpreter does not evaluate
// recipes on (char and short). In a kernel (`in_kernel`) a float call of a
// transcendental is brook_math.h's, as for a direct call.
NodePtr make_recipe(const stdlib::Recipe& recipe, std::vector<NodePtr>& args,
                    const std::vector<const Type*>& arg_types, const Type* result, SourceLoc loc,
                    bool in_kernel);

}  // namespace brook::interp
