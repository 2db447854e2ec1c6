// vout outputs on the JIT (LANGUAGE.md §12): push(e) calls brook_jit_push,
// which appends to the launch's buffer for that parameter with the
// invocation's row-major index; join_vouts orders the elements afterwards.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "backends/scheduler.hpp"
#include "jit/launch_state.hpp"

namespace brook::jit {

extern "C" void brook_jit_push(void* ctx_ptr, int64_t param, const void* value, int64_t size) {
  const auto* ctx = static_cast<const std::byte*>(ctx_ptr);
  int32_t inst[4];
  std::memcpy(inst, ctx, sizeof inst);
  const Launch* launch;
  std::memcpy(&launch, ctx + kCtxLaunch, sizeof launch);
  LaunchState* st = launch ? launch->state : nullptr;
  if (!st || !st->vouts || param < 0) return;
  // instance x is the last dimension.
  int64_t index = 0;
  for (int64_t d = 0; d < st->rank; ++d) index = index * st->domain[d] + inst[st->rank - 1 - d];
  std::lock_guard lock(st->mu);
  auto& bufs = *st->vouts;
  if (static_cast<size_t>(param) >= bufs.size()) bufs.resize(static_cast<size_t>(param) + 1);
  VoutBuffer& b = bufs[static_cast<size_t>(param)];
  b.active = true;
  b.elem_size = size;
  b.invocation.push_back(index);
  const auto* v = static_cast<const std::byte*>(value);
  b.bytes.insert(b.bytes.end(), v, v + size);
}

std::vector<std::vector<std::byte>> join_vouts(const MapPlan& plan, std::vector<VoutBuffer>& buffers) {
  std::vector<std::vector<std::byte>> out;
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound < 0) continue;
    std::vector<std::byte> joined;
    if (static_cast<size_t>(a.param) < buffers.size() && buffers[static_cast<size_t>(a.param)].active) {
      VoutBuffer& b = buffers[static_cast<size_t>(a.param)];
      const size_t n = b.invocation.size();
      const auto es = static_cast<size_t>(b.elem_size);
      std::vector<size_t> order(n);
      std::iota(order.begin(), order.end(), size_t{0});
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t x, size_t y) { return b.invocation[x] < b.invocation[y]; });
      joined.resize(n * es);
      int64_t run = 0;
      for (size_t k = 0; k < n; ++k) {
        run = k && b.invocation[order[k]] == b.invocation[order[k - 1]] ? run + 1 : 1;
        if (a.vout_bound > 0 && run > a.vout_bound) {
          throw PlanError{plan.loc, "kernel '" + plan.kernel->name + "' pushed more values to '" +
                                        plan.kernel->params[static_cast<size_t>(a.param)]->name +
                                        "' in one invocation than 'vout [" + std::to_string(a.vout_bound) +
                                        "]' allows"};
        }
        std::memcpy(joined.data() + k * es, b.bytes.data() + order[k] * es, es);
      }
    }
    out.push_back(std::move(joined));
  }
  return out;
}

}  // namespace brook::jit
