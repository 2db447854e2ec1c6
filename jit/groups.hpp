// Brook+ work-group kernels on the JIT (LANGUAGE.md §12,
// lang/analysis_group.hpp). They take the scalar path: the slice function
// runs one phase of the body (Launch::group_phase) for a group's rectangle of
// the domain, and the backend calls it phase by phase, group by group. What
// must outlive a phase lives in a per-invocation frame instead of allocas:
// the private copies of input and constant parameters (taken in phase 0, so
// an in-place input keeps its value) and the locals declared at the top level
// of the body. Shared arrays live in Launch::group_shared, zeroed per group.
#pragma once

#include <cstdint>
#include <functional>
#include <map>

#include "backends/plan.hpp"
#include "jit/abi.hpp"
#include "lang/analysis_group.hpp"
#include "lang/ast.hpp"

namespace brook::jit {

struct GroupLayout {
  std::map<const ast::Decl*, uint64_t> frame;  // byte offset in an invocation's frame
  uint64_t frame_size = 16;
  std::map<const ast::Decl*, uint64_t> shared;  // byte offset in the group's shared block
  uint64_t shared_size = 0;
};

GroupLayout group_layout(const ast::FuncDecl& kernel);

// Runs `blocks` tasks, each once (a thread pool's run).
using ParallelFor = std::function<void(int64_t blocks, const std::function<void(int64_t)>& task)>;

// Runs `slice` (the kernel's scalar slice function) over the canonical
// `domain` group by group, each group phase by phase. With `parallel`, runs
// of consecutive groups go to `blocks` tasks, each with its own frames and
// shared arrays; without, the groups run in row-major order on the calling
// thread. Throws PlanError when the domain is not cut into whole groups.
void run_groups(const ast::FuncDecl& kernel, SourceLoc loc, const Extents& domain, SliceFn slice,
                const Launch& launch, const ParallelFor* parallel = nullptr, int64_t blocks = 1);

}  // namespace brook::jit
