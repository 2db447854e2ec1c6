// The JIT backend against values computed in C++ (LANGUAGE.md §4–§8).
#include <doctest/doctest.h>

#ifdef BROOK_HAVE_JIT

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numeric>

#include "test_jit_harness.hpp"

using brook::jit_test::Harness;
using namespace brook;

TEST_CASE("jit: saxpy over a 1-D stream, split over threads") {
  Harness h(R"(
kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
)");
  REQUIRE(h.ok());
  const int n = 100003;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i) * 0.5f, y[i] = static_cast<float>(n - i);
  auto f = h.type("float");
  auto sx = h.stream(f, {n}, x), sy = h.stream(f, {n}, y), sr = h.stream<float>(f, {n});
  h.run("saxpy", {Harness::value(2.0f), Harness::arg(sx), Harness::arg(sy), Harness::arg(sr)});
  auto r = h.read<float>(sr);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != 2.0f * x[i] + y[i];
  CHECK(bad == 0);
}

TEST_CASE("jit: 2-D resampling, vectors, swizzles and indexof") {
  Harness h(R"(
kernel void k(float a<>, out float4 r<>) {
  float4 i = indexof r;
  r = float4(a, i.x, i.y, 0.0f);
  r.w = a * 2.0f;
}
)");
  REQUIRE(h.ok());
  // <2,3> input repeated into a <4,6> domain.
  std::vector<float> a{1, 2, 3, 4, 5, 6};
  auto sa = h.stream(h.type("float"), {2, 3}, a);
  auto sr = h.stream<float>(h.type("float4"), {4, 6});
  h.run("k", {Harness::arg(sa), Harness::arg(sr)});
  auto r = h.read<float>(sr);
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 6; ++col) {
      const float* e = &r[static_cast<size_t>((row * 6 + col) * 4)];
      float want = a[static_cast<size_t>((row / 2) * 3 + col / 2)];
      CHECK(e[0] == want);
      CHECK(e[1] == static_cast<float>(col));
      CHECK(e[2] == static_cast<float>(row));
      CHECK(e[3] == 2 * want);
    }
}

TEST_CASE("jit: control flow, locals, local arrays, structs, integer division by zero") {
  Harness h(R"(
struct P { int a; float b; };
kernel void k(int x<>, out int r<>) {
  int acc = 0;
  int arr[4] = {1, 2, 3, 4};
  struct P p;
  p.a = x; p.b = 1.5f;
  for (int i = 0; i < 10; i++) {
    if (i == 7) break;
    if (i % 2 == 1) continue;
    acc += i;
  }
  int j = 0;
  while (j < x) { j += 3; }
  do { acc += 1; } while (0);
  switch (x % 3) {
    case 0: acc += 100;
    case 1: acc += 1000; break;
    default: acc += 10000;
  }
  r = acc + arr[x % 4] + j + (100 / (x - 5)) * 1000000 + p.a + (int)p.b + (x > 3 ? 7 : 11);
}
)");
  REQUIRE(h.ok());
  const int n = 20;
  std::vector<int> x(n);
  std::iota(x.begin(), x.end(), 0);
  auto sx = h.stream(h.type("int"), {n}, x), sr = h.stream<int>(h.type("int"), {n});
  h.run("k", {Harness::arg(sx), Harness::arg(sr)});
  auto r = h.read<int>(sr);
  for (int v = 0; v < n; ++v) {
    int acc = 0 + 2 + 4 + 6;
    acc += 1;
    int j = 0;
    while (j < v) j += 3;
    switch (v % 3) {
      case 0: acc += 100; [[fallthrough]];
      case 1: acc += 1000; break;
      default: acc += 10000;
    }
    int d = v - 5;
    int q = d == 0 ? 0 : 100 / d;
    int want = acc + (v % 4 + 1) + j + q * 1000000 + v + 1 + (v > 3 ? 7 : 11);
    CHECK_MESSAGE(r[static_cast<size_t>(v)] == want, "x = " << v);
  }
}

TEST_CASE("jit: gathers clamp, float indices take floor(f + 0.25), host arrays") {
  Harness h(R"(
kernel void g(float idx<>, float t[], out float r<>) { r = t[idx]; }
kernel void g2(int2 idx<>, float t[][], out float r<>) { r = t[idx.y][idx.x] + t[idx]; }
)");
  REQUIRE(h.ok());
  auto f = h.type("float");
  std::vector<float> table{10, 11, 12, 13, 14};
  std::vector<float> idx{-3.0f, 0.74f, 0.76f, 2.9f, 4.0f, 99.0f};
  auto si = h.stream(f, {6}, idx), st = h.stream(f, {5}, table), sr = h.stream<float>(f, {6});
  h.run("g", {Harness::arg(si), Harness::arg(st), Harness::arg(sr)});
  CHECK(h.read<float>(sr) == std::vector<float>{10, 10, 11, 13, 14, 14});
  // Host array, 2-D: (x, y) = (column, row), clamped per dimension.
  std::vector<float> grid{0, 1, 2, 10, 11, 12};  // 2 rows, 3 columns
  std::vector<int> ij{0, 0, 2, 1, 5, -1, 1, 7};
  auto s2 = h.stream(h.type("int2"), {4}, ij), r2 = h.stream<float>(f, {4});
  h.run("g2", {Harness::arg(s2), Harness::host_array(grid, {2, 3}, f), Harness::arg(r2)});
  CHECK(h.read<float>(r2) == std::vector<float>{0, 24, 4, 22});
}

