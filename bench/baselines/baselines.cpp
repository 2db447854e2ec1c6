// The baselines: straightforward C++ the compiler vectorises (-O3 -march=native).
#include "baselines.hpp"

#include <algorithm>
#ifdef __AVX512F__
#include <immintrin.h>
#endif
#include <cmath>
#include <cstring>
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
  // One output pixel, every index clamped (the image's edges).
  auto clamped = [&](int64_t y, int x) {
    float s = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      int yy = std::clamp(static_cast<int>(y) + dy, 0, h - 1);
      for (int dx = -1; dx <= 1; ++dx) {
        int xx = std::clamp(x + dx, 0, w - 1);
        s += wt[dy + 1] * wt[dx + 1] * img[yy * w + xx];
      }
    }
    return s / 16.0f;
  };
  parallel_for(h, threads, [&](int64_t b, int64_t e) {
    for (int64_t y = b; y < e; ++y) {
      // Rows are clamped once; inside the row no column needs a clamp, so
      // the loop is plain unaligned vector loads (same sum order as above).
      const float* r0 = img + std::clamp(static_cast<int>(y) - 1, 0, h - 1) * int64_t{w};
      const float* r1 = img + y * w;
      const float* r2 = img + std::clamp(static_cast<int>(y) + 1, 0, h - 1) * int64_t{w};
      float* o = out + y * w;
      o[0] = clamped(y, 0);
      for (int x = 1; x < w - 1; ++x) {
        float s = 0;
        s += 1.0f * r0[x - 1];
        s += 2.0f * r0[x];
        s += 1.0f * r0[x + 1];
        s += 2.0f * r1[x - 1];
        s += 4.0f * r1[x];
        s += 2.0f * r1[x + 1];
        s += 1.0f * r2[x - 1];
        s += 2.0f * r2[x];
        s += 1.0f * r2[x + 1];
        o[x] = s / 16.0f;
      }
      if (w > 1) o[w - 1] = clamped(y, w - 1);
    }
  });
}

void mandelbrot(int threads, int* count, int size, int max_iter) {
  // 16 columns at a time in lock step, written with GCC vector types so the
  // lanes are one AVX-512 register each whatever the auto-vectoriser decides.
  typedef float v16f __attribute__((vector_size(64)));
  typedef int v16i __attribute__((vector_size(64)));
  parallel_for(size, threads, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      float fy = static_cast<float>(row) / static_cast<float>(size);
      float cy = (1.0f - fy) * -1.5f + fy * 1.5f + 1e-6f;
      for (int col0 = 0; col0 < size; col0 += 16) {
        v16f zx = {}, zy = {}, cx;
        v16i n = {}, live;
        for (int k = 0; k < 16; ++k) {
          float fx = static_cast<float>(col0 + k) / static_cast<float>(size);
          cx[k] = (1.0f - fx) * -2.0f + fx * 1.0f + 1e-6f;
          live[k] = col0 + k < size ? -1 : 0;
        }
        for (int it = 0; it < max_iter; ++it) {
          v16i go = live & (zx * zx + zy * zy <= 4.0f);
#ifdef __AVX512F__
          if (_mm512_test_epi32_mask(reinterpret_cast<__m512i>(go), reinterpret_cast<__m512i>(go)) == 0) break;
#else
          int any = 0;
          for (int k = 0; k < 16; ++k) any |= go[k];
          if (!any) break;
#endif
          v16f t = zx * zx - zy * zy + cx;
          v16f ny = 2.0f * zx * zy + cy;
          zx = go ? t : zx;
          zy = go ? ny : zy;
          n -= go;  // go is -1 in the lanes that go on
          live = go;
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
                   float rate, float vol, float* call, float* put, int64_t n) {
  parallel_for(n, threads, [&](int64_t b, int64_t e) {
    // Local copies (restrict pointers, values): captured references could
    // alias the stores, which keeps GCC from vectorising the loop (and so
    // from calling libmvec's expf/logf under -ffast-math).
    const float r = rate, v = vol;
    const float* __restrict p = price;
    const float* __restrict k = strike;
    const float* __restrict y = years;
    float* __restrict c = call;
    float* __restrict q = put;
    for (int64_t i = b; i < e; ++i) {
      float sqrt_t = std::sqrt(y[i]);
      float d1 = (std::log(p[i] / k[i]) + (r + 0.5f * v * v) * y[i]) / (v * sqrt_t);
      float d2 = d1 - v * sqrt_t;
      float disc = k[i] * std::exp(-r * y[i]);
      c[i] = p[i] * cnd(d1) - disc * cnd(d2);
      q[i] = disc * (1.0f - cnd(d2)) - p[i] * (1.0f - cnd(d1));
    }
  });
}

void invert(int threads, const uint8_t* in, uint8_t* out, int64_t pixels) {
  // 255 - x == x ^ 0xff for a byte: one 32-bit xor per pixel leaves alpha
  // (the high byte on this little-endian machine) alone and vectorises.
  parallel_for(pixels, threads, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      uint32_t p;
      std::memcpy(&p, in + 4 * i, 4);
      p ^= 0x00ffffffu;
      std::memcpy(out + 4 * i, &p, 4);
    }
  });
}

}  // namespace brook::bench

