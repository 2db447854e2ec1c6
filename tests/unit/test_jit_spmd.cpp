// The JIT's SPMD generator (jit/spmd.hpp): the path is really taken for
// kernels with data-dependent loops and gathers, and masked control flow,
// tails, partial writes and clamped gathers give the interpreter's bytes.
#include <doctest/doctest.h>

#ifdef BROOK_HAVE_JIT

#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

#include "backends/interp/interp_backend.hpp"
#include "interp/interrupt.hpp"
#include "jit/spmd.hpp"
#include "test_jit_harness.hpp"

using brook::jit_test::Harness;
using namespace brook;

namespace {

// Makes the launch's arguments on one backend; appends the streams to read back.
using MakeArgs = std::function<std::vector<CallArg>(Backend&, std::vector<StreamView>&)>;

template <class T>
StreamView make_stream(Backend& be, const Type* elem, Extents e, const std::vector<T>& data) {
  StreamView v = Scheduler::whole(be.allocate(static_cast<uint64_t>(element_count(e)) * elem->size), elem, e);
  be.write_view(v, std::as_bytes(std::span(data)));
  return v;
}

std::vector<std::vector<std::byte>> run_on(Backend& be, const ast::FuncDecl& k, const MakeArgs& make) {
  std::vector<StreamView> outs;
  std::vector<CallArg> args = make(be, outs);
  be.run_map(Scheduler::plan_map(k, args, {}));
  std::vector<std::vector<std::byte>> bytes;
  for (const StreamView& v : outs) {
    bytes.emplace_back(static_cast<size_t>(element_count(v.extents)) * v.elem->size);
    be.read_view(v, bytes.back());
  }
  return bytes;
}

// The IR of one kernel in `brook emit llvm` output.
std::string kernel_ir(const std::string& all, const std::string& name) {
  auto at = all.find("; kernel " + name);
  if (at == std::string::npos) return "";
  auto end = all.find("; kernel ", at + 1);
  return all.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// Runs `kernel` on the JIT and on the interpreter; every output byte-identical.
// The kernel must be compiled by the SPMD generator (its gang loop).
void check_same(Harness& h, const std::string& kernel, const MakeArgs& make) {
  CHECK(kernel_ir(jit_emit_llvm(*h.program, false), kernel).find("gang") != std::string::npos);
  InterpBackend interp(h.fe.sources(), [](std::string_view) {});
  auto jit = run_on(*h.be, *h.func(kernel), make);
  auto ref = run_on(interp, *h.func(kernel), make);
  REQUIRE(jit.size() == ref.size());
  for (size_t i = 0; i < jit.size(); ++i) {
    INFO("output " << i);
    CHECK(jit[i] == ref[i]);
  }
}

std::vector<float> pseudo_random(size_t n, float lo, float hi, uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = lo + (hi - lo) * static_cast<float>(seed >> 8) / static_cast<float>(1u << 24);
  }
  return v;
}

}  // namespace

TEST_CASE("jit spmd: mandelbrot runs as gangs of 16 lanes, sgemm's accumulating loop as 32") {
  FrontEnd fe;
  auto unit = fe.load_source("spmd.br", R"(
kernel void escape_time(iter float2 c<>, int max_iter, out int count<>) {
  float zx = 0.0f;
  float zy = 0.0f;
  int n = 0;
  while (n < max_iter && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + c.x;
    zy = 2.0f * zx * zy + c.y;
    zx = t;
    n++;
  }
  count = n;
}
kernel void sgemm(float a[][], float b[][], int k, out float c<>) {
  float4 here = indexof(c);
  int row = (int)here.y;
  int col = (int)here.x;
  float sum = 0.0f;
  for (int i = 0; i < k; i++) sum += a[row][i] * b[i][col];
  c = sum;
}
)");
  REQUIRE(unit.program);
  std::string ir = jit_emit_llvm(*unit.program, false);
  std::string mandel = kernel_ir(ir, "escape_time");
  std::string gemm = kernel_ir(ir, "sgemm");
  // The data-dependent loop keeps z in vector registers: phis of 16 floats.
  CHECK(mandel.find("phi <16 x float>") != std::string::npos);
  CHECK(mandel.find("phi <16 x i32>") != std::string::npos);
  CHECK(mandel.find("gang") != std::string::npos);
  // sgemm: the loop counter stays scalar, the sum is a vector of 32 lanes
  // (a loop folding into a varying float: twice the independent add chains),
  // b[i][col] is a vector load when the columns are consecutive and inside
  // the matrix (tested once per gang, not per lane).
  CHECK(gemm.find("phi <32 x float>") != std::string::npos);
  CHECK(gemm.find("gather.row") != std::string::npos);
  CHECK(gemm.find("load <32 x float>") != std::string::npos);
}

