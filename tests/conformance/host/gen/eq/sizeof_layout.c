#include "vectypes.h"
// sizeof of every scalar and vector type, struct padding and arrays (x86-64 C layout;
// vectors are tightly packed and aligned to their component).
struct A { char c; int i; };
struct B { char c; double d; char e; };
struct C { char a; char b; short s; };
struct D { int i; char c; };
struct V { char c; float4 v; };
struct W { char c; float3 v; char d; };
struct X { uchar2 u; double2 d; };
struct Y { struct A a; char tail; };
struct Z { char name[5]; int n; };
int main() {
  printf("bool %lu char %lu uchar %lu short %lu ushort %lu\n", sizeof(bool), sizeof(char),
         sizeof(uchar), sizeof(short), sizeof(unsigned short));
  printf("int %lu uint %lu long %lu ulong %lu float %lu double %lu\n", sizeof(int),
         sizeof(uint), sizeof(long), sizeof(unsigned long), sizeof(float), sizeof(double));
  printf("pointer %lu %lu %lu\n", sizeof(int*), sizeof(char*), sizeof(struct A*));
  printf("float2 %lu float3 %lu float4 %lu\n", sizeof(float2), sizeof(float3), sizeof(float4));
  printf("double2 %lu double3 %lu double4 %lu\n", sizeof(double2), sizeof(double3), sizeof(double4));
  printf("int2 %lu int3 %lu int4 %lu\n", sizeof(int2), sizeof(int3), sizeof(int4));
  printf("uint2 %lu uint3 %lu uint4 %lu\n", sizeof(uint2), sizeof(uint3), sizeof(uint4));
  printf("char2 %lu char3 %lu char4 %lu\n", sizeof(char2), sizeof(char3), sizeof(char4));
  printf("uchar2 %lu uchar3 %lu uchar4 %lu\n", sizeof(uchar2), sizeof(uchar3), sizeof(uchar4));
  printf("A %lu B %lu C %lu D %lu\n", sizeof(struct A), sizeof(struct B), sizeof(struct C),
         sizeof(struct D));
  printf("V %lu W %lu X %lu Y %lu Z %lu\n", sizeof(struct V), sizeof(struct W),
         sizeof(struct X), sizeof(struct Y), sizeof(struct Z));
  int arr[7];
  float4 vecs[3];
  struct B bs[2];
  char grid[3][5];
  printf("arrays %lu %lu %lu %lu %lu\n", sizeof(arr), sizeof(vecs), sizeof(bs), sizeof(grid),
         sizeof(grid[1]));
  printf("expressions %lu %lu %lu %lu\n", sizeof(1 + 2), sizeof(1 + 2.0), sizeof 'a',
         sizeof(arr[0]));
  return 0;
}
