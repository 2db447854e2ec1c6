// Launch plans: plain data the scheduler makes from a call and a backend runs.
// Every shape rule of LANGUAGE.md §4–§8 is resolved by the time a plan exists:
// backends turn plans into loops or NDRanges and never re-derive shapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lang/ast.hpp"
#include "lang/types.hpp"

namespace brook {

// Extents slowest first, like the C array `T h[R][C]`.
using Extents = std::vector<int64_t>;

// Drops leading extents of 1 (keeps at least one extent): <1,1,100> → <100>.
Extents canonical_extents(const Extents& e);
int64_t element_count(const Extents& e);
// "<4, 8>"
std::string shape_text(const Extents& e);

using StorageId = uint64_t;

// What a stream argument designates: a stream or a view (domain) of one. All
// vectors are in canonical rank of the underlying stream. A whole stream has
// offset 0 and extents equal to `stream_extents`.
struct StreamView {
  StorageId storage = 0;
  const Type* elem = nullptr;
  Extents stream_extents;  // the stream's own (canonical) extents: the storage layout
  Extents offset;          // of the view's first element, per dimension
  Extents extents;         // the view's extents, per dimension (same rank)
  bool is_iter = false;
  // The rank the stream was declared with (`<1,8>`: 2) though its storage
  // extents are canonical (`<8>`): equal declared ranks match dimension by
  // dimension (§4/§5/§7). 0 when unknown: the view's own rank then.
  uint8_t declared_rank = 0;

  bool is_whole() const;
  size_t rank() const { return declared_rank ? declared_rank : extents.size(); }
  // The view's extents in its declared rank: leading 1s put back.
  Extents declared_extents() const;
  // Row-major element index in the storage of view position `pos` (view coordinates).
  int64_t storage_index(const int64_t* pos) const;
};

// How an input dimension follows the domain: for input dimension i (in the
// input view's coordinates) the index read at domain position p is
//   out_dim < 0 ? 0 : floor(p[out_dim] * num / den)       (exact integer arithmetic)
// which is `in = floor(out * in_extent / out_extent)` (num = in_extent,
// den = out_extent) with BrookGPU's rank alignment from the first dimension.
struct DimMap {
  int out_dim = -1;
  int64_t num = 0;
  int64_t den = 1;
  int64_t apply(const int64_t* domain_pos) const {
    return out_dim < 0 ? 0 : (domain_pos[out_dim] * num) / den;
  }
};

enum class ArgRole : uint8_t { Input, Iter, Output, Constant, Gather };

// A host array used as a gather argument: a snapshot of its bytes (C layout,
// row-major) with its dimensions.
struct HostArray {
  std::vector<std::byte> bytes;
  Extents extents;
  const Type* elem = nullptr;
};

// A copy a launch makes before it runs, so that "every invocation sees the
// inputs as they were before the call" (LANGUAGE.md §5) where the call also
// writes the stream it reads. The scheduler asks for one only where an element
// the call writes can be read by another invocation (scheduler.cpp,
// plan_alias_copies, has the rule). The elements of `from` are copied into `to`:
// dense scratch storage with from's extents (stream_extents = from.extents,
// offset 0). Arguments with `copy == k` already designate copies[k].to, whose
// `storage` is 0: the backend runs the copies first, into scratch memory of its
// own that it reuses across launches, and binds those arguments to it.
struct AliasCopy {
  StreamView from;
  StreamView to;
};

struct PlanArg {
  ArgRole role = ArgRole::Input;
  int param = 0;                 // index into the kernel's parameter list
  StreamView view;               // Input, Iter, Output, Gather from a stream
  std::vector<DimMap> map;       // Input, Iter: one per view dimension
  std::vector<std::byte> value;  // Constant: the value in C layout of the parameter type
  bool gather_from_host = false;
  HostArray host;                // Gather from a host array
  int copy = -1;                 // index into the plan's `copies` whose `to` `view` is
  // Output: a vout (§12) when >= 0: the pushes allowed per invocation (0: any).
  int vout_bound = -1;
  // Gather: extents the indices clamp to (the view's or the host array's).
  const Extents& gather_extents() const { return gather_from_host ? host.extents : view.extents; }
};

// A kernel launch over `domain` (the first output's view extents, canonical).
struct MapPlan {
  const ast::FuncDecl* kernel = nullptr;
  SourceLoc loc;
  Extents domain;
  std::vector<PlanArg> args;  // in parameter order
  std::vector<AliasCopy> copies;  // made before the launch (AliasCopy)
};

// A reduction. With `to_stream`, output element o folds the input block
// [o * block, (o + 1) * block) per dimension; otherwise the whole input folds
// into one value. The fold is the left fold in row-major order (§7).
struct ReducePlan {
  const ast::FuncDecl* reducer = nullptr;
  SourceLoc loc;
  int input_param = 0;
  int reduce_param = 0;
  StreamView input;
  bool to_stream = false;
  StreamView output;       // to_stream
  Extents block;           // to_stream: per-dimension block size
  std::vector<PlanArg> extra;  // constants and gathers, by parameter index
  int input_copy = -1;     // index into `copies` whose `to` `input` is
  std::vector<AliasCopy> copies;  // made before the fold (AliasCopy)
};

// How every backend regroups a fold (§7 lets backends regroup, never reorder),
// one rule so that a float sum prints the same digits on interp, jit and
// opencl, whatever the thread count or the device: a fold of n operands
// (a block's elements in row-major order, or a whole input) with n <= 256 is
// the left fold; a longer one is cut into consecutive chunks of
// fold_chunk(n) operands (the last may be shorter), each chunk is left-folded,
// and the chunks' results are folded again by the same rule. Chunks of
// ceil(n / 1,024) operands, at least 64 and at most 1,000: every chunk is long
// enough for a thread, a GPU's first pass gets a work-item per chunk, and no
// chunk is longer than 1,000 (on PoCL a first pass of 1,024 chunks of 16,384
// folded at half the speed of 16,777 chunks of 1,000: sum, bench/RESULTS.md,
// 2026-12-04).
constexpr int64_t fold_chunk(int64_t n) {
  if (n <= 256) return n;
  const int64_t g = (n + 1023) / 1024;
  return g < 64 ? 64 : (g > 1000 ? 1000 : g);
}

// streamGatherOp / streamScatterOp (§8): processed in row-major order of the
// index stream, so repeated indices see earlier updates.
struct GatherScatterPlan {
  SourceLoc loc;
  bool is_scatter = false;
  StreamView values;  // gather: the target t; scatter: the source s
  StreamView index;
  StreamView array;   // the array gathered from / scattered into
  int builtin_op = 0;  // STREAM_GATHER_* / STREAM_SCATTER_* when `op` is null
  const ast::FuncDecl* op = nullptr;  // a reduce function
};

// Everything in `plan` but which storages it binds and where it is in the
// source, as numbers (replaces `out`'s contents): two launches with equal
// signatures differ only in their streams' storage, so a backend may reuse
// what it derived from the first plan (a compiled variant) for the second
// without deriving it again. Pointers (kernel, element types) count by
// identity; constants and host arrays' sizes by value.
void plan_signature(const MapPlan& plan, std::vector<int64_t>& out);
uint64_t signature_hash(const std::vector<int64_t>& sig);

// For --dump-plans and `brook emit plan`.
std::string describe(const MapPlan& plan);
std::string describe(const ReducePlan& plan);
std::string describe(const GatherScatterPlan& plan);

}  // namespace brook
