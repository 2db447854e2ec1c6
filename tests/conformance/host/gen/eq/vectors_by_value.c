#include "vectypes.h"
struct Light { float3 pos; float4 color; int id; };
void clobber(float4 v) { v.x = -100; v.y = 0; v.z = 0; v.w = 0; }
float3 offset(float3 p, float d) { p.y += d; return p; }
struct Light move(struct Light l) { l.pos = offset(l.pos, 10); return l; }
int main() {
  float4 c = {1, 2, 3, 4};
  clobber(c);
  printf("%g %g %g %g\n", c.x, c.y, c.z, c.w);
  float3 p = {0.5f, 1, 1.5f};
  float3 q = offset(p, 2);
  printf("%g %g %g | %g %g %g\n", p.x, p.y, p.z, q.x, q.y, q.z);
  struct Light l = {{1, 2, 3}, {0.25f, 0.25f, 0.25f, 0.25f}, 7};
  struct Light m = move(l);
  printf("%g %g | %g %g %d\n", l.pos.y, m.pos.y, m.color.w, m.color.x, m.id);
  float2 swz = {4, 3};
  printf("%g %g\n", swz.x, swz.y);
  double4 d = {0.1, 0.2, 0.3, 0.4};
  double4 e = {d.x + d.x * 2.0, d.y + d.y * 2.0, d.z + d.z * 2.0, d.w + d.w * 2.0};
  printf("%.17g %.17g\n", e.x, e.w);
  double3 dd = {1 / 3.0, 1 / 3.0, 1 / 3.0};
  printf("%.17g\n", dd.z);
  float4 arr[2] = {c, {c.x * 2.0f, c.y * 2.0f, c.z * 2.0f, c.w * 2.0f}};
  arr[0].x = 50;
  printf("%g %g %g\n", c.x, arr[0].x, arr[1].w);
  return 0;
}
