#include "backends/view_layout.hpp"

namespace brook {

std::vector<int64_t> row_major_strides(const Extents& e) {
  std::vector<int64_t> s(e.size(), 1);
  for (size_t d = e.size(); d-- > 1;) s[d - 1] = s[d] * e[d];
  return s;
}

int64_t view_origin(const StreamView& v) {
  const std::vector<int64_t> s = row_major_strides(v.stream_extents);
  int64_t origin = 0;
  for (size_t d = 0; d < v.offset.size() && d < s.size(); ++d) origin += v.offset[d] * s[d];
  return origin;
}

}  // namespace brook
