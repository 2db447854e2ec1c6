// The OpenCL backend (backends/opencl/) on PoCL: programs go through the real
// front end and scheduler; results are checked against values computed here.
#ifdef BROOK_HAVE_OPENCL
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "interp/interrupt.hpp"
#include "backends/opencl/cl_module.hpp"
#include "backends/opencl/cl_runtime.hpp"
#include "backends/opencl/opencl_backend.hpp"
#include "backends/scheduler.hpp"
#include "backend_session.hpp"
#include "lang/frontend.hpp"

using namespace brook;

namespace {

struct Cl : test::BackendSession {
  explicit Cl(const std::string& source) {
#ifdef BROOK_OPENCL_TEST_CACHE
    setenv("POCL_CACHE_DIR", BROOK_OPENCL_TEST_CACHE "/pocl", 0);
#endif
    FrontEnd::Unit u = fe.load_source("t.br", source);
    if (u.status != FrontEnd::Status::ok) FAIL(fe.diagnostics().format_all());
    program = u.program;
    OpenCLOptions o;
#ifdef BROOK_OPENCL_TEST_CACHE
    o.cache_dir = BROOK_OPENCL_TEST_CACHE "/brook/opencl";
#endif
    o.output = [this](std::string_view t) { printed.append(t); };
    be = make_opencl_backend(o);
  }
  const ast::FuncDecl& fn(const std::string& name) {
    if (const ast::FuncDecl* f = func(name)) return *f;
    FAIL("no function " << name);
    throw 0;
  }
  using BackendSession::stream;
  template <class T>
  StreamView stream(const std::string& elem, Extents ext, const std::vector<T>& data = {}) {
    return stream(type(elem), std::move(ext), data);
  }
  // A plan error fails the test with its message.
  void run(const std::string& kernel, std::vector<CallArg> args) {
    try {
      be->run_map(Scheduler::plan_map(fn(kernel), args, {}));
    } catch (const PlanError& e) {
      FAIL(e.message);
    }
  }
};

}  // namespace

TEST_CASE("opencl: saxpy over a 1-D stream, constants by value") {
  Cl cl("kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }");
  std::vector<float> x(1000), y(1000);
  for (int i = 0; i < 1000; ++i) x[i] = i * 0.5f, y[i] = 1000.0f - i;
  StreamView sx = cl.stream("float", {1000}, x), sy = cl.stream("float", {1000}, y);
  StreamView r = cl.stream<float>("float", {1000});
  cl.run("saxpy", {Cl::value(3.0f), Cl::arg(sx), Cl::arg(sy), Cl::arg(r)});
  std::vector<float> got = cl.read<float>(r);
  for (int i = 0; i < 1000; ++i) REQUIRE(got[i] == 3.0f * x[i] + y[i]);
}

TEST_CASE("opencl: resampling, indexof and instance in 2-D") {
  Cl cl("kernel void probe(float a<>, out float2 o<>) { o = indexof(a).xy; }\n"
        "kernel void pos(out int o<>) { int4 i = instance(); o = i.x + i.y * 100; }");
  StreamView big = cl.stream<float>("float", {2, 6}), o = cl.stream<float>("float2", {4, 3});
  cl.run("probe", {Cl::arg(big), Cl::arg(o)});
  std::vector<float> got = cl.read<float>(o);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) {
      CHECK(got[(r * 3 + c) * 2] == float(c * 6 / 3));      // column read
      CHECK(got[(r * 3 + c) * 2 + 1] == float(r * 2 / 4));  // row read
    }
  StreamView line = cl.stream<float>("float", {8});  // a <8> input follows the domain's rows
  cl.run("probe", {Cl::arg(line), Cl::arg(o)});
  got = cl.read<float>(o);
  for (int r = 0; r < 4; ++r) CHECK(got[(r * 3 + 1) * 2] == float(r * 8 / 4));
  StreamView p = cl.stream<int>("int", {3, 4});
  cl.run("pos", {Cl::arg(p)});
  std::vector<int> ip = cl.read<int>(p);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) CHECK(ip[r * 4 + c] == c + r * 100);
}

