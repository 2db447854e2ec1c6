// brook_jit_bench: runs each bench/workloads/*.br kernel on the JIT backend
// and its hand-written C++ baseline (baselines/), and prints a table: median
// ms of each, the ratio baseline/JIT (>= 1 means the JIT is as fast), and the
// JIT's GB/s or GFLOP/s. Outputs are compared so a fast wrong answer fails.
//
//   brook_jit_bench [BENCH_DIR] [reps]     (threads: $BROOK_THREADS, default 2)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "backends/scheduler.hpp"
#include "baselines/baselines.hpp"
#include "jit/jit_backend.hpp"
#include "lang/frontend.hpp"

using namespace brook;

namespace {

int g_threads = 2;
int g_reps = 5;

double median_ms(const std::function<void()>& f) {
  f();  // warm up (and compile)
  std::vector<double> t;
  for (int i = 0; i < g_reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Session {
  FrontEnd fe;
  ast::Program* program = nullptr;
  std::unique_ptr<Backend> be;
  ~Session() {
    // BENCH_PROFILE=1: per-kernel compile time, launches, run time (stderr).
    if (const char* p = std::getenv("BENCH_PROFILE"); p && *p == '1')
      std::fputs(jit_profile_report(*be).c_str(), stderr);
  }
  explicit Session(const std::string& path) {
    program = fe.load_file(path).program;
    if (!program) {
      std::fprintf(stderr, "bench: cannot compile %s\n", path.c_str());
      std::exit(1);
    }
    JitOptions o;
    o.threads = g_threads;
    be = make_jit_backend(o);
  }
  const ast::FuncDecl* func(const std::string& name) const {
    for (const auto& item : program->items)
      if (const auto* ds = item->as<ast::DeclStmt>())
        for (const auto& d : ds->decls)
          if (const auto* f = d->as<ast::FuncDecl>(); f && f->name == name && f->body) return f;
    std::fprintf(stderr, "bench: no function '%s'\n", name.c_str());
    std::exit(1);
  }
  const Type* type(const char* n) {
    std::string s = n;
    if (s == "float") return fe.types().float_type();
    if (s == "int") return fe.types().int_type();
    return fe.types().builtin_by_name(s);
  }
  StreamView stream(const Type* elem, Extents e, const void* data = nullptr) {
    uint64_t bytes = static_cast<uint64_t>(element_count(e)) * elem->size;
    StreamView v = Scheduler::whole(be->allocate(bytes), elem, e);
    if (data) be->write_view(v, {static_cast<const std::byte*>(data), bytes});
    return v;
  }
  void read(const StreamView& v, void* out) {
    be->read_view(v, {static_cast<std::byte*>(out), static_cast<uint64_t>(element_count(v.extents)) * v.elem->size});
  }
  static CallArg arg(const StreamView& v) {
    CallArg a;
    a.kind = CallArg::Kind::Stream;
    a.stream = v;
    return a;
  }
  template <class T>
  static CallArg value(T x) {
    CallArg a;
    a.value.resize(sizeof(T));
    std::memcpy(a.value.data(), &x, sizeof(T));
    return a;
  }
};

struct Row {
  std::string name;
  double jit_ms, base_ms;
  double work;  // bytes or flops per run
  const char* unit;
  bool ok;
  double min_ratio;
};
std::vector<Row> rows;

void report(const Row& r) {
  rows.push_back(r);
  double rate = r.work / (r.jit_ms * 1e6);
  std::printf("| %-14s | %9.3f | %9.3f | %5.2fx | %7.2f %-6s | %-5s | >= %.2fx %s |\n", r.name.c_str(),
              r.jit_ms, r.base_ms, r.base_ms / r.jit_ms, rate, r.unit, r.ok ? "same" : "DIFF",
              r.min_ratio, r.base_ms / r.jit_ms >= r.min_ratio ? "met" : "MISSED");
  std::fflush(stdout);
}

bool close_enough(const float* a, const float* b, size_t n, float tol) {
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(a[i] - b[i]) <= tol * std::max(1.0f, std::fabs(b[i])))) return false;
  return true;
}

std::string dir;

void bench_saxpy() {
  Session s(dir + "/workloads/saxpy.br");
  const int64_t n = 1 << 24;
  std::vector<float> x(n), y(n), r(n), want(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) * 0.25f, y[i] = static_cast<float>(i % 77);
  auto f = s.type("float");
  auto sx = s.stream(f, {n}, x.data()), sy = s.stream(f, {n}, y.data()), sr = s.stream(f, {n});
  std::vector<CallArg> args{Session::value(3.0f), Session::arg(sx), Session::arg(sy), Session::arg(sr)};
  MapPlan plan = Scheduler::plan_map(*s.func("saxpy"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  double base = median_ms([&] { bench::saxpy(g_threads, 3.0f, x.data(), y.data(), want.data(), n); });
  s.read(sr, r.data());
  report({"saxpy", jit, base, 12.0 * n, "GB/s", r == want, 0.8});
}

void bench_sum() {
  Session s(dir + "/workloads/sum.br");
  const int64_t n = 1 << 24;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 16 - 7);  // integer sums: exact in any grouping
  auto sx = s.stream(s.type("float"), {n}, x.data());
  float zero = 0, got = 0;
  std::vector<CallArg> args{Session::arg(sx), Session::value(zero)};
  ReducePlan plan = Scheduler::plan_reduce(*s.func("sum"), args, {});
  double jit = median_ms([&] { s.be->run_reduce(plan, {reinterpret_cast<std::byte*>(&got), 4}); });
  float want = 0;
  double base = median_ms([&] { want = bench::sum(g_threads, x.data(), n); });
  // Float sums of 16M terms round differently by grouping: both must be near
  // the exact (double) sum.
  double exact = 0;
  for (float v : x) exact += v;
  bool ok = std::fabs(got - exact) <= 1e-2 * exact && std::fabs(want - exact) <= 1e-2 * exact;
  report({"sum", jit, base, 4.0 * n, "GB/s", ok, 0.8});
}

void bench_blur() {
  Session s(dir + "/workloads/blur3x3.br");
  const int w = 2048, h = 2048;
  std::vector<float> img(static_cast<size_t>(w) * h), out(img.size()), want(img.size());
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<float>((i * 7919) % 256);
  auto f = s.type("float");
  auto si = s.stream(f, {h, w}, img.data()), so = s.stream(f, {h, w});
  std::vector<CallArg> args{Session::arg(si), Session::arg(so)};
  MapPlan plan = Scheduler::plan_map(*s.func("blur3x3"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  double base = median_ms([&] { bench::blur3x3(g_threads, img.data(), want.data(), w, h); });
  s.read(so, out.data());
  report({"blur3x3", jit, base, 8.0 * w * h, "GB/s", close_enough(out.data(), want.data(), out.size(), 1e-6f), 0.8});
}

void bench_mandelbrot() {
  Session s(dir + "/workloads/mandelbrot.br");
  const int size = 1024, iters = 256;
  // The iterator stream's values (§6), as the Engine materialises them.
  std::vector<float> plane(static_cast<size_t>(size) * size * 2);
  for (int r = 0; r < size; ++r)
    for (int c = 0; c < size; ++c) {
      plane[(static_cast<size_t>(r) * size + c) * 2] = Scheduler::iterator_lerp(c, size, -2.0f, 1.0f);
      plane[(static_cast<size_t>(r) * size + c) * 2 + 1] = Scheduler::iterator_lerp(r, size, -1.5f, 1.5f);
    }
  auto sp = s.stream(s.type("float2"), {size, size}, plane.data());
  sp.is_iter = true;
  auto so = s.stream(s.type("int"), {size, size});
  std::vector<CallArg> args{Session::arg(sp), Session::value(iters), Session::arg(so)};
  MapPlan plan = Scheduler::plan_map(*s.func("escape_time"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  std::vector<int> got(static_cast<size_t>(size) * size), want(got.size());
  double base = median_ms([&] { bench::mandelbrot(g_threads, want.data(), size, iters); });
  s.read(so, got.data());
  double total_iters = 0;
  for (int v : want) total_iters += v;
  report({"mandelbrot", jit, base, total_iters * 10, "GFLOP/s", got == want, 0.8});
}

void bench_sgemm() {
  Session s(dir + "/workloads/sgemm.br");
  const int n = 512;
  std::vector<float> a(static_cast<size_t>(n) * n), b(a.size()), c(a.size()), out(a.size()), want(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(static_cast<int>(i * 31 % 128) - 64) / 64.0f;
    b[i] = static_cast<float>(static_cast<int>(i * 17 % 128) - 64) / 64.0f;
    c[i] = static_cast<float>(i % 5);
  }
  auto f = s.type("float");
  auto sa = s.stream(f, {n, n}, a.data()), sb = s.stream(f, {n, n}, b.data());
  auto sc = s.stream(f, {n, n}, c.data()), so = s.stream(f, {n, n});
  std::vector<CallArg> args{Session::arg(sa), Session::arg(sb), Session::arg(sc), Session::value(n),
                            Session::value(1.5f), Session::value(0.5f), Session::arg(so)};
  MapPlan plan = Scheduler::plan_map(*s.func("sgemm"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  double base = median_ms([&] { bench::sgemm(g_threads, a.data(), b.data(), c.data(), want.data(), n, 1.5f, 0.5f); });
  s.read(so, out.data());
  report({"sgemm", jit, base, 2.0 * n * n * n, "GFLOP/s", close_enough(out.data(), want.data(), out.size(), 1e-4f), 0.5});
}

void bench_black_scholes() {
  Session s(dir + "/workloads/black_scholes.br");
  const int64_t n = 1 << 22;
  std::vector<float> price(n), strike(n), years(n), call(n), put(n), wc(n), wp(n);
  for (int64_t i = 0; i < n; ++i) {
    price[i] = 10.0f + static_cast<float>(i % 90);
    strike[i] = 10.0f + static_cast<float>((i * 7) % 90);
    years[i] = 0.25f + static_cast<float>(i % 40) * 0.25f;
  }
  auto f = s.type("float");
  auto sp = s.stream(f, {n}, price.data()), ss = s.stream(f, {n}, strike.data()), sy = s.stream(f, {n}, years.data());
  auto sc = s.stream(f, {n}), sq = s.stream(f, {n});
  std::vector<CallArg> args{Session::arg(sp), Session::arg(ss), Session::arg(sy), Session::value(0.02f),
                            Session::value(0.3f), Session::arg(sc), Session::arg(sq)};
  MapPlan plan = Scheduler::plan_map(*s.func("black_scholes"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  double base = median_ms([&] {
    bench::black_scholes(g_threads, price.data(), strike.data(), years.data(), 0.02f, 0.3f, wc.data(), wp.data(), n);
  });
  s.read(sc, call.data());
  s.read(sq, put.data());
  bool ok = close_enough(call.data(), wc.data(), n, 1e-4f) && close_enough(put.data(), wp.data(), n, 1e-4f);
  report({"black_scholes", jit, base, 20.0 * n, "GB/s", ok, 0.8});
}

void bench_invert() {
  Session s(dir + "/workloads/invert_grey.br");
  const int w = 1920, h = 1080;
  std::vector<uint8_t> img(static_cast<size_t>(w) * h * 4), out(img.size()), want(img.size());
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(i * 13);
  auto si = s.stream(s.type("uchar4"), {h, w}, img.data()), so = s.stream(s.type("uchar4"), {h, w});
  std::vector<CallArg> args{Session::arg(si), Session::arg(so)};
  MapPlan plan = Scheduler::plan_map(*s.func("invert"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  // ~0.2 ms of work: as for winograd, parallel_for's thread start can cost
  // more than the second thread saves, so the baseline gets the better of 1
  // and g_threads threads.
  auto baseline = [&](int threads) { bench::invert(threads, img.data(), want.data(), int64_t{w} * h); };
  double base = std::min(median_ms([&] { baseline(g_threads); }), median_ms([&] { baseline(1); }));
  s.read(so, out.data());
  report({"invert_grey", jit, base, 8.0 * w * h, "GB/s", out == want, 0.8});
}


void bench_winograd() {
  Session s(dir + "/workloads/winograd.br");
  const int size = 64, padded = size + 2, tiles = size / 2, groups = 4, channels = 16;
  // Input [group][y][x][4] zero-padded; weights w[o][c][ky][kx]; U = G w G^T.
  std::vector<float> image(static_cast<size_t>(groups) * padded * padded * 4, 0.0f);
  for (int g = 0; g < groups; ++g)
    for (int y = 1; y <= size; ++y)
      for (int x = 1; x <= size; ++x)
        for (int c = 0; c < 4; ++c)
          image[((static_cast<size_t>(g) * padded + y) * padded + x) * 4 + c] =
              static_cast<float>(static_cast<int>((g * 4 + c) * 131 + y * 17 + x * 29) % 201 - 100) / 100.0f;
  std::vector<float> w(static_cast<size_t>(channels) * channels * 9);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 37 % 201) - 100) / 100.0f;
  const float gm[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
  std::vector<float> filter(static_cast<size_t>(channels) * groups * 16 * 4);
  for (int o = 0; o < channels; ++o)
    for (int c = 0; c < channels; ++c) {
      const float* k = &w[(static_cast<size_t>(o) * channels + c) * 9];
      float gw[4][3];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) gw[i][j] = gm[i][0] * k[j] + gm[i][1] * k[3 + j] + gm[i][2] * k[6 + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          filter[((static_cast<size_t>(o) * groups + c / 4) * 16 + i * 4 + j) * 4 + c % 4] =
              gw[i][0] * gm[j][0] + gw[i][1] * gm[j][1] + gw[i][2] * gm[j][2];
    }
  std::vector<float> bias(channels);
  for (int o = 0; o < channels; ++o) bias[o] = 0.01f * static_cast<float>(o);
  auto f4 = s.type("float4");
  auto si = s.stream(f4, {groups * padded, padded}, image.data());
  auto sf = s.stream(f4, {channels, groups * 16}, filter.data());
  auto sb = s.stream(f4, {groups}, bias.data());
  const Extents oe{groups * tiles, tiles};
  StreamView so[4] = {s.stream(f4, oe), s.stream(f4, oe), s.stream(f4, oe), s.stream(f4, oe)};
  std::vector<CallArg> args{Session::arg(si), Session::arg(sf), Session::arg(sb), Session::arg(so[0]),
                            Session::arg(so[1]), Session::arg(so[2]), Session::arg(so[3])};
  MapPlan plan = Scheduler::plan_map(*s.func("winograd_tile"), args, {});
  double jit = median_ms([&] { s.be->run_map(plan); });
  const size_t corner = static_cast<size_t>(groups) * tiles * tiles * 4;
  std::vector<float> want(4 * corner), got(4 * corner);
  // A 64x64 layer takes about a millisecond: starting the baseline's second
  // thread (parallel_for spawns per call) costs more than it saves on a loaded
  // machine, so the baseline gets the better of 1 and g_threads threads.
  auto baseline = [&](int threads) {
    bench::winograd(threads, image.data(), filter.data(), bias.data(), want.data(), want.data() + corner,
                    want.data() + 2 * corner, want.data() + 3 * corner, size);
  };
  double base = std::min(median_ms([&] { baseline(g_threads); }), median_ms([&] { baseline(1); }));
  for (int k = 0; k < 4; ++k) s.read(so[k], got.data() + k * corner);
  // The baseline against a direct convolution too, so both are known right.
  bool direct_ok = true;
  for (int y = 0; y < size && direct_ok; y += 7)
    for (int x = 0; x < size; x += 5)
      for (int o = 0; o < channels; ++o) {
        float sum = bias[o];
        for (int c = 0; c < channels; ++c)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx)
              sum += image[((static_cast<size_t>(c / 4) * padded + y + ky) * padded + x + kx) * 4 + c % 4] *
                     w[((static_cast<size_t>(o) * channels + c) * 3 + ky) * 3 + kx];
        const int which = (y % 2) * 2 + x % 2;
        const size_t at = which * corner + ((static_cast<size_t>(o / 4) * tiles + y / 2) * tiles + x / 2) * 4 + o % 4;
        if (std::fabs(want[at] - sum) > 1e-3f) direct_ok = false;
      }
  // Flops of the direct convolution it replaces (2 per multiply-add).
  report({"winograd", jit, base, 2.0 * size * size * channels * channels * 9, "GFLOP/s",
          direct_ok && close_enough(got.data(), want.data(), got.size(), 1e-4f), 0.5});
}

void bench_sgm_path() {
  Session s(dir + "/workloads/sgm_path.br");
  const int w = 640, h = 480, nd = 64, p1 = 10, p2 = 120;
  // A random texture seen by the right camera; the left one sees it shifted
  // by 4 pixels, 11 inside a square.
  std::vector<float> right(static_cast<size_t>(w) * h), left(right.size());
  uint32_t seed = 1;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u, static_cast<float>(seed >> 24); };
  for (float& v : right) v = next();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int d = (x >= 200 && x < 440 && y >= 120 && y < 360) ? 11 : 4;
      left[static_cast<size_t>(y) * w + x] = x >= d ? right[static_cast<size_t>(y) * w + x - d] : next();
    }
  auto fl = s.type("float"), in = s.type("int"), ui = s.type("uint");
  auto sl = s.stream(fl, {h, w}, left.data()), sr = s.stream(fl, {h, w}, right.data());
  auto lc = s.stream(ui, {h, w}), rc = s.stream(ui, {h, w});
  auto cost = s.stream(in, {h, int64_t{w} * nd}), paths = s.stream(in, {h, int64_t{w} * nd});
  StreamView fronts[2] = {s.stream(in, {h, nd}), s.stream(in, {h, nd})};
  auto pmin = s.stream(in, {h, 1});
  using A = Session;
  const auto& census = *s.func("census");
  MapPlan census_l = Scheduler::plan_map(census, std::vector<CallArg>{A::arg(sl), A::arg(lc)}, {});
  MapPlan census_r = Scheduler::plan_map(census, std::vector<CallArg>{A::arg(sr), A::arg(rc)}, {});
  MapPlan costs = Scheduler::plan_map(*s.func("matching_cost"),
                                      std::vector<CallArg>{A::arg(lc), A::arg(rc), A::arg(cost)}, {});
  // One plan per column, made up front as the Engine would make them per
  // call; the fronts swap roles every column (streamSwap).
  std::vector<MapPlan> steps;
  std::vector<ReducePlan> mins;
  for (int x = 0; x < w; ++x) {
    const StreamView& prev = fronts[(x + 1) % 2];
    const StreamView& front = fronts[x % 2];
    const int64_t first[2] = {int64_t{x} * nd, 0}, last[2] = {int64_t{x + 1} * nd, h};
    StreamView saved = Scheduler::domain(paths, first, last, {});
    if (x == 0) {
      steps.push_back(Scheduler::plan_map(
          *s.func("path_start"), std::vector<CallArg>{A::arg(cost), A::value(x), A::arg(front), A::arg(saved)}, {}));
      continue;
    }
    mins.push_back(Scheduler::plan_reduce(*s.func("smallest"), std::vector<CallArg>{A::arg(prev), A::arg(pmin)}, {}));
    steps.push_back(Scheduler::plan_map(
        *s.func("path_step"),
        std::vector<CallArg>{A::arg(cost), A::arg(prev), A::arg(pmin), A::value(x), A::value(p1), A::value(p2),
                             A::arg(front), A::arg(saved)},
        {}));
  }
  std::byte scratch[4];
  double jit = median_ms([&] {
    s.be->run_map(census_l);
    s.be->run_map(census_r);
    s.be->run_map(costs);
    s.be->run_map(steps[0]);
    for (int x = 1; x < w; ++x) {
      s.be->run_reduce(mins[static_cast<size_t>(x - 1)], scratch);
      s.be->run_map(steps[static_cast<size_t>(x)]);
    }
  });
  const size_t volume = static_cast<size_t>(h) * w * nd;
  std::vector<uint32_t> lcode(static_cast<size_t>(w) * h), rcode(lcode.size());
  std::vector<int> want_cost(volume), want(volume), got(volume);
  double base = median_ms([&] {
    bench::sgm_path(g_threads, left.data(), right.data(), w, h, nd, p1, p2, lcode.data(), rcode.data(),
                    want_cost.data(), want.data());
  });
  s.read(paths, got.data());
  // Census + cost (~ (31*2 + 64*2) ops a pixel) and ~12 int ops per path cell:
  // reported as bytes of cost volume and paths streamed instead (GB/s).
  report({"sgm_path", jit, base, 8.0 * static_cast<double>(volume), "GB/s", got == want, 0.5});
}

}  // namespace

int main(int argc, char** argv) {
  dir = argc > 1 ? argv[1] : BROOK_BENCH_DIR;
  if (argc > 2) g_reps = std::max(1, std::atoi(argv[2]));
  if (const char* t = std::getenv("BROOK_THREADS")) g_threads = std::max(1, std::atoi(t));
  std::printf("threads %d, median of %d runs; ratio = baseline ms / JIT ms\n\n", g_threads, g_reps);
  std::printf("| workload       |    JIT ms |   C++ ms | ratio | JIT rate       | out   | target      |\n");
  std::printf("|----------------|-----------|----------|-------|----------------|-------|-------------|\n");
  std::vector<std::pair<std::string, void (*)()>> all{
      {"saxpy", bench_saxpy},     {"sum", bench_sum},     {"blur3x3", bench_blur},
      {"mandelbrot", bench_mandelbrot}, {"sgemm", bench_sgemm}, {"black_scholes", bench_black_scholes},
      {"invert_grey", bench_invert}, {"winograd", bench_winograd}, {"sgm_path", bench_sgm_path}};
  const char* only = std::getenv("BENCH_ONLY");
  bool failed = false;
  for (auto& [name, fn] : all) {
    if (only && name != only) continue;
    // A workload that cannot run is reported and the others still run.
    try {
      fn();
    } catch (const PlanError& e) {
      std::printf("| %-14s | failed: %s\n", name.c_str(), e.message.c_str());
      failed = true;
    } catch (const std::exception& e) {
      std::printf("| %-14s | failed: %s\n", name.c_str(), e.what());
      failed = true;
    }
  }
  double log_sum = 0;
  for (const Row& r : rows) log_sum += std::log(r.base_ms / r.jit_ms);
  if (!rows.empty()) std::printf("\ngeomean ratio %.2fx (target >= 0.75x)\n", std::exp(log_sum / static_cast<double>(rows.size())));
  for (const Row& r : rows)
    if (!r.ok) return 1;
  return failed ? 1 : 0;
}