namespace brook::bench {

// Eight tiles at a time, one per vector lane (the SPMD form): every
// transform step is one 8-wide operation per channel, and the channel sums
// stay lane-wise, in the kernel's order ((x + y) + z) + w.
void winograd(int threads, const float* padded, const float* filter, const float* bias,
              float* top_left, float* top_right, float* bottom_left, float* bottom_right, int size) {
  constexpr int L = 8;
  const int tiles = size / 2, width = size + 2, groups = 4;
  parallel_for(int64_t{groups} * tiles, threads, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int og = static_cast<int>(row) / tiles, y0 = 2 * (static_cast<int>(row) % tiles);
      for (int tx0 = 0; tx0 < tiles; tx0 += L) {
        const int lanes = std::min(L, tiles - tx0);
        float y00[4][L] = {}, y01[4][L] = {}, y10[4][L] = {}, y11[4][L] = {};
        for (int g = 0; g < groups; ++g) {
          float d[16][4][L] = {}, t[16][4][L], v[16][4][L];
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
              for (int c = 0; c < 4; ++c)
                for (int k = 0; k < lanes; ++k)
                  d[i * 4 + j][c][k] =
                      padded[((static_cast<size_t>(g) * width + y0 + i) * width + 2 * (tx0 + k) + j) * 4 + c];
          for (int j = 0; j < 4; ++j)
            for (int c = 0; c < 4; ++c)
              for (int k = 0; k < L; ++k) {
                t[j][c][k] = d[j][c][k] - d[8 + j][c][k];
                t[4 + j][c][k] = d[4 + j][c][k] + d[8 + j][c][k];
                t[8 + j][c][k] = d[8 + j][c][k] - d[4 + j][c][k];
                t[12 + j][c][k] = d[4 + j][c][k] - d[12 + j][c][k];
              }
          for (int i = 0; i < 4; ++i)
            for (int c = 0; c < 4; ++c)
              for (int k = 0; k < L; ++k) {
                v[i * 4][c][k] = t[i * 4][c][k] - t[i * 4 + 2][c][k];
                v[i * 4 + 1][c][k] = t[i * 4 + 1][c][k] + t[i * 4 + 2][c][k];
                v[i * 4 + 2][c][k] = t[i * 4 + 2][c][k] - t[i * 4 + 1][c][k];
                v[i * 4 + 3][c][k] = t[i * 4 + 1][c][k] - t[i * 4 + 3][c][k];
              }
          for (int o = 0; o < 4; ++o) {
            const float* f = filter + (static_cast<size_t>(og * 4 + o) * groups * 16 + g * 16) * 4;
            float s00[4][L], s01[4][L], s10[4][L], s11[4][L];
            for (int c = 0; c < 4; ++c)
              for (int k = 0; k < L; ++k) {
                float m[16];
                for (int p = 0; p < 16; ++p) m[p] = v[p][c][k] * f[p * 4 + c];
                float col1 = m[1] + m[5] + m[9], col2 = m[2] + m[6] + m[10];
                float low1 = m[5] - m[9] - m[13], low2 = m[6] - m[10] - m[14];
                s00[c][k] = m[0] + m[4] + m[8] + col1 + col2;
                s01[c][k] = col1 - col2 - m[3] - m[7] - m[11];
                s10[c][k] = m[4] - m[8] - m[12] + low1 + low2;
                s11[c][k] = low1 - low2 - m[7] + m[11] + m[15];
              }
            for (int k = 0; k < L; ++k) {
              y00[o][k] += ((s00[0][k] + s00[1][k]) + s00[2][k]) + s00[3][k];
              y01[o][k] += ((s01[0][k] + s01[1][k]) + s01[2][k]) + s01[3][k];
              y10[o][k] += ((s10[0][k] + s10[1][k]) + s10[2][k]) + s10[3][k];
              y11[o][k] += ((s11[0][k] + s11[1][k]) + s11[2][k]) + s11[3][k];
            }
          }
        }
        for (int k = 0; k < lanes; ++k) {
          const size_t at = (static_cast<size_t>(row) * tiles + tx0 + k) * 4;
          for (int c = 0; c < 4; ++c) {
            top_left[at + c] = y00[c][k] + bias[og * 4 + c];
            top_right[at + c] = y01[c][k] + bias[og * 4 + c];
            bottom_left[at + c] = y10[c][k] + bias[og * 4 + c];
            bottom_right[at + c] = y11[c][k] + bias[og * 4 + c];
          }
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