TEST_CASE("opencl: Brook semantics where OpenCL C differs") {
  Cl cl("kernel void ops(int a<>, int b<>, out int q<>, out int r<>, out int4 cmp<>) {\n"
        "  q = a / b; r = a % b;\n"
        "  int4 va = int4(a, a, b, b); cmp = va < int4(b, 0, a, 100);\n}\n"
        "kernel void fl(float a<>, out float4 o<>) {\n"
        "  o = float4(round(a), min(a / 0.0f - a / 0.0f, 1.0f), max(1.0f, a / 0.0f - a / 0.0f), sign(a));\n}\n");
  std::vector<int> a{7, -7, 0, 5, -2147483647 - 1}, b{0, 2, 0, -7, -1};
  StreamView sa = cl.stream("int", {5}, a), sb = cl.stream("int", {5}, b);
  StreamView q = cl.stream<int>("int", {5}), r = cl.stream<int>("int", {5}), c = cl.stream<int>("int4", {5});
  cl.run("ops", {Cl::arg(sa), Cl::arg(sb), Cl::arg(q), Cl::arg(r), Cl::arg(c)});
  CHECK(cl.read<int>(q) == std::vector<int>{0, -3, 0, 0, -2147483647 - 1});
  CHECK(cl.read<int>(r) == std::vector<int>{0, -1, 0, 5, 0});
  std::vector<int> cmp = cl.read<int>(c);
  for (int i = 0; i < 5; ++i) {
    CHECK(cmp[i * 4 + 0] == (a[i] < b[i] ? 1 : 0));
    CHECK(cmp[i * 4 + 1] == (a[i] < 0 ? 1 : 0));
    CHECK(cmp[i * 4 + 3] == (b[i] < 100 ? 1 : 0));
  }
  std::vector<float> fa{2.5f, -2.5f, 0.0f, -0.0f};
  StreamView sf = cl.stream("float", {4}, fa), o = cl.stream<float>("float4", {4});
  cl.run("fl", {Cl::arg(sf), Cl::arg(o)});
  std::vector<float> g = cl.read<float>(o);
  CHECK(g[0] == 3.0f);
  CHECK(g[4] == -3.0f);
  CHECK(std::isnan(g[1]));  // min(NaN, 1) is NaN (HLSL), not fmin's 1
  CHECK(g[2] == 1.0f);      // max(1, NaN) is 1
  CHECK(g[3] == 1.0f);
  CHECK(g[7] == -1.0f);
  CHECK(g[11] == 0.0f);
}

TEST_CASE("opencl: gathers clamp and use floor(f + 0.25)") {
  Cl cl("kernel void g1(float i<>, float t[], out float o<>) { o = t[i]; }\n"
        "kernel void g2(float2 i<>, float t[][], out float o<>) { o = t[i] + t[1][2] * 1000.0f; }\n"
        "kernel void g3(int i<>, float t[][], out float o<>) { o = t[i][i + 1]; }\n");
  std::vector<float> t{10, 11, 12, 13, 14};
  StreamView st = cl.stream("float", {5}, t);
  std::vector<float> idx{-3.0f, 0.74f, 0.76f, 2.0f, 3.9f, 99.0f, NAN, 1e30f, -INFINITY};
  StreamView si = cl.stream("float", {9}, idx), o = cl.stream<float>("float", {9});
  cl.run("g1", {Cl::arg(si), Cl::arg(st), Cl::arg(o)});
  CHECK(cl.read<float>(o) == std::vector<float>{10, 10, 11, 12, 14, 14, 10, 14, 10});  // NaN selects 0, as in interp
  std::vector<float> grid(12);
  for (int k = 0; k < 12; ++k) grid[k] = float(k);  // <3, 4>
  StreamView sg = cl.stream("float", {3, 4}, grid);
  std::vector<float> vi{3, 2, 0, 0, 9, -1};  // (column, row)
  StreamView sv = cl.stream("float2", {3}, vi), o3 = cl.stream<float>("float", {3});
  cl.run("g2", {Cl::arg(sv), Cl::arg(sg), Cl::arg(o3)});
  CHECK(cl.read<float>(o3) == std::vector<float>{11 + 6000, 0 + 6000, 3 + 6000});
  std::vector<int> ii{0, 1, 2};
  StreamView sii = cl.stream("int", {3}, ii);
  cl.run("g3", {Cl::arg(sii), Cl::arg(sg), Cl::arg(o3)});
  CHECK(cl.read<float>(o3) == std::vector<float>{1, 6, 11});
}

