// Private arrays whose zeroing is dead (cl_definite.cpp).
#pragma once

#include <span>

#include "lang/ast.hpp"

namespace brook::opencl {

// Whether the statements after the declaration of `a` (`following`, in
// order) write every element of the 1-D array `a` before anything reads it.
bool written_before_read(const ast::VarDecl& a, std::span<const ast::StmtPtr> following);

}  // namespace brook::opencl
