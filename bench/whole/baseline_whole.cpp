// The C++ side of bench/whole: each workload as a whole program doing what
// bench/whole/NAME.br does (same sizes, data, repetitions and checksum), on
// bench/baselines' kernels with 2 threads. `baseline_whole NAME`.
// Built by run_whole.sh with -O3 -march=native -fopenmp -ffp-contract=off.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "baselines/baselines.hpp"

using namespace brook::bench;

namespace {

constexpr int kThreads = 2;

float hash_pixel(uint32_t x, uint32_t y) {
  uint32_t h = x * 2654435761u ^ y * 40503u;
  h = h ^ (h >> 13);
  return static_cast<float>(h & 255u);
}

int run_saxpy() {
  const int64_t n = int64_t{4096} * 4096;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 7);
    y[i] = 1.0f;
  }
  for (int rep = 0; rep < 200; ++rep) saxpy(kThreads, 0.001f, x.data(), y.data(), y.data(), n);
  std::printf("saxpy checksum %.6g\n", sum(kThreads, y.data(), n));
  return 0;
}

int run_sum() {
  const int64_t n = int64_t{4096} * 4096;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 13) * 0.25f;
  float acc = 0.0f;
  for (int rep = 0; rep < 500; ++rep) acc += sum(kThreads, x.data(), n) / 500;
  std::printf("sum checksum %.6g\n", acc);
  return 0;
}

int run_blur3x3() {
  const int s = 2048;
  std::vector<float> a(int64_t{s} * s), b(a.size());
  for (int y = 0; y < s; ++y)
    for (int x = 0; x < s; ++x) a[int64_t{y} * s + x] = hash_pixel(x, y);
  for (int rep = 0; rep < 50; ++rep) {
    blur3x3(kThreads, a.data(), b.data(), s, s);
    blur3x3(kThreads, b.data(), a.data(), s, s);
  }
  std::printf("blur3x3 checksum %.6g\n", sum(kThreads, a.data(), static_cast<int64_t>(a.size())) / (s * s));
  return 0;
}

int run_mandelbrot() {
  const int s = 1024;
  std::vector<int> count(int64_t{s} * s);
  for (int rep = 0; rep < 10; ++rep) mandelbrot(kThreads, count.data(), s, 256);
  int64_t total = 0;
  for (int c : count) total += c;
  std::printf("mandelbrot checksum %lld\n", static_cast<long long>(total));
  return 0;
}

int run_sgemm() {
  const int n = 512;
  std::vector<float> a(n * n), b(n * n), c(n * n, 0.0f), next(n * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      a[y * n + x] = static_cast<float>((x + 2 * y) % 5) * 0.125f;
      b[y * n + x] = static_cast<float>((x * 3 + y) % 7) * 0.0625f;
    }
  for (int rep = 0; rep < 10; ++rep) {
    sgemm(kThreads, a.data(), b.data(), c.data(), next.data(), n, 1.0f, 0.5f);
    std::swap(c, next);
  }
  std::printf("sgemm checksum %.6g\n", sum(kThreads, c.data(), n * n) / (n * n));
  return 0;
}

int run_black_scholes() {
  const int64_t n = int64_t{2048} * 2048;
  std::vector<float> price(n), strike(n), years(n), call(n), put(n);
  for (int64_t i = 0; i < n; ++i) {
    price[i] = 10.0f + static_cast<float>(i % 100) * 0.5f;
    strike[i] = 20.0f + static_cast<float>(i % 37);
    years[i] = 0.25f + static_cast<float>(i % 10) * 0.2f;
  }
  for (int rep = 0; rep < 10; ++rep)
    black_scholes(kThreads, price.data(), strike.data(), years.data(), 0.02f, 0.3f, call.data(), put.data(), n);
  std::printf("black_scholes checksum %.6g\n", sum(kThreads, call.data(), n) / n);
  return 0;
}

int run_invert_grey() {
  const int w = 1920, h = 1080;
  std::vector<uint8_t> img(int64_t{w} * h * 4), out(img.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = &img[(int64_t{y} * w + x) * 4];
      p[0] = static_cast<uint8_t>(x & 255);
      p[1] = static_cast<uint8_t>(y & 255);
      p[2] = static_cast<uint8_t>((x + y) & 255);
      p[3] = 255;
    }
  for (int rep = 0; rep < 500; ++rep) {
    invert(kThreads, img.data(), out.data(), int64_t{w} * h);
    std::swap(img, out);
  }
  const uint8_t* c = &img[(int64_t{700} * w + 1000) * 4];
  std::printf("invert_grey checksum %d %d %d %d\n", c[0], c[4 + 1], c[8 + 2], c[12 + 3]);
  return 0;
}