// Float indices built from indexof and ints are gathered through int math
// (cl_exact.cpp); the element must be the one floor(f + 0.25) picks.
TEST_CASE("opencl: integral float gather indices select what floor(f + 0.25) selects") {
  Cl cl("kernel void off(float t[][], int dx, int dy, out float o<>) {\n"
        "  float4 here = indexof(o); o = t[here.xy + float2(dx, dy)];\n}\n"
        "kernel void sub(float t[], int d, out float o<>) { float4 h = indexof(o); o = t[h.x - (float)d]; }\n"
        "kernel void moved(float t[], out float o<>) { float4 h = indexof(o); h.x -= 0.5f; o = t[h.x]; }\n"
        "kernel void cast(out int o<>) { float4 h = indexof(o); o = (int)h.x * 1000 + (int)h.y; }\n");
  const int W = 8, H = 5;
  std::vector<float> grid(W * H), line(40);
  for (int k = 0; k < W * H; ++k) grid[k] = float(k);
  for (int k = 0; k < 40; ++k) line[k] = float(k);
  StreamView g = cl.stream("float", {H, W}, grid), l = cl.stream("float", {40}, line);
  StreamView o = cl.stream<float>("float", {H, W}), o1 = cl.stream<float>("float", {40});
  auto pick = [](int p, int d, int n) {  // the float rule, evaluated as the interpreter does
    float f = std::floor((float(p) + float(d)) + 0.25f);
    return f < 0 ? 0 : (f > float(n - 1) ? n - 1 : int(f));
  };
  const int offsets[] = {-2147483647 - 1, -16777217, -16777216, -3, 0, 2, 16777215, 16777217, 2147483647};
  for (int d : offsets) {
    CAPTURE(d);
    cl.run("off", {Cl::arg(g), Cl::value(d), Cl::value(-d / 2), Cl::arg(o)});
    std::vector<float> got = cl.read<float>(o);
    for (int r = 0; r < H; ++r)
      for (int c = 0; c < W; ++c) CHECK(got[r * W + c] == grid[pick(r, -d / 2, H) * W + pick(c, d, W)]);
    cl.run("sub", {Cl::arg(l), Cl::value(d), Cl::arg(o1)});
    got = cl.read<float>(o1);
    for (int k = 0; k < 40; ++k) {
      float f = std::floor((float(k) - float(d)) + 0.25f);
      CHECK(got[k] == (f < 0 ? 0.0f : (f > 39 ? 39.0f : f)));
    }
  }
  cl.run("moved", {Cl::arg(l), Cl::arg(o1)});
  std::vector<float> got = cl.read<float>(o1);
  for (int k = 0; k < 40; ++k) CHECK(got[k] == float(k == 0 ? 0 : k - 1));
  StreamView oi = cl.stream<int>("int", {H, W});
  cl.run("cast", {Cl::arg(oi)});
  std::vector<int> ci = cl.read<int>(oi);
  for (int r = 0; r < H; ++r)
    for (int c = 0; c < W; ++c) CHECK(ci[r * W + c] == c * 1000 + r);
}

