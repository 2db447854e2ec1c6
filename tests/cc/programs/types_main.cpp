// Drives types.br through its generated header (tests/cc/cli.sh).
#include <cstdio>
#include <vector>

#include "types.h"

int main() {
  auto table = brook_cc::stream<float>({3});
  auto pairs = brook_cc::stream<Pair>({2});
  auto out = brook_cc::stream<float4>({2});
  std::vector<float> t{10, 20, 30};
  table.read(t);
  std::vector<Pair> ps{make_pair(1, 2), make_pair(0.5f, 0)};
  pairs.read(ps);
  pick(table, pairs, float4{1, 2, 3, 4}, 100.0f, out);
  for (const float4& v : out.to_vector()) std::printf("%g %g %g %g\n", v.x, v.y, v.z, v.w);
  float4 sum{};
  add4(out, sum);
  std::printf("%g %g %g %g\n", sum.x, sum.y, sum.z, sum.w);
}
