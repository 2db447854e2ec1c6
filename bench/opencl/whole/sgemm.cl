// Hand-written whole sgemm (bench/whole/sgemm.br): init, then
// bench/opencl/sgemm.cl's kernel with c_in and c the same buffer (in place).
__kernel void init(__global float* a, __global float* b, __global float* c, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  a[y * n + x] = (float)((x + 2 * y) % 5) * 0.125f;
  b[y * n + x] = (float)((x * 3 + y) % 7) * 0.0625f;
  c[y * n + x] = 0.0f;
}
