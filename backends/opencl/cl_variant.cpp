// The variant flags of a map launch (cl_variant.hpp): what the host checks
// per launch so the compiled kernel may assume it.
#include "backends/opencl/cl_variant.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "backends/instance.hpp"
#include "backends/opencl/cl_walk.hpp"
#include "backends/view_layout.hpp"
#include "lang/analysis_group.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;

std::optional<GatherShape> gather_shape(const Extents& view_ext, const Extents& stream_ext,
                                        const Extents& offset, int rank) {
  const std::vector<int64_t> strides = row_major_strides(stream_ext);
  GatherShape g;
  for (size_t d = 0; d < offset.size() && d < strides.size(); ++d) g.base += offset[d] * strides[d];
  Extents e = view_ext;
  std::vector<int64_t> s = strides;
  s.resize(e.size(), 1);
  while (e.size() > 1 && e[0] == 1) {
    e.erase(e.begin());
    s.erase(s.begin());
  }
  if (rank < 1) rank = 1;
  while (static_cast<int>(e.size()) > rank) {
    // Fold the first two dimensions: only when the second spans its whole stream dimension.
    size_t full = stream_ext.size() - e.size() + 1;
    if (full >= stream_ext.size() || e[1] != stream_ext[full]) return std::nullopt;
    e[1] *= e[0];
    e.erase(e.begin());
    s.erase(s.begin());
  }
  while (static_cast<int>(e.size()) < rank) {
    e.insert(e.begin(), 1);
    s.insert(s.begin(), 0);
  }
  g.ext = e;
  g.str = s;
  return g;
}

char map_kind(const DimMap& d, const std::vector<int64_t>& domain) {
  if (d.out_dim < 0) return 'p';
  if (d.num == d.den) return 'i';
  const size_t o = static_cast<size_t>(d.out_dim);
  const int64_t last = o < domain.size() ? domain[o] - 1 : -1;  // the largest position
  const int64_t limit = int64_t{1} << 31;
  if (last < 0 || d.num < 0 || d.den <= 0 || d.num >= limit || d.den >= limit) return 's';
  if (last * d.num < d.den) return 'p';  // floor(pos * num / den) == 0 for every pos <= last
  return last * d.num < limit ? 'n' : 's';
}

bool narrow_ok(const MapPlan& plan) {
  const int64_t limit = int64_t{1} << 31;
  if (element_count(plan.domain) >= limit) return false;
  for (const PlanArg& a : plan.args) {
    if (a.role == ArgRole::Constant) continue;
    if (a.role == ArgRole::Gather && a.gather_from_host) {
      if (static_cast<int64_t>(a.host.bytes.size()) >= limit) return false;
    } else if (element_count(a.view.stream_extents) *
                   static_cast<int64_t>(a.view.elem ? a.view.elem->size : 1) >=
               limit) {
      return false;
    }
  }
  return true;
}

bool exact_ok(const MapPlan& plan) {
  const int64_t limit = int64_t{1} << 24;
  auto small = [&](const Extents& e) {
    return std::all_of(e.begin(), e.end(), [&](int64_t x) { return x <= limit; });
  };
  if (!small(plan.domain)) return false;
  const FuncDecl& k = plan.kernel->defined();
  for (const PlanArg& a : plan.args) {
    if (a.role == ArgRole::Constant) continue;
    const Extents& e =
        a.role == ArgRole::Gather && a.gather_from_host ? a.host.extents : a.view.extents;
    if (!small(e) ||
        (!(a.role == ArgRole::Gather && a.gather_from_host) && !small(a.view.stream_extents)))
      return false;
    // A gather of lower rank than its view folds dimensions into one extent.
    if (a.role == ArgRole::Gather) {
      int rank = k.params.at(static_cast<size_t>(a.param))->gather_rank;
      if (static_cast<int>(canonical_extents(e).size()) > std::max(rank, 1) &&
          element_count(e) > limit)
        return false;
    }
  }
  return true;
}

int64_t position_limit(const MapPlan& plan) {
  const int64_t cap = int64_t{1} << 24;
  int64_t most = 1;
  auto see = [&](const Extents& e) {
    for (int64_t x : e) most = std::max(most, x);
  };
  see(plan.domain);
  for (const PlanArg& a : plan.args)
    if (a.role != ArgRole::Constant && !(a.role == ArgRole::Gather && a.gather_from_host))
      see(a.view.extents), see(a.view.stream_extents);
  int64_t limit = 1;
  while (limit < most && limit < cap) limit *= 2;
  return limit;
}

