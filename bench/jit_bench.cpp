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
    o.use_disk_cache = false;
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
  double base = median_ms([&] { bench::invert(g_threads, img.data(), want.data(), int64_t{w} * h); });
  s.read(so, out.data());
  report({"invert_grey", jit, base, 8.0 * w * h, "GB/s", out == want, 0.8});
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
      {"invert_grey", bench_invert}};
  const char* only = std::getenv("BENCH_ONLY");
  for (auto& [name, fn] : all)
    if (!only || name == only) fn();
  double log_sum = 0;
  for (const Row& r : rows) log_sum += std::log(r.base_ms / r.jit_ms);
  if (!rows.empty()) std::printf("\ngeomean ratio %.2fx (target >= 0.75x)\n", std::exp(log_sum / static_cast<double>(rows.size())));
  for (const Row& r : rows)
    if (!r.ok) return 1;
  return 0;
}
