// Hand-written whole winograd (bench/whole/winograd.br): 64x64, 16 channels in
// and out as 4 groups of float4; zero-pad, F(2x2,3x3) tiles, ReLU merge.
#define SIZE 64
#define PADDED 66
#define TILES 32
#define GROUPS 4
static float sum4(float4 v) { return ((v.x + v.y) + v.z) + v.w; }
__kernel void init(__global float4* act) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = x + 7 * y;
  act[y * SIZE + x] = (float4)((float)(i % 5), (float)(i % 3), (float)(i % 7), 1.0f) * 0.25f;
}
// padded[g*66 + y][x] = act[g*64 + y - 1][x - 1] inside, 0 on the border.
__kernel void pad(__global const float4* act, __global float4* padded) {
  int x = get_global_id(0), py = get_global_id(1);
  int g = py / PADDED, y = py % PADDED;
  bool inside = y >= 1 && y <= SIZE && x >= 1 && x <= SIZE;
  padded[py * PADDED + x] = inside ? act[(g * SIZE + y - 1) * SIZE + x - 1] : (float4)(0.0f);
}
__kernel void winograd_tile(__global const float4* input, __global const float4* filter,
                            __global const float4* bias, __global float4* tl, __global float4* tr,
                            __global float4* bl, __global float4* br) {
  int tx = get_global_id(0), row = get_global_id(1);
  int og = row / TILES, x0 = 2 * tx, y0 = 2 * (row % TILES);
  float y00[4] = {0.0f, 0.0f, 0.0f, 0.0f}, y01[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  float y10[4] = {0.0f, 0.0f, 0.0f, 0.0f}, y11[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  #pragma unroll
  for (int g = 0; g < GROUPS; g++) {
    float4 d[16], t[16], v[16];
    #pragma unroll
    for (int i = 0; i < 4; i++)
      #pragma unroll
      for (int j = 0; j < 4; j++) d[i * 4 + j] = input[(g * PADDED + y0 + i) * PADDED + x0 + j];
    #pragma unroll
    for (int j = 0; j < 4; j++) {
      t[j] = d[j] - d[8 + j];
      t[4 + j] = d[4 + j] + d[8 + j];
      t[8 + j] = d[8 + j] - d[4 + j];
      t[12 + j] = d[4 + j] - d[12 + j];
    }
    #pragma unroll
    for (int i = 0; i < 4; i++) {
      v[i * 4] = t[i * 4] - t[i * 4 + 2];
      v[i * 4 + 1] = t[i * 4 + 1] + t[i * 4 + 2];
      v[i * 4 + 2] = t[i * 4 + 2] - t[i * 4 + 1];
      v[i * 4 + 3] = t[i * 4 + 1] - t[i * 4 + 3];
    }
    #pragma unroll
    for (int o = 0; o < 4; o++) {
      float4 m[16];
      #pragma unroll
      for (int p = 0; p < 16; p++) m[p] = v[p] * filter[(og * 4 + o) * 64 + g * 16 + p];
      float4 col1 = m[1] + m[5] + m[9], col2 = m[2] + m[6] + m[10];
      float4 low1 = m[5] - m[9] - m[13], low2 = m[6] - m[10] - m[14];
      y00[o] += sum4(m[0] + m[4] + m[8] + col1 + col2);
      y01[o] += sum4(col1 - col2 - m[3] - m[7] - m[11]);
      y10[o] += sum4(m[4] - m[8] - m[12] + low1 + low2);
      y11[o] += sum4(low1 - low2 - m[7] + m[11] + m[15]);
    }
  }
  float4 b = bias[og];
  int k = row * TILES + tx;
  tl[k] = (float4)(y00[0], y00[1], y00[2], y00[3]) + b;
  tr[k] = (float4)(y01[0], y01[1], y01[2], y01[3]) + b;
  bl[k] = (float4)(y10[0], y10[1], y10[2], y10[3]) + b;
  br[k] = (float4)(y11[0], y11[1], y11[2], y11[3]) + b;
}
// act[g*64 + y][x] = max(corner(y % 2, x % 2)[g*32 + y/2][x/2], 0)
__kernel void merge(__global const float4* tl, __global const float4* tr, __global const float4* bl,
                    __global const float4* br, __global float4* act) {
  int x = get_global_id(0), py = get_global_id(1);
  int g = py / SIZE, y = py % SIZE;
  int at = (g * TILES + y / 2) * TILES + x / 2;
  __global const float4* corner = (y & 1) ? ((x & 1) ? br : bl) : ((x & 1) ? tr : tl);
  act[py * SIZE + x] = fmax(corner[at], (float4)(0.0f));
}
