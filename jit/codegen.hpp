// Typed kernel AST -> LLVM IR. One Codegen fills one llvm::Module with:
//   * a body function per kernel/reducer reached (kernels called from kernels
//     included): void body(ctx*, ret*, p0*, idx0*, p1*, idx1*, ...)
//   * the entry the backend calls: a slice function (map launches) or a fold
//     function (reductions), see jit/abi.hpp.
// Unsupported constructs throw CodegenError; nothing is silently skipped.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/plan.hpp"
#include "jit/jit_tuning.hpp"
#include "lang/ast.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace brook::jit {

struct CodegenError {
  SourceLoc loc;
  std::string message;
};

// What a compiled launch depends on besides the kernel: everything else
// (extents, offsets, strides, ratios) is read at run time from ArgRt.
struct ArgShape {
  ArgRole role = ArgRole::Constant;
  int rank = 0;                    // view rank (Input/Iter/Output), gather array rank
  std::array<int8_t, 4> out_dim{};  // DimMap::out_dim per view dimension
  std::array<bool, 4> identity{};   // num == den: the index is the domain position
  // num and den below 2^26: a resampled dimension's per-lane quotient takes
  // 32-bit integer lanes (vector conversions on AVX2, 64-bit ones are not).
  std::array<bool, 4> narrow_ratio{};
  // Gathers: every extent is at most 2^24 + 1, so a float counter's exact
  // shadow clamps as its float value would (lang/analysis.hpp).
  bool counter_exact = false;
  friend bool operator<(const ArgShape& a, const ArgShape& b) {
    return std::tie(a.role, a.rank, a.out_dim, a.identity, a.narrow_ratio, a.counter_exact) <
           std::tie(b.role, b.rank, b.out_dim, b.identity, b.narrow_ratio, b.counter_exact);
  }
  friend bool operator==(const ArgShape&, const ArgShape&) = default;
};

struct MapShape {
  int domain_rank = 1;
  std::vector<ArgShape> args;  // one per kernel parameter
  // The domain's last extent is below 2^31 - 64: every lane's column (and
  // the padding lanes of the last gang) converts to float through i32, one
  // instruction per 8 lanes on AVX2, which has no 64-bit integer to float
  // conversion (vcvtqq2ps is AVX-512): indexof's lanes.
  bool narrow_columns = false;
  // Every domain extent and every stream argument's view extent is at most
  // 2^24: indexof's floats are exact integers, so `img[here + float2(dx,
  // dy)]` indexes by the integer position plus the counters' shadows
  // (jit/spmd_exact.cpp), with no run-time exactness test.
  bool exact_positions = false;
};

// Emits `entry_name` = the slice function of `kernel` launched with `shape`:
// SPMD code where jit/spmd.hpp can and `spmd` allows, else a scalar loop.
void emit_map(llvm::Module& module, const ast::FuncDecl& kernel, const MapShape& shape,
              const std::string& entry_name, bool fp_relaxed, const SpmdTuning& spmd);

// A function attribute: the JIT's brook-scalarize pass leaves the function's
// vectors whole (compiler.cpp).
inline constexpr const char* kKeepVectorsAttr = "brook-keep-vectors";
// A math helper (Codegen::gang_call) whose body calls stdlib/brook_math_inline.cpp:
// noinline while the pipeline merges equal calls, then inlined
// (JitCompiler's last step).
inline constexpr const char* kInlineLateAttr = "brook-inline-late";

// Emits `entry_name` = the fold function of `reducer`. `extra` describes every
// parameter (input and reduce parameters included, their shapes unused).
// With lanes > 1 the fold keeps `lanes` accumulators (contiguous at acc) and
// lane j folds the contiguous elements at elems + j * stride (stride is then
// the distance between lanes in bytes): independent chains the CPU overlaps.
void emit_fold(llvm::Module& module, const ast::FuncDecl& reducer, int input_param,
               int reduce_param, const std::vector<ArgShape>& params,
               const std::string& entry_name, bool fp_relaxed, int lanes = 1);

}  // namespace brook::jit
