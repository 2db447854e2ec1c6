#include "backends/gather_index.hpp"

#include <algorithm>
#include <type_traits>

#include "lang/scalar_visit.hpp"

namespace brook {

int64_t gather_index_component(const Type* index_elem, const std::byte* element, uint32_t j) {
  const Type* s = index_elem->scalar_of();
  const std::byte* c = element + j * s->size;
  if (s->kind == TypeKind::Bool) return static_cast<uint8_t>(*c) != 0;
  return visit_scalar(
             s->kind,
             [&](auto zero) -> int64_t {
               using T = decltype(zero);
               const T v = load_scalar<T>(c);
               if constexpr (std::is_floating_point_v<T>) {
                 if (v != v) return -1;
                 return static_cast<int64_t>(std::max(T(-1.0e18), std::min(T(1.0e18), v + T(0.5))));
               } else {
                 return static_cast<int64_t>(v);
               }
             })
      .value_or(0);
}

}  // namespace brook
