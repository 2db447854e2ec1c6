// Hand-written whole mandelbrot (bench/whole/mandelbrot.br): the iterator's
// points computed from the position (BrookGPU's lerp, spec §6), escape time
// with a float counter as in the .br.
static float lerp_iter(int i, int n, float lo, float hi) {
  float f = (float)i / (float)n;
  float a = (1.0f - f) * lo;
  float b = f * hi;
  return a + b + 1e-6f;
}
__kernel void escape_time(int width, int height, float max_iter, __global float* count) {
  int x = get_global_id(0), y = get_global_id(1);
  float cx = lerp_iter(x, width, -2.0f, 1.0f), cy = lerp_iter(y, height, -1.5f, 1.5f);
  float zx = 0.0f, zy = 0.0f, n = 0.0f;
  while (n < max_iter && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    n += 1.0f;
  }
  count[y * width + x] = n;
}