TEST_CASE(
    "jit spmd: loops folding into varying floats (32 lanes) match the interpreter, tails "
    "included") {
  Harness h(R"(
kernel void k(float a[][], float b[][], float c<>, float n, out float r<>, out float4 q<>) {
  float2 ij = indexof(r).xy;
  float acc = c;
  float4 v = float4(0.0f, 1.0f, 2.0f, 3.0f);
  float k;
  for (k = 0.0f; k < n; k += 1.0f) {
    acc += a[float2(k, ij.y)] * b[float2(ij.x, k)];
    if (acc > 3.0f) acc = acc * 0.5f;  // varying control inside the chain
    v = v * 0.75f + float4(acc, a[float2(k + 1.0f, ij.y)], b[float2(ij.x - 1.0f, k)], k);
  }
  int i = 0;
  while (i < 7) { acc = acc - 0.125f * v.y; i++; }
  r = acc;
  q = v;
}
)");
  REQUIRE(h.ok());
  CHECK(kernel_ir(jit_emit_llvm(*h.program, false), "k").find("<32 x float>") != std::string::npos);
  for (int cols : {1, 31, 32, 33, 70}) {
    CAPTURE(cols);
    const int rows = 3, inner = 9;
    auto a = pseudo_random(static_cast<size_t>(rows * inner), -1.0f, 1.0f,
                           3u + static_cast<uint32_t>(cols));
    auto bm = pseudo_random(static_cast<size_t>(inner * cols), -1.0f, 2.0f,
                            5u + static_cast<uint32_t>(cols));
    auto c = pseudo_random(static_cast<size_t>(rows * cols), 0.0f, 1.0f, 11u);
    check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
      auto sa = make_stream(be, h.type("float"), {rows, inner}, a);
      auto sb = make_stream(be, h.type("float"), {inner, cols}, bm);
      auto sc = make_stream(be, h.type("float"), {rows, cols}, c);
      auto r = make_stream(be, h.type("float"), {rows, cols},
                           std::vector<float>(static_cast<size_t>(rows * cols), 9.0f));
      auto q = make_stream(be, h.type("float4"), {rows, cols},
                           std::vector<float>(static_cast<size_t>(4 * rows * cols), 9.0f));
      outs = {r, q};
      return std::vector<CallArg>{Harness::arg(sa),     Harness::arg(sb), Harness::arg(sc),
                                  Harness::value(8.5f), Harness::arg(r),  Harness::arg(q)};
    });
  }
}

