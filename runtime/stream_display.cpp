#include "runtime/stream_display.hpp"

#include <algorithm>
#include <vector>

#include "runtime/embed_values.hpp"

namespace brook {

namespace {

// The shown indices of one dimension; -1 marks the elided run between the
// head and the tail.
std::vector<int64_t> shown_indices(int64_t extent, int64_t keep) {
  std::vector<int64_t> out;
  if (extent <= 2 * keep) {
    for (int64_t i = 0; i < extent; ++i) out.push_back(i);
    return out;
  }
  for (int64_t i = 0; i < keep; ++i) out.push_back(i);
  out.push_back(-1);
  for (int64_t i = extent - keep; i < extent; ++i) out.push_back(i);
  return out;
}

struct Table {
  const Type* elem;
  std::span<const int64_t> extents;
  std::span<const std::byte> bytes;
  interp::Memory& memory;
  std::vector<std::vector<int64_t>> shown;  // per dimension
  size_t cell = 0;                          // width every element is padded to

  std::string element(int64_t linear) const {
    const auto* p =
        reinterpret_cast<const uint8_t*>(bytes.data()) + linear * static_cast<int64_t>(elem->size);
    std::string text = format_value(elem, p, memory);
    // The header names the type once; a vector element is just its components.
    if (elem->is_vector()) text = text.substr(text.find('('));
    return text;
  }

  int64_t stride(size_t dim) const {
    int64_t s = 1;
    for (size_t d = dim + 1; d < extents.size(); ++d) s *= extents[d];
    return s;
  }

  // Dimension `dim` at `base` (the linear index of its first element),
  // `indent` columns in from the left margin.
  void print(size_t dim, int64_t base, size_t indent, std::string& out) const {
    out += '[';
    const bool last = dim + 1 == extents.size();
    const std::vector<int64_t>& idx = shown[dim];
    const int64_t elided =
        extents[dim] - static_cast<int64_t>(
                           std::count_if(idx.begin(), idx.end(), [](int64_t i) { return i >= 0; }));
    for (size_t k = 0; k < idx.size(); ++k) {
      if (k > 0) {
        out += ',';
        if (last) {
          out += ' ';
        } else {
          // Blocks of rank ≥ 3 stand apart by a blank line, as numpy's do.
          out += std::string(extents.size() - dim - 1 > 1 ? 2 : 1, '\n');
          out += std::string(indent + 1, ' ');
        }
      }
      if (idx[k] < 0) {
        const char* what = last ? "" : dim + 2 == extents.size() ? " rows" : " blocks";
        out += "... " + std::to_string(elided) + " more" + what + " ...";
        continue;
      }
      int64_t at = base + idx[k] * stride(dim);
      if (last) {
        std::string e = element(at);
        if (extents.size() > 1 && e.size() < cell) e.insert(0, cell - e.size(), ' ');
        out += e;
      } else {
        print(dim + 1, at, indent + 1, out);
      }
    }
    out += ']';
  }
};

}  // namespace

std::string display_stream(const Type* elem, std::span<const int64_t> extents,
                           std::span<const std::byte> bytes, interp::Memory& memory,
                           const StreamDisplay& how) {
  std::string header = elem->name() + "<";
  int64_t count = 1;
  for (size_t d = 0; d < extents.size(); ++d) {
    header += (d ? ", " : "") + std::to_string(extents[d]);
    count *= extents[d];
  }
  header += ">\n";
  if (extents.empty() || count == 0 || bytes.size() < static_cast<size_t>(count) * elem->size)
    return header + "[]\n";

  Table t{elem, extents, bytes, memory, {}, 0};
  const bool summarise = count > how.threshold;
  for (int64_t e : extents) t.shown.push_back(shown_indices(e, summarise ? how.edge : e));
  // Pad every element to the widest one shown, so columns line up: visit
  // each shown position once (at most (2 edge + 1)^rank when summarised).
  std::vector<size_t> at(extents.size(), 0);
  while (true) {
    bool valid = true;
    int64_t linear = 0;
    for (size_t d = 0; d < extents.size(); ++d) {
      int64_t i = t.shown[d][at[d]];
      valid = valid && i >= 0;
      linear = linear * extents[d] + std::max<int64_t>(i, 0);
    }
    if (valid) t.cell = std::max(t.cell, t.element(linear).size());
    size_t d = extents.size();
    while (d > 0 && ++at[d - 1] == t.shown[d - 1].size()) at[--d] = 0;
    if (d == 0) break;
  }
  // The last dimension keeps as many columns at each end as fit the line.
  const int64_t last = extents.back();
  auto fits = [&](int64_t columns, bool elided) {
    size_t width = extents.size() + static_cast<size_t>(columns) * (t.cell + 2) + (elided ? 20 : 0);
    return width <= how.width;
  };
  const auto columns = static_cast<int64_t>(std::count_if(
      t.shown.back().begin(), t.shown.back().end(), [](int64_t i) { return i >= 0; }));
  if (!fits(columns, columns < last)) {
    int64_t keep = 1;
    while (keep + 1 <= (last - 1) / 2 && fits(2 * (keep + 1), true)) ++keep;
    t.shown.back() = shown_indices(last, keep);
  }
  std::string out = header;
  t.print(0, 0, 0, out);
  return out + "\n";
}

}  // namespace brook
