// brook_opencl_bench: the OpenCL backend against hand-written OpenCL C
// (bench/opencl/*.cl) on the same workloads, sizes and runtime (PoCL).
// Prints one row per workload: kernel time of each (best of several rounds,
// the two sides' rounds alternating, after a warm-up launch), their ratio,
// the median ratio of paired rounds, and the backend's build time apart (first launch, compile included; cold
// only when the PoCL and brook caches are empty or BROOK_CACHE=0).
//
//   brook_opencl_bench [workload…]        (default: all)
//   BROOK_BENCH_ROUNDS=N                  rounds per side (default 15)
//   BROOK_BENCH_CLOCK=cpu                 process CPU time instead of wall time
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "backends/environment.hpp"
#include "backends/opencl/cl_runtime.hpp"
#include "backends/opencl/opencl_backend.hpp"
#include "backends/scheduler.hpp"
#include "lang/frontend.hpp"

using namespace brook;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// One side of a comparison: `reps` calls of run, then sync() waits for the device.
struct Side {
  std::function<void()> run, sync;
  int reps;
};

// Mean ms per call of one round of a side.
int g_rounds = 15;
// CPU time of the whole process (PoCL's worker threads included) instead of
// wall time: steadier when other jobs share the machine, for A/B experiments.
bool g_cpu_clock = false;

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double round_ms(const Side& s) {
  auto t = Clock::now();
  double c = cpu_ms();
  for (int i = 0; i < s.reps; ++i) s.run();
  s.sync();
  return (g_cpu_clock ? cpu_ms() - c : ms_since(t)) / s.reps;
}

// Rounds of the backend and the baseline alternate, so both see the same load
// on a shared machine. Each side reports its best round; `paired` is the
// median over rounds of backend / baseline, each round against the baseline
// round right after it (robust when the machine's free cores change mid-run).
struct Race {
  double brook_ms = 1e300, hand_ms = 1e300, paired = 0;
};

