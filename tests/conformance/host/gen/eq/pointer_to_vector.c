/* C equivalent of pointer_to_vector.br: vectors as structs of components. */
typedef struct { float x, y, z, w; } float4;
typedef struct { float x, y; } float2;
typedef struct { int x, y, z; } int3;

void scale(float4* p, float k) {
  p->x = p->x * k;
  p->y *= k;
  p->z = p->z * k;
  p->w = p->w * k;
}

int main() {
  float4 v = {1.0f, 2.0f, 3.0f, 4.0f};
  float4* p = &v;
  scale(p, 2.0f);
  printf("%g %g %g %g\n", v.x, v.y, v.z, v.w);
  float2 lo = {p->x, p->y};
  printf("%g %g\n", lo.x, lo.y);
  float4 arr[2] = {{0.5f, 0.5f, 0.5f, 0.5f}, {1.0f, 2.0f, 3.0f, 4.0f}};
  float4* q = arr;
  (q + 1)->w = 10.0f;
  printf("%g %g %g\n", q->x, (q + 1)->w, arr[1].w);
  int3 iv = {7, 8, 9};
  int3* ip = &iv;
  ip->z += ip->x;
  printf("%d %d %d\n", ip->x, ip->y, iv.z);
  return 0;
}