TEST_CASE("jit spmd: mandelbrot-like divergent loop matches the interpreter, tails included") {
  Harness h(R"(
kernel void escape_time(float2 c<>, int max_iter, out int count<>, out float3 z<>) {
  float zx = 0.0f;
  float zy = 0.0f;
  int n = 0;
  while (n < max_iter && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + c.x;
    zy = 2.0f * zx * zy + c.y;
    zx = t;
    n++;
  }
  count = n;
  z = float3(zx, zy, (float)n);
}
)");
  REQUIRE(h.ok());
  for (int cols : {1, 15, 16, 17, 33}) {
    CAPTURE(cols);
    const int rows = 3;
    auto c = pseudo_random(static_cast<size_t>(2 * rows * cols), -2.0f, 1.0f, 7u + static_cast<uint32_t>(cols));
    check_same(h, "escape_time", [&](Backend& be, std::vector<StreamView>& outs) {
      auto sc = make_stream(be, h.type("float2"), {rows, cols}, c);
      auto count = make_stream(be, h.type("int"), {rows, cols}, std::vector<int>(static_cast<size_t>(rows * cols), -7));
      auto z = make_stream(be, h.type("float3"), {rows, cols}, std::vector<float>(static_cast<size_t>(3 * rows * cols), 9.0f));
      outs = {count, z};
      return std::vector<CallArg>{Harness::arg(sc), Harness::value(50), Harness::arg(count), Harness::arg(z)};
    });
  }
}

TEST_CASE("jit spmd: break, continue and return under divergent control; unwritten lanes keep values") {
  Harness h(R"(
kernel void k(float a<>, int n, out float r<>, out int s<>, out int t<>) {
  t = 1;  // kept by the lanes that return early
  float acc = 0.0f;
  int i;
  for (i = 0; i < n; i++) {
    if (a > (float)i) {
      acc += a;
      if (acc > 40.0f) break;
    } else {
      if (i % 3 == 0) continue;
      acc -= 1.0f;
    }
    if (acc < -3.0f) return;
    int j = 0;
    while (j < i) {
      j += 2;
      if ((int)a == j) break;
    }
    do { acc += 0.25f; } while (acc < (float)j);
  }
  s = i;
  t = 2;
  if (a < 1.0f) return;
  r = acc;
  t = 3;
}
)");
  REQUIRE(h.ok());
  for (int len = 1; len <= 17; ++len) {
    CAPTURE(len);
    auto a = pseudo_random(static_cast<size_t>(len), -2.0f, 12.0f, static_cast<uint32_t>(len));
    check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
      auto sa = make_stream(be, h.type("float"), {len}, a);
      auto r = make_stream(be, h.type("float"), {len}, std::vector<float>(static_cast<size_t>(len), -1.5f));
      auto s = make_stream(be, h.type("int"), {len}, std::vector<int>(static_cast<size_t>(len), 1234));
      auto t = make_stream(be, h.type("int"), {len}, std::vector<int>(static_cast<size_t>(len), 0));
      outs = {r, s, t};
      return std::vector<CallArg>{Harness::arg(sa), Harness::value(9), Harness::arg(r), Harness::arg(s),
                                  Harness::arg(t)};
    });
  }
}

TEST_CASE("jit spmd: outputs read before written, partial swizzle writes, vectors and builtins") {
  Harness h(R"(
kernel void k(float2 a<>, int4 m<>, out float r<>, out float4 v<>, out int q<>) {
  if (a.x > 0.5f) r = r * 2.0f + a.y;
  v.y = a.x;
  if (a.y < 0.3f) v.wz = a.yx * 3.0f;
  float2 t = a.yx * 2.0f;
  t.x += a.y > 0.5f ? 1.0f : -1.0f;
  for (int i = 0; i < 2; i++) t.y += 0.5f;  // a loop: libm calls stay on the SPMD path
  float4 w = float4(t, exp(a.x), sqrt(fabs(a.y)));
  w.zw = a.x > 0.25f && a.y < 0.75f ? w.wz : w.zw;
  v.x = dot(w, float4(1.0f, 2.0f, 3.0f, 4.0f)) + length(t) + pow(a.x, 1.5f);
  q = m.x / m.y + m.z % (m.w + 1) + (m.x << 2) + min(m.x, m.z) + (m.y >= 0 ? 1 : 0);
}
)");
  REQUIRE(h.ok());
  const int rows = 2, cols = 21, n = rows * cols;
  auto a = pseudo_random(static_cast<size_t>(2 * n), 0.0f, 1.0f, 99u);
  std::vector<int> m(static_cast<size_t>(4 * n));
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int>((i * 7919u) % 23u) - 11;
  check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
    auto sa = make_stream(be, h.type("float2"), {rows, cols}, a);
    auto sm = make_stream(be, h.type("int4"), {rows, cols}, m);
    auto r = make_stream(be, h.type("float"), {rows, cols}, pseudo_random(static_cast<size_t>(n), -1.0f, 1.0f, 5u));
    auto v = make_stream(be, h.type("float4"), {rows, cols}, pseudo_random(static_cast<size_t>(4 * n), -1.0f, 1.0f, 6u));
    auto q = make_stream(be, h.type("int"), {rows, cols}, std::vector<int>(static_cast<size_t>(n), 0));
    outs = {r, v, q};
    return std::vector<CallArg>{Harness::arg(sa), Harness::arg(sm), Harness::arg(r), Harness::arg(v), Harness::arg(q)};
  });
}