TEST_CASE("jit: reductions to a scalar and to a stream fold left in row-major order") {
  Harness h(R"(
reduce void sum(float a<>, reduce float r<>) { r = r + a; }
reduce void mat(float4 a<>, reduce float4 r<>) {
  r = float4(r.x * a.x + r.y * a.z, r.x * a.y + r.y * a.w,
             r.z * a.x + r.w * a.z, r.z * a.y + r.w * a.w);
}
)");
  REQUIRE(h.ok());
  auto f = h.type("float");
  const int n = 200000;
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 7);
  auto sa = h.stream(f, {n}, a);
  float total = h.reduce<float>("sum", {Harness::arg(sa), Harness::value(0.0f)});
  CHECK(total == doctest::Approx(std::accumulate(a.begin(), a.end(), 0.0)));
  // To a stream: <4, 6> into <2, 3> folds 2x2 blocks.
  std::vector<float> b(24);
  std::iota(b.begin(), b.end(), 0.0f);
  auto sb = h.stream(f, {4, 6}, b), so = h.stream<float>(f, {2, 3});
  h.be->run_reduce(Scheduler::plan_reduce(*h.func("sum"), std::vector{Harness::arg(sb), Harness::arg(so)}, {}), {});
  std::vector<float> want(6);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c) want[static_cast<size_t>((r / 2) * 3 + c / 2)] += b[static_cast<size_t>(r * 6 + c)];
  CHECK(h.read<float>(so) == want);
  // Non-commutative: 2x2 matrix products keep their order.
  std::vector<float> m;
  for (int i = 0; i < 100; ++i) {
    float s = static_cast<float>(i % 3);
    m.insert(m.end(), {1, s, 0, 1});  // [[1, s], [0, 1]] composes to [[1, sum], [0, 1]]
  }
  m[0] = 2;  // first matrix [[2, 0], [0, 1]] scales: order matters
  auto sm = h.stream(h.type("float4"), {100}, m);
  std::array<float, 4> prod{};
  h.be->run_reduce(Scheduler::plan_reduce(*h.func("mat"), std::vector{Harness::arg(sm), Harness::value(prod)}, {}),
                   std::as_writable_bytes(std::span(prod)));
  float c[4] = {m[0], m[1], m[2], m[3]};
  for (int i = 1; i < 100; ++i) {
    const float* x = &m[static_cast<size_t>(4 * i)];
    float r[4] = {c[0] * x[0] + c[1] * x[2], c[0] * x[1] + c[1] * x[3], c[2] * x[0] + c[3] * x[2],
                  c[2] * x[1] + c[3] * x[3]};
    std::copy(r, r + 4, c);
  }
  CHECK(prod[1] == c[1]);
  CHECK(prod[0] == c[0]);
}

TEST_CASE("jit: kernels calling kernels, out parameters, builtins and printf") {
  Harness h(R"(
kernel float sq(float v) { return v * v; }
kernel void both(float a<>, out float s<>, out float t<>) { s = sq(a); t = sqrt(a) + sin(a); }
kernel void outer(float a<>, out float s<>, out float t<>) {
  both(a, s, t);
  int4 w = instance();
  if (w.x == 2) printf("at %d: %3.2f\n", w.x, a);
}
)");
  REQUIRE(h.ok());
  auto f = h.type("float");
  std::vector<float> a{1, 4, 9, 16};
  auto sa = h.stream(f, {4}, a), ss = h.stream<float>(f, {4}), st = h.stream<float>(f, {4});
  h.run("outer", {Harness::arg(sa), Harness::arg(ss), Harness::arg(st)});
  auto s = h.read<float>(ss), t = h.read<float>(st);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(s[i] == a[i] * a[i]);
    CHECK(t[i] == std::sqrt(a[i]) + std::sin(a[i]));
  }
  CHECK(h.printed == "at 2: 9.00\n");
}

TEST_CASE("jit: a stream that is input and output sees its old values") {
  Harness h(R"(
kernel void shift(float a[], out float r<>) { float4 i = indexof r; r = a[i.x + 1.0f]; }
)");
  REQUIRE(h.ok());
  auto f = h.type("float");
  std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8};
  auto sa = h.stream(f, {8}, a);
  h.run("shift", {Harness::arg(sa), Harness::arg(sa)});
  CHECK(h.read<float>(sa) == std::vector<float>{2, 3, 4, 5, 6, 7, 8, 8});
}

