// The JIT backend's one class, shared by the files that implement it:
// jit_backend.cpp (storage, copies, compiling, the profile), jit_map.cpp
// (map launches), jit_reduce.cpp (reductions), jit_gather_scatter.cpp (the
// gather and scatter operators). Internal to jit/.
#pragma once

#include <chrono>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "backends/host_pool.hpp"
#include "backends/profile.hpp"
#include "backends/view_layout.hpp"
#include "interp/interrupt.hpp"
#include "jit/abi.hpp"
#include "jit/codegen.hpp"
#include "jit/compiler.hpp"
#include "jit/jit_backend.hpp"
#include "jit/launch_state.hpp"
#include "jit/thread_pool.hpp"

namespace brook::jit {

// jit_profile_report's per-kernel row: the same counters as --profile's.
using Stat = Profile::Kernel;

// The order of the compiled-slice cache (jit_map.cpp).
bool operator<(const MapShape& a, const MapShape& b);

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

inline int pick_threads(int requested) {
  if (requested > 0) return std::min(requested, 256);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

class JitBackend final : public Backend {
 public:
  explicit JitBackend(const JitOptions& o)
      : options_(o), compiler_(o.tuning, o.cache_dir), pool_(pick_threads(o.threads)) {}

  std::string_view name() const override { return "jit"; }

  // From the pool (backends/host_pool.hpp): a stream declared in a loop gets
  // its memory back, zeroed, without new page faults.
  StorageId allocate(uint64_t bytes) override {
    HostBlock b;
    try {
      b = memory_.get(bytes, true);
    } catch (const std::bad_alloc&) {
      throw PlanError{{},
                      "out of memory allocating a stream of " + std::to_string(bytes) + " bytes"};
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
  void copy_view(const StreamView& view, std::byte* host, size_t host_size, bool to_stream);
  // `base`: the storage's bytes (null: look up v.storage).
  ArgRt view_rt(const StreamView& v, const std::vector<DimMap>* map, SourceLoc loc,
                std::byte* base = nullptr);
  ArgRt gather_rt(const PlanArg& pa, SourceLoc loc, std::byte* base = nullptr);
  // Runs a plan's aliasing copies (plan.hpp's AliasCopy) into scratch from
  // the pool, which the next launch gets back without page faults.
  std::vector<HostBlock> run_copies(const std::vector<AliasCopy>& copies, SourceLoc loc);

  // Compiles (or finds) an entry point.
  void* entry(const std::string& kernel_name, const JitCompiler::Emit& emit, SourceLoc loc);
  // The fold of `plan`'s reducer with `lanes` accumulators (emit_fold).
  FoldFn lane_fold(const ReducePlan& plan, const std::vector<ArgShape>& params, int lanes);
  FoldFn fold_of(const ast::FuncDecl& red, int input_param, int reduce_param,
                 const std::vector<ArgShape>& params, SourceLoc loc);

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

}  // namespace brook::jit
