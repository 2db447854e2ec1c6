// Hand-written whole saxpy (bench/whole/saxpy.br): init, then
// bench/opencl/saxpy.cl's kernel in place.
__kernel void init(__global float* x, __global float* y) {
  int i = get_global_id(0);
  x[i] = (float)(i % 7);
  y[i] = 1.0f;
}
