// glibc's rand()/srand(), bit for bit, so a Brook program's host `rand()`
// prints the same numbers as the same C program compiled with gcc on Linux.
#pragma once

#include <array>
#include <cstdint>

namespace brook::stdlib {

// glibc's TYPE_3 generator: an additive lagged-Fibonacci generator,
// r[i] = r[i-3] + r[i-31] (mod 2^32), returning r[i] >> 1. Seeding fills the
// 31 words with 16807 * r mod (2^31 - 1) and discards 310 outputs.
class GlibcRand {
 public:
  static constexpr int32_t kRandMax = 2147483647;  // RAND_MAX

  GlibcRand() { seed(1); }  // C: rand() without srand() behaves as srand(1)

  // srand(seed); seed 0 behaves as seed 1, as in glibc.
  void seed(uint32_t seed);
  // rand(): a value in [0, RAND_MAX].
  int32_t next();

 private:
  static constexpr int kDegree = 31;
  static constexpr int kSeparation = 3;
  std::array<int32_t, kDegree> state_{};
  int front_ = kSeparation;  // glibc's fptr
  int rear_ = 0;             // glibc's rptr
};

}  // namespace brook::stdlib
