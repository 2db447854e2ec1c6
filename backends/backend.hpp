// The Backend interface: where stream storage lives and where plans run.
// The host interpreter never touches stream storage directly: it asks the
// scheduler for a plan and hands it to the selected backend.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "backends/plan.hpp"
#include "backends/profile.hpp"
#include "backends/scheduler.hpp"

namespace brook {

// Where a backend sends the output of `printf` inside kernels.
using OutputSink = std::function<void(std::string_view text)>;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;

  // Storage for one stream: `bytes` long, zeroed. Freed by release().
  virtual StorageId allocate(uint64_t bytes) = 0;
  virtual void release(StorageId storage) = 0;

  // streamRead: copy a dense, row-major host buffer into the elements of `view`.
  virtual void write_view(const StreamView& view, std::span<const std::byte> host) = 0;
  // streamWrite / streamPrint / host reads: copy the elements of `view` out.
  virtual void read_view(const StreamView& view, std::span<std::byte> host) = 0;

  // Run a kernel launch. Errors are thrown as PlanError (a runtime error at its loc).
  virtual void run_map(const MapPlan& plan) = 0;
  // A launch with vout outputs (§12, PlanArg::vout_bound >= 0): runs like
  // run_map and returns, for each vout argument in parameter order, the pushed
  // elements in row-major invocation order and push order within an
  // invocation. More pushes than a bound allows is a PlanError at plan.loc.
  virtual std::vector<std::vector<std::byte>> run_map_vout(const MapPlan& plan);
  // Run a reduction. To a stream: writes plan.output. To a host value: writes
  // the folded value (plan.input.elem->size bytes) into `result`.
  virtual void run_reduce(const ReducePlan& plan, std::span<std::byte> result) = 0;
  // streamGatherOp / streamScatterOp.
  virtual void run_gather_scatter(const GatherScatterPlan& plan) = 0;

  // --profile: where the backend adds what only it sees (compiles, aliasing
  // copies, one-time start-up); null when not profiling. Owned by the Engine.
  void set_profile(Profile* p) { profile_ = p; }
  Profile* profile() const { return profile_; }

 protected:
  Profile* profile_ = nullptr;
};

}  // namespace brook
