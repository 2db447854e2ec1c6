#include "stdlib/host_rand.hpp"

namespace brook::stdlib {

void GlibcRand::seed(uint32_t seed) {
  if (seed == 0) seed = 1;
  // glibc keeps the seed in an int32_t, so seeds >= 2^31 start negative, and
  // Schrage's steps then use C's truncating division on negative numbers.
  auto word = static_cast<int32_t>(seed);
  state_[0] = word;
  for (int i = 1; i < kDegree; ++i) {
    // state[i] = 16807 * state[i-1] % (2^31 - 1) without overflowing 32 bits.
    int64_t hi = word / 127773;
    int64_t lo = word % 127773;
    int64_t next = 16807 * lo - 2836 * hi;
    if (next < 0) next += 2147483647;
    word = static_cast<int32_t>(next);
    state_[i] = word;
  }
  front_ = kSeparation;
  rear_ = 0;
  for (int i = 0; i < kDegree * 10; ++i) next();
}

int32_t GlibcRand::next() {
  uint32_t value = static_cast<uint32_t>(state_[front_]) + static_cast<uint32_t>(state_[rear_]);
  state_[front_] = static_cast<int32_t>(value);
  if (++front_ >= kDegree) {
    front_ = 0;
    ++rear_;
  } else if (++rear_ >= kDegree) {
    rear_ = 0;
  }
  return static_cast<int32_t>(value >> 1);
}

}  // namespace brook::stdlib
