// The StreamHost the Engine uses (LANGUAGE.md §4–§8): stream handles and
// views, streamRead/Write/Swap/Print/Size, gather/scatter operators, kernel
// launches and reductions. Every call becomes a plan (backends/scheduler.hpp)
// that the selected Backend runs; shape errors become runtime errors at the call.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "backends/backend.hpp"
#include "interp/limits.hpp"
#include "runtime/stream_display.hpp"
#include "runtime/stream_host.hpp"

namespace brook {

// `brook emit plan`: the program's stdout is dropped, plans go to stdout in
// its place, stderr passes through.
class PlanOnlySink : public interp::OutputSink {
 public:
  explicit PlanOnlySink(interp::OutputSink& inner) : inner_(&inner) {}
  void write(int stream, std::string_view text) override {
    if (stream != 1) inner_->write(stream, text);
  }
  void flush() override { inner_->flush(); }
  void plan(std::string_view text) { inner_->write(1, text); }

 private:
  interp::OutputSink* inner_;
};

class StreamRuntime : public StreamHost {
 public:
  explicit StreamRuntime(std::unique_ptr<Backend> backend);
  ~StreamRuntime() override;

  Backend& backend() { return *backend_; }
  // Swaps in another backend; only possible while no stream exists (storage
  // belongs to the backend that made it). False otherwise.
  bool replace_backend(std::unique_ptr<Backend> backend) {
    if (!records_.empty()) return false;
    backend_ = std::move(backend);
    backend_->set_profile(profile_);
    return true;
  }
  // Moves every live stream to `backend` and makes it the one plans run on:
  // each storage is read through the current backend and written into new
  // storage of the same size on `backend`; views and iterators follow their
  // storage, so every handle keeps meaning the same stream. If anything throws
  // (allocation, a transfer), the storage made so far on `backend` is freed,
  // the current backend stays, and the exception propagates. Returns the
  // number of streams moved.
  size_t move_to(std::unique_ptr<Backend> backend);
  // Where each plan is described as it is made (--dump-plans, `brook emit
  // plan`); unset: nowhere.
  void set_plan_output(std::function<void(std::string_view)> f) { plan_output_ = std::move(f); }
  // --profile: rows for allocation, host<->device copies and launches go to
  // `p` (and the backend's own rows too); null: not profiling.
  void set_profile(Profile* p) {
    profile_ = p;
    backend_->set_profile(p);
  }

  // Stream storage and aliasing scratch count against `budget` (--max-memory,
  // shared with the host heap); unset: a budget of this runtime's own, uncapped.
  void set_memory_budget(MemoryBudget* budget) { budget_ = budget; }

  uint64_t create(interp::Machine& m, const ast::VarDecl& decl, std::span<const int64_t> extents,
                  std::span<const StreamArg> init) override;
  void release(interp::Machine& m, uint64_t handle) override;
  StreamArg builtin(interp::Machine& m, stdlib::Builtin id, const ast::CallExpr& call,
                    std::span<const StreamArg> args) override;
  void launch(interp::Machine& m, const ast::CallExpr& call, std::span<StreamArg> args) override;
  uint64_t domain(interp::Machine& m, const ast::DomainExpr& e, const StreamArg& stream,
                  const StreamArg& start, const StreamArg& end) override;
  void check_extents(interp::Machine& m, uint64_t handle, std::span<const int64_t> extents,
                     const ast::ParamDecl& p, SourceLoc loc) override;

  // The view a handle designates (tests).
  const StreamView& view_of(uint64_t handle, SourceLoc loc) const;

  // While set, streamPrint shows streams as the REPL does
  // (runtime/stream_display.hpp) instead of in BrookGPU's format.
  void set_display(std::optional<StreamDisplay> how) { display_ = how; }

 private:
  struct Record {
    StreamView view;
    bool owner = false;  // a declared stream (owns its storage), not a view
    uint64_t bytes = 0;  // owner: the storage's size
    // A stream declared with an extent of 0 (BrookGPU's and Brook+'s
    // samples declare one they never use): no storage, and any use is this
    // runtime error.
    std::string unusable;
    bool empty_view = false;  // an empty domain of a stream (unusable says so)
  };
  // Whether `a` is an empty domain view (Scheduler::empty_domain).
  bool is_empty_view(const StreamArg& a) const;
  const Record& record(uint64_t handle, SourceLoc loc) const;
  Record& record(uint64_t handle, SourceLoc loc);
  uint64_t add(Record r);
  // Views made for one call are dropped once the call has used them.
  void drop_views(std::span<const StreamArg> args);
  void show(const std::string& text);
  void print(interp::Machine& m, const StreamView& view);
  void file_transfer(interp::Machine& m, stdlib::Builtin id, const StreamView& view, uint64_t path_ptr,
                     SourceLoc loc);
  // host_type: the host object's type as written (a fixed array converts).
  void read_write(interp::Machine& m, bool read, const StreamView& view, const Type* host_type,
                  uint64_t pointer, SourceLoc loc);
  void gather_scatter(interp::Machine& m, bool scatter, const ast::CallExpr& call,
                      std::span<const StreamArg> args, SourceLoc loc);
  CallArg call_arg(const ast::ParamDecl& p, const StreamArg& a, const ast::Expr* written, SourceLoc loc);
  void run_kernel(interp::Machine& m, const ast::FuncDecl& kernel, const ast::CallExpr& call,
                  std::span<StreamArg> args, SourceLoc loc);
  void run_reduction(interp::Machine& m, const ast::FuncDecl& reducer, const ast::CallExpr& call,
                     std::span<StreamArg> args, SourceLoc loc);
  // --profile: a launch of `name` that began at `t0`, with the compile, alias
  // and start-up rows at `overhead0` then; those are not its run time.
  void charge_launch(const std::string& name, Profile::Clock::time_point t0, double overhead0,
                     int64_t elements, uint64_t bytes);
  double* transfer_timer(uint64_t bytes);
  // A launch with vout outputs (§12): runs it, then gives each vout stream
  // its pushed elements and new extents (runtime/stream_vout.cpp).
  void run_vout_kernel(const MapPlan& plan, std::span<StreamArg> args, SourceLoc loc);

  std::unique_ptr<Backend> backend_;
  std::function<void(std::string_view)> plan_output_;
  Profile* profile_ = nullptr;
  std::unordered_map<uint64_t, Record> records_;
  uint64_t next_handle_ = 1;
  uint64_t live_bytes_ = 0;
  MemoryBudget own_budget_;
  MemoryBudget* budget_ = &own_budget_;
  std::optional<StreamDisplay> display_;
};

}  // namespace brook
