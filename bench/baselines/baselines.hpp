// Hand-written C++ baselines for bench/workloads, built with -O3 -march=native
// and run on 2 threads (parallel_for), vectorised by the compiler.
#pragma once

#include <cstdint>
#include <functional>

namespace brook::bench {

void parallel_for(int64_t n, int threads, const std::function<void(int64_t, int64_t)>& body);

void saxpy(int threads, float a, const float* x, const float* y, float* r, int64_t n);
float sum(int threads, const float* x, int64_t n);
void blur3x3(int threads, const float* img, float* out, int w, int h);
void mandelbrot(int threads, int* count, int size, int max_iter);
void sgemm(int threads, const float* a, const float* b, const float* c_in, float* c, int n,
           float alpha, float beta);
void black_scholes(int threads, const float* price, const float* strike, const float* years,
                   float r, float v, float* call, float* put, int64_t n);
void invert(int threads, const uint8_t* in, uint8_t* out, int64_t pixels);

// Winograd F(2x2, 3x3), 16 channels in and out as four float4 groups, in the
// layouts of workloads/winograd.br: `padded` is [group][size+2][size+2][4],
// `filter` [out channel][group*16 + p][4] (G g G^T), `bias` [group][4], and
// each corner output [out group][size/2][size/2][4].
void winograd(int threads, const float* padded, const float* filter, const float* bias,
              float* top_left, float* top_right, float* bottom_left, float* bottom_right, int size);

// sgm_path: census of both images, Hamming cost, left-to-right aggregation;
// `paths` is [height][width * disparities], as workloads/sgm_path.br.
void sgm_path(int threads, const float* left, const float* right, int width, int height,
              int disparities, int p1, int p2, uint32_t* left_code, uint32_t* right_code,
              int* cost, int* paths);

}  // namespace brook::bench
