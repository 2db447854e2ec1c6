// Reductions on the JIT: to a value (chunks per thread, each folded as
// several in-order lanes, then combined in order) and to a stream (one fold
// per output block).
#include <algorithm>
#include <cstring>
#include <deque>

#include "jit/jit_backend_impl.hpp"

namespace brook::jit {

void JitBackend::run_reduce(const ReducePlan& plan, std::span<std::byte> result) {
  const ast::FuncDecl& red = *plan.reducer;
  std::vector<ArgShape> params(red.params.size());
  std::vector<ArgRt> rts(red.params.size());
  std::deque<std::vector<std::byte>> constants;
  std::vector<HostBlock> scratch = run_copies(plan.copies, plan.loc);
  for (const PlanArg& pa : plan.extra) {
    if (pa.param < 0 || static_cast<size_t>(pa.param) >= rts.size()) continue;
    params[static_cast<size_t>(pa.param)].role = pa.role;
    if (pa.role == ArgRole::Gather) {
      std::byte* copied = pa.copy >= 0 ? scratch.at(static_cast<size_t>(pa.copy)).data() : nullptr;
      rts[static_cast<size_t>(pa.param)] = gather_rt(pa, plan.loc, copied);
      params[static_cast<size_t>(pa.param)].rank =
          static_cast<int>(rts[static_cast<size_t>(pa.param)].rank);
    } else {
      const ast::ParamDecl& p = *red.params[static_cast<size_t>(pa.param)];
      std::vector<std::byte> v = pa.value;
      v.resize(std::max<size_t>(v.size(), p.type ? p.type->size : 0));
      constants.push_back(std::move(v));
      rts[static_cast<size_t>(pa.param)].base = constants.back().data();
    }
  }
  params[static_cast<size_t>(plan.input_param)].role = ArgRole::Input;
  params[static_cast<size_t>(plan.reduce_param)].role = ArgRole::Output;
  FoldFn fold = fold_of(red, plan.input_param, plan.reduce_param, params, plan.loc);
  LaunchState state;
  state.output = &options_.output;
  state.file = plan.loc.file;
  Launch launch;
  launch.args = rts.data();
  launch.state = &state;
  launch.interrupt = &interrupt_requested;
  const StreamView& in = plan.input;
  const size_t es = in.elem->size;
  std::byte* in_base = plan.input_copy >= 0
                           ? scratch.at(static_cast<size_t>(plan.input_copy)).data()
                           : base_of(in.storage, plan.loc);
  const int64_t n = element_count(in.extents);
  auto t_run = std::chrono::steady_clock::now();
  auto in_strides = row_major_strides(in.stream_extents);
  const size_t r = in.extents.size();
  // Folds view elements [first, last) (row-major linear positions) into acc,
  // which already holds the element before `first`.
  auto fold_range = [&](const StreamView& v, int64_t first, int64_t last, std::byte* acc) {
    const int64_t cols = v.extents[r - 1];
    while (first < last) {
      int64_t rest = first / cols, c = first % cols;
      int64_t index = (v.offset[r - 1] + c) * in_strides[r - 1];
      for (size_t d = r - 1; d-- > 0;) {
        index += (v.offset[d] + rest % v.extents[d]) * in_strides[d];
        rest /= v.extents[d];
      }
      int64_t len = std::min(cols - c, last - first);
      fold(&launch, acc, in_base + static_cast<size_t>(index) * es, static_cast<int64_t>(es), len);
      first += len;
    }
  };
  auto element_ptr = [&](const StreamView& v, int64_t linear) {
    int64_t rest = linear, index = 0;
    for (size_t d = r; d-- > 0;) {
      index += (v.offset[d] + rest % v.extents[d]) * in_strides[d];
      rest /= v.extents[d];
    }
    return in_base + static_cast<size_t>(index) * es;
  };
  if (!plan.to_stream) {
    if (n == 0) return;
    int64_t chunks = n < 65536 ? 1 : std::min<int64_t>(pool_.size(), n);
    std::vector<std::vector<std::byte>> partial(static_cast<size_t>(chunks),
                                                std::vector<std::byte>(es));
    // A whole stream is contiguous: fold each chunk as kLanes contiguous
    // sub-ranges at once (the §7 regrouping: operand order is kept). Four
    // chains measured best on sum (1<<24): 2 are latency-bound (2.1 ms), 8
    // and 16 streams per thread slow the loads (1.65 ms, 3 ms), 4: 1.2 ms.
    constexpr int kLanes = 4;
    FoldFn lanes_fold = nullptr;
    if (in.offset == Extents(in.offset.size(), 0) && in.extents == in.stream_extents && n >= 4096) {
      lanes_fold = lane_fold(plan, params, kLanes);
    }
    pool_.run(chunks, [&](int64_t i) {
      int64_t first = n * i / chunks, last = n * (i + 1) / chunks;
      std::byte* acc = partial[static_cast<size_t>(i)].data();
      int64_t len = (last - first) / kLanes;
      if (!lanes_fold || len < 2) {
        std::memcpy(acc, element_ptr(in, first), es);
        fold_range(in, first + 1, last, acc);
        return;
      }
      std::vector<std::byte> accs(es * kLanes);
      for (int j = 0; j < kLanes; ++j)
        std::memcpy(accs.data() + j * es, element_ptr(in, first + j * len), es);
      lanes_fold(&launch, accs.data(), element_ptr(in, first) + es, len * static_cast<int64_t>(es),
                 len - 1);
      // The elements after the last lane continue the last lane's fold.
      fold_range(in, first + kLanes * len, last, accs.data() + (kLanes - 1) * es);
      std::memcpy(acc, accs.data(), es);
      for (int j = 1; j < kLanes; ++j) fold(&launch, acc, accs.data() + j * es, 0, 1);
    });
    // Combine in order: acc = f(acc, partial_i), the left fold regrouped.
    for (int64_t i = 1; i < chunks; ++i)
      fold(&launch, partial[0].data(), partial[static_cast<size_t>(i)].data(), 0, 1);
    std::memcpy(result.data(), partial[0].data(), std::min(result.size(), es));
  } else {
    const StreamView& out = plan.output;
    std::byte* out_base = base_of(out.storage, plan.loc);
    auto out_strides = row_major_strides(out.stream_extents);
    const int64_t outs = element_count(out.extents);
    const size_t ro = out.extents.size();
    const int64_t block_count = element_count(plan.block);
    // Blocks that are runs of one input row (every block extent but the last
    // is 1) fold with one call each; kLanes outputs whose runs are equally
    // spaced fold together, one accumulator per output, each in order.
    bool row_blocks = true;
    for (size_t d = 0; d + 1 < r; ++d) row_blocks = row_blocks && plan.block[d] == 1;
    constexpr int kLanes = 8;
    FoldFn lanes_fold = nullptr;
    if (row_blocks && block_count >= 4 && outs >= kLanes) {
      lanes_fold = lane_fold(plan, params, kLanes);
    }
    // Output o's element and the first input element of its block.
    auto locate = [&](int64_t o, std::byte*& in_ptr, std::byte*& out_ptr, StreamView* block) {
      int64_t opos[kMaxRank] = {}, origin[kMaxRank] = {};
      int64_t rest = o;
      for (size_t d = ro; d-- > 0;) {
        opos[d] = rest % out.extents[d];
        rest /= out.extents[d];
      }
      // Align output dims with the input's trailing dims (leading 1s dropped).
      for (size_t d = 0; d < ro && d < r; ++d)
        origin[r - 1 - d] = opos[ro - 1 - d] * plan.block[r - 1 - d];
      int64_t in_index = 0, out_index = 0;
      for (size_t d = 0; d < r; ++d) in_index += (in.offset[d] + origin[d]) * in_strides[d];
      for (size_t d = 0; d < ro; ++d) out_index += (out.offset[d] + opos[d]) * out_strides[d];
      in_ptr = in_base + static_cast<size_t>(in_index) * es;
      out_ptr = out_base + static_cast<size_t>(out_index) * out.elem->size;
      if (block) {
        *block = in;
        for (size_t d = 0; d < r; ++d) {
          block->offset[d] = in.offset[d] + origin[d];
          block->extents[d] = plan.block[d];
        }
      }
    };
    const int64_t nchunks = std::min<int64_t>(outs, pool_.size() * 4);
    pool_.run(nchunks, [&](int64_t chunk) {
      std::vector<std::byte> acc(es * kLanes);
      StreamView block;
      const int64_t last = outs * (chunk + 1) / nchunks;
      for (int64_t o = outs * chunk / nchunks; o < last;) {
        if (lanes_fold && last - o >= kLanes) {
          std::byte *in_ptr[kLanes], *out_ptr[kLanes];
          for (int j = 0; j < kLanes; ++j) locate(o + j, in_ptr[j], out_ptr[j], nullptr);
          const std::ptrdiff_t step = in_ptr[1] - in_ptr[0];
          bool even = true;
          for (int j = 2; j < kLanes; ++j) even = even && in_ptr[j] - in_ptr[0] == j * step;
          if (even) {
            for (int j = 0; j < kLanes; ++j) std::memcpy(acc.data() + j * es, in_ptr[j], es);
            lanes_fold(&launch, acc.data(), in_ptr[0] + es, static_cast<int64_t>(step),
                       block_count - 1);
            for (int j = 0; j < kLanes; ++j) std::memcpy(out_ptr[j], acc.data() + j * es, es);
            o += kLanes;
            continue;
          }
        }
        std::byte *in_ptr, *out_ptr;
        locate(o, in_ptr, out_ptr, row_blocks ? nullptr : &block);
        std::memcpy(acc.data(), in_ptr, es);
        if (row_blocks)
          fold(&launch, acc.data(), in_ptr + es, static_cast<int64_t>(es), block_count - 1);
        else
          fold_range(block, 1, block_count, acc.data());
        std::memcpy(out_ptr, acc.data(), es);
        ++o;
      }
    });
  }
  Stat& st = stats_[red.name];
  st.launches++;
  st.run_ms += ms_since(t_run);
  st.elements += n;
  finish(state);
}

}  // namespace brook::jit
