// Host memory for stream storage and scratch, reused across declarations and
// launches. A program that declares the same streams in a loop, or a call that
// needs the same aliasing scratch at every launch, gets memory it already has
// back instead of mapping fresh pages (and taking a page fault per 4 KiB on
// first touch, then unmapping them again) each time.
//
// Blocks come in size classes (four per power of two), so a freed block serves
// any later request of its class. Large blocks are mmap'd (plain pages, see
// map_fresh_pages); fresh mappings are known to be zero, so zeroing is skipped
// for them and done with one memset only for reused blocks (§4: streams start
// zeroed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace brook {

class HostPool;

// One block of pooled memory; goes back to its pool when destroyed.
class HostBlock {
 public:
  HostBlock() = default;
  HostBlock(HostPool* pool, std::byte* data, uint64_t capacity)
      : pool_(pool), data_(data), capacity_(capacity) {}
  HostBlock(HostBlock&& o) noexcept { *this = std::move(o); }
  HostBlock& operator=(HostBlock&& o) noexcept;
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;
  ~HostBlock() { reset(); }

  std::byte* data() const { return data_; }
  uint64_t capacity() const { return capacity_; }
  void reset();

 private:
  HostPool* pool_ = nullptr;
  std::byte* data_ = nullptr;
  uint64_t capacity_ = 0;
};

struct HostPoolStats {
  int64_t fresh = 0;         // blocks the OS gave
  int64_t reused = 0;        // blocks served from the pool
  uint64_t zeroed_bytes = 0; // bytes memset on reuse
};

// Fresh anonymous pages of `bytes` (zero, as the system hands them out), the
// first `used` bytes of them faulted in already; null when the system refuses.
// Give them back with unmap_fresh_pages.
std::byte* map_fresh_pages(uint64_t bytes, uint64_t used);
void unmap_fresh_pages(std::byte* data, uint64_t bytes);

class HostPool {
 public:
  // Keeps at most `keep_bytes` of freed blocks for reuse; beyond that, frees.
  explicit HostPool(uint64_t keep_bytes = uint64_t{1} << 30) : keep_(keep_bytes) {}
  ~HostPool();
  HostPool(const HostPool&) = delete;
  HostPool& operator=(const HostPool&) = delete;

  // At least `bytes` (at least 1), 64-byte aligned; all zero when `zero`.
  // Throws std::bad_alloc when the OS has no memory.
  HostBlock get(uint64_t bytes, bool zero);

  // The size class a request of `bytes` is served from.
  static uint64_t size_class(uint64_t bytes);

  const HostPoolStats& stats() const { return stats_; }
  uint64_t cached_bytes() const { return cached_; }

 private:
  friend class HostBlock;
  void put(std::byte* data, uint64_t capacity);
  static std::byte* map(uint64_t capacity, uint64_t used);
  static void unmap(std::byte* data, uint64_t capacity);

  uint64_t keep_;
  uint64_t cached_ = 0;
  std::unordered_map<uint64_t, std::vector<std::byte*>> free_;
  HostPoolStats stats_;
};

}  // namespace brook
