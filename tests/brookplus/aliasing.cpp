// Brook+'s checks of a kernel's streams before it runs (BROOKPLUS.md §2
// "Errors"; its runtime's KernelImpl::run): a stream bound as both an input
// and an output is refused, with BR_ERROR_INVALID_PARAMATER and its text on
// the outputs and the kernel not run, unless BRT_PERMIT_READ_WRITE_ALIASING is
// set; an input whose size differs from the output's is resampled (brook's
// rule) and the outputs record that with BR_ERROR_INVALID_PARAMATER too.
// The expected output (aliasing.out) is derived by hand.
#include <brook/brook.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

// ---- what NAME.cpp of the bindings holds (brcc's form) ---------------------
static const char brook_source[] = R"BROOK(
kernel void add1(float input<>, out float output<>) { output = input + 1.0f; }
kernel void next(float g[], out float output<>) {
  int4 i = instance();
  output = g[i.x + 1];
}
kernel void pair(float a<>, float b<>, out float o1<>, out float o2<>) {
  o1 = a + b;
  o2 = a - b;
}
reduce void sum(float input<>, reduce float total<>) { total += input; }
)BROOK";

class __add1 {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& output) {
    ::brook::plus::Launch l(brook_source, "aliasing.br", "add1");
    l.stream(input);
    l.stream(output);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __add1 add1;
class __next {
 public:
  void operator()(const ::brook::Stream<float>& g, const ::brook::Stream<float>& output) {
    ::brook::plus::Launch l(brook_source, "aliasing.br", "next");
    l.stream(g);
    l.stream(output);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __next next;
class __pair {
 public:
  void operator()(const ::brook::Stream<float>& a, const ::brook::Stream<float>& b,
                  const ::brook::Stream<float>& o1, const ::brook::Stream<float>& o2) {
    ::brook::plus::Launch l(brook_source, "aliasing.br", "pair");
    l.stream(a);
    l.stream(b);
    l.stream(o1);
    l.stream(o2);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __pair pair;
class __sum {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& total) {
    ::brook::plus::Launch l(brook_source, "aliasing.br", "sum");
    l.stream(input);
    l.stream(total);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __sum sum;
// ---- end of the bindings ---------------------------------------------------

namespace {

void show(const char* what, brook::Stream<float>& s) {
  float v[8] = {0};
  int e = s.error();
  const char* log = s.errorLog();
  s.write(v);
  std::printf("%s: error %d, log [%s], values", what, e, log);
  unsigned n = s.getDimension()[0];
  for (unsigned i = 0; i < n; ++i) std::printf(" %g", v[i]);
  std::printf("\n");
}

}  // namespace

int main() {
  unsetenv("BRT_PERMIT_READ_WRITE_ALIASING");
  unsigned int d8[] = {8}, d4[] = {4}, d1[] = {1};
  const float in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  brook::Stream<float> a(1, d8);
  a.read(in);

  // The same stream in and out: refused, a unchanged.
  add1(a, a);
  show("add1(a, a)", a);
  // Through a copy and through Stream(StreamImpl*): still the same stream.
  brook::Stream<float> copy_of_a = a;
  add1(copy_of_a, a);
  show("add1(copy of a, a)", a);
  brook::Stream<float> from_impl(static_cast<StreamImpl*>(a));
  add1(a, from_impl);
  show("add1(a, Stream(StreamImpl*))", a);
  // A gather input counts too.
  next(a, a);
  show("next(a, a)", a);
  // Every output records it, and neither is written.
  brook::Stream<float> b(1, d8), other(1, d8);
  b.read(in);
  pair(a, b, other, b);
  show("pair(a, b, other, b) other", other);
  show("pair(a, b, other, b) b", b);
  // Two domains of one stream are two streams (as in Brook+): allowed.
  unsigned int lo[] = {0}, mid[] = {4}, hi[] = {8};
  add1(a.domain(lo, mid), a.domain(mid, hi));
  show("add1(a[0,4), a[4,8))", a);

  // Permitted: brook gives every invocation the inputs as they were.
  setenv("BRT_PERMIT_READ_WRITE_ALIASING", "1", 1);
  a.read(in);
  add1(a, a);
  show("permitted add1(a, a)", a);
  next(a, a);
  show("permitted next(a, a)", a);
  unsetenv("BRT_PERMIT_READ_WRITE_ALIASING");

  // An input of another size: resampled (out[k] = in[floor(k * 8 / 4)]),
  // and recorded on the output.
  a.read(in);
  brook::Stream<float> c(1, d4);
  add1(a, c);
  show("add1(a<8>, c<4>)", c);
  show("input a after it", a);
  // A gather input may have any size; so may a reduction's input.
  brook::Stream<float> g4(1, d4);
  g4.read(in);
  next(g4, b);
  show("next(g<4>, b<8>)", b);
  brook::Stream<float> total(1, d1);
  sum(a, total);
  show("sum(a<8>, total<1>)", total);
  // An input whose declaration failed has no size to compare: the launch
  // fails for that reason alone (BR_ERROR_KERNEL first, no resize entry).
  unsigned int d0[] = {0};
  brook::Stream<float> undeclared(0, d0);
  add1(undeclared, c);
  int e = c.error();
  const char* log = c.errorLog();
  std::printf("add1(undeclared, c): error %d, declaration named: %s, resize named: %s\n", e,
              std::strstr(log, "declaration failed") ? "yes" : "no",
              std::strstr(log, "resize") ? "yes" : "no");
  return 0;
}
