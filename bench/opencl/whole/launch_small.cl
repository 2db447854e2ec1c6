// bench/launch/launch_small.br: one small kernel, its argument list set once.
__kernel void halve_plus_one(__global const float* a, __global float* b) {
  size_t i = get_global_id(0);
  b[i] = a[i] * 0.5f + 1.0f;
}
