// brook_opencl_whole NAME: the hand-written OpenCL program of bench/whole/NAME.br,
// as a whole process: the same data, sizes, repetitions, launches and checksum
// line, with the kernels of bench/opencl/whole/NAME.cl (after common.cl's
// folds) on the same runtime and build options as the backend (PoCL here).
// bench/run_opencl_whole.sh times it against `brook run --backend opencl`.
//
// The programs are what a careful OpenCL programmer would write for the same
// steps: plain buffers indexed by ints, in-place updates where the .br updates
// in place, the iterator computed from the position, one buffer read at the end,
// and `#pragma unroll` on loops of a few constant iterations (PoCL's CPU driver
// vectorises across work-items only a kernel with no loop left).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backends/environment.hpp"
#include "backends/opencl/cl_runtime.hpp"

using brook::opencl::ClRuntime;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One program's runtime: its kernels, buffers, launches and device folds.
struct Hand {
  // The device brook's side uses ($BROOK_OPENCL_DEVICE, else 0), no disk cache.
  ClRuntime rt{static_cast<int>(brook::environment::number("BROOK_OPENCL_DEVICE").value_or(0)), "", ""};
  cl::Program program;
  // whole/NAME.cl after the fold (sum.cl, whole/common.cl) and, when the
  // program launches a kernel of the per-kernel benchmark, that file
  // (bench/opencl/BASELINE.cl), so each hand-written kernel exists once.
  explicit Hand(const std::string& name, const char* baseline = nullptr) {
    std::string dir = std::string(BROOK_SOURCE_DIR) + "/bench/opencl/";
    std::string text = read_file(dir + "sum.cl") + read_file(dir + "whole/common.cl");
    if (baseline) text += read_file(dir + baseline + ".cl");
    program = rt.program(text + read_file(dir + "whole/" + name + ".cl"), name);
  }
  cl::Kernel kernel(const char* name) { return cl::Kernel(program, name); }
  cl::Buffer buffer(size_t bytes) { return cl::Buffer(rt.context(), CL_MEM_READ_WRITE, bytes); }
  void run(cl::Kernel& k, cl::NDRange global) {
    rt.queue().enqueueNDRangeKernel(k, cl::NullRange, global);
  }
  template <class T>
  void read(const cl::Buffer& b, size_t offset, size_t count, T* out) {
    rt.queue().enqueueReadBuffer(b, CL_TRUE, offset * sizeof(T), count * sizeof(T), out);
  }

  // The fold of n elements of `x` (float or float4: `width` floats each) on
  // the device in two levels, chunks of `chunk` folded in order, then read.
  std::vector<float> fold(const cl::Buffer& x, long n, int width, long chunk = 1024) {
    const char* name = width == 4 ? "sum_chunks4" : "sum_chunks";
    long parts = (n + chunk - 1) / chunk;
    size_t elem = sizeof(float) * static_cast<size_t>(width);
    if (!partial_() || partial_bytes_ < static_cast<size_t>(parts) * elem) {
      partial_ = buffer(static_cast<size_t>(parts) * elem);
      partial_bytes_ = static_cast<size_t>(parts) * elem;
      total_ = buffer(elem);
    }
    cl::Kernel& k1 = folds_[std::string(name) + "1"];
    cl::Kernel& k2 = folds_[std::string(name) + "2"];
    if (!k1()) k1 = kernel(name), k2 = kernel(name);
    k1.setArg(0, x), k1.setArg(1, cl_long(n)), k1.setArg(2, cl_long(chunk)), k1.setArg(3, partial_);
    k2.setArg(0, partial_), k2.setArg(1, cl_long(parts)), k2.setArg(2, cl_long(parts)),
        k2.setArg(3, total_);
    run(k1, cl::NDRange(static_cast<size_t>(parts)));
    run(k2, cl::NDRange(1));
    std::vector<float> out(static_cast<size_t>(width));
    read(total_, 0, out.size(), out.data());
    return out;
  }

 private:
  cl::Buffer partial_, total_;
  size_t partial_bytes_ = 0;
  std::map<std::string, cl::Kernel> folds_;
};

