// Hand-written baseline: 3x3 Gaussian blur with clamped edges.
#pragma OPENCL FP_CONTRACT OFF
__kernel void blur3x3(__global const float* img, int width, int height, __global float* out) {
  int x = get_global_id(0), y = get_global_id(1);
  const float w[3] = {1.0f, 2.0f, 1.0f};
  float sum = 0.0f;
  #pragma unroll
  for (int dy = -1; dy <= 1; dy++)
    #pragma unroll
    for (int dx = -1; dx <= 1; dx++) {
      int r = clamp(y + dy, 0, height - 1), c = clamp(x + dx, 0, width - 1);
      sum += w[dy + 1] * w[dx + 1] * img[r * width + c];
    }
  out[y * width + x] = sum / 16.0f;
}