TEST_CASE("jit spmd: brook_math.h's functions run as gang forms, the interpreter's bits") {
  // Straight-line and under a branch (masked lanes), on specials, hard cases
  // (stdlib/brook_math.h's tables), subnormals and ordinary arguments, in
  // tails of every length: one gang call per function, no per-lane calls.
  Harness h(R"(
kernel void k(float a<>, out float4 r<>, out float4 s<>, out float4 t<>) {
  r = float4(exp(a), exp2(a), log(a), log2(a));
  s = float4(log10(a), sinh(a), cosh(a), tanh(a));
  t = float4(atan(a), asin(a), acos(a), 0.0f);
  if (a > 0.25f) t.w = exp(-a * a) + log(a + 1.0f);
}
)");
  REQUIRE(h.ok());
  std::string ir = kernel_ir(jit_emit_llvm(*h.program, false), "k");
  CHECK(ir.find("brook_cr_expf_gang") != std::string::npos);
  CHECK(ir.find("brook_cr_acosf_gang") != std::string::npos);
  const uint32_t bits[] = {
      0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000001u,
      0x007fffffu, 0x3f800000u, 0xbf800000u, 0x3b429d37u, 0xbcf3a937u, 0x3c413d3au, 0x41178febu,
      0x4c5d65a5u, 0x65d890d3u, 0x6f31a8ecu, 0x0efeee7au, 0x120b93dcu, 0x13ae78d3u, 0x3a1285ffu,
      0xba1285ffu, 0x3d8d6b23u, 0xbd8d6b23u, 0x328885a3u, 0x39826222u, 0x42b20000u, 0xc2d00000u,
      0x43000000u, 0xc3170000u, 0x41200000u, 0x42b40000u, 0x3f000000u, 0xbf000000u};
  std::vector<float> base;
  for (uint32_t b : bits) base.push_back(std::bit_cast<float>(b));
  for (float x : pseudo_random(40, -12.0f, 12.0f, 7u)) base.push_back(x);
  for (float x : pseudo_random(20, -1.0f, 1.0f, 8u)) base.push_back(x);
  for (int len : {1, 5, 16, 17, 31, static_cast<int>(base.size())}) {
    CAPTURE(len);
    std::vector<float> a(base.begin(), base.begin() + len);
    check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
      auto sa = make_stream(be, h.type("float"), {len}, a);
      auto zero = std::vector<float>(static_cast<size_t>(4 * len), 0.0f);
      auto r = make_stream(be, h.type("float4"), {len}, zero);
      auto s = make_stream(be, h.type("float4"), {len}, zero);
      auto t = make_stream(be, h.type("float4"), {len}, zero);
      outs = {r, s, t};
      return std::vector<CallArg>{Harness::arg(sa), Harness::arg(r), Harness::arg(s), Harness::arg(t)};
    });
  }
}

