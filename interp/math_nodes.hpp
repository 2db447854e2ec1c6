// Math builtins (LANGUAGE.md §9) evaluated per component through the
// reference semantics of stdlib/reference.hpp.
#pragma once

#include <vector>

#include "interp/node.hpp"
#include "stdlib/builtins.hpp"

namespace brook::interp {

// args already converted by sema; a scalar argument of a vector call is
// broadcast. Null when `id` is not a math builtin.
NodePtr make_math(stdlib::Builtin id, std::vector<NodePtr> args,
                  std::vector<const Type*> arg_types, const Type* result, SourceLoc loc);

}  // namespace brook::interp
