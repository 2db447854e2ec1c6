// Hand-written whole saxpy (bench/whole/saxpy.br): init, then r = a * x + y in place.
__kernel void init(__global float* x, __global float* y) {
  int i = get_global_id(0);
  x[i] = (float)(i % 7);
  y[i] = 1.0f;
}
__kernel void saxpy(float a, __global const float* x, __global const float* y, __global float* r) {
  size_t i = get_global_id(0);
  r[i] = a * x[i] + y[i];
}
