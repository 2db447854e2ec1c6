// Brook+ work-group kernels on the reference backend (LANGUAGE.md §12,
// lang/analysis_group.hpp): groups run one after another; inside a group
// every invocation keeps its own frame. Where the facts say `phased`, the
// kernel body's top-level block runs phase by phase (the statements between
// syncGroup()s) for all of the group's invocations before the next phase
// starts. Otherwise (a syncGroup() inside a loop or branch) each invocation
// is a fiber (interp/fiber.hpp) that syncGroup() suspends; once every
// invocation waits at the same syncGroup() the next round resumes them all.
// Shared arrays are the compiler's objects for their declarations, zeroed
// when a group starts.
#include <cstring>

#include "backends/interp/interp_backend.hpp"
#include "backends/interp/kernel_hooks.hpp"
#include "backends/interp/kernel_loops.hpp"
#include "interp/fiber.hpp"
#include "interp/interrupt.hpp"
#include "interp/stmt_nodes.hpp"
#include "lang/analysis_group.hpp"

namespace brook {

using interp::RuntimeError;

namespace {

// The body's top-level statement nodes cut at syncGroup() statements.
std::vector<std::vector<interp::StmtNode*>> phases_of(interp::StmtNode* body, SourceLoc loc) {
  auto* block = dynamic_cast<interp::BlockNode*>(body);
  if (!block) throw RuntimeError{loc, "internal error: a group kernel's body is not a block"};
  std::vector<std::vector<interp::StmtNode*>> phases(1);
  for (auto& s : block->body) {
    auto* e = dynamic_cast<interp::ScalarExprStmt*>(s.get());
    if (e && dynamic_cast<interp::SyncGroupNode*>(e->e.get())) {
      phases.emplace_back();
      continue;
    }
    phases.back().push_back(s.get());
  }
  return phases;
}

}  // namespace

void InterpBackend::run_groups(const MapPlan& plan, interp::CompiledFunction& fn,
                               std::vector<int64_t>& pos, const std::function<void(uint8_t*)>& fill,
                               const std::function<void(uint8_t*)>& drain) {
  const ast::FuncDecl& k = *plan.kernel;
  if (std::string e = analysis::group_domain_error(k, plan.domain); !e.empty())
    throw PlanError{plan.loc, e};
  if (!fn.body) throw RuntimeError{plan.loc, "'" + fn.name + "' is declared but never defined"};
  if (!fn.escaping.empty())
    throw RuntimeError{plan.loc, "internal error: a group kernel with escaping locals"};
  const analysis::GroupFacts facts = analysis::group_facts(k);
  const std::vector<std::vector<interp::StmtNode*>> phases = phases_of(fn.body.get(), plan.loc);
  const size_t rank = plan.domain.size();
  const std::vector<int64_t> gext = analysis::group_extents(k, rank);
  std::vector<int64_t> ngroups(rank);
  for (size_t d = 0; d < rank; ++d) ngroups[d] = plan.domain[d] / gext[d];

  std::vector<std::pair<uint8_t*, uint64_t>> shared;
  for (const analysis::SharedArray& a : facts.shared) {
    uint32_t id = compiler_.global_object(a.var, a.var->loc);
    shared.emplace_back(machine_.memory.data(id), static_cast<uint64_t>(a.elements) * a.elem_size);
  }

  const int64_t count = facts.count;
  const int64_t gx = facts.size[0], gy = facts.size[1];
  std::vector<int64_t> gpos(rank, 0), origin(rank, 0);
  std::vector<uint8_t*> frames(static_cast<size_t>(count));
  std::vector<char> done(static_cast<size_t>(count));
  // Sets `pos` and instanceInGroup() for invocation L of the current group.
  auto place = [&](int64_t L) {
    int64_t local[3] = {L % gx, (L / gx) % gy, L / (gx * gy)};
    for (size_t d = 0; d < rank; ++d) pos[d] = origin[d];
    for (size_t j = 0; j < 3 && j < rank; ++j) pos[rank - 1 - j] += local[j];
    for (size_t j = 0; j < 3; ++j) context_.in_group[j] = static_cast<int32_t>(local[j]);
    context_.in_group[3] = 0;
    int64_t linear = 0;
    for (size_t d = 0; d < rank; ++d) linear = linear * plan.domain[d] + pos[d];
    context_.invocation = linear;
  };
  // The fiber path: invocation L runs the whole body on fiber L.
  interp::FiberSet fibers;
  auto enter = [&](int64_t L) {
    place(L);
    machine_.fp = frames[static_cast<size_t>(L)];
    machine_.depth = 1;
    machine_.ret.u = 0;
  };
  auto body = [&](int64_t L) {
    enter(L);
    fn.body->exec(machine_);  // a `return` just ends the invocation
  };
  context_.sync = [&](uint64_t site) {
    interp::FiberSet* set = interp::FiberSet::current();
    if (!set) throw RuntimeError{plan.loc, "internal error: syncGroup() outside a group's fiber"};
    // Other invocations run meanwhile and move fp, pos and instanceInGroup().
    const int64_t L =
        context_.in_group[0] + gx * (context_.in_group[1] + gy * context_.in_group[2]);
    if (set->yield(site)) throw interp::FiberCancelled{};
    enter(L);
  };
  struct SyncReset {
    interp::KernelContext& c;
    ~SyncReset() { c.sync = nullptr; }
  } sync_reset{context_};
  auto run_fibers = [&] {
    fibers.start(count, body);
    try {
      for (;;) {
        for (int64_t L = 0; L < count; ++L) fibers.resume(L);
        // Every invocation has finished, or waits at a syncGroup(): all at
        // the same one, or the group diverged.
        int64_t waiting = 0;
        uint64_t site = 0;
        bool same = true;
        for (int64_t L = 0; L < count; ++L) {
          if (fibers.finished(L)) continue;
          if (waiting++ == 0)
            site = fibers.site(L);
          else if (fibers.site(L) != site)
            same = false;
        }
        if (waiting == 0) return;
        poll_interrupt();
        if (waiting != count || !same) throw PlanError{plan.loc, analysis::divergent_sync_error(k)};
      }
    } catch (...) {
      fibers.cancel_all();  // unwinds the suspended invocations' native frames
      throw;
    }
  };
  do {
    for (size_t d = 0; d < rank; ++d) origin[d] = gpos[d] * gext[d];
    for (auto& [p, n] : shared) std::memset(p, 0, n);
    interp::StackArena::Mark mark = machine_.stack.mark();
    for (int64_t L = 0; L < count; ++L) {
      uint8_t* frame = machine_.stack.push(fn.frame_size);
      place(L);
      fill(frame);
      interp::store_as<uint8_t*>(frame, nullptr);
      frames[static_cast<size_t>(L)] = frame;
      done[static_cast<size_t>(L)] = 0;
    }
    if (!facts.phased)
      run_fibers();
    else
      for (const auto& phase : phases) {
        for (int64_t L = 0; L < count; ++L) {
          if (done[static_cast<size_t>(L)]) continue;
          place(L);
          machine_.fp = frames[static_cast<size_t>(L)];
          machine_.depth = 1;
          machine_.ret.u = 0;
          for (interp::StmtNode* s : phase) {
            if (s->exec(machine_) != interp::Flow::normal) {
              done[static_cast<size_t>(L)] = 1;  // returned (sema: only after the last syncGroup)
              break;
            }
          }
        }
      }
    for (int64_t L = 0; L < count; ++L) {
      place(L);
      drain(frames[static_cast<size_t>(L)]);
    }
    machine_.stack.release(mark);
    poll_interrupt();  // once per group, as run_map polls every 1,024 invocations
  } while (interp::next_position(gpos, ngroups));
}

}  // namespace brook
