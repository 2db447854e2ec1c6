// plan_signature (plan.hpp): a launch's geometry as numbers, for backends'
// per-launch caches.
#include <algorithm>
#include <cstring>

#include "backends/plan.hpp"

namespace brook {

namespace {

void put_extents(const Extents& e, std::vector<int64_t>& out) {
  out.push_back(static_cast<int64_t>(e.size()));
  out.insert(out.end(), e.begin(), e.end());
}

void put_pointer(const void* p, std::vector<int64_t>& out) {
  out.push_back(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)));
}

void put_view(const StreamView& v, std::vector<int64_t>& out) {
  put_pointer(v.elem, out);
  put_extents(v.stream_extents, out);
  put_extents(v.offset, out);
  put_extents(v.extents, out);
  out.push_back(v.is_iter);
  out.push_back(v.declared_rank);
}

void put_bytes(const std::vector<std::byte>& bytes, std::vector<int64_t>& out) {
  out.push_back(static_cast<int64_t>(bytes.size()));
  for (size_t at = 0; at < bytes.size(); at += sizeof(int64_t)) {
    int64_t word = 0;
    std::memcpy(&word, bytes.data() + at, std::min(sizeof word, bytes.size() - at));
    out.push_back(word);
  }
}

}  // namespace

void plan_signature(const MapPlan& plan, std::vector<int64_t>& out) {
  out.clear();
  put_pointer(plan.kernel, out);
  put_extents(plan.domain, out);
  for (const PlanArg& a : plan.args) {
    out.push_back(static_cast<int64_t>(a.role));
    out.push_back(a.param);
    put_view(a.view, out);
    out.push_back(static_cast<int64_t>(a.map.size()));
    for (const DimMap& d : a.map) {
      out.push_back(d.out_dim);
      out.push_back(d.num);
      out.push_back(d.den);
    }
    put_bytes(a.value, out);
    out.push_back(a.gather_from_host);
    put_pointer(a.host.elem, out);
    put_extents(a.host.extents, out);
    out.push_back(static_cast<int64_t>(a.host.bytes.size()));
    out.push_back(a.copy);
    out.push_back(a.vout_bound);
  }
  out.push_back(static_cast<int64_t>(plan.copies.size()));
  for (const AliasCopy& c : plan.copies) {
    put_view(c.from, out);
    put_view(c.to, out);
  }
}

uint64_t signature_hash(const std::vector<int64_t>& sig) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a over the words
  for (int64_t w : sig) {
    h ^= static_cast<uint64_t>(w);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace brook
