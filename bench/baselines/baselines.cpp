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

namespace brook::bench {

// Four channels per float4 lane group: the compiler turns each `c` loop into
// one SSE/AVX operation (SLP), and the 16-point transforms stay in registers.
void winograd(int threads, const float* padded, const float* filter, const float* bias,
              float* top_left, float* top_right, float* bottom_left, float* bottom_right, int size) {
  const int tiles = size / 2, width = size + 2, groups = 4;
  parallel_for(int64_t{groups} * tiles, threads, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int og = static_cast<int>(row) / tiles, y0 = 2 * (static_cast<int>(row) % tiles);
      for (int tx = 0; tx < tiles; ++tx) {
        const int x0 = 2 * tx;
        float y00[4] = {}, y01[4] = {}, y10[4] = {}, y11[4] = {};
        for (int g = 0; g < groups; ++g) {
          float d[16][4], t[16][4], v[16][4];
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
              for (int c = 0; c < 4; ++c)
                d[i * 4 + j][c] = padded[((static_cast<size_t>(g) * width + y0 + i) * width + x0 + j) * 4 + c];
          for (int j = 0; j < 4; ++j)
            for (int c = 0; c < 4; ++c) {
              t[j][c] = d[j][c] - d[8 + j][c];
              t[4 + j][c] = d[4 + j][c] + d[8 + j][c];
              t[8 + j][c] = d[8 + j][c] - d[4 + j][c];
              t[12 + j][c] = d[4 + j][c] - d[12 + j][c];
            }
          for (int i = 0; i < 4; ++i)
            for (int c = 0; c < 4; ++c) {
              v[i * 4][c] = t[i * 4][c] - t[i * 4 + 2][c];
              v[i * 4 + 1][c] = t[i * 4 + 1][c] + t[i * 4 + 2][c];
              v[i * 4 + 2][c] = t[i * 4 + 2][c] - t[i * 4 + 1][c];
              v[i * 4 + 3][c] = t[i * 4 + 1][c] - t[i * 4 + 3][c];
            }
          for (int o = 0; o < 4; ++o) {
            const float* f = filter + (static_cast<size_t>(og * 4 + o) * groups * 16 + g * 16) * 4;
            float m[16][4];
            for (int p = 0; p < 16; ++p)
              for (int c = 0; c < 4; ++c) m[p][c] = v[p][c] * f[p * 4 + c];
            float s00[4], s01[4], s10[4], s11[4];
            for (int c = 0; c < 4; ++c) {
              float col1 = m[1][c] + m[5][c] + m[9][c], col2 = m[2][c] + m[6][c] + m[10][c];
              float low1 = m[5][c] - m[9][c] - m[13][c], low2 = m[6][c] - m[10][c] - m[14][c];
              s00[c] = m[0][c] + m[4][c] + m[8][c] + col1 + col2;
              s01[c] = col1 - col2 - m[3][c] - m[7][c] - m[11][c];
              s10[c] = m[4][c] - m[8][c] - m[12][c] + low1 + low2;
              s11[c] = low1 - low2 - m[7][c] + m[11][c] + m[15][c];
            }
            y00[o] += ((s00[0] + s00[1]) + s00[2]) + s00[3];
            y01[o] += ((s01[0] + s01[1]) + s01[2]) + s01[3];
            y10[o] += ((s10[0] + s10[1]) + s10[2]) + s10[3];
            y11[o] += ((s11[0] + s11[1]) + s11[2]) + s11[3];
          }
        }
        const size_t k = (static_cast<size_t>(row) * tiles + tx) * 4;
        for (int c = 0; c < 4; ++c) {
          top_left[k + c] = y00[c] + bias[og * 4 + c];
          top_right[k + c] = y01[c] + bias[og * 4 + c];
          bottom_left[k + c] = y10[c] + bias[og * 4 + c];
          bottom_right[k + c] = y11[c] + bias[og * 4 + c];
        }
      }
    }
  });
}

static void census_rows(const float* img, uint32_t* code, int w, int h, int64_t b, int64_t e) {
  for (int64_t y = b; y < e; ++y)
    for (int x = 0; x < w; ++x) {
      uint32_t bits = 0;
      for (int dy = -3; dy <= 0; ++dy)
        for (int dx = -4; dx <= 4; ++dx) {
          if (dy == 0 && dx == 0) break;
          int r0 = std::clamp(static_cast<int>(y) + dy, 0, h - 1), c0 = std::clamp(x + dx, 0, w - 1);
          int r1 = std::clamp(static_cast<int>(y) - dy, 0, h - 1), c1 = std::clamp(x - dx, 0, w - 1);
          bits = (bits << 1) | (img[r0 * w + c0] > img[r1 * w + c1] ? 1u : 0u);
        }
      code[y * w + x] = bits;
    }
}

// Rows are independent once the census codes exist: each thread takes whole
// scanlines, builds their cost, and sweeps them; the disparity loop is the
// vector loop (a padded copy of the previous column avoids the edge tests).
void sgm_path(int threads, const float* left, const float* right, int width, int height,
              int disparities, int p1, int p2, uint32_t* left_code, uint32_t* right_code,
              int* cost, int* paths) {
  parallel_for(height, threads, [&](int64_t b, int64_t e) {
    census_rows(left, left_code, width, height, b, e);
    census_rows(right, right_code, width, height, b, e);
  });
  const int64_t row_length = int64_t{width} * disparities;
  parallel_for(height, threads, [&](int64_t b, int64_t e) {
    std::vector<int> prev(static_cast<size_t>(disparities) + 2);
    const int far = 1 << 28;
    for (int64_t y = b; y < e; ++y) {
      int* c = cost + y * row_length;
      for (int x = 0; x < width; ++x) {
        const uint32_t l = left_code[y * width + x];
        for (int d = 0; d < disparities; ++d) {
          uint32_t seen = x >= d ? right_code[y * width + x - d] : 0u;
          c[x * disparities + d] = __builtin_popcount(l ^ seen);
        }
      }
      int* path = paths + y * row_length;
      for (int d = 0; d < disparities; ++d) path[d] = c[d];
      for (int x = 1; x < width; ++x) {
        const int* l_prev = path + (x - 1) * disparities;
        int* l = path + x * disparities;
        int m = l_prev[0];
        for (int d = 1; d < disparities; ++d) m = std::min(m, l_prev[d]);
        prev[0] = far;
        prev[static_cast<size_t>(disparities) + 1] = far;
        std::copy(l_prev, l_prev + disparities, prev.begin() + 1);
        const int* pv = prev.data() + 1;
        for (int d = 0; d < disparities; ++d) {
          int best = std::min(std::min(pv[d], m + p2), std::min(pv[d - 1], pv[d + 1]) + p1);
          l[d] = c[x * disparities + d] + best - m;
        }
      }
    }
  });
}

}  // namespace brook::bench
