// BrookGPU's multibackend test's shape: several host threads use brook at
// once, from before anything is loaded (the first launches race to load the
// kernels), each on its own streams, many times, through BrookGPU's
// interface and the embedding API's (the generated header's typed forms on
// the same process-wide engine); every result is checked. The expected
// output (main.out) is derived by hand.
#include <brook/brook.hpp>

#include <thread>
#include <vector>

#include "kernels.h"

void scale(::brook::stream a, const float& k, ::brook::stream b);
void total(::brook::stream a, float& s);

int main() {
  const int kThreads = 8, kRounds = 25, kN = 256;
  std::vector<int> bad(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &bad] {
      std::vector<float> in(kN), out(kN);
      for (int i = 0; i < kN; ++i) in[i] = static_cast<float>(t * 1000 + i);
      for (int r = 0; r < kRounds; ++r) {
        ::brook::stream a = ::brook::stream::create<float>(kN),
                        b = ::brook::stream::create<float>(kN);
        streamRead(a, in.data());
        const float k = static_cast<float>(r % 4);
        scale(a, k, b);
        streamWrite(b, out.data());
        for (int i = 0; i < kN; ++i)
          if (out[i] != k * in[i] + 1.0f) {
            ++bad[t];
            break;
          }
        // Sum of (t * 1000 + i) over i < 256, exactly representable:
        // 256 * t * 1000 + 255 * 256 / 2.
        float s = 0;
        total(a, s);
        if (s != static_cast<float>(256000 * t + 32640)) ++bad[t];
        // The same through brook::Stream<float> handles.
        brook::Stream<float> x = brook_cc::stream<float>({kN}), y = brook_cc::stream<float>({kN});
        x.read(in);
        scale(x, k + 1.0f, y);
        std::vector<float> got = y.to_vector();
        for (int i = 0; i < kN; ++i)
          if (got[i] != (k + 1.0f) * in[i] + 1.0f) {
            ++bad[t];
            break;
          }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  int failures = 0;
  for (int b : bad) failures += b;
  std::printf("threads %d, rounds %d, failures %d\n", kThreads, kRounds, failures);
  return failures != 0;
}
