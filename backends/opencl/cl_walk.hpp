// The kernel walks and facts the translator reads; they live in lang/ (one
// implementation with the JIT's), named here for the printer's analyses.
#pragma once

#include "lang/kernel_walk.hpp"

namespace brook::opencl {

using analysis::assigned_decls;
using analysis::may_assign;
using analysis::root_of;
using analysis::side_effect_free;
using analysis::walk;
using analysis::walk_expr;

}  // namespace brook::opencl
