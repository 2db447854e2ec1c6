// A BrookGPU application's use of brt.hpp's runtime routines and idioms:
// brook::initialize with a BrookGPU runtime name, runtimeTargets,
// microseconds, finish/finalize/bind/unbind, brmalloc/brfree, BRTALIGNED,
// memcmp and printf with only brook/brook.hpp included; a hand-written
// prototype in brcc's `const T&` form next to the generated header; an
// iterator passed to an input stream; a stream of a struct known by its
// typedef name. The expected output (main.out) is derived by hand.
#include <brook/brook.hpp>

#include <cmath>

#include "kernels.h"

// As mandelbrot/main.cpp declares it, copied from brcc's output.
void fill(const float2& p, const float& s, ::brook::stream o);

BRTALIGNED float host[4] = {1, 2, 3, 4};

int main() {
  const char** targets = brook::runtimeTargets();
  std::printf("targets: %s %s\n", targets[0], targets[1] ? "more" : "(end)");
  brook::initialize("dx9", NULL);  // any BrookGPU runtime name: brook keeps $BROOK_BACKEND
  brook::bind();
  brook::int64 t0 = brook::microseconds();

  float* out = (float*)brmalloc(4 * sizeof(float));
  std::printf("brmalloc aligned: %d, host aligned: %d\n", (int)((std::uintptr_t)out % 16 == 0),
              (int)((std::uintptr_t)host % 16 == 0));
  ::brook::stream a = ::brook::stream::create<float>(4), b = ::brook::stream::create<float>(4);
  a.read(host);
  copy(a, b);
  brook::finish();
  b.write(out);
  std::printf("copy: same %d\n", std::memcmp(out, host, sizeof host) == 0);

  ::brook::stream f = ::brook::stream::create<float4>(1, 2);
  fill(float2{1, 2}, 3.0f, f);
  float4 r[2];
  f.write(r);
  std::printf("fill: %g %g %g %g\n", r[1].x, r[1].y, r[1].z, r[1].w);  // 1 2 3 1

  // <2> from (0, 0) to (4, 2): (0, 0) and (2, 1), each nudged by 1e-6
  // (LANGUAGE.md §6), so x + 10 y is 0 and 12 floored.
  ::brook::iter it(::brook::__BRTFLOAT2, 2, -1, 0.0f, 0.0f, 4.0f, 2.0f, -1);
  ::brook::stream o = ::brook::stream::create<float>(2);
  take(it, o);
  float t[2];
  o.write(t);
  std::printf("take: %g %g\n", std::floor(t[0]), std::floor(t[1]));  // 0 12

  ::brook::stream s = ::brook::stream::create<float>(2);
  ::brook::stream rays = ::brook::stream::create<Ray>(2);
  float in[2] = {1, 2};
  s.read(in);
  mk(s, rays);
  Ray ro[2];
  rays.write(ro);
  std::printf("mk: %g %g\n", ro[1].o.x, ro[1].d.z);  // 2 -2

  std::printf("clock: %d\n", (int)(brook::microseconds() >= t0));
  brfree(out);
  brook::unbind();
  brook::finalize();
  return 0;
}
