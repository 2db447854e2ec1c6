// Hand-written baseline, shared by the whole programs: a two-level fold, each
// work-item folding a contiguous chunk in order (as bench/opencl/sum.cl).
#pragma OPENCL FP_CONTRACT OFF
__kernel void sum_chunks(__global const float* x, long n, long chunk, __global float* partial) {
  long j = get_global_id(0);
  long k = j * chunk, end = min(k + chunk, n);
  float acc = x[k];
  for (++k; k < end; ++k) acc = acc + x[k];
  partial[j] = acc;
}
__kernel void sum_chunks4(__global const float4* x, long n, long chunk, __global float4* partial) {
  long j = get_global_id(0);
  long k = j * chunk, end = min(k + chunk, n);
  float4 acc = x[k];
  for (++k; k < end; ++k) acc = acc + x[k];
  partial[j] = acc;
}
