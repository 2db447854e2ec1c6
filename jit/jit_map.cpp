// Map launches on the JIT: the launch shape (the cache key of the compiled
// slice function), argument records, and the split of the domain over the
// thread pool.
#include <algorithm>
#include <deque>
#include <functional>

#include "backends/instance.hpp"
#include "jit/groups.hpp"
#include "jit/jit_backend_impl.hpp"

namespace brook::jit {

bool operator<(const MapShape& a, const MapShape& b) {
  return std::tie(a.domain_rank, a.args, a.narrow_columns, a.exact_positions) <
         std::tie(b.domain_rank, b.args, b.narrow_columns, b.exact_positions);
}

void JitBackend::run_map(const MapPlan& plan) {
  auto t_start = std::chrono::steady_clock::now();
  const ast::FuncDecl& kernel = *plan.kernel;
  Extents domain = canonical_extents(plan.domain);
  if (domain.size() > kMaxRank)
    throw PlanError{plan.loc, "domains of more than 4 dimensions are not supported"};
  MapShape shape;
  shape.domain_rank = static_cast<int>(domain.size());
  shape.narrow_columns = domain.empty() || domain.back() <= (int64_t{1} << 31) - 64;
  shape.args.resize(kernel.params.size());
  std::vector<ArgRt> rts(kernel.params.size());
  std::deque<std::vector<std::byte>> constants;  // stable addresses
  // Arguments the scheduler found reading elements the call writes read a
  // copy made now (scheduler.cpp's aliasing rule).
  std::vector<HostBlock> scratch = run_copies(plan.copies, plan.loc);
  auto base = [&](const PlanArg& pa) {
    return pa.copy >= 0 ? scratch.at(static_cast<size_t>(pa.copy)).data() : nullptr;
  };
  for (const PlanArg& pa : plan.args) {
    if (pa.param < 0 || static_cast<size_t>(pa.param) >= rts.size()) continue;
    ArgShape& s = shape.args[static_cast<size_t>(pa.param)];
    ArgRt& rt = rts[static_cast<size_t>(pa.param)];
    s.role = pa.role;
    switch (pa.role) {
      case ArgRole::Input:
      case ArgRole::Iter:
      case ArgRole::Output: {
        rt = view_rt(pa.view, &pa.map, plan.loc, base(pa));
        s.rank = static_cast<int>(rt.rank);
        for (int d = 0; d < s.rank; ++d) {
          const DimMap& m = pa.map[static_cast<size_t>(d)];
          s.out_dim[d] = static_cast<int8_t>(m.out_dim);
          s.identity[d] = m.num == m.den;
          s.narrow_ratio[d] =
              m.num > 0 && m.den > 0 && m.num < (int64_t{1} << 26) && m.den < (int64_t{1} << 26);
        }
        break;
      }
      case ArgRole::Gather:
        rt = gather_rt(pa, plan.loc, base(pa));
        s.rank = static_cast<int>(rt.rank);
        s.counter_exact = std::all_of(rt.extent, rt.extent + rt.rank,
                                      [](int64_t e) { return e <= (int64_t{1} << 24) + 1; });
        break;
      case ArgRole::Constant: {
        // The body reads sizeof(parameter type) bytes: pad short values.
        const ast::ParamDecl& p = *kernel.params[static_cast<size_t>(pa.param)];
        std::vector<std::byte> v = pa.value;
        v.resize(std::max<size_t>(v.size(), p.type ? p.type->size : 0));
        constants.push_back(std::move(v));
        rt.base = constants.back().data();
        break;
      }
    }
  }
  {
    constexpr int64_t exact = int64_t{1} << 24;
    bool ok = std::all_of(domain.begin(), domain.end(), [](int64_t e) { return e <= exact; });
    for (size_t i = 0; i < rts.size(); ++i) {
      const ArgRole r = shape.args[i].role;
      if (r == ArgRole::Input || r == ArgRole::Iter || r == ArgRole::Output)
        ok = ok && std::all_of(rts[i].extent, rts[i].extent + rts[i].rank,
                               [](int64_t e) { return e <= exact; });
    }
    shape.exact_positions = ok;
  }
  auto key = std::make_pair(&kernel, shape);
  SliceFn fn;
  if (auto it = slices_.find(key); it != slices_.end()) {
    fn = it->second;
  } else {
    bool relaxed = options_.fp_relaxed;
    fn = reinterpret_cast<SliceFn>(entry(
        kernel.name,
        [&](llvm::Module& m, const std::string& name) {
          emit_map(m, kernel, shape, name, relaxed, options_.tuning.spmd);
        },
        plan.loc));
    slices_[key] = fn;
  }
  LaunchState state;
  state.output = &options_.output;
  state.file = plan.loc.file;
  state.vouts = vouts_;  // run_map_vout's buffers (jit/vout.cpp)
  state.rank = static_cast<int64_t>(domain.size());
  for (size_t d = 0; d < domain.size(); ++d) state.domain[d] = domain[d];
  Launch launch;
  for (size_t d = 0; d < domain.size(); ++d) launch.domain[d] = domain[d];
  launch.args = rts.data();
  launch.state = &state;
  launch.interrupt = &interrupt_requested;
  const std::array<int32_t, 4> ioff = instance_offset(plan);
  for (size_t j = 0; j < 4; ++j) launch.instance_offset[j] = ioff[j];
  const int64_t cols = domain.back();
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < domain.size(); ++d) rows *= domain[d];
  const int64_t total = rows * cols;
  const int64_t threads = pool_.size();
  auto t_run = std::chrono::steady_clock::now();
  // Scatter outputs (§12) run in one row-major pass, as on the interpreter:
  // where invocations write one position, the last one's value stays.
  const bool scatters = std::any_of(kernel.params.begin(), kernel.params.end(),
                                    [](const auto& p) { return p->scatter; });
  if (analysis::is_group_kernel(kernel)) {
    // jit/groups.hpp; scatters in one row-major pass, as below.
    ParallelFor parallel = [&](int64_t n, const std::function<void(int64_t)>& task) {
      pool_.run(n, task);
    };
    const bool sequential = total < 4096 || threads == 1 || scatters;
    run_groups(kernel, plan.loc, domain, fn, launch, sequential ? nullptr : &parallel, threads * 4);
  } else if (total < 4096 || threads == 1 || scatters) {
    fn(&launch, 0, rows, 0, cols);
  } else if (rows >= threads * 4) {
    int64_t blocks = std::min<int64_t>(rows, threads * 8);
    pool_.run(blocks,
              [&](int64_t i) { fn(&launch, rows * i / blocks, rows * (i + 1) / blocks, 0, cols); });
  } else {
    // Few rows: split each row's columns too.
    int64_t per_row = std::max<int64_t>(1, threads * 8 / rows);
    int64_t blocks = rows * per_row;
    pool_.run(blocks, [&](int64_t i) {
      int64_t r = i / per_row, k = i % per_row;
      fn(&launch, r, r + 1, cols * k / per_row, cols * (k + 1) / per_row);
    });
  }
  Stat& st = stats_[kernel.name];
  st.launches++;
  st.run_ms += ms_since(t_run);
  st.elements += total;
  (void)t_start;
  finish(state);
}

}  // namespace brook::jit
