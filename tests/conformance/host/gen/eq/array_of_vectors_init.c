#include "vectypes.h"
float4 scale(float4 v, float s) { return (float4){v.x * s, v.y * s, v.z * s, v.w * s}; }
int main() {
  float4 d[2][2] = {{{0, 0, 0, 0}, {1, 1, 1, 1}}, {{2, 2, 2, 2}, {1, 2, 3, 4}}};
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 2; c++) printf("d[%d][%d] = %g %g %g %g\n", r, c, d[r][c].x, d[r][c].y, d[r][c].z, d[r][c].w);
  float2 pts[3] = {{1, 2}, {3, 4}, {5, 6}};
  float2 sum = {0, 0};
  for (int i = 0; i < 3; i++) { sum.x += pts[i].x; sum.y += pts[i].y; }
  printf("sum = %g %g\n", sum.x, sum.y);
  int3 cells[2] = {{1, 2, 3}};
  printf("cells[1] = %d %d %d\n", cells[1].x, cells[1].y, cells[1].z);
  float4 s = scale(d[1][1], 0.5f);
  printf("scaled = %g %g %g %g\n", s.x, s.y, s.z, s.w);
  float3 grid[2][3];
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) grid[r][c] = (float3){r, c, r * 3 + c};
  printf("grid[1][2] = %g %g %g\n", grid[1][2].x, grid[1][2].y, grid[1][2].z);
  printf("sizeof d %lu grid %lu\n", sizeof(d), sizeof(grid));
  return 0;
}
