// `out` vector parameters bound to streams of fewer components (LANGUAGE.md
// §12: BrookGPU wrote an `out float2` into a `float` stream, and a GPU kept
// the first channels). The launch writes a temporary stream of the
// parameter's type; commit() copies each element's first components back.
#pragma once

#include <span>
#include <vector>

#include "backends/backend.hpp"
#include "backends/scheduler.hpp"
#include "interp/limits.hpp"

namespace brook {

class NarrowedOutputs {
 public:
  // Replaces, in `args`, each narrowed output's view by a temporary holding
  // the stream's present values widened (the components it lacks are 0).
  NarrowedOutputs(Backend& backend, MemoryBudget& budget, const ast::FuncDecl& kernel,
                  std::span<CallArg> args, SourceLoc loc);
  ~NarrowedOutputs();
  NarrowedOutputs(const NarrowedOutputs&) = delete;
  NarrowedOutputs& operator=(const NarrowedOutputs&) = delete;

  // After the launch: the streams receive the temporaries' first components.
  void commit();

 private:
  struct Output {
    StreamView target;  // the caller's stream (or view of one)
    StreamView temp;    // of the parameter's type, the target's shape
    uint64_t bytes = 0;
  };
  Backend& backend_;
  MemoryBudget& budget_;
  std::vector<Output> outputs_;
};

}  // namespace brook
