// The baselines: straightforward C++ the compiler vectorises (-O3 -march=native).
#include "baselines.hpp"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace brook::bench {

void parallel_for(int64_t n, int threads, const std::function<void(int64_t, int64_t)>& body) {
  std::vector<std::thread> ts;
  for (int t = 1; t < threads; ++t)
    ts.emplace_back([&, t] { body(n * t / threads, n * (t + 1) / threads); });
  body(0, n / threads);
  for (auto& t : ts) t.join();
}

void saxpy(int threads, float a, const float* x, const float* y, float* r, int64_t n) {
  parallel_for(n, threads, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) r[i] = a * x[i] + y[i];
  });
}

float sum(int threads, const float* x, int64_t n) {
  std::vector<float> part(static_cast<size_t>(threads));
  parallel_for(threads, threads, [&](int64_t tb, int64_t te) {
    for (int64_t t = tb; t < te; ++t) {
      int64_t b = n * t / threads, e = n * (t + 1) / threads;
      // 16 independent partial sums so the loop vectorises without -ffast-math.
      float acc[16] = {};
      int64_t i = b;
      for (; i + 16 <= e; i += 16)
        for (int k = 0; k < 16; ++k) acc[k] += x[i + k];
      float s = 0;
      for (float v : acc) s += v;
      for (; i < e; ++i) s += x[i];
      part[static_cast<size_t>(t)] = s;
    }
  });
  float s = 0;
  for (float p : part) s += p;
  return s;
}

void blur3x3(int threads, const float* img, float* out, int w, int h) {
  const float wt[3] = {1, 2, 1};
  parallel_for(h, threads, [&](int64_t b, int64_t e) {
    for (int64_t y = b; y < e; ++y)
      for (int x = 0; x < w; ++x) {
        float s = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          int yy = std::clamp(static_cast<int>(y) + dy, 0, h - 1);
          for (int dx = -1; dx <= 1; ++dx) {
            int xx = std::clamp(x + dx, 0, w - 1);
            s += wt[dy + 1] * wt[dx + 1] * img[yy * w + xx];
          }
        }
        out[y * w + x] = s / 16.0f;
      }
  });
}

void mandelbrot(int threads, int* count, int size, int max_iter) {
  parallel_for(size, threads, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      float fy = static_cast<float>(row) / static_cast<float>(size);
      float cy = (1.0f - fy) * -1.5f + fy * 1.5f + 1e-6f;
      // 16 columns at a time in lock step: the SPMD form a compiler vectorises.
      for (int col0 = 0; col0 < size; col0 += 16) {
        float zx[16] = {}, zy[16] = {}, cx[16];
        int n[16] = {}, live[16];
        for (int k = 0; k < 16; ++k) {
          float fx = static_cast<float>(col0 + k) / static_cast<float>(size);
          cx[k] = (1.0f - fx) * -2.0f + fx * 1.0f + 1e-6f;
          live[k] = col0 + k < size;
        }
        for (int it = 0; it < max_iter; ++it) {
          int any = 0;
          for (int k = 0; k < 16; ++k) {
            int go = live[k] && zx[k] * zx[k] + zy[k] * zy[k] <= 4.0f;
            float t = zx[k] * zx[k] - zy[k] * zy[k] + cx[k];
            float ny = 2.0f * zx[k] * zy[k] + cy;
            zx[k] = go ? t : zx[k];
            zy[k] = go ? ny : zy[k];
            n[k] += go;
            live[k] = go;
            any |= go;
          }
          if (!any) break;
        }
        for (int k = 0; k < 16 && col0 + k < size; ++k) count[row * size + col0 + k] = n[k];
      }
    }
  });
}

void sgemm(int threads, const float* a, const float* b, const float* c_in, float* c, int n,
           float alpha, float beta) {
  parallel_for(n, threads, [&](int64_t rb, int64_t re) {
    std::vector<float> acc(static_cast<size_t>(n));
    for (int64_t i = rb; i < re; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int k = 0; k < n; ++k) {
        float aik = a[i * n + k];
        for (int j = 0; j < n; ++j) acc[j] += aik * b[k * n + j];
      }
      for (int j = 0; j < n; ++j) c[i * n + j] = alpha * acc[j] + beta * c_in[i * n + j];
    }
  });
}

static inline float cnd(float d) {
  float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  float poly = k * (0.319381530f +
               k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float w = 0.39894228040143267794f * std::exp(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - w : w;
}

void black_scholes(int threads, const float* price, const float* strike, const float* years,
                   float r, float v, float* call, float* put, int64_t n) {
  parallel_for(n, threads, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      float sqrt_t = std::sqrt(years[i]);
      float d1 = (std::log(price[i] / strike[i]) + (r + 0.5f * v * v) * years[i]) / (v * sqrt_t);
      float d2 = d1 - v * sqrt_t;
      float disc = strike[i] * std::exp(-r * years[i]);
      call[i] = price[i] * cnd(d1) - disc * cnd(d2);
      put[i] = disc * (1.0f - cnd(d2)) - price[i] * (1.0f - cnd(d1));
    }
  });
}

void invert(int threads, const uint8_t* in, uint8_t* out, int64_t pixels) {
  parallel_for(pixels, threads, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      out[4 * i] = static_cast<uint8_t>(255 - in[4 * i]);
      out[4 * i + 1] = static_cast<uint8_t>(255 - in[4 * i + 1]);
      out[4 * i + 2] = static_cast<uint8_t>(255 - in[4 * i + 2]);
      out[4 * i + 3] = in[4 * i + 3];
    }
  });
}

}  // namespace brook::bench
