// Loop helpers shared by the reference backend's files: row-major
// iteration, canonical positions inside views, and restoring the machine
// after a launch that failed half way.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/interp/kernel_context.hpp"
#include "interp/machine.hpp"
#include "backends/plan.hpp"

namespace brook::interp {

// Advances `pos` to the next position of `extents` in row-major order; false
// after the last.
inline bool next_position(std::vector<int64_t>& pos, const Extents& extents) {
  for (size_t d = extents.size(); d-- > 0;) {
    if (++pos[d] < extents[d]) return true;
    pos[d] = 0;
  }
  return false;
}

// A canonical position (leading extents of 1 dropped) as a position in `view`.
inline int64_t view_index(const StreamView& view, const int64_t* canonical, size_t rank) {
  int64_t pos[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  size_t k = view.extents.size() - rank;
  for (size_t d = 0; d < rank; ++d) pos[k + d] = canonical[d];
  return view.storage_index(pos);
}

// Puts the machine back as it was when a launch fails half way.
struct MachineGuard {
  Machine& m;
  KernelContext& ctx;
  StackArena::Mark mark;
  uint8_t* fp;
  int depth;
  KernelContext saved;
  MachineGuard(Machine& machine, KernelContext& c)
      : m(machine), ctx(c), mark(machine.stack.mark()), fp(machine.fp), depth(machine.depth), saved(c) {}
  ~MachineGuard() {
    m.stack.release(mark);
    m.fp = fp;
    m.depth = depth;
    ctx = saved;
  }
};

}  // namespace brook::interp
