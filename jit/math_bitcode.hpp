// stdlib/brook_math_inline.cpp as LLVM bitcode, embedded at build time
// (jit/CMakeLists.txt): the AVX-512 exp and log cores that compiler.cpp links
// into the SPMD modules calling them. Empty when the build found no clang of
// LLVM's version; kernels then call the gang forms.
#pragma once

#include <span>

namespace brook::jit {

std::span<const unsigned char> math_bitcode();

}  // namespace brook::jit
