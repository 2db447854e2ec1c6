#include "vectypes.h"
struct Particle { float3 pos; int2 cell; };
int main() {
  float4 v = {1, 2, 3, 4};
  float2 a = {v.y, v.x};
  printf("yx = %g %g\n", a.x, a.y);
  float4 b = {v.w, v.z, v.y, v.x};
  printf("wzyx = %g %g %g %g\n", b.x, b.y, b.z, b.w);
  float4 c = {v.x, v.x, v.x, v.x};
  printf("xxxx = %g %g %g %g\n", c.x, c.y, c.z, c.w);
  float3 d = {v.z, v.z, v.y};
  printf("zzy = %g %g %g\n", d.x, d.y, d.z);
  float s = v.w;
  printf("w = %g\n", s);
  float4 col = {v.w, v.z, v.y, v.x};
  printf("abgr = %g %g %g %g\n", col.x, col.y, col.z, col.w);
  printf("r g b a = %g %g %g %g\n", v.x, v.y, v.z, v.w);
  /* v.wzyx = (4,3,2,1); .yx = (3,4) */
  float2 nested = {3, 4};
  printf("wzyx.yx = %g %g\n", nested.x, nested.y);
  int3 iv = {5, 6, 7};
  int2 k = {iv.z, iv.x};
  printf("zx = %d %d\n", k.x, k.y);
  int4 widened = {iv.x, iv.y, iv.z, iv.x};
  printf("xyzx = %d %d %d %d\n", widened.x, widened.y, widened.z, widened.w);
  struct Particle p;
  p.pos = (float3){0.5f, 1.5f, 2.5f};
  p.cell = (int2){3, 4};
  float2 pz = {p.pos.z, p.pos.y};
  printf("p.pos.zy = %g %g, p.cell.yx.x = %d\n", pz.x, pz.y, p.cell.y);
  float2 arr[2] = {{1, 2}, {3, 4}};
  float2 r = {arr[1].y, arr[1].x};
  printf("arr[1].yx = %g %g\n", r.x, r.y);
  float2 sum = {v.x + v.z, v.y + v.w};
  printf("xy + zw = %g %g\n", sum.x, sum.y);
  float2 small = {8, 9};
  printf("small.yyy.z = %g\n", small.y);
  return 0;
}