Race race(const Side& brook, const Side& hand) {
  Race r;
  std::vector<double> ratios;
  for (int i = 0; i < g_rounds; ++i) {
    double b = round_ms(brook), h = round_ms(hand);
    r.brook_ms = std::min(r.brook_ms, b);
    r.hand_ms = std::min(r.hand_ms, h);
    ratios.push_back(b / h);
  }
  std::sort(ratios.begin(), ratios.end());
  r.paired = ratios[ratios.size() / 2];
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The Brook side: a program, a backend, streams and launches.
struct Brook {
  FrontEnd fe;
  ast::Program* program = nullptr;
  std::unique_ptr<Backend> be;
  explicit Brook(const std::string& source) {
    FrontEnd::Unit u = fe.load_source("bench.br", source);
    if (u.status != FrontEnd::Status::ok) throw std::runtime_error(fe.diagnostics().format_all());
    program = u.program;
    be = make_opencl_backend({});
  }
  const ast::FuncDecl& fn(const std::string& name) {
    for (auto& item : program->items)
      if (auto* ds = item->as<ast::DeclStmt>())
        for (auto& d : ds->decls)
          if (auto* f = d->as<ast::FuncDecl>(); f && f->name == name) return *f;
    throw std::runtime_error("no kernel " + name);
  }
  const Type* type(const std::string& n) {
    if (n == "float") return fe.types().float_type();
    if (n == "int") return fe.types().int_type();
    if (n == "uint") return fe.types().scalar(TypeKind::UInt);
    return fe.types().builtin_by_name(n);
  }
  CallArg stream(const std::string& elem, Extents e, const void* data) {
    const Type* t = type(elem);
    StorageId id = be->allocate(static_cast<uint64_t>(element_count(e)) * t->size);
    CallArg a;
    a.kind = CallArg::Kind::Stream;
    a.stream = Scheduler::whole(id, t, e);
    if (data) be->write_view(a.stream, {static_cast<const std::byte*>(data), Scheduler::host_bytes(a.stream)});
    return a;
  }
  template <class T>
  static CallArg value(T v) {
    CallArg a;
    a.value.resize(sizeof v);
    std::memcpy(a.value.data(), &v, sizeof v);
    return a;
  }
  // Waits for the device by reading one element of `s`.
  void sync(const CallArg& s) {
    std::vector<int64_t> zero(s.stream.extents.size(), 0), one(s.stream.extents.size(), 1);
    StreamView v = Scheduler::domain(s.stream, zero, one, {});
    std::byte b[64];
    be->read_view(v, {b, v.elem->size});
  }
};

// The baseline side: hand-written kernels on the same runtime.
struct Hand {
  // The device brook's side uses ($BROOK_OPENCL_DEVICE, else 0), no disk cache.
  opencl::ClRuntime rt{static_cast<int>(environment::number("BROOK_OPENCL_DEVICE").value_or(0)), "", ""};
  cl::Program program;
  explicit Hand(const std::string& file) { program = rt.program(read_file(file)); }
  cl::Buffer buffer(size_t bytes, const void* data = nullptr) {
    cl::Buffer b(rt.context(), CL_MEM_READ_WRITE, bytes);
    if (data) rt.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
    return b;
  }
  void run(cl::Kernel& k, cl::NDRange range) { rt.queue().enqueueNDRangeKernel(k, cl::NullRange, range); }
  void sync() { rt.queue().finish(); }
};

struct Row {
  std::string name, size;
  double brook_ms = 0, hand_ms = 0, paired = 0, build_ms = 0;
  void take(const Race& r) {
    brook_ms = r.brook_ms;
    hand_ms = r.hand_ms;
    paired = r.paired;
  }
};

std::string dir;

std::string example_kernels(const std::string& example) {
  // The examples' kernels are the benchmark's: the whole file compiles, only kernels run.
  return read_file(dir + "/examples/" + example + ".br");
}

Row saxpy() {
  const int n = 1 << 22;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 1000) * 0.5f, y[i] = float(i % 777);
  Row row{"saxpy", std::to_string(n)};
  Brook b("kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }");
  std::vector<CallArg> args{Brook::value(2.5f), b.stream("float", {n}, x.data()), b.stream("float", {n}, y.data()),
                            b.stream("float", {n}, nullptr)};
  auto t = Clock::now();
  b.be->run_map(Scheduler::plan_map(b.fn("saxpy"), args, {}));
  b.sync(args[3]);
  row.build_ms = ms_since(t);
  Side brook_side{[&] { b.be->run_map(Scheduler::plan_map(b.fn("saxpy"), args, {})); }, [&] { b.sync(args[3]); }, 10};
  Hand h(dir + "/bench/opencl/saxpy.cl");
  cl::Buffer bx = h.buffer(n * 4, x.data()), by = h.buffer(n * 4, y.data()), br = h.buffer(n * 4);
  cl::Kernel k(h.program, "saxpy");
  k.setArg(0, 2.5f); k.setArg(1, bx); k.setArg(2, by); k.setArg(3, br);
  h.run(k, cl::NDRange(n)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(n)); }, [&] { h.sync(); }, 10}));
  return row;
}

Row sum() {
  const int n = 1 << 22;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 100) * 0.25f;
  Row row{"sum", std::to_string(n)};
  Brook b("reduce void sum(float a<>, reduce float r<>) { r = r + a; }");
  std::vector<CallArg> args{b.stream("float", {n}, x.data()), Brook::value(0.0f)};
  float result = 0;
  auto once = [&] { b.be->run_reduce(Scheduler::plan_reduce(b.fn("sum"), args, {}), {reinterpret_cast<std::byte*>(&result), 4}); };
  auto t = Clock::now();
  once();
  row.build_ms = ms_since(t);
  Side brook_side{once, [] {}, 10};
  Hand h(dir + "/bench/opencl/sum.cl");
  const long chunk = 1024, parts = n / chunk;
  cl::Buffer bx = h.buffer(n * 4, x.data()), bp = h.buffer(parts * 4), bt = h.buffer(4);
  cl::Kernel k1(h.program, "sum_chunks"), k2(h.program, "sum_chunks");
  k1.setArg(0, bx); k1.setArg(1, cl_long(n)); k1.setArg(2, cl_long(chunk)); k1.setArg(3, bp);
  k2.setArg(0, bp); k2.setArg(1, cl_long(parts)); k2.setArg(2, cl_long(parts)); k2.setArg(3, bt);
  float hand = 0;
  auto hand_once = [&] {
    h.run(k1, cl::NDRange(parts));
    h.run(k2, cl::NDRange(1));
    h.rt.queue().enqueueReadBuffer(bt, CL_TRUE, 0, 4, &hand);
  };
  hand_once();
  row.take(race(brook_side, Side{hand_once, [] {}, 10}));
  return row;
}

