// streamGatherOp / streamScatterOp on the reference backend (LANGUAGE.md §8):
// every index is checked first, then the elements are processed in row-major
// order of the index stream so repeated indices see earlier updates.
#include <algorithm>
#include <cstring>

#include "backends/gather_index.hpp"
#include "backends/interp/interp_backend.hpp"
#include "backends/interp/kernel_loops.hpp"

namespace brook {

using interp::next_position;
using interp::view_index;

namespace {

std::string position_text(const std::vector<int64_t>& pos) {
  if (pos.size() == 1) return std::to_string(pos[0]);
  std::string s = "(";
  for (size_t j = 0; j < pos.size(); ++j) s += (j ? ", " : "") + std::to_string(pos[pos.size() - 1 - j]);
  return s + ")";
}

// dst = dst + src (op 0) or dst * src (op 1), per component.
void combine(const Type* elem, std::byte* dst, const std::byte* src, int op, SourceLoc loc) {
  if (!elem->is_scalar() && !elem->is_vector()) {
    throw PlanError{loc, "this operator needs a stream of numbers, not of '" + elem->name() + "'"};
  }
  const Type* s = elem->scalar_of();
  uint32_t n = elem->width();
  interp::with_scalar(s->kind, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto* d = reinterpret_cast<uint8_t*>(dst);
    auto* r = reinterpret_cast<const uint8_t*>(src);
    for (uint32_t i = 0; i < n; ++i) {
      T a = interp::load_scalar<T>(d + i * s->size);
      T b = interp::load_scalar<T>(r + i * s->size);
      T v;
      if constexpr (std::is_same_v<T, bool>) {
        v = op == 0 ? (a || b) : (a && b);
      } else {
        v = op == 0 ? static_cast<T>(a + b) : static_cast<T>(a * b);
      }
      interp::store_scalar<T>(d + i * s->size, v);
    }
  });
}

void add_one(const Type* elem, std::byte* dst, SourceLoc loc) {
  std::vector<std::byte> one(elem->size);
  if (elem->is_scalar() || elem->is_vector()) {
    const Type* s = elem->scalar_of();
    for (uint32_t i = 0; i < elem->width(); ++i) {
      interp::with_scalar(s->kind, [&](auto tag) {
        using T = typename decltype(tag)::type;
        interp::store_scalar<T>(reinterpret_cast<uint8_t*>(one.data()) + i * s->size, static_cast<T>(1));
      });
    }
  }
  combine(elem, dst, one.data(), 0, loc);
}

}  // namespace

void InterpBackend::run_gather_scatter(const GatherScatterPlan& plan) {
  interp::MachineGuard guard(machine_, context_);
  context_ = {};
  const Extents values_c = canonical_extents(plan.values.extents);
  const Extents array_c = canonical_extents(plan.array.extents);
  const size_t arank = array_c.size();
  const Type* itype = plan.index.elem;
  const uint64_t size = plan.array.elem->size;
  std::byte* values = data(plan.values.storage);
  std::byte* array = data(plan.array.storage);
  const std::byte* index = data(plan.index.storage);

  // Every index first: a bad one is reported and nothing is written (§8).
  std::vector<int64_t> targets;  // storage index in `array` per element, row-major
  std::vector<int64_t> sources;  // storage index in `values`
  std::vector<int64_t> k(values_c.size(), 0);
  do {
    const auto* ip = reinterpret_cast<const uint8_t*>(index) +
                     view_index(plan.index, k.data(), k.size()) * static_cast<int64_t>(itype->size);
    std::vector<int64_t> pos(arank, 0);
    uint32_t n = std::min<uint32_t>(itype->width(), static_cast<uint32_t>(arank));
    for (uint32_t j = 0; j < n; ++j)
      pos[arank - 1 - j] = gather_index_component(itype, reinterpret_cast<const std::byte*>(ip), j);
    for (size_t d = 0; d < arank; ++d) {
      if (pos[d] < 0 || pos[d] >= array_c[d]) {
        throw PlanError{plan.loc, "index " + position_text(pos) + " of element " + position_text(k) +
                                      " is outside the array " + shape_text(array_c)};
      }
    }
    targets.push_back(view_index(plan.array, pos.data(), pos.size()));
    sources.push_back(view_index(plan.values, k.data(), k.size()));
  } while (next_position(k, values_c));

  std::vector<std::byte> result(size), old(size);
  for (size_t e = 0; e < targets.size(); ++e) {
    std::byte* a = array + targets[e] * static_cast<int64_t>(size);
    std::byte* v = values + sources[e] * static_cast<int64_t>(size);
    if (!plan.is_scatter) {
      std::memcpy(old.data(), a, size);
      std::memcpy(v, old.data(), size);
      if (plan.op) {
        run_reducer(*plan.op, plan.loc, {}, old.data(), old.data(), result.data());
        std::memcpy(a, result.data(), size);
      } else if (plan.builtin_op == 1) {
        add_one(plan.array.elem, a, plan.loc);
      }
      continue;
    }
    if (plan.op) {
      run_reducer(*plan.op, plan.loc, {}, a, v, result.data());
      bool reduce_first = false;
      for (auto& p : plan.op->params) {
        if (p->pkind == ast::ParamKind::Reduce) { reduce_first = true; break; }
        if (p->pkind == ast::ParamKind::Input || p->pkind == ast::ParamKind::Iter) break;
      }
      std::memcpy(reduce_first ? a : v, result.data(), size);
    } else if (plan.builtin_op == 0) {
      std::memcpy(a, v, size);
    } else {
      combine(plan.array.elem, a, v, plan.builtin_op == 1 ? 0 : 1, plan.loc);
    }
  }
}

}  // namespace brook