// Which provable gather indices of the plan's kernel stay inside their arrays
// at this launch's extents (cl_bounds.hpp): those print without a clamp.
std::vector<std::pair<GatherAccess, bool>> unclamped_accesses(const MapPlan& plan,
                                                              KernelFacts& known) {
  std::vector<std::pair<GatherAccess, bool>> out;
  const FuncDecl& k = plan.kernel->defined();
  LaunchFacts facts;
  facts.comp_extents.assign(plan.domain.rbegin(),
                            plan.domain.rend());  // component 0 = last dimension
  const std::array<int32_t, 4> ioff = variant_instance_offset(plan, known);
  std::copy(ioff.begin(), ioff.end(), facts.instance_offset.begin());
  for (const PlanArg& a : plan.args) {
    const ParamDecl* p = k.params.at(static_cast<size_t>(a.param)).get();
    if (a.role == ArgRole::Constant && p->type && p->type->kind == TypeKind::Int &&
        a.value.size() == sizeof(int32_t)) {
      int32_t v;
      std::memcpy(&v, a.value.data(), sizeof v);
      facts.int_params[p] = v;
    }
    if (a.role == ArgRole::Constant && p->type && p->type->kind == TypeKind::Float &&
        a.value.size() == sizeof(float)) {
      float v;
      std::memcpy(&v, a.value.data(), sizeof v);
      if (v > -16777216.0f && v < 16777216.0f && v == static_cast<float>(static_cast<int64_t>(v)))
        facts.integral_float_params[p] = static_cast<int64_t>(v);
    }
  }
  for (const GatherAccess& g : known.gather_accesses(k, exact_ok(plan), facts)) {
    bool inside = !g.param && range_inside(g.range, g.array_size);
    for (const PlanArg& a : plan.args) {
      if (!g.param || a.role != ArgRole::Gather ||
          k.params.at(static_cast<size_t>(a.param)).get() != g.param)
        continue;
      std::optional<GatherShape> shape =
          a.gather_from_host ? gather_shape(a.host.extents, a.host.extents,
                                            Extents(a.host.extents.size(), 0), g.param->gather_rank)
                             : gather_shape(a.view.extents, a.view.stream_extents, a.view.offset,
                                            g.param->gather_rank);
      inside = shape && static_cast<size_t>(g.index) < shape->ext.size() &&
               range_inside(g.range, shape->ext[static_cast<size_t>(g.index)]);
    }
    out.emplace_back(g, inside);
  }
  return out;
}

const KernelFacts::Walked& KernelFacts::walked(const FuncDecl& kernel) {
  auto found = walked_.find(&kernel);
  if (found != walked_.end()) return found->second;
  Walked w;
  analysis::walk_with_callees(kernel, [&](const Expr& e) {
    if (e.kind == ExprKind::Indexof) w.position = true;
    const auto* c = e.as<CallExpr>();
    if (!c || c->target != CallTarget::Builtin) return;
    auto b = static_cast<stdlib::Builtin>(c->builtin);
    if (b == stdlib::Builtin::instance) w.instance = true;
    if (b == stdlib::Builtin::instance || b == stdlib::Builtin::printf ||
        b == stdlib::Builtin::push)
      w.position = true;
  });
  return walked_.emplace(&kernel, w).first->second;
}

bool KernelFacts::uses_position(const FuncDecl& kernel) {
  return walked(kernel).position;
}
bool KernelFacts::uses_instance(const FuncDecl& kernel) {
  return walked(kernel).instance;
}

const std::vector<GatherAccess>& KernelFacts::gather_accesses(const FuncDecl& kernel,
                                                              bool exact_positions,
                                                              const LaunchFacts& facts) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&kernel));
  key += exact_positions ? " x" : " f";
  for (int64_t e : facts.comp_extents) key += " " + std::to_string(e);
  key += " |";
  for (int32_t o : facts.instance_offset) key += " " + std::to_string(o);
  key += " |";
  for (const auto& [p, v] : facts.int_params)
    key += " " + std::to_string(reinterpret_cast<uintptr_t>(p)) + "=" + std::to_string(v);
  key += " |";
  for (const auto& [p, v] : facts.integral_float_params)
    key += " " + std::to_string(reinterpret_cast<uintptr_t>(p)) + "=" + std::to_string(v);
  auto found = accesses_.find(key);
  if (found != accesses_.end()) return found->second;
  if (accesses_.size() >= 4096) accesses_.clear();  // a program that never repeats a shape
  return accesses_.emplace(std::move(key), opencl::gather_accesses(kernel, exact_positions, facts))
      .first->second;
}

std::vector<int> small_integral_constants(const MapPlan& plan) {
  std::vector<int> out;
  const FuncDecl& k = plan.kernel->defined();
  for (const PlanArg& a : plan.args) {
    const ParamDecl* p = k.params.at(static_cast<size_t>(a.param)).get();
    if (a.role != ArgRole::Constant || !p->type || p->type->kind != TypeKind::Float ||
        a.value.size() != sizeof(float))
      continue;
    float v;
    std::memcpy(&v, a.value.data(), sizeof v);
    if (std::fabs(v) < 4096.0f && v == std::floor(v)) out.push_back(a.param);
  }
  return out;
}

std::array<int32_t, 4> variant_instance_offset(const MapPlan& plan, KernelFacts& facts) {
  if (!facts.uses_instance(*plan.kernel)) return {0, 0, 0, 0};
  return instance_offset(plan);
}

bool flat_ok(const MapPlan& plan, KernelFacts& facts) {
  const size_t R = plan.domain.size();
  if (R < 2 || R > 4) return false;
  for (const PlanArg& a : plan.args) {
    if (a.role == ArgRole::Constant || a.role == ArgRole::Gather) continue;
    if (a.map.size() != R || a.view.stream_extents.size() != R || a.view.extents != plan.domain)
      return false;
    for (size_t d = 0; d < R; ++d) {
      const DimMap& m = a.map[d];
      if (m.out_dim != static_cast<int>(d) || m.num != m.den) return false;
      if (d > 0 && a.view.stream_extents[d] != plan.domain[d]) return false;
    }
  }
  return !facts.uses_position(*plan.kernel);
}

size_t padded_extent(int64_t n) {
  if (n % 8 == 0) return static_cast<size_t>(n);
  const int64_t step = n < 256 ? 8 : 64;
  return static_cast<size_t>((n + step - 1) / step * step);
}

bool map_padded(const MapPlan& plan, KernelFacts& facts) {
  if (analysis::is_group_kernel(plan.kernel->defined())) return false;
  const Extents& dom = plan.domain;
  if (dom.empty()) return false;
  const int64_t first = dom.size() == 1 || flat_ok(plan, facts) ? element_count(dom) : dom.back();
  return padded_extent(first) != static_cast<size_t>(first);
}

}  // namespace brook::opencl