int saxpy() {
  const int n = 4096 * 4096, reps = 200;
  Hand h("saxpy", "saxpy");
  cl::Buffer x = h.buffer(n * 4ul), y = h.buffer(n * 4ul);
  cl::Kernel init = h.kernel("init"), k = h.kernel("saxpy");
  init.setArg(0, x), init.setArg(1, y);
  h.run(init, cl::NDRange(n));
  k.setArg(0, 0.001f), k.setArg(1, x), k.setArg(2, y), k.setArg(3, y);
  for (int rep = 0; rep < reps; ++rep) h.run(k, cl::NDRange(n));
  std::printf("saxpy checksum %.6g\n", double(h.fold(y, n, 1)[0]));
  return 0;
}

int sum() {
  const int n = 4096 * 4096, reps = 500;
  Hand h("sum");
  cl::Buffer x = h.buffer(n * 4ul);
  cl::Kernel init = h.kernel("init");
  init.setArg(0, x);
  h.run(init, cl::NDRange(n));
  float acc = 0.0f;
  for (int rep = 0; rep < reps; ++rep) acc += h.fold(x, n, 1)[0] / float(reps);
  std::printf("sum checksum %.6g\n", double(acc));
  return 0;
}

int blur3x3() {
  const int size = 2048, reps = 50;
  Hand h("blur3x3", "blur3x3");
  cl::Buffer a = h.buffer(size * size * 4ul), b = h.buffer(size * size * 4ul);
  cl::Kernel init = h.kernel("init"), ab = h.kernel("blur3x3"), ba = h.kernel("blur3x3");
  init.setArg(0, a), init.setArg(1, size);
  h.run(init, cl::NDRange(size, size));
  ab.setArg(0, a), ab.setArg(1, size), ab.setArg(2, size), ab.setArg(3, b);
  ba.setArg(0, b), ba.setArg(1, size), ba.setArg(2, size), ba.setArg(3, a);
  for (int rep = 0; rep < reps; ++rep)
    h.run(ab, cl::NDRange(size, size)), h.run(ba, cl::NDRange(size, size));
  std::printf("blur3x3 checksum %.6g\n",
              double(h.fold(a, long(size) * size, 1)[0] / float(size * size)));
  return 0;
}

int mandelbrot() {
  const int size = 1024, reps = 10;
  Hand h("mandelbrot");
  cl::Buffer count = h.buffer(size * size * 4ul);
  cl::Kernel k = h.kernel("escape_time");
  k.setArg(0, size), k.setArg(1, size), k.setArg(2, 256.0f), k.setArg(3, count);
  for (int rep = 0; rep < reps; ++rep) h.run(k, cl::NDRange(size, size));
  std::printf("mandelbrot checksum %.8g\n", double(h.fold(count, long(size) * size, 1)[0]));
  return 0;
}

int sgemm() {
  const int n = 512, reps = 10;
  Hand h("sgemm", "sgemm");
  cl::Buffer a = h.buffer(n * n * 4ul), b = h.buffer(n * n * 4ul), c = h.buffer(n * n * 4ul);
  cl::Kernel init = h.kernel("init"), k = h.kernel("sgemm");
  init.setArg(0, a), init.setArg(1, b), init.setArg(2, c), init.setArg(3, n);
  h.run(init, cl::NDRange(n, n));
  k.setArg(0, a), k.setArg(1, b), k.setArg(2, c), k.setArg(3, n), k.setArg(4, n), k.setArg(5, n);
  k.setArg(6, 1.0f), k.setArg(7, 0.5f), k.setArg(8, c);
  for (int rep = 0; rep < reps; ++rep) h.run(k, cl::NDRange(n, n));
  std::printf("sgemm checksum %.6g\n", double(h.fold(c, long(n) * n, 1)[0] / float(n * n)));
  return 0;
}

int black_scholes() {
  const int n = 2048 * 2048, reps = 10;
  Hand h("black_scholes", "black_scholes");
  cl::Buffer price = h.buffer(n * 4ul), strike = h.buffer(n * 4ul), years = h.buffer(n * 4ul);
  cl::Buffer call = h.buffer(n * 4ul), put = h.buffer(n * 4ul);
  cl::Kernel init = h.kernel("init"), k = h.kernel("black_scholes");
  init.setArg(0, price), init.setArg(1, strike), init.setArg(2, years);
  h.run(init, cl::NDRange(n));
  k.setArg(0, price), k.setArg(1, strike), k.setArg(2, years), k.setArg(3, 0.02f),
      k.setArg(4, 0.3f);
  k.setArg(5, call), k.setArg(6, put);
  for (int rep = 0; rep < reps; ++rep) h.run(k, cl::NDRange(n));
  std::printf("black_scholes checksum %.6g\n", double(h.fold(call, n, 1)[0] / float(n)));
  return 0;
}