Row blur() {
  const int w = 1024, hgt = 1024, n = w * hgt;
  std::vector<float> img(n);
  for (int i = 0; i < n; ++i) img[i] = float((i * 37) % 255);
  Row row{"blur3x3", "1024x1024"};
  Brook b(example_kernels("blur"));
  std::vector<CallArg> args{b.stream("float", {hgt, w}, img.data()), b.stream("float", {hgt, w}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("blur3x3"), args, {})); };
  auto t = Clock::now();
  once();
  b.sync(args[1]);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(args[1]); }, 5};
  Hand h(dir + "/bench/opencl/blur3x3.cl");
  cl::Buffer bi = h.buffer(n * 4, img.data()), bo = h.buffer(n * 4);
  cl::Kernel k(h.program, "blur3x3");
  k.setArg(0, bi); k.setArg(1, w); k.setArg(2, hgt); k.setArg(3, bo);
  h.run(k, cl::NDRange(w, hgt)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(w, hgt)); }, [&] { h.sync(); }, 5}));
  return row;
}

Row mandelbrot() {
  const int s = 512, n = s * s;
  std::vector<float> c(2 * n);
  for (int r = 0; r < s; ++r)
    for (int col = 0; col < s; ++col) {
      c[2 * (r * s + col)] = Scheduler::iterator_lerp(col, s, -2.0f, 1.0f);
      c[2 * (r * s + col) + 1] = Scheduler::iterator_lerp(r, s, -1.5f, 1.5f);
    }
  Row row{"mandelbrot", "512x512"};
  Brook b(example_kernels("mandelbrot"));
  CallArg it = b.stream("float2", {s, s}, c.data());
  it.stream.is_iter = true;
  std::vector<CallArg> args{it, Brook::value(64), b.stream("int", {s, s}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("escape_time"), args, {})); };
  auto t = Clock::now();
  once();
  b.sync(args[2]);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(args[2]); }, 3};
  Hand h(dir + "/bench/opencl/mandelbrot.cl");
  cl::Buffer bc = h.buffer(n * 8, c.data()), bo = h.buffer(n * 4);
  cl::Kernel k(h.program, "escape_time");
  k.setArg(0, bc); k.setArg(1, 64); k.setArg(2, bo);
  h.run(k, cl::NDRange(n)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(n)); }, [&] { h.sync(); }, 3}));
  return row;
}

Row sgemm() {
  const int m = 256, kk = 256, n = 256;
  std::vector<float> a(m * kk), bm(kk * n), c(m * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 17) * 0.125f;
  for (size_t i = 0; i < bm.size(); ++i) bm[i] = float(i % 13) * 0.25f;
  for (size_t i = 0; i < c.size(); ++i) c[i] = float(i % 7);
  Row row{"sgemm", "256x256x256"};
  Brook b(example_kernels("sgemm"));
  std::vector<CallArg> args{b.stream("float", {m, kk}, a.data()), b.stream("float", {kk, n}, bm.data()),
                            b.stream("float", {m, n}, c.data()), Brook::value(kk), Brook::value(1.5f),
                            Brook::value(0.5f), b.stream("float", {m, n}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("sgemm"), args, {})); };
  auto t = Clock::now();
  once();
  b.sync(args[6]);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(args[6]); }, 3};
  Hand h(dir + "/bench/opencl/sgemm.cl");
  cl::Buffer ba = h.buffer(a.size() * 4, a.data()), bb = h.buffer(bm.size() * 4, bm.data()),
             bc = h.buffer(c.size() * 4, c.data()), bo = h.buffer(c.size() * 4);
  cl::Kernel k(h.program, "sgemm");
  k.setArg(0, ba); k.setArg(1, bb); k.setArg(2, bc); k.setArg(3, m); k.setArg(4, kk); k.setArg(5, n);
  k.setArg(6, 1.5f); k.setArg(7, 0.5f); k.setArg(8, bo);
  h.run(k, cl::NDRange(n, m)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(n, m)); }, [&] { h.sync(); }, 3}));
  return row;
}

