#include "lang/suggest.hpp"

#include <algorithm>
#include <vector>

namespace brook {

namespace {

size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  const size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  // Three rows: optimal string alignment needs the one before the previous.
  std::vector<size_t> two(m + 1), one(m + 1), row(m + 1);
  for (size_t j = 0; j <= m; ++j) one[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    row[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({one[j] + 1, row[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], two[j - 2] + 1);
    }
    std::swap(two, one);
    std::swap(one, row);
  }
  return one[m];
}

}  // namespace

std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates) {
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  std::string_view best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    if (c == name || c.empty() || c[0] == '<' || c.starts_with("__")) continue;
    size_t d = edit_distance(name, c, limit);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  if (best.empty()) return {};
  return "; did you mean '" + std::string(best) + "'?";
}

std::span<const std::string_view> builtin_type_spellings() {
  static const std::vector<std::string_view> names = [] {
    static const std::vector<std::string> owned = [] {
      std::vector<std::string> v{"void",     "bool",      "char",   "short",   "int",     "long",
                                 "float",    "double",    "uchar",  "ushort",  "uint",    "ulong",
                                 "unsigned", "signed",    "size_t", "int32_t", "int64_t", "uint8_t",
                                 "uint32_t", "uint64_t",  "half",   "fixed",   "struct",  "enum",
                                 "const",    "shortfixed"};
      for (const char* base :
           {"float", "double", "int", "uint", "char", "uchar", "short", "ushort", "bool"}) {
        for (int n = 2; n <= 4; ++n) v.push_back(std::string(base) + std::to_string(n));
      }
      return v;
    }();
    return std::vector<std::string_view>(owned.begin(), owned.end());
  }();
  return names;
}

}  // namespace brook
