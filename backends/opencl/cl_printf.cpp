#include "backends/opencl/cl_printf.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "stdlib/format.hpp"

namespace brook::opencl {

std::string format_printf_records(const ClModule& module, std::span<const uint32_t> words) {
  struct Record {
    std::array<uint32_t, 4> pos;  // w, z, y, x: row-major order of the domain
    size_t at;
  };
  std::vector<Record> records;
  size_t end = words.empty() ? 0 : std::min<size_t>(words[0] + 1, words.size());
  for (size_t at = 1; at + 6 <= end;) {
    uint32_t site = words[at], n = words[at + 1];
    if (n < 6 || at + n > end || site >= module.printf_sites.size()) break;
    records.push_back({{words[at + 2], words[at + 3], words[at + 4], words[at + 5]}, at});
    at += n;
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.pos < b.pos; });
  std::string text;
  for (const Record& r : records) {
    const ClModule::PrintfSite& site = module.printf_sites[words[r.at]];
    if (site.vout_param >= 0) continue;  // push records: vout_records
    std::vector<stdlib::FormatArg> args;
    for (size_t i = 0; i < site.kinds.size(); ++i) {
      uint64_t lo = words[r.at + 6 + 2 * i], hi = words[r.at + 7 + 2 * i];
      uint64_t v = lo | (hi << 32);
      switch (site.kinds[i]) {
        case 'i': args.push_back(stdlib::FormatArg::of_int(static_cast<int32_t>(v))); break;
        case 'u': args.push_back(stdlib::FormatArg::of_uint(static_cast<uint32_t>(v))); break;
        case 'l': args.push_back(stdlib::FormatArg::of_long(static_cast<int64_t>(v))); break;
        case 'L': args.push_back(stdlib::FormatArg::of_ulong(v)); break;
        case 'f': args.push_back(stdlib::FormatArg::of_double(std::bit_cast<float>(static_cast<uint32_t>(lo)))); break;
        case 'd': args.push_back(stdlib::FormatArg::of_double(std::bit_cast<double>(v))); break;
        case 's': args.push_back(stdlib::FormatArg::of_pointer(lo + 1)); break;
        default: break;
      }
    }
    stdlib::ReadString read = [&](uint64_t p, std::string& error) -> std::optional<std::string> {
      if (p == 0 || p > site.strings.size()) {
        error = "'%s' needs a string";
        return std::nullopt;
      }
      return site.strings[p - 1];
    };
    stdlib::FormatResult out = stdlib::format_printf(site.format, args, read);
    if (!out.ok()) throw Unsupported{site.loc, out.error};
    text += out.text;
  }
  return text;
}

std::vector<std::vector<std::byte>> vout_records(const ClModule& module, std::span<const uint32_t> words,
                                                 std::span<const int> params, std::span<const int> bounds,
                                                 std::string& error) {
  struct Record {
    std::array<uint32_t, 4> pos;
    size_t at;
  };
  std::vector<std::vector<Record>> per(params.size());
  size_t end = words.empty() ? 0 : std::min<size_t>(words[0] + 1, words.size());
  for (size_t at = 1; at + 6 <= end;) {
    uint32_t site = words[at], n = words[at + 1];
    if (n < 6 || at + n > end || site >= module.printf_sites.size()) break;
    const ClModule::PrintfSite& s = module.printf_sites[site];
    for (size_t i = 0; i < params.size(); ++i) {
      if (s.vout_param == params[i]) per[i].push_back({{words[at + 2], words[at + 3], words[at + 4], words[at + 5]}, at});
    }
    at += n;
  }
  std::vector<std::vector<std::byte>> out(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    // Records of one work-item are reserved in push order: a stable sort by
    // position gives row-major invocation order, push order within each.
    std::stable_sort(per[i].begin(), per[i].end(), [](const Record& a, const Record& b) { return a.pos < b.pos; });
    int run = 0;
    for (size_t k = 0; k < per[i].size(); ++k) {
      const Record& r = per[i][k];
      run = k && per[i][k - 1].pos == r.pos ? run + 1 : 1;
      if (bounds[i] > 0 && run > bounds[i]) {
        error = std::to_string(i);
        return {};
      }
      const ClModule::PrintfSite& s = module.printf_sites[words[r.at]];
      const auto* b = reinterpret_cast<const std::byte*>(words.data() + r.at + 6);
      out[i].insert(out[i].end(), b, b + s.vout_size);
    }
  }
  return out;
}

}  // namespace brook::opencl