Row black_scholes() {
  const int n = 1 << 20;
  std::vector<float> s(n), x(n), t(n);
  for (int i = 0; i < n; ++i) s[i] = 10.0f + float(i % 90), x[i] = 20.0f + float(i % 60), t[i] = 0.25f + float(i % 10) * 0.2f;
  Row row{"black_scholes", std::to_string(n)};
  Brook b(example_kernels("black_scholes"));
  std::vector<CallArg> args{b.stream("float", {n}, s.data()), b.stream("float", {n}, x.data()),
                            b.stream("float", {n}, t.data()), Brook::value(0.02f), Brook::value(0.3f),
                            b.stream("float", {n}, nullptr), b.stream("float", {n}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("black_scholes"), args, {})); };
  auto t0 = Clock::now();
  once();
  b.sync(args[5]);
  row.build_ms = ms_since(t0);
  Side brook_side{once, [&] { b.sync(args[5]); }, 5};
  Hand h(dir + "/bench/opencl/black_scholes.cl");
  cl::Buffer bs = h.buffer(n * 4, s.data()), bx = h.buffer(n * 4, x.data()), bt = h.buffer(n * 4, t.data()),
             bcall = h.buffer(n * 4), bput = h.buffer(n * 4);
  cl::Kernel k(h.program, "black_scholes");
  k.setArg(0, bs); k.setArg(1, bx); k.setArg(2, bt); k.setArg(3, 0.02f); k.setArg(4, 0.3f);
  k.setArg(5, bcall); k.setArg(6, bput);
  h.run(k, cl::NDRange(n)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(n)); }, [&] { h.sync(); }, 5}));
  return row;
}

Row invert_grey() {
  const int w = 2048, hgt = 1024, n = w * hgt;
  std::vector<unsigned char> px(4 * static_cast<size_t>(n));
  for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<unsigned char>((i * 31) % 256);
  Row row{"invert_grey", "2048x1024"};
  Brook b(example_kernels("invert_grey"));
  std::vector<CallArg> args{b.stream("uchar4", {hgt, w}, px.data()), b.stream("uchar4", {hgt, w}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("invert"), args, {})); };
  auto t = Clock::now();
  once();
  b.sync(args[1]);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(args[1]); }, 10};
  Hand h(dir + "/bench/opencl/invert_grey.cl");
  cl::Buffer bi = h.buffer(px.size(), px.data()), bo = h.buffer(px.size());
  cl::Kernel k(h.program, "invert");
  k.setArg(0, bi); k.setArg(1, bo);
  h.run(k, cl::NDRange(n)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(n)); }, [&] { h.sync(); }, 10}));
  return row;
}

Row winograd() {
  const int tiles = 256, in_w = 2 * tiles + 2, n_in = in_w * in_w;
  std::vector<float> input(4 * static_cast<size_t>(n_in)), filter(4 * 64);
  for (size_t i = 0; i < input.size(); ++i) input[i] = float(i % 23) * 0.125f - 1.0f;
  for (size_t i = 0; i < filter.size(); ++i) filter[i] = float(i % 11) * 0.0625f;
  float bias[4] = {0.5f, -0.5f, 0.25f, 0.0f};
  Row row{"winograd", "512x512x4"};
  Brook b(example_kernels("winograd"));
  CallArg vbias;
  vbias.value.resize(16);
  std::memcpy(vbias.value.data(), bias, 16);
  std::vector<CallArg> args{b.stream("float4", {in_w, in_w}, input.data()), b.stream("float4", {4, 16}, filter.data()),
                            vbias, b.stream("float4", {tiles, tiles}, nullptr), b.stream("float4", {tiles, tiles}, nullptr),
                            b.stream("float4", {tiles, tiles}, nullptr), b.stream("float4", {tiles, tiles}, nullptr)};
  auto once = [&] { b.be->run_map(Scheduler::plan_map(b.fn("winograd_tile"), args, {})); };
  auto t = Clock::now();
  once();
  b.sync(args[3]);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(args[3]); }, 3};
  Hand h(dir + "/bench/opencl/winograd.cl");
  size_t out_bytes = 16 * static_cast<size_t>(tiles * tiles);
  cl::Buffer bi = h.buffer(input.size() * 4, input.data()), bf = h.buffer(filter.size() * 4, filter.data());
  cl::Buffer o1 = h.buffer(out_bytes), o2 = h.buffer(out_bytes), o3 = h.buffer(out_bytes), o4 = h.buffer(out_bytes);
  cl::Kernel k(h.program, "winograd_tile");
  cl_float4 cb{{bias[0], bias[1], bias[2], bias[3]}};
  k.setArg(0, bi); k.setArg(1, in_w); k.setArg(2, bf); k.setArg(3, cb);
  k.setArg(4, o1); k.setArg(5, o2); k.setArg(6, o3); k.setArg(7, o4); k.setArg(8, tiles);
  h.run(k, cl::NDRange(tiles, tiles)); h.sync();
  row.take(race(brook_side, Side{[&] { h.run(k, cl::NDRange(tiles, tiles)); }, [&] { h.sync(); }, 3}));
  return row;
}

