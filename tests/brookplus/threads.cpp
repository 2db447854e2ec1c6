// Brook+ programs (its MultiGPU and MonteCarlo samples) declare streams,
// read, write and launch kernels from several host threads at once. Eight
// threads here each run many rounds on streams of their own, with values,
// domains, a reduction to a host variable and a shallow copy made and dropped
// each round, and check every element of every result against what the
// kernels compute (by hand: scale gives input * k + t, sum adds them up;
// small integers throughout, so every result is exact).
// Prints one line; the expected output (threads.out) is that line.
#include <brook/Device.h>
#include <brook/brook.h>

#include <cstdio>
#include <thread>
#include <vector>

// ---- what NAME.cpp of the bindings holds (brcc's form) ---------------------
static const char brook_source[] = R"BROOK(
kernel void scale(float input<>, out float output<>, float k, float t) { output = input * k + t; }
reduce void sum(float input<>, reduce float total<>) { total += input; }
)BROOK";

class __scale {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& output,
                  const float k, const float t) {
    ::brook::plus::Launch l(brook_source, "threads.br", "scale");
    l.stream(input);
    l.stream(output);
    ::brook::plus::push_value(l, k);
    ::brook::plus::push_value(l, t);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __scale scale;
class __sum {
 public:
  void operator()(const ::brook::Stream<float>& input, float& total) {
    ::brook::plus::Launch l(brook_source, "threads.br", "sum");
    l.stream(input);
    ::brook::plus::push_reduce(l, total);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __sum sum;
// ---- end of the bindings ---------------------------------------------------

namespace {

const int threads = 8, rounds = 25;
const unsigned int n = 512;

// Every mismatch a thread saw; 0 when all its results were right.
int work(int id) {
  unsigned int count = 0;
  brook::useDevices(brook::getDevices("cal", &count), 1, nullptr);
  int bad = 0;
  std::vector<float> in(n), out(n);
  for (int r = 0; r < rounds; ++r) {
    // Small integers, so every sum below is exact in float.
    for (unsigned i = 0; i < n; ++i) in[i] = float((i + unsigned(id) * 7 + unsigned(r)) % 16);
    unsigned int dims[] = {n};
    brook::Stream<float> a(1, dims), b(1, dims);
    a.read(in.data());
    const float k = float(id + 1), t = float(r);
    scale(a, b, k, t);
    brook::Stream<float> alias = b;  // a shallow copy, dropped at the round's end
    alias.write(out.data());
    if (b.error() != brook::BR_NO_ERROR) {
      std::fprintf(stderr, "thread %d round %d: %s", id, r, b.errorLog());
      ++bad;
    }
    float expected_sum = 0;
    for (unsigned i = 0; i < n; ++i) {
      float want = in[i] * k + t;
      expected_sum += want;
      if (out[i] != want) {
        if (bad++ < 3)
          std::fprintf(stderr, "thread %d round %d: b[%u] = %g, not %g\n", id, r, i, out[i], want);
      }
    }
    float total = -1;
    sum(b, total);
    if (total != expected_sum) {
      std::fprintf(stderr, "thread %d round %d: sum %g, not %g\n", id, r, total, expected_sum);
      ++bad;
    }
    // The second half through a domain, less this round's t: in * k.
    unsigned int lo[] = {n / 2}, hi[] = {n};
    brook::Stream<float> half(1, lo);
    scale(b.domain(lo, hi), half, 1.0f, -t);
    std::vector<float> got(n / 2);
    half.write(got.data());
    for (unsigned i = 0; i < n / 2; ++i) {
      if (got[i] != in[n / 2 + i] * k) {
        if (bad++ < 3)
          std::fprintf(stderr, "thread %d round %d: half[%u] = %g, not %g\n", id, r, i, got[i],
                       in[n / 2 + i] * k);
      }
    }
  }
  return bad;
}

}  // namespace

int main() {
  std::vector<int> bad(threads, 0);
  std::vector<std::thread> pool;
  for (int id = 0; id < threads; ++id) pool.emplace_back([id, &bad] { bad[id] = work(id); });
  for (std::thread& t : pool) t.join();
  int total = 0;
  for (int b : bad) total += b;
  std::printf("%d threads x %d rounds: %d wrong results\n", threads, rounds, total);
  return total == 0 ? 0 : 1;
}
