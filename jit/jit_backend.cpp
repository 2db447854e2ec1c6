// The JIT Backend: stream storage in host memory, launches compiled per
// (kernel, argument shapes), run over row blocks on a thread pool.
#include "jit/jit_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <tuple>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "backends/host_pool.hpp"
#include "backends/instance.hpp"
#include "interp/interrupt.hpp"
#include "jit/abi.hpp"
#include "jit/codegen.hpp"
#include "jit/compiler.hpp"
#include "jit/groups.hpp"
#include "jit/launch_state.hpp"
#include "jit/thread_pool.hpp"
#include "stdlib/builtins.hpp"

namespace brook {
namespace jit {
namespace {

int pick_threads(int requested) {
  if (requested > 0) return requested;
  if (const char* env = std::getenv("BROOK_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return std::min(n, 256);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

std::vector<int64_t> row_major_strides(const Extents& e) {
  std::vector<int64_t> s(e.size(), 1);
  for (size_t d = e.size(); d-- > 1;) s[d - 1] = s[d] * e[d];
  return s;
}

struct Stat {
  int compiles = 0;
  double compile_ms = 0;
  int64_t launches = 0;
  double run_ms = 0;
  int64_t elements = 0;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

class JitBackend final : public Backend {
 public:
  explicit JitBackend(const JitOptions& o)
      : options_(o), compiler_(o.use_disk_cache), pool_(pick_threads(o.threads)) {}

  std::string_view name() const override { return "jit"; }

  // From the pool (backends/host_pool.hpp): a stream declared in a loop gets
  // its memory back, zeroed, without new page faults.
  StorageId allocate(uint64_t bytes) override {
    HostBlock b;
    try {
      b = memory_.get(bytes, true);
    } catch (const std::bad_alloc&) {
      throw PlanError{{}, "out of memory allocating a stream of " + std::to_string(bytes) + " bytes"};
    }
    StorageId id = next_id_++;
    storage_[id] = {std::move(b), bytes};
    return id;
  }
  void release(StorageId storage) override { storage_.erase(storage); }

  void write_view(const StreamView& view, std::span<const std::byte> host) override {
    copy_view(view, const_cast<std::byte*>(host.data()), host.size(), true);
  }
  void read_view(const StreamView& view, std::span<std::byte> host) override {
    copy_view(view, host.data(), host.size(), false);
  }

  void run_map(const MapPlan& plan) override;
  std::vector<std::vector<std::byte>> run_map_vout(const MapPlan& plan) override {
    std::vector<VoutBuffer> buffers;
    vouts_ = &buffers;
    try {
      run_map(plan);
    } catch (...) {
      vouts_ = nullptr;
      throw;
    }
    vouts_ = nullptr;
    return join_vouts(plan, buffers);
  }
  void run_reduce(const ReducePlan& plan, std::span<std::byte> result) override;
  void run_gather_scatter(const GatherScatterPlan& plan) override;

  std::string profile_report() const;
  int compiles() const { return compiles_; }

 private:
  struct Store {
    HostBlock data;
    uint64_t bytes = 0;
  };
  std::byte* base_of(StorageId id, SourceLoc loc) {
    auto it = storage_.find(id);
    if (it == storage_.end()) throw PlanError{loc, "internal error: unknown stream storage"};
    return it->second.data.data();
  }
  // Calls f(storage element index of the first element of each view row,
  // row length) in row-major order.
  template <class F>
  static void for_each_row(const StreamView& v, F f) {
    const size_t r = v.extents.size();
    auto strides = row_major_strides(v.stream_extents);
    std::vector<int64_t> pos(r, 0);
    if (r == 0 || element_count(v.extents) == 0) return;
    for (;;) {
      int64_t index = 0;
      for (size_t d = 0; d < r; ++d) index += (v.offset[d] + pos[d]) * strides[d];
      f(index, v.extents[r - 1]);
      size_t d = r - 1;
      for (;;) {
        if (d == 0) return;
        --d;
        if (++pos[d] < v.extents[d]) break;
        pos[d] = 0;
      }
    }
  }
  void copy_view(const StreamView& view, std::byte* host, size_t host_size, bool to_stream) {
    std::byte* base = base_of(view.storage, {});
    const size_t es = view.elem->size;
    size_t at = 0;
    for_each_row(view, [&](int64_t index, int64_t len) {
      size_t n = static_cast<size_t>(len) * es;
      if (at + n > host_size) return;
      std::byte* s = base + static_cast<size_t>(index) * es;
      if (to_stream) std::memcpy(s, host + at, n);
      else std::memcpy(host + at, s, n);
      at += n;
    });
  }
  // `base`: the storage's bytes (null: look up v.storage).
  ArgRt view_rt(const StreamView& v, const std::vector<DimMap>* map, SourceLoc loc, std::byte* base = nullptr) {
    ArgRt a;
    a.base = base ? base : base_of(v.storage, loc);
    a.elem_size = static_cast<int64_t>(v.elem->size);
    a.rank = static_cast<int64_t>(v.extents.size());
    if (a.rank > kMaxRank) throw PlanError{loc, "streams of more than 4 dimensions are not supported"};
    auto strides = row_major_strides(v.stream_extents);
    for (size_t d = 0; d < v.extents.size(); ++d) {
      a.stride[d] = strides[d];
      a.offset[d] = v.offset[d];
      a.extent[d] = v.extents[d];
      if (map && d < map->size()) {
        a.num[d] = (*map)[d].num;
        a.den[d] = (*map)[d].den ? (*map)[d].den : 1;
      }
    }
    return a;
  }
  ArgRt gather_rt(const PlanArg& pa, SourceLoc loc, std::byte* base = nullptr) {
    if (!pa.gather_from_host) return view_rt(pa.view, nullptr, loc, base);
    ArgRt a;
    uint64_t need = static_cast<uint64_t>(element_count(pa.host.extents)) * (pa.host.elem ? pa.host.elem->size : 0);
    if (pa.host.extents.empty() || need == 0 || pa.host.bytes.size() < need) {
      throw PlanError{loc, "the gather array has no elements"};
    }
    a.base = const_cast<std::byte*>(pa.host.bytes.data());
    a.elem_size = pa.host.elem ? static_cast<int64_t>(pa.host.elem->size) : 0;
    a.rank = static_cast<int64_t>(pa.host.extents.size());
    if (a.rank > kMaxRank) throw PlanError{loc, "gather arrays of more than 4 dimensions are not supported"};
    auto strides = row_major_strides(pa.host.extents);
    for (size_t d = 0; d < pa.host.extents.size(); ++d) {
      a.stride[d] = strides[d];
      a.extent[d] = std::max<int64_t>(pa.host.extents[d], 1);
    }
    return a;
  }
  // Runs a plan's aliasing copies (plan.hpp's AliasCopy) into scratch from
  // the pool, which the next launch gets back without page faults.
  std::vector<HostBlock> run_copies(const std::vector<AliasCopy>& copies, SourceLoc loc) {
    std::vector<HostBlock> scratch;
    if (copies.empty()) return scratch;
    auto t0 = std::chrono::steady_clock::now();
    for (const AliasCopy& c : copies) {
      const size_t es = c.from.elem->size;
      const uint64_t bytes = static_cast<uint64_t>(element_count(c.from.extents)) * es;
      try {
        scratch.push_back(memory_.get(bytes, false));
      } catch (const std::bad_alloc&) {
        throw PlanError{loc, "out of memory copying a stream the call also writes"};
      }
      const std::byte* src = base_of(c.from.storage, loc);
      std::byte* dst = scratch.back().data();
      std::vector<std::pair<int64_t, int64_t>> rows;  // (storage index, length)
      for_each_row(c.from, [&](int64_t index, int64_t len) { rows.emplace_back(index, len); });
      const int64_t len = rows.empty() ? 0 : rows[0].second;
      auto copy_rows = [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last; ++r) {
          std::memcpy(dst + static_cast<size_t>(r * len) * es, src + static_cast<size_t>(rows[static_cast<size_t>(r)].first) * es,
                      static_cast<size_t>(len) * es);
        }
      };
      const int64_t n = static_cast<int64_t>(rows.size());
      if (bytes < (uint64_t{1} << 20) || n < 2 || pool_.size() == 1) {
        copy_rows(0, n);
      } else {
        const int64_t blocks = std::min<int64_t>(n, pool_.size() * 4);
        pool_.run(blocks, [&](int64_t i) { copy_rows(n * i / blocks, n * (i + 1) / blocks); });
      }
    }
    if (profile_) {
      profile_->alias_ms += ms_since(t0);
      profile_->alias_copies += static_cast<int64_t>(copies.size());
      for (const AliasCopy& c : copies) profile_->alias_bytes += Scheduler::host_bytes(c.from);
    }
    return scratch;
  }

  // Compiles (or finds) an entry point.
  void* entry(const std::string& kernel_name, const JitCompiler::Emit& emit, SourceLoc loc) {
    JitCompiler::Result r;
    try {
      r = compiler_.get(emit);
    } catch (const CodegenError& e) {
      throw PlanError{e.loc.valid() ? e.loc : loc, e.message};
    } catch (const std::exception& e) {
      throw PlanError{loc, e.what()};
    }
    if (r.compiled) {
      ++compiles_;
      stats_[kernel_name].compiles++;
    }
    stats_[kernel_name].compile_ms += r.ms;
    if (profile_) {
      Profile::Kernel& k = profile_->kernels[kernel_name];
      k.compiles += r.compiled ? 1 : 0;
      k.compile_ms += r.ms;
      if (!startup_reported_ && compiler_.startup_ms() > 0) {
        profile_->startup_ms += compiler_.startup_ms();
        startup_reported_ = true;
      }
    }
    return r.address;
  }
  FoldFn lane_fold(const ReducePlan& plan, const std::vector<ArgShape>& params, int lanes) {
    const ast::FuncDecl& red = *plan.reducer;
    auto key = std::make_tuple(&red, params, lanes);
    if (auto it = lane_folds_.find(key); it != lane_folds_.end()) return it->second;
    bool relaxed = options_.fp_relaxed;
    auto fn = reinterpret_cast<FoldFn>(entry(red.name, [&](llvm::Module& m, const std::string& name) {
      emit_fold(m, red, plan.input_param, plan.reduce_param, params, name, relaxed, lanes);
    }, plan.loc));
    lane_folds_[key] = fn;
    return fn;
  }

  void finish(LaunchState& st) {
    // An interrupted launch stopped its loops early: its outputs are garbage
    // and any error it recorded may be a consequence, so Ctrl-C wins.
    poll_interrupt();
    if (st.failed) throw PlanError{st.error_loc, st.error};
  }

  std::vector<VoutBuffer>* vouts_ = nullptr;  // set during run_map_vout
  JitOptions options_;
  JitCompiler compiler_;
  ThreadPool pool_;
  HostPool memory_;  // before storage_: blocks go back to it when streams go
  std::map<StorageId, Store> storage_;
  bool startup_reported_ = false;
  StorageId next_id_ = 1;
  int compiles_ = 0;
  std::map<std::pair<const ast::FuncDecl*, MapShape>, SliceFn> slices_;
  std::map<std::pair<const ast::FuncDecl*, std::vector<ArgShape>>, FoldFn> folds_;
  // Folds with several accumulators (emit_fold's `lanes`), by lane count.
  std::map<std::tuple<const ast::FuncDecl*, std::vector<ArgShape>, int>, FoldFn> lane_folds_;
  std::map<std::string, Stat> stats_;
};

bool operator<(const MapShape& a, const MapShape& b) {
  return std::tie(a.domain_rank, a.args, a.narrow_columns, a.exact_positions) <
         std::tie(b.domain_rank, b.args, b.narrow_columns, b.exact_positions);
}

void JitBackend::run_map(const MapPlan& plan) {
  auto t_start = std::chrono::steady_clock::now();
  const ast::FuncDecl& kernel = *plan.kernel;
  Extents domain = canonical_extents(plan.domain);
  if (domain.size() > kMaxRank) throw PlanError{plan.loc, "domains of more than 4 dimensions are not supported"};
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
          s.narrow_ratio[d] = m.num > 0 && m.den > 0 && m.num < (int64_t{1} << 26) && m.den < (int64_t{1} << 26);
        }
        break;
      }
      case ArgRole::Gather:
        rt = gather_rt(pa, plan.loc, base(pa));
        s.rank = static_cast<int>(rt.rank);
        s.counter_exact = std::all_of(rt.extent, rt.extent + rt.rank, [](int64_t e) { return e <= (int64_t{1} << 24) + 1; });
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
    fn = reinterpret_cast<SliceFn>(entry(kernel.name, [&](llvm::Module& m, const std::string& name) {
      emit_map(m, kernel, shape, name, relaxed);
    }, plan.loc));
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
    ParallelFor parallel = [&](int64_t n, const std::function<void(int64_t)>& task) { pool_.run(n, task); };
    const bool sequential = total < 4096 || threads == 1 || scatters;
    run_groups(kernel, plan.loc, domain, fn, launch, sequential ? nullptr : &parallel, threads * 4);
  } else if (total < 4096 || threads == 1 || scatters) {
    fn(&launch, 0, rows, 0, cols);
  } else if (rows >= threads * 4) {
    int64_t blocks = std::min<int64_t>(rows, threads * 8);
    pool_.run(blocks, [&](int64_t i) {
      fn(&launch, rows * i / blocks, rows * (i + 1) / blocks, 0, cols);
    });
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
      params[static_cast<size_t>(pa.param)].rank = static_cast<int>(rts[static_cast<size_t>(pa.param)].rank);
    }
    else {
      const ast::ParamDecl& p = *red.params[static_cast<size_t>(pa.param)];
      std::vector<std::byte> v = pa.value;
      v.resize(std::max<size_t>(v.size(), p.type ? p.type->size : 0));
      constants.push_back(std::move(v));
      rts[static_cast<size_t>(pa.param)].base = constants.back().data();
    }
  }
  params[static_cast<size_t>(plan.input_param)].role = ArgRole::Input;
  params[static_cast<size_t>(plan.reduce_param)].role = ArgRole::Output;
  auto key = std::make_pair(&red, params);
  FoldFn fold;
  if (auto it = folds_.find(key); it != folds_.end()) {
    fold = it->second;
  } else {
    bool relaxed = options_.fp_relaxed;
    fold = reinterpret_cast<FoldFn>(entry(red.name, [&](llvm::Module& m, const std::string& name) {
      emit_fold(m, red, plan.input_param, plan.reduce_param, params, name, relaxed);
    }, plan.loc));
    folds_[key] = fold;
  }
  LaunchState state;
  state.output = &options_.output;
  state.file = plan.loc.file;
  Launch launch;
  launch.args = rts.data();
  launch.state = &state;
  launch.interrupt = &interrupt_requested;
  const StreamView& in = plan.input;
  const size_t es = in.elem->size;
  std::byte* in_base = plan.input_copy >= 0 ? scratch.at(static_cast<size_t>(plan.input_copy)).data()
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
    std::vector<std::vector<std::byte>> partial(static_cast<size_t>(chunks), std::vector<std::byte>(es));
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
      for (int j = 0; j < kLanes; ++j) std::memcpy(accs.data() + j * es, element_ptr(in, first + j * len), es);
      lanes_fold(&launch, accs.data(), element_ptr(in, first) + es, len * static_cast<int64_t>(es), len - 1);
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
      for (size_t d = 0; d < ro && d < r; ++d) origin[r - 1 - d] = opos[ro - 1 - d] * plan.block[r - 1 - d];
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
            lanes_fold(&launch, acc.data(), in_ptr[0] + es, static_cast<int64_t>(step), block_count - 1);
            for (int j = 0; j < kLanes; ++j) std::memcpy(out_ptr[j], acc.data() + j * es, es);
            o += kLanes;
            continue;
          }
        }
        std::byte *in_ptr, *out_ptr;
        locate(o, in_ptr, out_ptr, row_blocks ? nullptr : &block);
        std::memcpy(acc.data(), in_ptr, es);
        if (row_blocks) fold(&launch, acc.data(), in_ptr + es, static_cast<int64_t>(es), block_count - 1);
        else fold_range(block, 1, block_count, acc.data());
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

namespace {

// a op= b per component, on the scalar components of an element type.
template <class T>
void combine_as(std::byte* a, const std::byte* b, int op, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    T r = op == 1 ? static_cast<T>(x + y) : op == 2 ? static_cast<T>(x * y) : y;
    std::memcpy(a + i * sizeof(T), &r, sizeof(T));
  }
}

bool combine(const Type* t, std::byte* a, const std::byte* b, int op) {
  const Type* s = t->scalar_of();
  size_t n = t->width();
  switch (s->kind) {
    case TypeKind::Float: combine_as<float>(a, b, op, n); return true;
    case TypeKind::Double: combine_as<double>(a, b, op, n); return true;
    case TypeKind::Int: combine_as<int32_t>(a, b, op, n); return true;
    case TypeKind::UInt: combine_as<uint32_t>(a, b, op, n); return true;
    case TypeKind::Char: combine_as<int8_t>(a, b, op, n); return true;
    case TypeKind::UChar: combine_as<uint8_t>(a, b, op, n); return true;
    case TypeKind::Short: combine_as<int16_t>(a, b, op, n); return true;
    case TypeKind::UShort: combine_as<uint16_t>(a, b, op, n); return true;
    case TypeKind::Long: combine_as<int64_t>(a, b, op, n); return true;
    case TypeKind::ULong: combine_as<uint64_t>(a, b, op, n); return true;
    default: return false;
  }
}

// Component j of an index element as an integer; floats round (int)(f + 0.5f)
// after clamping to +-1e18, NaN is -1 (out of range), as the reference does.
int64_t index_component(const Type* t, const std::byte* p, uint32_t j) {
  const Type* s = t->scalar_of();
  const std::byte* c = p + j * s->size;
  switch (s->kind) {
    case TypeKind::Float: {
      float f;
      std::memcpy(&f, c, 4);
      if (f != f) return -1;
      return static_cast<int64_t>(std::max(-1.0e18f, std::min(1.0e18f, f + 0.5f)));
    }
    case TypeKind::Double: {
      double f;
      std::memcpy(&f, c, 8);
      if (f != f) return -1;
      return static_cast<int64_t>(std::max(-1.0e18, std::min(1.0e18, f + 0.5)));
    }
    case TypeKind::Int: { int32_t v; std::memcpy(&v, c, 4); return v; }
    case TypeKind::UInt: { uint32_t v; std::memcpy(&v, c, 4); return v; }
    case TypeKind::Long: { int64_t v; std::memcpy(&v, c, 8); return v; }
    case TypeKind::ULong: { uint64_t v; std::memcpy(&v, c, 8); return static_cast<int64_t>(v); }
    case TypeKind::Short: { int16_t v; std::memcpy(&v, c, 2); return v; }
    case TypeKind::UShort: { uint16_t v; std::memcpy(&v, c, 2); return v; }
    case TypeKind::Char: return static_cast<int8_t>(*c);
    case TypeKind::UChar: return static_cast<uint8_t>(*c);
    case TypeKind::Bool: return static_cast<uint8_t>(*c) != 0;
    default: return 0;
  }
}

// (x, y, ...): the last dimension first, like the reference backend.
std::string position_text(const std::vector<int64_t>& pos) {
  if (pos.size() == 1) return std::to_string(pos[0]);
  std::string s = "(";
  for (size_t j = 0; j < pos.size(); ++j) s += (j ? ", " : "") + std::to_string(pos[pos.size() - 1 - j]);
  return s + ")";
}

}  // namespace

