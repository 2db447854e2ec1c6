// SPMD ("gang") code generation for map kernels, as ISPC and OpenCL CPU
// compilers do it: the kernel body is compiled once for a gang of W
// consecutive elements of a row, one element per vector lane. Values the same
// for every lane stay scalar (uniform), per-element values are <W x T>
// vectors (varying), tracked per component; divergent control flow runs under
// an execution mask. The entry has the slice ABI of jit/abi.hpp.
#pragma once

#include <string>

#include "jit/codegen.hpp"
#include "jit/jit_tuning.hpp"

namespace brook::jit {

// Emits `entry_name` as an SPMD slice function and returns true, or returns
// false (leaving `module` as it was) when the kernel uses something outside
// the SPMD subset; the caller then emits the scalar element loop. The gang
// is 16 lanes for 32-bit data, 32 for kernels with a varying accumulator,
// unless `tuning` fixes the width.
bool emit_map_spmd(llvm::Module& module, const ast::FuncDecl& kernel, const MapShape& shape,
                   const std::string& entry_name, bool fp_relaxed, const SpmdTuning& tuning);

}  // namespace brook::jit