TEST_CASE("jit spmd: gathers clamp at the edges, contiguous or not") {
  Harness h(R"(
kernel void g(float t[][], float4 u[], float2 off, float s<>, out float r<>, out float4 w<>) {
  float4 p = indexof(r);
  float near = t[p.xy + off];                       // consecutive columns, clamped at edges
  float far = t[(int)p.y - 1][(int)(p.x * 2.0f) - 3];  // every other column
  float by_value = t[(int)s][(int)p.x];             // varying row: a gather
  float uniform_row = t[1][3];
  float same = t[2][(int)p.x / 16];                 // equal across a gang
  float down = t[0][18 - (int)p.x];                 // consecutive downwards
  r = near + 10.0f * far + 100.0f * by_value + 1000.0f * uniform_row + 3.0f * same + 7.0f * down;
  w = u[(int)p.x + 2] + u[(int)(s * 3.0f)];
}
)");
  REQUIRE(h.ok());
  const int trows = 6, tcols = 19, rows = 4, cols = 20;
  auto t = pseudo_random(static_cast<size_t>(trows * tcols), 0.0f, 1.0f, 3u);
  auto u = pseudo_random(static_cast<size_t>(4 * 17), 0.0f, 1.0f, 4u);
  auto s = pseudo_random(static_cast<size_t>(rows * cols), -2.0f, 8.0f, 8u);
  for (float dx : {-1.0f, 0.0f, 2.0f, -1.75f}) {
    CAPTURE(dx);
    check_same(h, "g", [&](Backend& be, std::vector<StreamView>& outs) {
      auto ss = make_stream(be, h.type("float"), {rows, cols}, s);
      auto r = make_stream(be, h.type("float"), {rows, cols}, std::vector<float>(static_cast<size_t>(rows * cols), 0.0f));
      auto w = make_stream(be, h.type("float4"), {rows, cols}, std::vector<float>(static_cast<size_t>(4 * rows * cols), 0.0f));
      outs = {r, w};
      struct F2 { float x, y; };
      return std::vector<CallArg>{Harness::host_array(t, {trows, tcols}, h.type("float")),
                                  Harness::host_array(u, {17}, h.type("float4")), Harness::value(F2{dx, -1.0f}),
                                  Harness::arg(ss), Harness::arg(r), Harness::arg(w)};
    });
  }
}

TEST_CASE("jit spmd: consecutive gathers at image edges match the interpreter") {
  // Gangs of consecutive columns take one vector load when inside the image
  // and the per-lane clamped path at its edges: left/right/top/bottom,
  // gangs straddling an edge, widths not a multiple of 16, fractional columns.
  Harness h(R"(
kernel void e(float t[][], float4 q[][], float2 off, out float r<>, out float4 w<>) {
  float4 p = indexof(r);
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -2; dx <= 2; dx++)
      sum += (float)(dx * 3 + dy + 7) * t[p.xy + float2(dx, dy) + off];
  int ix = (int)p.x + (int)off.x;
  r = sum + 100.0f * t[(int)p.y + 1][ix] + 1000.0f * t[p.y][p.x - off.x];
  w = q[p.xy + off] + q[p.xy + float2(1.0f, 0.0f)];
}
)");
  REQUIRE(h.ok());
  // Plain variables, not structured bindings: clang 15 cannot capture those in lambdas.
  for (const std::array<int, 4>& shape : {std::array{5, 37, 7, 40}, std::array{3, 16, 4, 35}, std::array{6, 50, 2, 17}}) {
    const int trows = shape[0], tcols = shape[1], rows = shape[2], cols = shape[3];
    auto t = pseudo_random(static_cast<size_t>(trows * tcols), 0.0f, 1.0f, 5u);
    auto q = pseudo_random(static_cast<size_t>(4 * trows * tcols), -1.0f, 1.0f, 6u);
    for (const std::array<float, 2>& origin : {std::array{0.0f, 0.0f}, std::array{0.7f, 0.0f}, std::array{-0.3f, 1.0f}, std::array{-1.0f, -1.0f},
                          std::array{3.0f, 2.0f}, std::array{-20.0f, 0.0f}, std::array{1.5f, -3.0f},
                          std::array{16777200.0f, 0.0f}, std::array{-0.75f, 0.25f}}) {
      const float ox = origin[0], oy = origin[1];
      CAPTURE(tcols);
      CAPTURE(cols);
      CAPTURE(ox);
      CAPTURE(oy);
      check_same(h, "e", [&](Backend& be, std::vector<StreamView>& outs) {
        auto r = make_stream(be, h.type("float"), {rows, cols}, std::vector<float>(static_cast<size_t>(rows * cols), 0.0f));
        auto w = make_stream(be, h.type("float4"), {rows, cols}, std::vector<float>(static_cast<size_t>(4 * rows * cols), 0.0f));
        outs = {r, w};
        struct F2 { float x, y; };
        return std::vector<CallArg>{Harness::host_array(t, {trows, tcols}, h.type("float")),
                                    Harness::host_array(q, {trows, tcols}, h.type("float4")), Harness::value(F2{ox, oy}),
                                    Harness::arg(r), Harness::arg(w)};
      });
    }
  }
}

