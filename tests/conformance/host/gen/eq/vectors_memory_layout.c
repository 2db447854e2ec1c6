#include "vectypes.h"
int main() {
  float4 v = {1.5f, 2.5f, 3.5f, 4.5f};
  float raw[4];
  memcpy(raw, &v, sizeof(v));
  printf("%g %g %g %g\n", raw[0], raw[1], raw[2], raw[3]);
  float src[6] = {1, 2, 3, 4, 5, 6};
  float3 pair[2];
  memcpy(pair, src, sizeof(pair));
  printf("%g %g %g | %g %g %g\n", pair[0].x, pair[0].y, pair[0].z, pair[1].x, pair[1].y, pair[1].z);
  float3* p = pair;
  printf("stride %ld\n", (char*)(p + 1) - (char*)p);
  int2 iv = {0x01020304, -1};
  uchar bytes[8];
  memcpy(bytes, &iv, 8);
  for (int i = 0; i < 8; i++) printf("%02x", bytes[i]);
  printf("\n");
  float4* heap = (float4*)malloc(2 * sizeof(float4));
  heap[1] = (float4){9, 8, 7, 6};
  float* f = (float*)heap;
  printf("%g %g\n", f[4], f[7]);
  free(heap);
  return 0;
}
