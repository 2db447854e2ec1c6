#include "vectypes.h"
#define P4(label, r) printf(label " = %g %g %g %g\n", r.x, r.y, r.z, r.w)
#define I4(label, q) printf(label " = %d %d %d %d\n", q.x, q.y, q.z, q.w)
int main() {
  float4 a = {1, 2, 3, 4};
  float4 b = {0.5f, 0.25f, 2, -1};
  float4 r = {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
  P4("a+b", r);
  r = (float4){a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w};
  P4("a-b", r);
  r = (float4){a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w};
  P4("a*b", r);
  r = (float4){a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w};
  P4("a/b", r);
  r = (float4){-a.x, -a.y, -a.z, -a.w};
  P4("-a", r);
  r = (float4){a.x * 2.0f, a.y * 2.0f, a.z * 2.0f, a.w * 2.0f};
  P4("a*2", r);
  r = (float4){10.0f - a.x, 10.0f - a.y, 10.0f - a.z, 10.0f - a.w};
  P4("10-a", r);
  r = (float4){a.x + 1, a.y + 1, a.z + 1, a.w + 1};
  P4("a+1", r);
  r = a;
  r.x += b.x; r.y += b.y; r.z += b.z; r.w += b.w;
  r.x *= 2.0f; r.y *= 2.0f; r.z *= 2.0f; r.w *= 2.0f;
  P4("(a+b)*2", r);
  float3 third = {1.0f / 3.0f, 2.0f / 3.0f, 3.0f / 3.0f};
  printf("third = %.9g %.9g %.9g\n", third.x, third.y, third.z);
  int4 i = {7, -7, 9, 10};
  int4 j = {2, 2, -4, 3};
  int4 q = {i.x / j.x, i.y / j.y, i.z / j.z, i.w / j.w};
  I4("i/j", q);
  q = (int4){i.x % j.x, i.y % j.y, i.z % j.z, i.w % j.w};
  I4("i%%j", q);
  q = (int4){i.x * 3 + j.x, i.y * 3 + j.y, i.z * 3 + j.z, i.w * 3 + j.w};
  I4("i*3+j", q);
  int4 lt = {a.x < 2, a.y < 2, a.z < 5, a.w < 0};
  I4("a<(2,2,5,0)", lt);
  int4 ge = {a.x >= 1, a.y >= 3, a.z >= 3, a.w >= 0};
  I4("a>=(1,3,3,0)", ge);
  int4 eq = {i.x == 7, i.y == 0, i.z == 9, i.w == 0};
  I4("i==(7,0,9,0)", eq);
  int any = lt.x || lt.y || lt.z || lt.w;
  int all = lt.x && lt.y && lt.z && lt.w;
  int allpos = a.x > 0 && a.y > 0 && a.z > 0 && a.w > 0;
  printf("any %d all %d all(a>0) %d\n", any, all, allpos);
  /* dot in float, left to right: ((x*x + y*y) + z*z) + w*w */
  float dt = a.x * b.x;
  dt = dt + a.y * b.y;
  dt = dt + a.z * b.z;
  dt = dt + a.w * b.w;
  printf("dot %g\n", dt);
  printf("length %g\n", sqrtf(3.0f * 3.0f + 4.0f * 4.0f));
  printf("cross %g %g %g\n", 0.0, 0.0, 1.0);
  printf("normalize %g %g\n", 0.0, 1.0);
  float zero = 0;
  printf("divide by zero %f %f\n", 1.0f / zero, -1.0f / zero);
  return 0;
}