void JitBackend::run_gather_scatter(const GatherScatterPlan& plan) {
  const StreamView& arr = plan.array;
  const size_t es = arr.elem->size;
  std::byte* abase = base_of(arr.storage, plan.loc);
  std::byte* vbase = base_of(plan.values.storage, plan.loc);
  std::byte* ibase = base_of(plan.index.storage, plan.loc);
  auto a_strides = row_major_strides(arr.stream_extents);
  // Storage indices of the index and value elements, row-major.
  std::vector<int64_t> ii, vi;
  for_each_row(plan.index, [&](int64_t s, int64_t len) { for (int64_t k = 0; k < len; ++k) ii.push_back(s + k); });
  for_each_row(plan.values, [&](int64_t s, int64_t len) { for (int64_t k = 0; k < len; ++k) vi.push_back(s + k); });
  const Type* it = plan.index.elem;
  // Validate every index first: a bad one writes nothing. Positions are in
  // canonical coordinates of the array and of the index stream.
  const Extents array_c = canonical_extents(arr.extents);
  const Extents values_c = canonical_extents(plan.values.extents);
  const size_t lead = arr.extents.size() - array_c.size();
  std::vector<int64_t> target(ii.size());
  std::vector<int64_t> k(values_c.size(), 0);
  for (size_t e = 0; e < ii.size(); ++e) {
    const std::byte* ip = ibase + static_cast<size_t>(ii[e]) * it->size;
    std::vector<int64_t> pos(array_c.size(), 0);
    uint32_t n = std::min<uint32_t>(it->width(), static_cast<uint32_t>(array_c.size()));
    for (uint32_t j = 0; j < n; ++j) pos[array_c.size() - 1 - j] = index_component(it, ip, j);
    int64_t index = 0;
    for (size_t d = 0; d < array_c.size(); ++d) {
      if (pos[d] < 0 || pos[d] >= array_c[d]) {
        throw PlanError{plan.loc, "index " + position_text(pos) + " of element " + position_text(k) +
                                      " is outside the array " + shape_text(array_c)};
      }
      index += (arr.offset[lead + d] + pos[d]) * a_strides[lead + d];
    }
    for (size_t d = 0; d < lead; ++d) index += arr.offset[d] * a_strides[d];
    target[e] = index;
    for (size_t d = k.size(); d-- > 0;) {
      if (++k[d] < values_c[d]) break;
      k[d] = 0;
    }
  }
  FoldFn fold = nullptr;
  int reduce_param = -1;
  LaunchState state;
  state.output = &options_.output;
  std::vector<ArgRt> rts;
  Launch launch;
  if (plan.op) {
    const ast::FuncDecl& red = *plan.op;
    int first = -1, second = -1;
    std::vector<ArgShape> params(red.params.size());
    for (size_t i = 0; i < red.params.size(); ++i) {
      auto k = red.params[i]->pkind;
      if (k == ast::ParamKind::Input || k == ast::ParamKind::Reduce) {
        (first < 0 ? first : second) = static_cast<int>(i);
        if (k == ast::ParamKind::Reduce) reduce_param = static_cast<int>(i);
      }
    }
    if (first < 0 || second < 0 || reduce_param < 0) throw PlanError{plan.loc, "'" + red.name + "' is not a reduction of two streams"};
    int input_param = reduce_param == first ? second : first;
    params[static_cast<size_t>(input_param)].role = ArgRole::Input;
    params[static_cast<size_t>(reduce_param)].role = ArgRole::Output;
    rts.resize(red.params.size());
    auto key = std::make_pair(&red, params);
    if (auto f = folds_.find(key); f != folds_.end()) {
      fold = f->second;
    } else {
      bool relaxed = options_.fp_relaxed;
      fold = reinterpret_cast<FoldFn>(entry(red.name, [&](llvm::Module& m, const std::string& name) {
        emit_fold(m, red, input_param, reduce_param, params, name, relaxed);
      }, plan.loc));
      folds_[key] = fold;
    }
    launch.args = rts.data();
    launch.state = &state;
    launch.interrupt = &interrupt_requested;
    // Which of (array element, value element) is the reduce parameter.
    reduce_param = reduce_param == first ? 0 : 1;
  }
  const size_t vs = plan.values.elem->size;
  std::vector<std::byte> tmp(std::max(es, vs)), acc(std::max(es, vs));
  for (size_t k = 0; k < ii.size(); ++k) {
    std::byte* a = abase + static_cast<size_t>(target[k]) * es;
    std::byte* v = vbase + static_cast<size_t>(vi[k]) * vs;
    if (!plan.is_scatter) {
      std::memcpy(v, a, std::min(es, vs));
      if (fold) {
        std::memcpy(acc.data(), a, es);
        std::memcpy(tmp.data(), a, es);
        fold(&launch, acc.data(), tmp.data(), 0, 1);
        std::memcpy(a, acc.data(), es);
      } else if (plan.builtin_op == stdlib::STREAM_GATHER_INC) {
        // a += 1 per component.
        std::vector<std::byte> one(es);
        const Type* s = arr.elem->scalar_of();
        for (uint32_t c = 0; c < arr.elem->width(); ++c) {
          std::byte* p = one.data() + c * s->size;
          if (s->kind == TypeKind::Float) { float f = 1; std::memcpy(p, &f, 4); }
          else if (s->kind == TypeKind::Double) { double f = 1; std::memcpy(p, &f, 8); }
          else std::memset(p, 0, s->size), *p = std::byte{1};
        }
        combine(arr.elem, a, one.data(), 1);
      }
    } else if (fold) {
      if (reduce_param == 0) {
        fold(&launch, a, v, 0, 1);  // a = f(a, s[k])
      } else {
        std::memcpy(tmp.data(), a, es);
        fold(&launch, v, tmp.data(), 0, 1);  // s[k] = f(a, s[k]) with s[k] the accumulator
      }
    } else if (plan.builtin_op == stdlib::STREAM_SCATTER_ASSIGN) {
      std::memcpy(a, v, std::min(es, vs));
    } else if (!combine(arr.elem, a, v, plan.builtin_op == stdlib::STREAM_SCATTER_MUL ? 2 : 1)) {
      throw PlanError{plan.loc, "this scatter operator needs numeric elements"};
    }
  }
  finish(state);
}

