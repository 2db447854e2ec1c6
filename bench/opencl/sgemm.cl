// Hand-written baseline: one output element per work-item, row of A times column of B.
#pragma OPENCL FP_CONTRACT OFF
__kernel void sgemm(__global const float* a, __global const float* b, __global const float* c_in,
                    int m, int k, int n, float alpha, float beta, __global float* c) {
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int i = 0; i < k; i++) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = alpha * sum + beta * c_in[row * n + col];
}