// Clamps that provably never bite are left out (cl_bounds.cpp) and zeroing of
// arrays written in full is skipped (cl_definite.cpp); both only when true.
TEST_CASE("opencl: gathers skip clamps and arrays skip zeroing only where it is safe") {
  Cl cl("kernel void pick(float t[][], out float o<>) {\n"
        "  float4 p = indexof(o); int x = (int)p.x; int y = (int)p.y; float s = 0.0f;\n"
        "  for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) s += t[2 * y + i][x + j] * 100.0f + t[i][j];\n"
        "  o = s;\n}\n"
        "kernel void rowsum(float t[][], int n, out float o<>) {\n"
        "  float s = 0.0f; int r = (int)indexof(o).x;\n"
        "  for (int i = 0; i < n; i++) s += t[r][i];\n"
        "  o = s;\n}\n"
        "kernel void arrays(out float o<>) {\n"
        "  float a[4]; float b[4]; float c[6];\n"
        "  for (int i = 0; i < 4; i++) a[i] = (float)i;\n"
        "  b[0] = 1.0f; b[2] = 2.0f;\n"
        "  for (int i = 0; i < 3; i++) { c[2 * i] = 1.0f; if (i > 0) c[2 * i - 1] = 2.0f; }\n"
        "  o = a[3] + b[1] * 10.0f + b[3] * 100.0f + c[5] * 1000.0f + c[1] * 10000.0f;\n}\n");
  const int W = 6, H = 8;
  std::vector<float> grid(W * H);
  for (int k = 0; k < W * H; ++k) grid[k] = float(k);
  StreamView g = cl.stream("float", {H, W}, grid);
  auto expect = [&](int oh, int ow, const std::vector<float>& got) {
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        float s = 0.0f;
        for (int i = 0; i < 2; i++)
          for (int j = 0; j < 3; j++) {
            int r = std::min(2 * y + i, H - 1), c = std::min(x + j, W - 1);
            s += grid[r * W + c] * 100.0f + grid[i * W + j];
          }
        CHECK(got[y * ow + x] == s);
      }
  };
  StreamView fits = cl.stream<float>("float", {4, 4});  // every read inside: no clamp
  cl.run("pick", {Cl::arg(g), Cl::arg(fits)});
  expect(4, 4, cl.read<float>(fits));
  StreamView spills = cl.stream<float>("float", {5, 5});  // rows 8, 9 and column 6 clamp
  cl.run("pick", {Cl::arg(g), Cl::arg(spills)});
  expect(5, 5, cl.read<float>(spills));
  for (int n : {W, W + 3}) {  // a loop bound from a constant: inside, then clamping at the edge
    CAPTURE(n);
    StreamView sums = cl.stream<float>("float", {H});
    cl.run("rowsum", {Cl::arg(g), Cl::value(n), Cl::arg(sums)});
    std::vector<float> got = cl.read<float>(sums);
    for (int r = 0; r < H; ++r) {
      float s = 0.0f;
      for (int i = 0; i < n; i++) s += grid[r * W + std::min(i, W - 1)];
      CHECK(got[r] == s);
    }
  }
  StreamView o = cl.stream<float>("float", {3});
  cl.run("arrays", {Cl::arg(o)});
  CHECK(cl.read<float>(o) == std::vector<float>(3, 3.0f + 20000.0f));  // b[1], b[3], c[5] stay 0
}

