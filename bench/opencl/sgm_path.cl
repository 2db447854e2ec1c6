// Hand-written baseline: sgm_path's census transform and matching cost (the
// per-pixel stages), with clamped edges as in the Brook version.
#define DISPARITIES 16
__kernel void census(__global const float* image, int width, int height, __global uint* code) {
  int x = get_global_id(0), y = get_global_id(1);
  uint bits = 0u;
  #pragma unroll
  for (int dy = -3; dy <= 0; dy++)
    #pragma unroll
    for (int dx = -4; dx <= 4; dx++) {
      if (dy == 0 && dx == 0) break;
      int r0 = clamp(y + dy, 0, height - 1), c0 = clamp(x + dx, 0, width - 1);
      int r1 = clamp(y - dy, 0, height - 1), c1 = clamp(x - dx, 0, width - 1);
      bits = (bits << 1) | (image[r0 * width + c0] > image[r1 * width + c1] ? 1u : 0u);
    }
  code[y * width + x] = bits;
}
__kernel void matching_cost(__global const uint* left, __global const uint* right, int width,
                            __global int* cost) {
  int col = get_global_id(0), y = get_global_id(1);
  int x = col / DISPARITIES, d = col % DISPARITIES;
  uint seen = x >= d ? right[y * width + x - d] : 0u;
  cost[y * width * DISPARITIES + col] = popcount(left[y * width + x] ^ seen);
}