int invert_grey() {
  const int w = 1920, hgt = 1080, reps = 500;
  Hand h("invert_grey", "invert_grey");
  cl::Buffer img = h.buffer(size_t(w) * hgt * 4);
  cl::Kernel init = h.kernel("init"), k = h.kernel("invert");
  init.setArg(0, img), init.setArg(1, w);
  h.run(init, cl::NDRange(w, hgt));
  k.setArg(0, img), k.setArg(1, img);
  for (int rep = 0; rep < reps; ++rep) h.run(k, cl::NDRange(size_t(w) * hgt));
  unsigned char corner[16];
  h.read(img, (700ul * w + 1000) * 4, 16, corner);
  std::printf("invert_grey checksum %d %d %d %d\n", corner[0], corner[5], corner[10], corner[15]);
  return 0;
}

int winograd() {
  const int size = 64, padded_w = 66, tiles = 32, groups = 4, reps = 2000;
  Hand h("winograd");
  cl::Buffer act = h.buffer(16ul * groups * size * size),
             padded = h.buffer(16ul * groups * padded_w * padded_w);
  cl::Buffer filter = h.buffer(16ul * 16 * 64), bias = h.buffer(16ul * groups);
  std::vector<cl::Buffer> corner;
  for (int i = 0; i < 4; ++i) corner.push_back(h.buffer(16ul * groups * tiles * tiles));
  std::vector<float> f(4 * 16 * 64), bs(4 * groups);
  for (size_t i = 0; i < f.size(); i += 4)
    f[i] = 0.0005f, f[i + 1] = 0.001f, f[i + 2] = 0.0015f, f[i + 3] = 0.002f;
  for (size_t i = 0; i < bs.size(); i += 4)
    bs[i] = 0.01f, bs[i + 1] = 0.02f, bs[i + 2] = 0.03f, bs[i + 3] = 0.04f;
  h.rt.queue().enqueueWriteBuffer(filter, CL_FALSE, 0, f.size() * 4, f.data());
  h.rt.queue().enqueueWriteBuffer(bias, CL_FALSE, 0, bs.size() * 4, bs.data());
  cl::Kernel init = h.kernel("init"), pad = h.kernel("pad"), tile = h.kernel("winograd_tile"),
             merge = h.kernel("merge");
  init.setArg(0, act);
  h.run(init, cl::NDRange(size, groups * size));
  pad.setArg(0, act), pad.setArg(1, padded);
  tile.setArg(0, padded), tile.setArg(1, filter), tile.setArg(2, bias);
  for (int i = 0; i < 4; ++i) tile.setArg(3 + i, corner[i]), merge.setArg(i, corner[i]);
  merge.setArg(4, act);
  for (int rep = 0; rep < reps; ++rep) {
    h.run(pad, cl::NDRange(padded_w, groups * padded_w));
    h.run(tile, cl::NDRange(tiles, groups * tiles));
    h.run(merge, cl::NDRange(size, groups * size));
  }
  std::vector<float> t = h.fold(act, long(groups) * size * size, 4);
  std::printf("winograd checksum %.6g\n",
              double((t[0] + t[1] + t[2] + t[3]) / float(groups * size * size)));
  return 0;
}

