// SPMD ("gang") code generation for map kernels, as ISPC and OpenCL CPU
// compilers do it: the kernel body is compiled once for a gang of W
// consecutive elements of a row, one element per vector lane. Values the same
// for every lane stay scalar (uniform), per-element values are <W x T>
// vectors (varying), tracked per component; divergent control flow runs under
// an execution mask. The entry has the slice ABI of jit/abi.hpp.
#pragma once

#include <string>

#include "jit/codegen.hpp"

namespace brook::jit {

// Gang width used for 32-bit data (BROOK_JIT_SPMD_WIDTH overrides: 4, 8, 16).
int spmd_width();

// Whether the SPMD generator may be used at all (BROOK_JIT_SPMD=0 turns it off).
bool spmd_enabled();

// Emits `entry_name` as an SPMD slice function and returns true, or returns
// false (leaving `module` as it was) when the kernel uses something outside
// the SPMD subset; the caller then emits the scalar element loop.
bool emit_map_spmd(llvm::Module& module, const ast::FuncDecl& kernel, const MapShape& shape,
                   const std::string& entry_name, bool fp_relaxed);

}  // namespace brook::jit