TEST_CASE("jit: regrouped scalar reductions keep operand order") {
  // first/last are associative but not commutative: any reordering shows.
  Harness h(R"(
reduce void first(float a<>, reduce float r<>) { r = r; }
reduce void last(float a<>, reduce float r<>) { r = a; }
reduce void sum(int a<>, reduce int r<>) { r = r + a; }
)");
  REQUIRE(h.ok());
  const int n = 300007;
  std::vector<float> a(n);
  std::vector<int> ia(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i) + 0.5f, ia[i] = i % 1000 - 400;
  auto sa = h.stream(h.type("float"), {n}, a);
  auto si = h.stream(h.type("int"), {n}, ia);
  CHECK(h.reduce<float>("first", {Harness::arg(sa), Harness::value(0.0f)}) == a.front());
  CHECK(h.reduce<float>("last", {Harness::arg(sa), Harness::value(0.0f)}) == a.back());
  CHECK(h.reduce<int>("sum", {Harness::arg(si), Harness::value(0)}) == std::accumulate(ia.begin(), ia.end(), 0));
}

TEST_CASE("jit: the disk cache makes a second run compile nothing") {
  auto dir = std::filesystem::temp_directory_path() / ("brook_jit_cache_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const char* src = "kernel void twice(float a<>, out float b<>) { b = 2.0f * a; }";
  for (int run = 0; run < 2; ++run) {
    FrontEnd fe;
    auto unit = fe.load_source("cache.br", src);
    REQUIRE(unit.program);
    JitOptions o;
    o.cache_dir = dir.string();
    auto be = make_jit_backend(o);
    const ast::FuncDecl* k = nullptr;
    for (const auto& item : unit.program->items)
      if (const auto* ds = item->as<ast::DeclStmt>())
        for (const auto& d : ds->decls)
          if (auto* f = d->as<ast::FuncDecl>()) k = f;
    REQUIRE(k);
    std::vector<float> in{1, 2, 3};
    auto* f = fe.types().float_type();
    StreamView a = Scheduler::whole(be->allocate(12), f, {3}), b = Scheduler::whole(be->allocate(12), f, {3});
    be->write_view(a, std::as_bytes(std::span(in)));
    CallArg ca, cb;
    ca.kind = cb.kind = CallArg::Kind::Stream;
    ca.stream = a;
    cb.stream = b;
    be->run_map(Scheduler::plan_map(*k, std::vector{ca, cb}, {}));
    std::vector<float> out(3);
    be->read_view(b, std::as_writable_bytes(std::span(out)));
    CHECK(out == std::vector<float>{2, 4, 6});
    CHECK(jit_compile_count(*be) == (run == 0 ? 1 : 0));
    CHECK(jit_profile_report(*be).find("twice") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("jit: emit llvm shows the element loop vectorised") {
  FrontEnd fe;
  auto unit = fe.load_source("emit.br", R"(
kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
kernel void blur(float img[][], out float r<>) {
  float4 i = indexof(r);
  r = (img[i.xy + float2(-1.0f, 0.0f)] + img[i.xy] + img[i.xy + float2(1.0f, 0.0f)]) / 3.0f;
}
reduce void sum(float a<>, reduce float r<>) { r = r + a; }
)");
  REQUIRE(unit.program);
  std::string ir = jit_emit_llvm(*unit.program, false);
  CHECK(ir.find("; kernel saxpy") != std::string::npos);
  CHECK(ir.find("; reduce sum") != std::string::npos);
  // Both kernels run W = 8 or 16 elements per vector instruction.
  auto blur_at = ir.find("; kernel blur");
  REQUIRE(blur_at != std::string::npos);
  CHECK(ir.substr(0, blur_at).find("x float>") != std::string::npos);
  CHECK(ir.find("masked.gather", blur_at) != std::string::npos);
  // Strict IEEE by default: no fused multiply-add unless fp_relaxed.
  CHECK(ir.substr(0, blur_at).find("fma") == std::string::npos);
}

TEST_CASE("jit: kernel printf format errors are runtime errors at the call") {
  Harness h(R"(
kernel void k(float a<>, out float b<>) { printf("%d\n", a); b = a; }
)");
  if (!h.ok()) return;  // sema may reject the format statically
  auto f = h.type("float");
  auto sa = h.stream(f, {4}, std::vector<float>{1, 2, 3, 4}), sb = h.stream<float>(f, {4});
  bool threw = false;
  try {
    h.run("k", {Harness::arg(sa), Harness::arg(sb)});
  } catch (const PlanError& e) {
    threw = true;
    CHECK(e.loc.line == 2);
    CHECK(e.message.find("%d") != std::string::npos);
  }
  CHECK(threw);
}

#endif