int run_winograd() {
  const int size = 64, padded = 66, tiles = 32, groups = 4;
  std::vector<float> act(int64_t{groups} * size * size * 4), pad(int64_t{groups} * padded * padded * 4, 0.0f);
  std::vector<float> filter(16 * 64 * 4), bias(groups * 4);
  std::vector<float> tl(int64_t{groups} * tiles * tiles * 4), tr(tl.size()), bl(tl.size()), br(tl.size());
  for (int y = 0; y < groups * size; ++y)
    for (int x = 0; x < size; ++x) {
      int i = x + 7 * y;
      float* p = &act[(int64_t{y} * size + x) * 4];
      p[0] = static_cast<float>(i % 5) * 0.25f;
      p[1] = static_cast<float>(i % 3) * 0.25f;
      p[2] = static_cast<float>(i % 7) * 0.25f;
      p[3] = 0.25f;
    }
  for (size_t k = 0; k < filter.size(); k += 4) {
    filter[k] = 0.0005f, filter[k + 1] = 0.001f, filter[k + 2] = 0.0015f, filter[k + 3] = 0.002f;
  }
  for (int g = 0; g < groups; ++g) {
    bias[g * 4] = 0.01f, bias[g * 4 + 1] = 0.02f, bias[g * 4 + 2] = 0.03f, bias[g * 4 + 3] = 0.04f;
  }
  for (int rep = 0; rep < 2000; ++rep) {
    parallel_for(groups * padded, kThreads, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        int64_t g = r / padded, y = r % padded;
        for (int x = 0; x < padded; ++x) {
          float* d = &pad[(r * padded + x) * 4];
          if (y >= 1 && y <= size && x >= 1 && x <= size) {
            std::memcpy(d, &act[((g * size + y - 1) * size + x - 1) * 4], 16);
          } else {
            std::memset(d, 0, 16);
          }
        }
      }
    });
    winograd(kThreads, pad.data(), filter.data(), bias.data(), tl.data(), tr.data(), bl.data(), br.data(), size);
    parallel_for(groups * size, kThreads, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        int64_t g = r / size, y = r % size;
        for (int x = 0; x < size; ++x) {
          const std::vector<float>& c = y % 2 ? (x % 2 ? br : bl) : (x % 2 ? tr : tl);
          const float* s = &c[((g * tiles + y / 2) * tiles + x / 2) * 4];
          float* d = &act[(r * size + x) * 4];
          for (int k = 0; k < 4; ++k) d[k] = std::max(s[k], 0.0f);
        }
      }
    });
  }
  float total = sum(kThreads, act.data(), static_cast<int64_t>(act.size()));
  std::printf("winograd checksum %.6g\n", total / (groups * size * size));
  return 0;
}

int run_sgm_path() {
  const int w = 640, h = 480, d = 64;
  std::vector<float> left(int64_t{w} * h), right(left.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      left[int64_t{y} * w + x] = hash_pixel(static_cast<uint32_t>(x) / 3u, y);
      right[int64_t{y} * w + x] = hash_pixel(static_cast<uint32_t>(x + 12) / 3u, y);
    }
  std::vector<uint32_t> lc(left.size()), rc(left.size());
  std::vector<int> cost(int64_t{w} * h * d), paths(cost.size());
  for (int rep = 0; rep < 2; ++rep)
    sgm_path(kThreads, left.data(), right.data(), w, h, d, 10, 120, lc.data(), rc.data(), cost.data(), paths.data());
  int64_t total = 0;
  for (int y = 0; y < h; ++y) {
    const int* last = &paths[(int64_t{y} * w + (w - 1)) * d];
    total += *std::min_element(last, last + d);
  }
  std::printf("sgm_path checksum %lld\n", static_cast<long long>(total));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string name = argc > 1 ? argv[1] : "";
  if (name == "saxpy") return run_saxpy();
  if (name == "sum") return run_sum();
  if (name == "blur3x3") return run_blur3x3();
  if (name == "mandelbrot") return run_mandelbrot();
  if (name == "sgemm") return run_sgemm();
  if (name == "black_scholes") return run_black_scholes();
  if (name == "invert_grey") return run_invert_grey();
  if (name == "winograd") return run_winograd();
  if (name == "sgm_path") return run_sgm_path();
  std::fprintf(stderr, "usage: baseline_whole saxpy|sum|blur3x3|mandelbrot|sgemm|black_scholes|invert_grey|winograd|sgm_path\n");
  return 2;
}
