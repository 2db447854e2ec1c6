// Reductions on the JIT, regrouped by the rule all backends share
// (fold_chunk, backends/plan.hpp): to a value (threads take runs of chunks,
// several chunks folded at once as in-order chains) and to a stream (each
// output block folded chunk by chunk).
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
  // The chunks' results p[0..m), folded again by the regrouping rule every
  // backend shares (fold_chunk, backends/plan.hpp) until one is left, in p[0].
  auto fold_levels = [&](std::byte* p, int64_t m) {
    while (m > 1) {
      const int64_t g = fold_chunk(m), next = (m + g - 1) / g;
      for (int64_t j = 0; j < next; ++j) {
        const int64_t len = std::min(g, m - j * g);
        std::byte* acc = p + j * es;  // j <= j * g: never a result still to be read
        if (j) std::memcpy(acc, p + j * g * es, es);
        fold(&launch, acc, p + (j * g + 1) * es, static_cast<int64_t>(es), len - 1);
      }
      m = next;
    }
  };
  if (!plan.to_stream) {
    if (n == 0) return;
    // Chunk j of the rule folds elements [j * g, (j + 1) * g); threads take
    // runs of chunks, and a whole stream (contiguous) folds kLanes chunks per
    // call, one chain each (a vector gather per step). Sixteen chains
    // measured best on sum (1<<24) since chunks are at most 1,000 long (four
    // were best with chunks of 16,384; 8 chains 0.90x of C++, 16 0.94x, 32
    // no better).
    const int64_t g = fold_chunk(n), m = (n + g - 1) / g;
    std::vector<std::byte> partial(static_cast<size_t>(m) * es);
    constexpr int kLanes = 16;
    FoldFn lanes_fold = nullptr;
    if (in.offset == Extents(in.offset.size(), 0) && in.extents == in.stream_extents &&
        m >= kLanes) {
      lanes_fold = lane_fold(plan, params, kLanes);
    }
    const int64_t tasks = n < 65536 ? 1 : std::min<int64_t>(pool_.size(), m);
    pool_.run(tasks, [&](int64_t t) {
      const int64_t end = m * (t + 1) / tasks;
      for (int64_t j = m * t / tasks; j < end;) {
        std::byte* acc = partial.data() + static_cast<size_t>(j) * es;
        if (lanes_fold && j + kLanes <= end && (j + kLanes) * g <= n) {
          // A whole stream is contiguous: chunk j starts at in_base + j g es.
          const std::byte* first = in_base + static_cast<size_t>(j * g) * es;
          const size_t chunk_bytes = static_cast<size_t>(g) * es;
          for (int l = 0; l < kLanes; ++l)
            std::copy_n(first + static_cast<size_t>(l) * chunk_bytes, es, acc + static_cast<size_t>(l) * es);
          lanes_fold(&launch, acc, first + es, static_cast<int64_t>(chunk_bytes), g - 1);
          j += kLanes;
          continue;
        }
        std::memcpy(acc, element_ptr(in, j * g), es);
        fold_range(in, j * g + 1, std::min(n, (j + 1) * g), acc);
        ++j;
      }
    });
    fold_levels(partial.data(), m);
    std::memcpy(result.data(), partial.data(), std::min(result.size(), es));
  } else {
    const StreamView& out = plan.output;
    std::byte* out_base = base_of(out.storage, plan.loc);
    auto out_strides = row_major_strides(out.stream_extents);
    const int64_t outs = element_count(out.extents);
    const size_t ro = out.extents.size();
    const int64_t block_count = element_count(plan.block);
    if (outs == 0 || block_count == 0) return;
    // Each block folds by the shared rule: chunks of g elements, then their
    // results (a single chunk, the left fold, for blocks up to 256).
    const int64_t g = fold_chunk(block_count), nchunks_per_block = (block_count + g - 1) / g;
    // Blocks that are runs of one input row (every block extent but the last
    // is 1) fold with one call per chunk; kLanes outputs whose runs are
    // equally spaced fold together, one accumulator per output, each in order.
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
      std::vector<std::byte> acc(es * kLanes * static_cast<size_t>(nchunks_per_block));
      std::vector<std::byte> lane(
          nchunks_per_block > 1 ? es * static_cast<size_t>(nchunks_per_block) : 0);
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
            // acc[c][j]: chunk c of output o + j.
            for (int64_t c = 0; c < nchunks_per_block; ++c) {
              std::byte* a = acc.data() + static_cast<size_t>(c) * kLanes * es;
              const int64_t len = std::min(g, block_count - c * g);
              for (int j = 0; j < kLanes; ++j) std::memcpy(a + j * es, in_ptr[j] + c * g * es, es);
              lanes_fold(&launch, a, in_ptr[0] + (c * g + 1) * es, static_cast<int64_t>(step),
                         len - 1);
            }
            for (int j = 0; j < kLanes; ++j) {
              if (nchunks_per_block == 1) {
                std::memcpy(out_ptr[j], acc.data() + j * es, es);
                continue;
              }
              for (int64_t c = 0; c < nchunks_per_block; ++c)
                std::memcpy(lane.data() + c * es, acc.data() + (c * kLanes + j) * es, es);
              fold_levels(lane.data(), nchunks_per_block);
              std::memcpy(out_ptr[j], lane.data(), es);
            }
            o += kLanes;
            continue;
          }
        }
        std::byte *in_ptr, *out_ptr;
        locate(o, in_ptr, out_ptr, row_blocks ? nullptr : &block);
        for (int64_t c = 0; c < nchunks_per_block; ++c) {
          std::byte* a = acc.data() + static_cast<size_t>(c) * es;
          const int64_t first = c * g, len = std::min(g, block_count - first);
          if (row_blocks) {
            std::memcpy(a, in_ptr + first * es, es);
            fold(&launch, a, in_ptr + (first + 1) * es, static_cast<int64_t>(es), len - 1);
          } else {
            std::memcpy(a, element_ptr(block, first), es);
            fold_range(block, first + 1, first + len, a);
          }
        }
        fold_levels(acc.data(), nchunks_per_block);
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
