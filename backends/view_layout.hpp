// Where a view's elements lie in its stream's storage, for the backends that
// keep a stream as one row-major buffer (jit, opencl, the gather and scatter
// operators): the strides, the storage index of the view's first element,
// and its rows in order.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/plan.hpp"

namespace brook {

// Row-major strides of storage with extents `e`, in elements.
std::vector<int64_t> row_major_strides(const Extents& e);

// The storage index of the view's first element (position 0 of the view).
int64_t view_origin(const StreamView& v);

// Calls f(storage index of the first element of the row, row length) for
// each row of the view (its last dimension), in row-major order.
template <class F>
void for_each_view_row(const StreamView& v, F f) {
  const size_t r = v.extents.size();
  if (r == 0 || element_count(v.extents) == 0) return;
  const std::vector<int64_t> strides = row_major_strides(v.stream_extents);
  std::vector<int64_t> pos(r, 0);
  for (;;) {
    int64_t index = 0;
    for (size_t d = 0; d < r; ++d) index += (v.offset[d] + pos[d]) * strides[d];
    f(index, v.extents[r - 1]);
    size_t d = r - 1;
    for (;;) {
      if (d == 0) return;
      --d;
      if (++pos[d] < v.extents[d]) break;
      pos[d] = 0;
    }
  }
}

}  // namespace brook
