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

}  // namespace brook::bench