// Ctrl-C from another thread (as the REPL's signal handler does) ends a kernel
// that never returns; the backend then runs the next launch normally.
TEST_CASE("opencl: an interrupt stops a running kernel and the backend stays usable") {
  Cl cl("kernel void spin(out float o<>) { while (true) {} o = 1.0f; }\n"
        "kernel void twice(float a<>, out float o<>) { o = a * 2.0f; }\n");
  StreamView o = cl.stream<float>("float", {64});
  interrupt_requested.store(false);
  auto start = std::chrono::steady_clock::now();
  std::thread ctrl_c([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupt_requested.store(true);
  });
  bool interrupted = false;
  std::vector<CallArg> args{Cl::arg(o)};
  try {
    cl.be->run_map(Scheduler::plan_map(cl.fn("spin"), args, {}));
  } catch (const Interrupted&) {
    interrupted = true;
  }
  ctrl_c.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(interrupted);
  CHECK(seconds >= 0.19);
  CHECK(seconds < 5.0);
  CHECK(!interrupt_requested.load());  // the request is consumed, as poll_interrupt does
  std::vector<float> a(64);
  for (int i = 0; i < 64; ++i) a[i] = float(i);
  StreamView sa = cl.stream("float", {64}, a);
  cl.run("twice", {Cl::arg(sa), Cl::arg(o)});
  std::vector<float> got = cl.read<float>(o);
  for (int i = 0; i < 64; ++i) CHECK(got[i] == 2.0f * float(i));
}

TEST_CASE("opencl: kernels calling kernels, out by reference, structs and float3 layout") {
  Cl cl("typedef struct { float a; float3 v; int n; } P;\n"
        "kernel void incr(out float r<>) { r = r + 1.0f; }\n"
        "kernel float3 twice(float3 v) { return v * 2.0f; }\n"
        "kernel void outer(P p<>, out P q<>, out float t<>) {\n"
        "  float loc = 5.0f; incr(loc); incr(t);\n"
        "  q = p; q.v = twice(p.v); q.a = loc; q.n = p.n * 3;\n}\n");
  struct P {
    float a;
    float v[3];
    int n;
  };
  static_assert(sizeof(P) == 20);
  std::vector<P> ps{{1, {1, 2, 3}, 4}, {2, {5, 6, 7}, -1}};
  std::vector<float> t0{10, 20};
  const Type* pt = nullptr;
  for (auto& p : cl.fn("outer").params) if (p->name == "p") pt = p->type;
  REQUIRE(pt);
  REQUIRE(pt->size == 20);
  StorageId ip = cl.be->allocate(40), iq = cl.be->allocate(40);
  StreamView sp = Scheduler::whole(ip, pt, {2}), sq = Scheduler::whole(iq, pt, {2});
  cl.be->write_view(sp, std::as_bytes(std::span(ps)));
  StreamView st = cl.stream("float", {2}, t0);
  cl.run("outer", {Cl::arg(sp), Cl::arg(sq), Cl::arg(st)});
  std::vector<P> q(2);
  cl.be->read_view(sq, std::as_writable_bytes(std::span(q)));
  CHECK(q[0].a == 6.0f);
  CHECK(q[1].v[2] == 14.0f);
  CHECK(q[0].v[0] == 2.0f);
  CHECK(q[1].n == -3);
  CHECK(cl.read<float>(st) == std::vector<float>{11, 21});
}