int sgm_path() {
  const int width = 640, height = 480, disp = 64, reps = 2, p1 = 10, p2 = 120;
  const int stride = width * disp;
  Hand h("sgm_path");
  cl::Buffer left = h.buffer(4ul * width * height), right = h.buffer(4ul * width * height);
  cl::Buffer lcode = h.buffer(4ul * width * height), rcode = h.buffer(4ul * width * height);
  cl::Buffer cost = h.buffer(4ul * stride * height), paths = h.buffer(4ul * stride * height);
  cl::Buffer least = h.buffer(4ul * height), last = h.buffer(4);
  cl::Kernel mk_l = h.kernel("make_image"), mk_r = h.kernel("make_image");
  mk_l.setArg(0, 0.0f), mk_l.setArg(1, width), mk_l.setArg(2, left);
  mk_r.setArg(0, 12.0f), mk_r.setArg(1, width), mk_r.setArg(2, right);
  h.run(mk_l, cl::NDRange(width, height));
  h.run(mk_r, cl::NDRange(width, height));
  cl::Kernel cen_l = h.kernel("census"), cen_r = h.kernel("census"), mc = h.kernel("matching_cost");
  cen_l.setArg(0, left), cen_l.setArg(1, width), cen_l.setArg(2, height), cen_l.setArg(3, lcode);
  cen_r.setArg(0, right), cen_r.setArg(1, width), cen_r.setArg(2, height), cen_r.setArg(3, rcode);
  mc.setArg(0, lcode), mc.setArg(1, rcode), mc.setArg(2, width), mc.setArg(3, cost);
  cl::Kernel start = h.kernel("path_start"), rmin = h.kernel("row_min"),
             step = h.kernel("path_step");
  start.setArg(0, cost), start.setArg(1, stride), start.setArg(2, paths);
  rmin.setArg(0, paths), rmin.setArg(1, stride), rmin.setArg(3, least);
  step.setArg(0, cost), step.setArg(1, paths), step.setArg(2, least), step.setArg(3, stride);
  step.setArg(5, p1), step.setArg(6, p2);
  for (int rep = 0; rep < reps; ++rep) {
    h.run(cen_l, cl::NDRange(width, height));
    h.run(cen_r, cl::NDRange(width, height));
    h.run(mc, cl::NDRange(stride, height));
    h.run(start, cl::NDRange(disp, height));
    for (int x = 1; x < width; ++x) {
      rmin.setArg(2, (x - 1) * disp);
      h.run(rmin, cl::NDRange(height));
      step.setArg(4, x);
      h.run(step, cl::NDRange(disp, height));
    }
  }
  rmin.setArg(2, (width - 1) * disp);
  h.run(rmin, cl::NDRange(height));
  cl::Kernel total = h.kernel("int_total");
  total.setArg(0, least), total.setArg(1, height), total.setArg(2, last);
  h.run(total, cl::NDRange(1));
  int result = 0;
  h.read(last, 0, 1, &result);
  std::printf("sgm_path checksum %d\n", result);
  return 0;
}

// bench/launch/launch_small.br: N launches of a 1,000-element kernel, each
// reading what the previous one wrote; whole_bench.py --launch times it
// against brook's the same way, so the per-launch cost has a baseline.
int launch_small(int n) {
  Hand h("launch_small");
  std::vector<float> host(1000);
  for (int i = 0; i < 1000; ++i) host[i] = float(i);
  cl::Buffer a = h.buffer(4000), b = h.buffer(4000);
  h.rt.queue().enqueueWriteBuffer(a, CL_TRUE, 0, 4000, host.data());
  cl::Kernel ab = h.kernel("halve_plus_one"), ba = h.kernel("halve_plus_one"), bb = h.kernel("halve_plus_one");
  ab.setArg(0, a), ab.setArg(1, b), ba.setArg(0, b), ba.setArg(1, a), bb.setArg(0, b), bb.setArg(1, b);
  for (int r = 0; r + 1 < n; r += 2) h.run(ab, cl::NDRange(1000)), h.run(ba, cl::NDRange(1000));
  h.run(n % 2 ? ab : bb, cl::NDRange(1000));
  h.read(b, 0, 1000, host.data());
  std::printf("%d launches, b[7] = %f\n", n, double(host[7]));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc == 3 ? std::atoi(argv[2]) : 0;
  const std::map<std::string, std::function<int()>> all{{"saxpy", saxpy},
                                                        {"sum", sum},
                                                        {"blur3x3", blur3x3},
                                                        {"mandelbrot", mandelbrot},
                                                        {"sgemm", sgemm},
                                                        {"black_scholes", black_scholes},
                                                        {"invert_grey", invert_grey},
                                                        {"winograd", winograd},
                                                        {"sgm_path", sgm_path},
                                                        {"launch_small", [&] { return launch_small(launches); }}};
  // Every program takes its name alone, launch_small also its count.
  const bool counted = argc > 1 && std::string(argv[1]) == "launch_small";
  auto it = argc == (counted ? 3 : 2) ? all.find(argv[1]) : all.end();
  if (it == all.end()) {
    std::fprintf(stderr,
                 "usage: brook_opencl_whole NAME (saxpy sum blur3x3 mandelbrot sgemm black_scholes "
                 "invert_grey winograd sgm_path), or brook_opencl_whole launch_small N\n");
    return 2;
  }
  try {
    return it->second();
  } catch (const cl::Error& e) {
    std::fprintf(stderr, "OpenCL error %d in %s\n", e.err(), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
  }
  return 1;
}
