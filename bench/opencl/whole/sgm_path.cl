// Hand-written whole sgm_path (bench/whole/sgm_path.br): the same launches
// (census x2, matching cost, path start, then per column a row minimum and a
// path step), one <480, 640*64> buffer of paths, clamped edges.
#define DISPARITIES 64
__kernel void make_image(float shift, int width, __global float* img) {
  int px = get_global_id(0), py = get_global_id(1);
  uint x = (uint)((float)px + shift);
  uint h = (x / 3u) * 2654435761u ^ (uint)py * 40503u;
  h = h ^ (h >> 13);
  img[py * width + px] = (float)(h & 255u);
}
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
// paths[y][col0 + d] for d < DISPARITIES; `stride` is a row of paths (and of cost).
__kernel void path_start(__global const int* cost, int stride, __global int* paths) {
  int d = get_global_id(0), y = get_global_id(1);
  paths[y * stride + d] = cost[y * stride + d];
}
__kernel void row_min(__global const int* paths, int stride, int col0, __global int* least) {
  int y = get_global_id(0);
  __global const int* p = paths + y * stride + col0;
  int m = p[0];
  for (int d = 1; d < DISPARITIES; d++) m = min(m, p[d]);
  least[y] = m;
}
__kernel void path_step(__global const int* cost, __global int* paths, __global const int* previous_min,
                        int stride, int x, int p1, int p2) {
  int d = get_global_id(0), y = get_global_id(1);
  __global const int* prev = paths + y * stride + (x - 1) * DISPARITIES;
  int m = previous_min[y];
  int best = min(prev[d], m + p2);
  if (d > 0) best = min(best, prev[d - 1] + p1);
  if (d + 1 < DISPARITIES) best = min(best, prev[d + 1] + p1);
  paths[y * stride + x * DISPARITIES + d] = cost[y * stride + x * DISPARITIES + d] + best - m;
}
__kernel void int_total(__global const int* v, int n, __global int* out) {
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  out[0] = s;
}
