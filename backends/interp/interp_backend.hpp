// The reference backend (LANGUAGE.md §4–§8): stream storage in host memory;
// kernel and reduce bodies compiled once each by the interpreter core and
// evaluated per element, in row-major order of the domain.
#pragma once

#include <functional>

#include <memory>
#include <unordered_map>
#include <vector>

#include "backends/backend.hpp"
#include "backends/host_pool.hpp"
#include "interp/compiler.hpp"
#include "backends/interp/kernel_context.hpp"
#include "backends/interp/kernel_hooks.hpp"
#include "interp/machine.hpp"
#include "lang/source.hpp"

namespace brook {

class InterpBackend : public Backend {
 public:
  // `sources` must outlive the backend (kernel printf and messages use it).
  InterpBackend(const SourceManager& sources, brook::OutputSink output);
  ~InterpBackend() override;

  std::string_view name() const override { return "interp"; }
  StorageId allocate(uint64_t bytes) override;
  void release(StorageId storage) override;
  void write_view(const StreamView& view, std::span<const std::byte> host) override;
  void read_view(const StreamView& view, std::span<std::byte> host) override;
  void run_map(const MapPlan& plan) override;
  std::vector<std::vector<std::byte>> run_map_vout(const MapPlan& plan) override;
  void run_reduce(const ReducePlan& plan, std::span<std::byte> result) override;
  void run_gather_scatter(const GatherScatterPlan& plan) override;

  // The bytes of a storage (for tests and the stream runtime's fast paths).
  std::byte* storage_data(StorageId storage);

 private:
  class Sink;
  std::byte* data(StorageId storage);
  // Runs `body` of `fn` once with the frame filled by `fill`, then `drain`.
  template <class Fill, class Drain>
  void invoke_body(interp::CompiledFunction& fn, SourceLoc loc, Fill&& fill, Drain&& drain);
  // Runs a reduce body with its two stream parameters bound to `a` (the
  // first in declaration order) and `b`; returns the reduce parameter's value
  // in `result`, and whether the reduce parameter was the first.
  void run_reducer(const ast::FuncDecl& reducer, SourceLoc loc, const std::vector<PlanArg>& extra,
                   const std::byte* first, const std::byte* second, std::byte* result);
  // A Brook+ work-group kernel's launch (kernel_groups.cpp): group by group,
  // phase by phase between syncGroup()s; `pos` is the position fill/drain use.
  void run_groups(const MapPlan& plan, interp::CompiledFunction& fn, std::vector<int64_t>& pos,
                  const std::function<void(uint8_t*)>& fill,
                  const std::function<void(uint8_t*)>& drain);
  std::vector<interp::BoundStream> bind(const std::vector<PlanArg>& args, size_t param_count,
                                        const std::vector<HostBlock>& scratch);
  // A plan's aliasing copies (plan.hpp's AliasCopy), into pooled scratch.
  std::vector<HostBlock> run_copies(const std::vector<AliasCopy>& copies);

  std::unique_ptr<Sink> sink_;
  interp::Machine machine_;
  interp::KernelContext context_;
  interp::KernelNodes kernel_nodes_;
  interp::KernelHostHooks host_hooks_;
  interp::Compiler compiler_;
  HostPool memory_;  // before storage_: blocks go back to it
  std::unordered_map<StorageId, HostBlock> storage_;
  StorageId next_ = 1;
};

}  // namespace brook