TEST_CASE("jit spmd: local arrays with uniform indices, uniform loops inside divergent ifs") {
  Harness h(R"(
kernel void k(float img[][], out float r<>) {
  float weights[3] = {1.0f, 2.0f, 1.0f};
  float4 here = indexof(r);
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      sum += weights[dy + 1] * weights[dx + 1] * img[here.xy + float2(dx, dy)];
  if (sum > 8.0f) {
    for (int i = 0; i < 3; i++) weights[i] = weights[i] * sum;
    sum = weights[0] + weights[2];
  }
  r = sum / 16.0f;
}
)");
  REQUIRE(h.ok());
  const int rows = 5, cols = 37;
  auto img = pseudo_random(static_cast<size_t>(rows * cols), 0.0f, 1.0f, 11u);
  check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
    auto r = make_stream(be, h.type("float"), {rows, cols}, std::vector<float>(static_cast<size_t>(rows * cols), 0.0f));
    outs = {r};
    return std::vector<CallArg>{Harness::host_array(img, {rows, cols}, h.type("float")), Harness::arg(r)};
  });
}

TEST_CASE("jit spmd: breaks under uniform conditions stay real loops; varying ones mask lanes") {
  Harness h(R"(
kernel void census(float image[][], out uint code<>, out int hits<>) {
  float4 here = indexof(code);
  int x = (int)here.x;
  int y = (int)here.y;
  uint bits = 0u;
  for (int dy = -3; dy <= 0; dy++)
    for (int dx = -4; dx <= 4; dx++) {
      if (dy == 0 && dx == 0) break;
      bits = (bits << 1) | (image[y + dy][x + dx] > image[y - dy][x - dx] ? 1u : 0u);
    }
  code = bits;
  int n = 0;
  for (int i = 0; i < 40; i++) {
    if (i == 30) break;                  // uniform: a real branch
    if ((bits >> (i % 31) & 1u) == 0u) continue;  // varying: masked
    n++;
    if (n > x) break;                    // varying
  }
  hits = n;
}
)");
  REQUIRE(h.ok());
  const int rows = 7, cols = 35;
  auto img = pseudo_random(static_cast<size_t>(rows * cols), 0.0f, 1.0f, 21u);
  check_same(h, "census", [&](Backend& be, std::vector<StreamView>& outs) {
    auto code = make_stream(be, h.type("uint"), {rows, cols}, std::vector<uint32_t>(static_cast<size_t>(rows * cols), 0u));
    auto hits = make_stream(be, h.type("int"), {rows, cols}, std::vector<int>(static_cast<size_t>(rows * cols), 0));
    outs = {code, hits};
    return std::vector<CallArg>{Harness::host_array(img, {rows, cols}, h.type("float")), Harness::arg(code),
                                Harness::arg(hits)};
  });
}

