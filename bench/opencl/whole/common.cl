// Hand-written baseline, shared by the whole programs: the float4 form of
// bench/opencl/sum.cl's two-level fold (that file's sum_chunks is loaded too).
#pragma OPENCL FP_CONTRACT OFF
__kernel void sum_chunks4(__global const float4* x, long n, long chunk, __global float4* partial) {
  long j = get_global_id(0);
  long k = j * chunk, end = min(k + chunk, n);
  float4 acc = x[k];
  for (++k; k < end; ++k) acc = acc + x[k];
  partial[j] = acc;
}