TEST_CASE("opencl: views as inputs and outputs; a stream both read and written") {
  Cl cl("kernel void add(float a<>, out float o<>) { o = a + 100.0f; }\n"
        "kernel void shift(float g[], out float o<>) { o = g[indexof(o).x + 1.0f]; }\n");
  std::vector<float> h(20);
  for (int k = 0; k < 20; ++k) h[k] = float(k);
  StreamView s = cl.stream("float", {4, 5}, h);
  int64_t st[2] = {1, 1}, en[2] = {4, 3};
  StreamView view = Scheduler::domain(s, st, en, {});  // rows 1..2, columns 1..3
  StreamView src = cl.stream("float", {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6});
  cl.run("add", {Cl::arg(src), Cl::arg(view)});
  std::vector<float> got = cl.read<float>(s);
  CHECK(got[0] == 0.0f);
  CHECK(got[6] == 101.0f);
  CHECK(got[8] == 103.0f);
  CHECK(got[9] == 9.0f);
  CHECK(got[13] == 106.0f);
  std::vector<float> part(6);
  cl.be->read_view(view, std::as_writable_bytes(std::span(part)));
  CHECK(part == std::vector<float>{101, 102, 103, 104, 105, 106});
  int64_t rs[2] = {0, 2}, re[2] = {5, 4};  // whole rows 2..3: one linear range from an offset
  StreamView rows = Scheduler::domain(s, rs, re, {});
  StreamView src2 = cl.stream("float", {2, 5}, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  cl.run("add", {Cl::arg(src2), Cl::arg(rows)});
  got = cl.read<float>(s);
  CHECK(got[9] == 9.0f);
  for (int k = 10; k < 20; ++k) CHECK(got[k] == float(k - 9) + 100.0f);
  StreamView line = cl.stream("float", {5}, std::vector<float>{1, 2, 3, 4, 5});
  cl.run("shift", {Cl::arg(line), Cl::arg(line)});  // sees the stream as it was before
  CHECK(cl.read<float>(line) == std::vector<float>{2, 3, 4, 5, 5});
}

TEST_CASE("opencl: reductions keep operand order (matrix product) and fold blocks") {
  Cl cl("reduce void sum(int a<>, reduce int r<>) { r = r + a; }\n"
        "reduce void chain(float4 x<>, reduce float4 r<>) {\n"
        "  r = float4(r.x * x.x + r.y * x.z, r.x * x.y + r.y * x.w, r.z * x.x + r.w * x.z, r.z * x.y + r.w * x.w);\n}\n");
  const int n = 100000;
  std::vector<int> v(n);
  long long expect = 0;
  for (int i = 0; i < n; ++i) v[i] = (i * 7919) % 1000 - 500, expect += v[i];
  StreamView s = cl.stream("int", {n}, v);
  std::vector<CallArg> args{Cl::arg(s), Cl::value(0)};
  ReducePlan plan = Scheduler::plan_reduce(cl.fn("sum"), args, {});
  int total = 0;
  cl.be->run_reduce(plan, std::as_writable_bytes(std::span(&total, 1)));
  CHECK(total == expect);
  // 2-D blocks: <4, 6> into <2, 3>.
  std::vector<int> g(24);
  for (int k = 0; k < 24; ++k) g[k] = k;
  StreamView sg = cl.stream("int", {4, 6}, g), so = cl.stream<int>("int", {2, 3});
  std::vector<CallArg> a2{Cl::arg(sg), Cl::arg(so)};
  cl.be->run_reduce(Scheduler::plan_reduce(cl.fn("sum"), a2, {}), {});
  CHECK(cl.read<int>(so) == std::vector<int>{0 + 1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5 + 10 + 11, 12 + 13 + 18 + 19,
                                             14 + 15 + 20 + 21, 16 + 17 + 22 + 23});
  // Non-commutative: products of 0/1 permutation and shear matrices (exact in float).
  const int m = 3000;
  std::vector<float> mats(m * 4);
  for (int i = 0; i < m; ++i) {
    bool swap = i % 7 == 3;
    float sh = float(i % 3) - 1.0f;
    float* p = &mats[i * 4];
    if (swap) p[0] = 0, p[1] = 1, p[2] = 1, p[3] = 0;
    else p[0] = 1, p[1] = sh, p[2] = 0, p[3] = 1;
  }
  float acc[4] = {mats[0], mats[1], mats[2], mats[3]};
  for (int i = 1; i < m; ++i) {
    const float* x = &mats[i * 4];
    float r[4] = {acc[0] * x[0] + acc[1] * x[2], acc[0] * x[1] + acc[1] * x[3], acc[2] * x[0] + acc[3] * x[2],
                  acc[2] * x[1] + acc[3] * x[3]};
    std::memcpy(acc, r, sizeof r);
  }
  StreamView sm = cl.stream("float4", {m}, mats);
  std::vector<CallArg> a3{Cl::arg(sm), Cl::value(0)};
  float out[4] = {};
  cl.be->run_reduce(Scheduler::plan_reduce(cl.fn("chain"), a3, {}), std::as_writable_bytes(std::span(out)));
  for (int k = 0; k < 4; ++k) CHECK(out[k] == acc[k]);
}

TEST_CASE("opencl: gather and scatter operators, in order, with the positional rule") {
  Cl cl("reduce void sub(float x<>, reduce float acc<>) { acc = acc - x; }\n"
        "reduce void addr(reduce float acc<>, float x<>) { acc = acc + x; }\n");
  StreamView s = cl.stream("float", {5}, std::vector<float>{1, 2, 3, 4, 5});
  StreamView idx = cl.stream("float", {5}, std::vector<float>{0, 1, 0, 0, 2});
  StreamView a = cl.stream("float", {3}, std::vector<float>{100, 200, 300});
  cl.be->run_gather_scatter(Scheduler::plan_gather_scatter(true, s, idx, a, 0, &cl.fn("sub"), {}));
  CHECK(cl.read<float>(s) == std::vector<float>{-99, -198, -97, -96, -295});
  CHECK(cl.read<float>(a) == std::vector<float>{100, 200, 300});
  cl.be->run_gather_scatter(Scheduler::plan_gather_scatter(true, s, idx, a, 0, &cl.fn("addr"), {}));
  CHECK(cl.read<float>(a) == std::vector<float>{100 - 99 - 97 - 96, 200 - 198, 300 - 295});
  StreamView t = cl.stream<float>("float", {5});
  cl.be->run_gather_scatter(Scheduler::plan_gather_scatter(false, t, idx, a, 1, nullptr, {}));  // INC
  CHECK(cl.read<float>(t) == std::vector<float>{-192, 2, -191, -190, 5});
  StreamView bad = cl.stream("float", {5}, std::vector<float>{0, 1, 2, 12, 0});
  std::string msg;
  try {
    cl.be->run_gather_scatter(Scheduler::plan_gather_scatter(true, s, bad, a, 0, nullptr, {}));
  } catch (const PlanError& e) {
    msg = e.message;
  }
  CHECK(msg == "index 12 of element 3 is outside the array <3>");
}

TEST_CASE("opencl: printf inside kernels reaches the output sink in element order") {
  Cl cl("kernel void show(float a<>, out float o<>) {\n"
        "  printf(\"%d: %.2f %s\\n\", instance().x, a, \"ok\"); o = a;\n}\n");
  StreamView a = cl.stream("float", {3}, std::vector<float>{1.5f, 2.25f, -3.0f}), o = cl.stream<float>("float", {3});
  cl.run("show", {Cl::arg(a), Cl::arg(o)});
  CHECK(cl.printed == "0: 1.50 ok\n1: 2.25 ok\n2: -3.00 ok\n");
}

TEST_CASE("opencl: emit prints OpenCL C; devices are listed") {
  Cl cl("kernel void k(float a<>, out float o<>) { o = a > 1.0f ? a : 0.0f; }");
  std::string src = emit_opencl(*cl.program, "k");
  CHECK(src.find("__kernel void brook_map") != std::string::npos);
  CHECK(src.find("FP_CONTRACT OFF") != std::string::npos);
  CHECK(emit_opencl(*cl.program, "nothing").empty());
  CHECK(list_opencl_devices().rfind("0: ", 0) == 0);
}

TEST_CASE("opencl: loops of a few known iterations are unrolled, others are not") {
  // PoCL vectorises across work-items only a kernel with no loop left
  // (cl_printer.cpp's unroll_hint); counting `#pragma unroll` lines tells
  // which loops got the hint.
  auto hints = [](const char* src) {
    Cl cl(src);
    std::string text = emit_opencl(*cl.program, "k");
    size_t n = 0;
    for (size_t at = text.find("#pragma unroll"); at != std::string::npos;
         at = text.find("#pragma unroll", at + 1))
      ++n;
    return n;
  };
  // int and float counters between constants: both loops.
  CHECK(hints("kernel void k(float a[][], out float o<>) {\n"
              "  float2 p = indexof(o).xy; float s = 0.0f; float dy;\n"
              "  for (dy = -1.0f; dy <= 1.0f; dy += 1.0f)\n"
              "    for (int dx = -1; dx <= 1; dx++) s += a[p + float2((float)dx, dy)];\n"
              "  o = s;\n}\n") == 2);
  // A bound known only at run time, and a trip count past 32: no hint.
  CHECK(hints("kernel void k(float a[], int n, out float o<>) {\n"
              "  float s = 0.0f;\n"
              "  for (int i = 0; i < n; i++) s += a[i];\n"
              "  for (int j = 0; j < 100; j++) s += a[j];\n"
              "  o = s;\n}\n") == 0);
  // A nest is unrolled up to 256 copies of its body: 16 x 16 is, and a
  // third level of 16 inside it is not.
  CHECK(hints("kernel void k(float a[], out float o<>) {\n"
              "  float s = 0.0f;\n"
              "  for (int i = 0; i < 16; i++)\n"
              "    for (int j = 0; j < 16; j++)\n"
              "      for (int l = 0; l < 16; l++) s += a[i + j + l];\n"
              "  o = s;\n}\n") == 2);
}

TEST_CASE("opencl: driver diagnostics map back to the statement's .br location") {
  opencl::ClModule m;
  CHECK(m.mark_line({1, 7, 3}) == "#line 1 \"brook.br\"\n");
  m.mark_line({1, 9, 5});
  CHECK(m.statement_at(2).line == 9);
  CHECK(m.statement_at(5).line == 9);  // a later line of the last statement
  CHECK(!m.statement_at(0).valid());
}

TEST_CASE("opencl: a double kernel and a 3-D domain with a resampled input") {
  Cl cl("kernel void k(double a<>, out double o<>) { o = a * 0.1 + (double)instance().z; }");
  StreamView a = cl.stream("double", {2}, std::vector<double>{1.0, 2.0});
  StreamView o = cl.stream<double>("double", {2, 3, 4});
  cl.run("k", {Cl::arg(a), Cl::arg(o)});
  std::vector<double> got = cl.read<double>(o);
  for (int s = 0; s < 2; ++s)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) CHECK(got[(s * 3 + r) * 4 + c] == (s ? 2.0 : 1.0) * 0.1 + double(s));
}
#endif

// PoCL's LLVM has aborted while compiling generated code (fuzz seed 55427:
// "Cannot select ... X86ISD::VBROADCAST" when asked for the program's
// binary). The process cannot go on, but it must say which program it was
// compiling: CrashNotice prints that on the fatal signal, then dies of it.
TEST_CASE("opencl: a driver crash while compiling names the program before the process dies") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    brook::opencl::CrashNotice notice("kernel 'k16' (called at line 80)");
    std::abort();  // what LLVM's report_fatal_error does
  }
  close(fds[1]);
  std::string err;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
  CHECK(err.find("brook: the OpenCL driver crashed while compiling kernel 'k16' (called at line 80)") !=
        std::string::npos);
}

TEST_CASE("opencl: outside a build or a first launch the notice is gone") {
  auto handler = [] {
    struct sigaction now {};
    sigaction(SIGABRT, nullptr, &now);
    return reinterpret_cast<std::uintptr_t>(now.sa_handler);
  };
  const std::uintptr_t before = handler();
  std::uintptr_t during = 0;
  {
    brook::opencl::CrashNotice notice("kernel 'k'");
    during = handler();
  }
  CHECK(during != before);
  CHECK(handler() == before);
}
