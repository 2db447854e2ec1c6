// Math builtins (LANGUAGE.md §9): primitive ones evaluated per component
// through the reference semantics of stdlib/reference.hpp, composed ones
// through their recipe (interp/recipe_nodes.hpp).
#pragma once

#include <vector>

#include "interp/node.hpp"
#include "stdlib/builtins.hpp"

namespace brook::interp {

// args already converted by sema; a scalar argument of a vector call is
// broadcast. Null when `id` is not a math builtin. In a kernel (`in_kernel`)
// float transcendentals are the project's own (stdlib/brook_math.h, the same
// bits on every backend); host code keeps C's <math.h> (glibc), as C does.
NodePtr make_math(stdlib::Builtin id, std::vector<NodePtr> args, std::vector<const Type*> arg_types,
                  const Type* result, SourceLoc loc, bool in_kernel = false);

}  // namespace brook::interp