std::string JitBackend::profile_report() const {
  std::ostringstream os;
  os << "kernel                compiles  compile ms  launches      run ms     elements/s\n";
  char line[256];
  for (const auto& [name, s] : stats_) {
    double eps = s.run_ms > 0 ? static_cast<double>(s.elements) / (s.run_ms / 1000.0) : 0;
    std::snprintf(line, sizeof line, "%-20s %9d %11.2f %9lld %11.3f %14.4g\n", name.c_str(),
                  s.compiles, s.compile_ms, static_cast<long long>(s.launches), s.run_ms, eps);
    os << line;
  }
  if (compiler_.startup_ms() > 0) {
    std::snprintf(line, sizeof line, "JIT start-up (once per process, before the first compile): %.2f ms\n",
                  compiler_.startup_ms());
    os << line;
  }
  return os.str();
}

}  // namespace jit

std::unique_ptr<Backend> make_jit_backend(const JitOptions& options) {
  return std::make_unique<jit::JitBackend>(options);
}

std::string jit_profile_report(const Backend& backend) {
  const auto* j = dynamic_cast<const jit::JitBackend*>(&backend);
  return j ? j->profile_report() : std::string();
}

int jit_compile_count(const Backend& backend) {
  const auto* j = dynamic_cast<const jit::JitBackend*>(&backend);
  return j ? j->compiles() : 0;
}

