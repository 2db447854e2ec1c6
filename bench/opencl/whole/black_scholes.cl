// Hand-written whole black_scholes (bench/whole/black_scholes.br): init, then
// bench/opencl/black_scholes.cl's kernel.
__kernel void init(__global float* price, __global float* strike, __global float* years) {
  int i = get_global_id(0);
  price[i] = 10.0f + (float)(i % 100) * 0.5f;
  strike[i] = 20.0f + (float)(i % 37);
  years[i] = 0.25f + (float)(i % 10) * 0.2f;
}
