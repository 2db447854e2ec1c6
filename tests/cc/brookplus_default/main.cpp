// A Brook+ host as the SDK samples are written: it includes only the header
// brcc wrote into brookgenfiles/ and uses Brook+'s brook::Stream<T>(rank,
// dims) and functors. The header is the default `brook cc` one, which
// gives a Brook+ host Brook+'s bindings. A stream of the .br struct Pair is
// made before any kernel has run (its source must be loaded by then). The
// expected output (main.out) is derived by hand.
#include <cstdio>

#include "kernels.h"

int main() {
  unsigned d[] = {4};
  float in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  brook::Stream<Pair> p(1, d);
  std::printf("Stream<Pair> before a launch: error %d\n", static_cast<int>(p.error()));
  brook::Stream<float> x(1, d), o(1, d);
  x.read(in);
  mk(x, p);  // a = x, b = (2x, 3x)
  rd(p, o);  // 6x
  o.write(out);
  std::printf("rd: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  Pair pairs[4];
  p.write(pairs);
  std::printf("pair 3: %g %g %g\n", pairs[3].a, pairs[3].b.x, pairs[3].b.y);
  scale(x, 0.5f, o);
  o.write(out);
  std::printf("scale: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  float total = 0;
  sum(x, total);
  std::printf("sum: %g\n", total);
  std::printf("errors: %d\n", static_cast<int>(o.error()));
  return 0;
}
