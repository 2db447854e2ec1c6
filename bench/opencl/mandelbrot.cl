// Hand-written baseline: escape time over the iterator's points (read from memory, as Brook does).
#pragma OPENCL FP_CONTRACT OFF
__kernel void escape_time(__global const float2* c, int max_iter, __global int* count) {
  size_t i = get_global_id(0);
  float2 p = c[i];
  float zx = 0.0f, zy = 0.0f;
  int n = 0;
  while (n < max_iter && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + p.x;
    zy = 2.0f * zx * zy + p.y;
    zx = t;
    n++;
  }
  count[i] = n;
}
