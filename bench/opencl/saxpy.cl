// Hand-written baseline: r = a * x + y.
#pragma OPENCL FP_CONTRACT OFF
__kernel void saxpy(float a, __global const float* x, __global const float* y, __global float* r) {
  size_t i = get_global_id(0);
  r[i] = a * x[i] + y[i];
}