std::string jit_emit_llvm(const ast::Program& program, bool fp_relaxed, std::string_view only) {
  jit::JitCompiler compiler(false);
  std::string out;
  for (const auto& item : program.items) {
    const auto* ds = item->as<ast::DeclStmt>();
    if (!ds) continue;
    for (const auto& d : ds->decls) {
      const auto* f = d->as<ast::FuncDecl>();
      if (!f || !f->body || f->fkind == ast::FuncKind::Host) continue;
      if (!only.empty() && f->name != only) continue;
      try {
        if (f->fkind == ast::FuncKind::Kernel) {
          bool has_out = false;
          jit::MapShape shape;
          shape.narrow_columns = true;  // as every launch of fewer than 2^31 columns
          for (const auto& p : f->params) {
            jit::ArgShape s;
            switch (p->pkind) {
              case ast::ParamKind::Input: s.role = ArgRole::Input; break;
              case ast::ParamKind::Iter: s.role = ArgRole::Iter; break;
              case ast::ParamKind::Out: s.role = ArgRole::Output; has_out = true; break;
              case ast::ParamKind::Gather: s.role = ArgRole::Gather; s.rank = p->gather_rank; break;
              default: s.role = ArgRole::Constant; break;
            }
            if (s.role == ArgRole::Input || s.role == ArgRole::Iter || s.role == ArgRole::Output) {
              s.rank = 1;
              s.out_dim[0] = 0;
              s.identity[0] = true;
            }
            shape.args.push_back(s);
          }
          if (!has_out) continue;
          out += "; kernel " + f->name + " (1-D streams of the domain's shape)\n";
          out += compiler.optimized_ir([&](llvm::Module& m, const std::string& name) {
            jit::emit_map(m, *f, shape, name, fp_relaxed);
          });
        } else {
          int in = -1, red = -1;
          std::vector<jit::ArgShape> params(f->params.size());
          for (size_t i = 0; i < f->params.size(); ++i) {
            auto k = f->params[i]->pkind;
            if (k == ast::ParamKind::Input) in = static_cast<int>(i), params[i].role = ArgRole::Input;
            else if (k == ast::ParamKind::Reduce) red = static_cast<int>(i), params[i].role = ArgRole::Output;
            else if (k == ast::ParamKind::Gather) params[i].role = ArgRole::Gather, params[i].rank = f->params[i]->gather_rank;
          }
          if (in < 0 || red < 0) continue;
          out += "; reduce " + f->name + "\n";
          out += compiler.optimized_ir([&](llvm::Module& m, const std::string& name) {
            jit::emit_fold(m, *f, in, red, params, name, fp_relaxed);
          });
        }
      } catch (const jit::CodegenError& e) {
        out += "; " + f->name + ": " + e.message + "\n";
      }
    }
  }
  return out;
}

}  // namespace brook
