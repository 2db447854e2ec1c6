// Hand-written whole blur3x3 (bench/whole/blur3x3.br): a hashed image, then
// bench/opencl/blur3x3.cl's kernel (clamped edges), ping-pong.
__kernel void init(__global float* img, int width) {
  uint x = get_global_id(0), y = get_global_id(1);
  uint h = x * 2654435761u ^ y * 40503u;
  h = h ^ (h >> 13);
  img[y * width + x] = (float)(h & 255u);
}
__kernel void blur3x3(__global const float* img, int width, int height, __global float* out) {
  int x = get_global_id(0), y = get_global_id(1);
  const float w[3] = {1.0f, 2.0f, 1.0f};
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int r = clamp(y + dy, 0, height - 1), c = clamp(x + dx, 0, width - 1);
      sum += w[dy + 1] * w[dx + 1] * img[r * width + c];
    }
  out[y * width + x] = sum / 16.0f;
}
