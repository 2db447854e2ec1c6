#include "vectypes.h"
struct Body { float3 vel; };
#define P4(v) printf("%g %g %g %g\n", v.x, v.y, v.z, v.w)
int main() {
  float4 v = {0, 0, 0, 0};
  v.x = 1;
  v.y = 2; v.z = 3;
  v.w = 4;
  P4(v);
  v.w = 10; v.x = 20;
  P4(v);
  v.z = 7; v.y = 8; v.x = 9;
  P4(v);
  v.x += 1; v.y += 1;
  P4(v);
  { float t0 = v.x, t1 = v.y; v.y = t0; v.x = t1; }
  P4(v);
  v.x = 5; v.y = 6; v.z = 7; v.w = 8;
  P4(v);
  v.z *= 2;
  v.w -= 1;
  P4(v);
  v.y++;
  printf("%g\n", v.y);
  int4 iv = {0, 0, 0, 0};
  iv.w = 3; iv.y = 4;
  iv.x = iv.w + iv.y;
  printf("%d %d %d %d\n", iv.x, iv.y, iv.z, iv.w);
  float2 arr[3];
  for (int i = 0; i < 3; i++) arr[i] = (float2){0, 0};
  arr[1].y = 5;
  arr[2].y = 1; arr[2].x = 2;
  printf("%g %g | %g %g | %g %g\n", arr[0].x, arr[0].y, arr[1].x, arr[1].y, arr[2].x, arr[2].y);
  struct Body b;
  b.vel = (float3){1, 2, 3};
  b.vel.z = -1; b.vel.x = -3;
  printf("%g %g %g\n", b.vel.x, b.vel.y, b.vel.z);
  struct Body* pb = &b;
  pb->vel.y = 42;
  printf("%g\n", b.vel.y);
  return 0;
}