Row sgm_path() {
  // The per-pixel stages: census of both images, then the cost volume.
  const int w = 1024, hgt = 512, n = w * hgt, D = 16;
  std::vector<float> left(n), right(n);
  for (int i = 0; i < n; ++i) left[i] = float((i * 73) % 251), right[i] = float((i * 71 + 5) % 251);
  Row row{"sgm_path", "1024x512x16"};
  Brook b(example_kernels("sgm_path"));
  CallArg l = b.stream("float", {hgt, w}, left.data()), r = b.stream("float", {hgt, w}, right.data());
  CallArg lc = b.stream("uint", {hgt, w}, nullptr), rc = b.stream("uint", {hgt, w}, nullptr);
  CallArg cost = b.stream("int", {hgt, w * D}, nullptr);
  std::vector<CallArg> a1{l, lc}, a2{r, rc}, a3{lc, rc, cost};
  auto once = [&] {
    b.be->run_map(Scheduler::plan_map(b.fn("census"), a1, {}));
    b.be->run_map(Scheduler::plan_map(b.fn("census"), a2, {}));
    b.be->run_map(Scheduler::plan_map(b.fn("matching_cost"), a3, {}));
  };
  auto t = Clock::now();
  once();
  b.sync(cost);
  row.build_ms = ms_since(t);
  Side brook_side{once, [&] { b.sync(cost); }, 3};
  Hand h(dir + "/bench/opencl/sgm_path.cl");
  cl::Buffer bl = h.buffer(n * 4, left.data()), br = h.buffer(n * 4, right.data());
  cl::Buffer cl_ = h.buffer(n * 4), cr = h.buffer(n * 4), bc = h.buffer(static_cast<size_t>(n) * D * 4);
  cl::Kernel k1(h.program, "census"), k2(h.program, "census"), k3(h.program, "matching_cost");
  k1.setArg(0, bl); k1.setArg(1, w); k1.setArg(2, hgt); k1.setArg(3, cl_);
  k2.setArg(0, br); k2.setArg(1, w); k2.setArg(2, hgt); k2.setArg(3, cr);
  k3.setArg(0, cl_); k3.setArg(1, cr); k3.setArg(2, w); k3.setArg(3, bc);
  auto hand = [&] {
    h.run(k1, cl::NDRange(w, hgt));
    h.run(k2, cl::NDRange(w, hgt));
    h.run(k3, cl::NDRange(w * D, hgt));
  };
  hand();
  h.sync();
  row.take(race(brook_side, Side{hand, [&] { h.sync(); }, 3}));
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  dir = BROOK_SOURCE_DIR;
  if (const char* c = std::getenv("BROOK_BENCH_CLOCK"); c && std::string(c) == "cpu") g_cpu_clock = true;
  if (const char* r = std::getenv("BROOK_BENCH_ROUNDS"); r && std::atoi(r) > 0) g_rounds = std::atoi(r);
  std::vector<std::pair<std::string, std::function<Row()>>> all{
      {"saxpy", saxpy}, {"sum", sum}, {"blur3x3", blur}, {"mandelbrot", mandelbrot},
      {"sgemm", sgemm}, {"black_scholes", black_scholes}, {"invert_grey", invert_grey},
      {"winograd", winograd}, {"sgm_path", sgm_path}};
  std::vector<std::string> wanted(argv + 1, argv + argc);
  std::printf("%-14s %-12s %12s %12s %7s %7s %12s\n", "workload", "size", "brook ms", "hand ms", "ratio", "paired",
              "build ms");
  int worse = 0;
  for (auto& [name, f] : all) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    try {
      Row r = f();
      double ratio = r.brook_ms / r.hand_ms;
      if (ratio > 1.2) ++worse;
      std::printf("%-14s %-12s %12.3f %12.3f %7.2f %7.2f %12.1f\n", r.name.c_str(), r.size.c_str(), r.brook_ms,
                  r.hand_ms, ratio, r.paired, r.build_ms);
    } catch (const std::exception& e) {
      std::printf("%-14s failed: %s\n", name.c_str(), e.what());
      ++worse;
    } catch (const PlanError& e) {
      std::printf("%-14s failed: %s\n", name.c_str(), e.message.c_str());
      ++worse;
    }
    std::fflush(stdout);
  }
  return worse == 0 ? 0 : 1;
}
