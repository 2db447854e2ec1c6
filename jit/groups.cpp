#include "jit/groups.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "backends/scheduler.hpp"
#include "interp/fiber.hpp"
#include "interp/interrupt.hpp"

// syncGroup() off the phased path: suspends the invocation's fiber. Generated
// code has no unwind tables, so a diverged group's fibers are abandoned, not
// unwound: their stacks hold only generated frames and this hook's.
extern "C" void brook_jit_sync(void* /*launch*/, int64_t site) {
  if (brook::interp::FiberSet* set = brook::interp::FiberSet::current())
    set->yield(static_cast<uint64_t>(site));
}

namespace brook::jit {

namespace {

uint64_t place(uint64_t& end, uint64_t size, uint64_t align) {
  align = std::max<uint64_t>(align, 16);
  uint64_t off = (end + align - 1) / align * align;
  end = off + std::max<uint64_t>(size, 1);
  return off;
}

}  // namespace

GroupLayout group_layout(const ast::FuncDecl& kernel) {
  GroupLayout g;
  g.frame_size = 0;
  for (const auto& p : kernel.params) {
    if (p->pkind == ast::ParamKind::Const || p->pkind == ast::ParamKind::Value ||
        p->pkind == ast::ParamKind::Input || p->pkind == ast::ParamKind::Iter)
      g.frame[p.get()] = place(g.frame_size, p->type->size, p->type->align);
  }
  if (kernel.body) {
    for (const ast::StmtPtr& s : kernel.body->body) {
      const auto* ds = s->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* v = d->as<ast::VarDecl>();
        if (!v || !v->type) continue;
        if (v->is_shared)
          g.shared[v] = place(g.shared_size, v->type->size, v->type->align);
        else
          g.frame[v] = place(g.frame_size, v->type->size, v->type->align);
      }
    }
  }
  g.frame_size = std::max<uint64_t>((g.frame_size + 15) / 16 * 16, 16);
  return g;
}

namespace {

// 16-aligned bytes for frames and shared arrays.
struct alignas(16) Chunk {
  std::byte bytes[16];
};

bool next_position(std::vector<int64_t>& pos, const std::vector<int64_t>& extents) {
  for (size_t d = extents.size(); d-- > 0;) {
    if (++pos[d] < extents[d]) return true;
    pos[d] = 0;
  }
  return false;
}

}  // namespace

