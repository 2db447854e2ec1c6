#include "backends/host_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace brook {

namespace {

// Below this, blocks come from the C heap (which has its own free lists); at
// or above it, from mmap, whose fresh pages are zero.
constexpr uint64_t kMapThreshold = uint64_t{256} << 10;

// Runs work(first, count) over [0, bytes) cut into page-aligned pieces, one
// per core (at most four) when there is enough to share. Faulting in or
// clearing pages is per-page kernel work that parallelises: 162 MB took
// 45-49 ms on one core here and 25-32 ms on two.
void on_every_core(uint64_t bytes, void (*work)(std::byte*, uint64_t), std::byte* base) {
  constexpr uint64_t kShareFrom = uint64_t{16} << 20;
  const uint64_t cores = std::clamp<uint64_t>(std::thread::hardware_concurrency(), 1, 4);
  const uint64_t pieces = bytes < kShareFrom ? 1 : cores;
  if (pieces == 1) {
    work(base, bytes);
    return;
  }
  const uint64_t piece = (bytes / pieces + 4095) / 4096 * 4096;
  std::vector<std::jthread> helpers;
  try {
    for (uint64_t i = 1; i < pieces && i * piece < bytes; ++i)
      helpers.emplace_back(work, base + i * piece, std::min(piece, bytes - i * piece));
  } catch (const std::system_error&) {
    // No thread to be had: the pieces not handed out are done here.
    for (uint64_t i = helpers.size() + 1; i < pieces && i * piece < bytes; ++i)
      work(base + i * piece, std::min(piece, bytes - i * piece));
  }
  work(base, std::min(piece, bytes));
}

}  // namespace

HostBlock& HostBlock::operator=(HostBlock&& o) noexcept {
  if (this != &o) {
    reset();
    pool_ = std::exchange(o.pool_, nullptr);
    data_ = std::exchange(o.data_, nullptr);
    capacity_ = std::exchange(o.capacity_, 0);
  }
  return *this;
}

void HostBlock::reset() {
  if (pool_ && data_) pool_->put(data_, capacity_);
  pool_ = nullptr;
  data_ = nullptr;
  capacity_ = 0;
}

uint64_t HostPool::size_class(uint64_t bytes) {
  bytes = bytes ? bytes : 1;
  if (bytes <= 4096) return (bytes + 63) / 64 * 64;
  // Four classes per power of two: at most 25 % slack.
  uint64_t top = uint64_t{1} << (63 - std::countl_zero(bytes));
  uint64_t step = top / 4;
  uint64_t c = (bytes + step - 1) / step * step;
  return (c + 4095) / 4096 * 4096;
}

// Huge pages only where asking for them costs no wait. Under THP defrag
// `madvise` (Debian's default) or `always`, a MADV_HUGEPAGE region's first
// touch may do reclaim and compaction synchronously, and right after another
// process (a C++ program, the next benchmark) brook stalled there with up to
// 1.2 s of system time: JIT sgm_path 0.80 s instead of 0.14-0.20, sum
// 1.06-1.13 s instead of 0.88-0.97, with 5.7 GB of free 2 MiB blocks (on a
// VM whose balloon reports free memory to the host, likely the cause; see
// bench/RESULTS.md, 2026-12-04). Where no stall hits, huge pages are faster
// (PoCL saxpy in place over 2 x 64 MB: 0.28 s against 0.48), but a stall
// costs several runs' worth. Under `defer` or `never` the kernel hands out a
// free huge page or a small one at once.
static bool huge_pages_without_waiting() {
  static const bool ok = [] {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/defrag");
    std::string line;
    if (!std::getline(in, line)) return false;
    const size_t open = line.find('['), close = line.find(']');
    if (open == std::string::npos || close == std::string::npos || close < open) return false;
    const std::string policy = line.substr(open + 1, close - open - 1);
    return policy == "defer" || policy == "never";
  }();
  return ok;
}

std::byte* map_fresh_pages(uint64_t bytes, uint64_t used) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
  if (huge_pages_without_waiting()) madvise(p, bytes, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
  // A stream is written whole: its pages faulted in by one call instead of
  // one fault each (162 MB: 40 ms instead of 59-70 ms); not the size class's
  // slack beyond `used`. Best effort: an older kernel says EINVAL, a full
  // one ENOMEM, and the pages fault in on first touch.
  if (used) {
    on_every_core(
        std::min((used + 4095) / 4096 * 4096, bytes),
        [](std::byte* first, uint64_t n) { madvise(first, n, MADV_POPULATE_WRITE); },
        static_cast<std::byte*>(p));
  }
#endif
  return static_cast<std::byte*>(p);
}

void unmap_fresh_pages(std::byte* data, uint64_t bytes) {
  munmap(data, bytes);
}

std::byte* HostPool::map(uint64_t capacity, uint64_t used) {
  if (capacity < kMapThreshold) {
    void* p = std::aligned_alloc(64, capacity);
    if (!p) throw std::bad_alloc();
    return static_cast<std::byte*>(p);
  }
  std::byte* p = map_fresh_pages(capacity, used);
  if (!p) throw std::bad_alloc();
  return p;
}

void HostPool::unmap(std::byte* data, uint64_t capacity) {
  if (capacity < kMapThreshold) std::free(data);
  else unmap_fresh_pages(data, capacity);
}

HostBlock HostPool::get(uint64_t bytes, bool zero) {
  const uint64_t c = size_class(bytes);
  auto it = free_.find(c);
  if (it != free_.end() && !it->second.empty()) {
    std::byte* p = it->second.back();
    it->second.pop_back();
    cached_ -= c;
    ++stats_.reused;
    if (zero) {
      on_every_core(
          bytes ? bytes : 1, [](std::byte* first, uint64_t n) { std::memset(first, 0, n); }, p);
      stats_.zeroed_bytes += bytes;
    }
    return HostBlock(this, p, c);
  }
  std::byte* p = map(c, bytes);
  ++stats_.fresh;
  // mmap'd pages are zero; heap blocks are small and cheap to clear.
  if (zero && c < kMapThreshold) std::memset(p, 0, c);
  return HostBlock(this, p, c);
}

void HostPool::put(std::byte* data, uint64_t capacity) {
  if (cached_ + capacity > keep_) {
    unmap(data, capacity);
    return;
  }
  free_[capacity].push_back(data);
  cached_ += capacity;
}

HostPool::~HostPool() {
  for (auto& [capacity, blocks] : free_) {
    for (std::byte* p : blocks) unmap(p, capacity);
  }
}

}  // namespace brook
