// The loop of host_loop.br in C++, built with -O2: the baseline the
// interpreter's time is divided by. Signed overflow wraps in Brook, so the
// arithmetic is done in unsigned here to keep the same answer without UB.
#include <cstdint>
#include <cstdio>

int main() {
  int n = 10000000;
  int a[1024] = {};
  int32_t s = 0;
  float f = 0.0f;
  for (int i = 0; i < n; i++) {
    s = static_cast<int32_t>(static_cast<uint32_t>(s) * 31u + static_cast<uint32_t>(i ^ (i >> 3)));
    f = f * 0.5f + static_cast<float>(i & 255);
    a[i & 1023] = s;
  }
  long check = 0;
  for (int i = 0; i < 1024; i++) check += a[i];
  std::printf("%d %.3f %ld\n", s, f, check);
  return 0;
}
