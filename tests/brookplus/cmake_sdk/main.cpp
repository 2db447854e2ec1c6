// An SDK-style Brook+ host (see CMakeLists.txt): its bindings by both paths.
#include "brookgenfiles/copy.h"
#include "scale.h"

int main() {
  unsigned int dims[] = {4};
  float in[4] = {1, 2, 3, 4}, out[4] = {0};
  brook::Stream<float> a(1, dims), b(1, dims), c(1, dims);
  a.read(in);
  copy(a, b);
  scale(b, c, 3.0f);
  c.write(out);
  printf("%g %g %g %g, error %d\n", out[0], out[1], out[2], out[3], int(c.error()));
  return 0;
}