TEST_CASE("jit spmd: kernel calls are inlined; their returns mask only the call") {
  Harness h(R"(
kernel float clipped(float v<>, float lim, out int hit<>) {
  hit = 0;
  if (v > lim) {
    hit = 1;
    return lim;
  }
  if (v < -lim) return -lim;  // hit keeps 0 here
  hit = 2;
  return v * 0.5f;
}
kernel void bump(float g[], out float acc<>) { acc += g[(int)acc]; }
kernel void k(float a<>, float g[], out float r<>, out int hits<>) {
  float sum = 0.0f;
  int h = 0;
  for (int i = 0; i < 6; i++) {
    int one;
    if (a + (float)i > 3.0f) {
      sum += clipped(a * (float)i, 4.0f, one);
      h += one;
    } else {
      bump(g, sum);
    }
  }
  r = sum;
  hits = h;
}
)");
  REQUIRE(h.ok());
  for (int len : {5, 16, 19}) {
    CAPTURE(len);
    auto a = pseudo_random(static_cast<size_t>(len), -6.0f, 6.0f, static_cast<uint32_t>(40 + len));
    auto g = pseudo_random(8, 0.0f, 2.0f, 77u);
    check_same(h, "k", [&](Backend& be, std::vector<StreamView>& outs) {
      auto sa = make_stream(be, h.type("float"), {len}, a);
      auto r = make_stream(be, h.type("float"), {len}, std::vector<float>(static_cast<size_t>(len), 0.0f));
      auto hits = make_stream(be, h.type("int"), {len}, std::vector<int>(static_cast<size_t>(len), 0));
      outs = {r, hits};
      return std::vector<CallArg>{Harness::arg(sa), Harness::host_array(g, {8}, h.type("float")), Harness::arg(r),
                                  Harness::arg(hits)};
    });
  }
}

TEST_CASE("jit spmd: Ctrl-C ends a divergent endless loop") {
  Harness h(R"(
kernel void spin(float a<>, out float r<>) {
  float x = a;
  while (x >= 0.0f) x = x + 1.0f - 1.0f;  // never ends for a >= 0
  r = x;
}
)");
  REQUIRE(h.ok());
  const int n = 40;
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[static_cast<size_t>(i)] = i % 3 == 0 ? -1.0f : static_cast<float>(i);
  auto f = h.type("float");
  auto sa = h.stream(f, {n}, a), sr = h.stream<float>(f, {n});
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupt_requested.store(true);
  });
  bool interrupted = false;
  try {
    h.run("spin", {Harness::arg(sa), Harness::arg(sr)});
  } catch (const Interrupted&) {
    interrupted = true;
  }
  stopper.join();
  interrupt_requested.store(false);
  CHECK(interrupted);
}


TEST_CASE("jit spmd: Ctrl-C ends a small counted loop whose body resets its counter") {
  // Counted loops of a few trips skip the poll for those trips only (they
  // unroll): a body that keeps the loop going must still be interruptible.
  Harness h(R"(
kernel void spin(float a<>, int keep, out float r<>) {
  float x = a;
  for (int i = 0; i < 3; i++) {  // uniform: a real loop, not a masked one
    x = x + 1.0f;
    if (keep != 0) i = 0;  // never ends
  }
  r = x;
}
)");
  REQUIRE(h.ok());
  const int n = 40;
  std::vector<float> a(n, 1.0f);
  auto f = h.type("float");
  auto sa = h.stream(f, {n}, a), sr = h.stream<float>(f, {n});
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupt_requested.store(true);
  });
  bool interrupted = false;
  try {
    h.run("spin", {Harness::arg(sa), Harness::value(int32_t{1}), Harness::arg(sr)});
  } catch (const Interrupted&) {
    interrupted = true;
  }
  stopper.join();
  interrupt_requested.store(false);
  CHECK(interrupted);
}

#endif