void run_groups(const ast::FuncDecl& kernel, SourceLoc loc, const Extents& domain, SliceFn slice,
                const Launch& launch, const ParallelFor* parallel, int64_t blocks) {
  if (std::string e = analysis::group_domain_error(kernel, domain); !e.empty())
    throw PlanError{loc, e};
  const analysis::GroupFacts facts = analysis::group_facts(kernel);
  const GroupLayout layout = group_layout(kernel);
  const size_t D = domain.size();
  if (D == 0) return;
  const std::vector<int64_t> gext = analysis::group_extents(kernel, D);
  std::vector<int64_t> ngroups(D);
  int64_t total = 1;
  for (size_t d = 0; d < D; ++d) {
    ngroups[d] = domain[d] / gext[d];
    total *= ngroups[d];
  }
  if (total == 0) return;  // an empty domain: no group
  // Leading dimensions (all but the last two) a group spans: usually one.
  const size_t L = D >= 2 ? D - 2 : 0;
  const std::vector<int64_t> lead_ext(gext.begin(), gext.begin() + static_cast<std::ptrdiff_t>(L));

  std::atomic<bool> diverged{false};
  // Groups [first, last) in row-major order with their own frames and shared arrays.
  auto run_range = [&](int64_t first, int64_t last) {
    Launch own = launch;
    std::vector<Chunk> frames(
        static_cast<size_t>(layout.frame_size / 16 * static_cast<uint64_t>(facts.count)));
    std::vector<Chunk> shared(static_cast<size_t>((layout.shared_size + 15) / 16 + 1));
    own.group_frames = frames.front().bytes;
    own.group_frame_size = static_cast<int64_t>(layout.frame_size);
    own.group_shared = shared.front().bytes;
    // Off the phased path: invocation L of the group at `g` runs the whole
    // body (one position's slice call) on fiber L; a round resumes every
    // invocation until each waits at a syncGroup() or has finished. False
    // when the range must stop (a diverged group or an interrupt).
    interp::FiberSet fibers;
    std::vector<int64_t> row(static_cast<size_t>(facts.count)), col(row.size());
    auto run_fibers = [&](Launch& run, const std::vector<int64_t>& g) {
      for (int64_t L = 0; L < facts.count; ++L) {
        const int64_t local[3] = {L % facts.size[0], (L / facts.size[0]) % facts.size[1],
                                  L / (facts.size[0] * facts.size[1])};
        int64_t r = 0;
        for (size_t d = 0; d + 1 < D; ++d) {
          int64_t p = g[d] * gext[d];
          if (D - 1 - d < 3) p += local[D - 1 - d];
          r = r * domain[d] + p;
        }
        row[static_cast<size_t>(L)] = r;
        col[static_cast<size_t>(L)] = g[D - 1] * gext[D - 1] + local[0];
      }
      run.group_phase = 0;
      fibers.start(facts.count, [&](int64_t L) {
        const int64_t r = row[static_cast<size_t>(L)], c = col[static_cast<size_t>(L)];
        slice(&run, r, r + 1, c, c + 1);
      });
      for (;;) {
        for (int64_t L = 0; L < facts.count; ++L) fibers.resume(L);
        int64_t waiting = 0;
        uint64_t site = 0;
        bool same = true;
        for (int64_t L = 0; L < facts.count; ++L) {
          if (fibers.finished(L)) continue;
          if (waiting++ == 0)
            site = fibers.site(L);
          else if (fibers.site(L) != site)
            same = false;
        }
        if (waiting == 0) return true;
        // An interrupt ends generated loops early: not a divergence.
        if (interrupt_requested.load(std::memory_order_relaxed) || diverged.load()) return false;
        if (waiting != facts.count || !same) {
          diverged = true;
          return false;
        }
      }
    };
    std::vector<int64_t> g(D, 0);
    for (int64_t n = first; n < last; ++n) {
      int64_t rest = n;
      for (size_t d = D; d-- > 0;) {
        g[d] = rest % ngroups[d];
        rest /= ngroups[d];
      }
      std::memset(shared.data(), 0, shared.size() * sizeof(Chunk));
      if (!facts.phased) {
        if (!run_fibers(own, g)) return;
        continue;
      }
      for (size_t p = 0; p < facts.phases.size(); ++p) {
        own.group_phase = static_cast<int64_t>(p);
        if (D == 1) {
          slice(&own, 0, 1, g[0] * gext[0], (g[0] + 1) * gext[0]);
          continue;
        }
        std::vector<int64_t> lead(L, 0);
        do {
          int64_t base = 0;
          for (size_t d = 0; d < L; ++d) base = base * domain[d] + g[d] * gext[d] + lead[d];
          base *= domain[D - 2];
          const int64_t r0 = base + g[D - 2] * gext[D - 2], c0 = g[D - 1] * gext[D - 1];
          slice(&own, r0, r0 + gext[D - 2], c0, c0 + gext[D - 1]);
        } while (L > 0 && next_position(lead, lead_ext));
      }
      if (interrupt_requested.load(std::memory_order_relaxed)) return;  // the backend reports it
    }
  };
  blocks = std::min(blocks, total);
  if (!parallel || blocks < 2)
    run_range(0, total);
  else
    (*parallel)(blocks,
                [&](int64_t i) { run_range(total * i / blocks, total * (i + 1) / blocks); });
  if (diverged && !interrupt_requested.load(std::memory_order_relaxed))
    throw PlanError{loc, analysis::divergent_sync_error(kernel)};
}

}  // namespace brook::jit
