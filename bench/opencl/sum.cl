// Hand-written baseline: a two-level sum, each work-item folding a contiguous chunk in order.
__kernel void sum_chunks(__global const float* x, long n, long chunk, __global float* partial) {
  long j = get_global_id(0);
  long k = j * chunk, end = min(k + chunk, n);
  float acc = x[k];
  for (++k; k < end; ++k) acc = acc + x[k];
  partial[j] = acc;
}
