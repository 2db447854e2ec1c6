#include "interp/machine.hpp"

#include <cstring>

namespace brook::interp {

uint8_t* StackArena::push(size_t size) {
  size = (size + 15) & ~size_t{15};
  while (true) {
    if (current_ < chunks_.size() && used_ + size <= chunks_[current_].size) {
      uint8_t* p = chunks_[current_].bytes.get() + used_;
      used_ += size;
      std::memset(p, 0, size);
      return p;
    }
    if (current_ + 1 < chunks_.size() && chunks_[current_ + 1].size >= size) {
      ++current_;
      used_ = 0;
      continue;
    }
    if (current_ < chunks_.size()) ++current_;
    // Drop smaller chunks beyond the current one: they are unused.
    chunks_.resize(current_);
    // Not value-initialised: each push clears what it hands out, and a fresh
    // 1 MB chunk would otherwise be written whole (256 page faults) when
    // the first frame needs a few bytes of it.
    size_t n = std::max<size_t>(size, size_t{1} << 20);
    chunks_.push_back({std::make_unique_for_overwrite<uint8_t[]>(n), n});
    used_ = 0;
  }
}

}  // namespace brook::interp
