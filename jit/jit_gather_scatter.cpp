// The gather and scatter stream operators on the JIT (§4): every index is
// checked before anything is written, then elements move one by one in
// row-major order, combined by a builtin operator or a reduce function.
#include <algorithm>
#include <cstring>

#include "backends/gather_index.hpp"
#include "jit/jit_backend_impl.hpp"
#include "lang/scalar_visit.hpp"
#include "stdlib/builtins.hpp"

namespace brook::jit {

namespace {

// a op= b per component (op 1: +, 2: *, else =) on the scalar components of
// an element type; false for elements that are not numeric.
bool combine(const Type* t, std::byte* a, const std::byte* b, int op) {
  const Type* s = t->scalar_of();
  if (s->kind == TypeKind::Bool) return false;
  const size_t n = t->width();
  return visit_scalar(s->kind, [&](auto zero) {
           using T = decltype(zero);
           for (size_t i = 0; i < n; ++i) {
             const T x = load_scalar<T>(a + i * sizeof(T)), y = load_scalar<T>(b + i * sizeof(T));
             const T r = op == 1 ? static_cast<T>(x + y) : op == 2 ? static_cast<T>(x * y) : y;
             std::memcpy(a + i * sizeof(T), &r, sizeof(T));
           }
           return true;
         }).value_or(false);
}

// (x, y, ...): the last dimension first, like the reference backend.
std::string position_text(const std::vector<int64_t>& pos) {
  if (pos.size() == 1) return std::to_string(pos[0]);
  std::string s = "(";
  for (size_t j = 0; j < pos.size(); ++j)
    s += (j ? ", " : "") + std::to_string(pos[pos.size() - 1 - j]);
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
  for_each_view_row(plan.index, [&](int64_t s, int64_t len) {
    for (int64_t k = 0; k < len; ++k) ii.push_back(s + k);
  });
  for_each_view_row(plan.values, [&](int64_t s, int64_t len) {
    for (int64_t k = 0; k < len; ++k) vi.push_back(s + k);
  });
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
    for (uint32_t j = 0; j < n; ++j) pos[array_c.size() - 1 - j] = gather_index_component(it, ip, j);
    int64_t index = 0;
    for (size_t d = 0; d < array_c.size(); ++d) {
      if (pos[d] < 0 || pos[d] >= array_c[d]) {
        throw PlanError{plan.loc, "index " + position_text(pos) + " of element " +
                                      position_text(k) + " is outside the array " +
                                      shape_text(array_c)};
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
    if (first < 0 || second < 0 || reduce_param < 0)
      throw PlanError{plan.loc, "'" + red.name + "' is not a reduction of two streams"};
    int input_param = reduce_param == first ? second : first;
    params[static_cast<size_t>(input_param)].role = ArgRole::Input;
    params[static_cast<size_t>(reduce_param)].role = ArgRole::Output;
    rts.resize(red.params.size());
    fold = fold_of(red, input_param, reduce_param, params, plan.loc);
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
          if (s->kind == TypeKind::Float) {
            float f = 1;
            std::memcpy(p, &f, 4);
          } else if (s->kind == TypeKind::Double) {
            double f = 1;
            std::memcpy(p, &f, 8);
          } else
            std::memset(p, 0, s->size), *p = std::byte{1};
        }
        combine(arr.elem, a, one.data(), 1);
      }
    } else if (fold) {
      if (reduce_param == 0) {
        // a = f(a, s[k]), through acc: a fold's accumulator may not alias
        // its elements (emit_fold marks it noalias) and s may be the array.
        std::memcpy(acc.data(), a, es);
        fold(&launch, acc.data(), v, 0, 1);
        std::memcpy(a, acc.data(), es);
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

}  // namespace brook::jit
