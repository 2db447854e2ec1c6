// Hand-written baseline: Winograd F(2x2, 3x3) on float4 channels, one 2x2 tile per work-item.
#pragma OPENCL FP_CONTRACT OFF
#define CHANNELS 4
static float sum4(float4 v) { return ((v.x + v.y) + v.z) + v.w; }
__kernel void winograd_tile(__global const float4* input, int in_width, __global const float4* filter,
                            float4 bias, __global float4* tl, __global float4* tr,
                            __global float4* bl, __global float4* br, int tiles_x) {
  int tx = get_global_id(0), ty = get_global_id(1);
  int x0 = 2 * tx, y0 = 2 * ty;
  float4 d[16], t[16], v[16];
  #pragma unroll
  for (int i = 0; i < 4; i++)
    #pragma unroll
    for (int j = 0; j < 4; j++) d[i * 4 + j] = input[(y0 + i) * in_width + x0 + j];
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
  float y00[4], y01[4], y10[4], y11[4];
  #pragma unroll
  for (int o = 0; o < CHANNELS; o++) {
    float4 m[16];
    #pragma unroll
    for (int p = 0; p < 16; p++) m[p] = v[p] * filter[o * 16 + p];
    float4 col1 = m[1] + m[5] + m[9], col2 = m[2] + m[6] + m[10];
    float4 low1 = m[5] - m[9] - m[13], low2 = m[6] - m[10] - m[14];
    y00[o] = sum4(m[0] + m[4] + m[8] + col1 + col2);
    y01[o] = sum4(col1 - col2 - m[3] - m[7] - m[11]);
    y10[o] = sum4(m[4] - m[8] - m[12] + low1 + low2);
    y11[o] = sum4(low1 - low2 - m[7] + m[11] + m[15]);
  }
  int k = ty * tiles_x + tx;
  tl[k] = (float4)(y00[0], y00[1], y00[2], y00[3]) + bias;
  tr[k] = (float4)(y01[0], y01[1], y01[2], y01[3]) + bias;
  bl[k] = (float4)(y10[0], y10[1], y10[2], y10[3]) + bias;
  br[k] = (float4)(y11[0], y11[1], y11[2], y11[3]) + bias;
}
