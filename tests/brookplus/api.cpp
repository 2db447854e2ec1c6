// A C++ program written against Brook+'s API (BROOKPLUS.md §1, §2): streams
// with Brook+'s dims order, shallow copies and assign(), domains, the
// generated functor bindings with domainOffset/domainSize, reductions to a
// stream and to a host variable, sized constant arrays, and errors reported on
// the streams. The bindings below are what brcc (and `brook cc --brookplus`)
// write for the .br source; the expected output (api.out) is derived by hand.
#include <brook/brook.h>

#include <cstdio>
#include <cstring>

// ---- what NAME.cpp of the bindings holds ----------------------------------
static const char brook_source[] = R"BROOK(
kernel void scale(float input<>, out float output<>, float val) { output = input * val; }
reduce void sum(float input<>, reduce float total<>) { total += input; }
kernel void position(out int2 pos<>) {
  int4 i = instance();
  pos = int2(i.x, 10 * i.y);
}
kernel void filter(float img[][], float mask[3][3], out float o<>) {
  int4 i = instance();
  float acc = 0.0f;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++) acc += mask[dy][dx] * img[i.y + dy - 1][i.x + dx - 1];
  o = acc;
}
kernel void widen(uchar4 c<>, out uint4 o<>) { o = uint4(c.x, c.y, c.z, c.w) * 2u; }
)BROOK";

class __scale {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& output,
                  const float val) {
    ::brook::plus::Launch l(brook_source, "api.br", "scale");
    l.stream(input);
    l.stream(output);
    ::brook::plus::push_value(l, val);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
class __sum {
 public:
  void operator()(const ::brook::Stream<float>& input, const ::brook::Stream<float>& total) {
    ::brook::plus::Launch l(brook_source, "api.br", "sum");
    l.stream(input);
    l.stream(total);
    l.run(&brook_domain_);
  }
  void operator()(const ::brook::Stream<float>& input, float& total) {
    ::brook::plus::Launch l(brook_source, "api.br", "sum");
    l.stream(input);
    ::brook::plus::push_reduce(l, total);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
class __position {
 public:
  void operator()(const ::brook::Stream<int2>& pos) {
    ::brook::plus::Launch l(brook_source, "api.br", "position");
    l.stream(pos);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
class __filter {
 public:
  void operator()(const ::brook::Stream<float>& img, const float mask[3][3],
                  const ::brook::Stream<float>& o) {
    ::brook::plus::Launch l(brook_source, "api.br", "filter");
    l.stream(img);
    l.array(mask, sizeof(float[3][3]), "float", "[3][3]");
    l.stream(o);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
class __widen {
 public:
  void operator()(const ::brook::Stream<uchar4>& c, const ::brook::Stream<uint4>& o) {
    ::brook::plus::Launch l(brook_source, "api.br", "widen");
    l.stream(c);
    l.stream(o);
    l.run(&brook_domain_);
  }
  EXTENDCLASS();
};
__THREAD__ __scale scale;
__THREAD__ __sum sum;
__THREAD__ __position position;
__THREAD__ __filter filter;
__THREAD__ __widen widen;
// ---- end of the bindings ---------------------------------------------------

static void print(const char* what, const float* v, int n) {
  std::printf("%s:", what);
  for (int i = 0; i < n; ++i) std::printf(" %g", v[i]);
  std::printf("\n");
}

int main() {
  // 1-D map and both reductions.
  unsigned int n8[] = {8};
  brook::Stream<float> in(1, n8), out(1, n8);
  float host[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {};
  in.read(host);
  scale(in, out, 2.5f);
  out.write(back);
  print("scale", back, 8);
  float total = 0;
  sum(out, total);
  unsigned int n1[] = {1};
  brook::Stream<float> total_stream(1, n1);
  sum(out, total_stream);
  float from_stream = 0;
  total_stream.write(&from_stream);
  std::printf("sum: %g %g\n", total, from_stream);

  // Shallow copy shares; assign copies.
  brook::Stream<float> alias = out;
  brook::Stream<float> copy(1, n8);
  copy.assign(out);
  scale(in, alias, -1.0f);
  out.write(back);
  print("alias", back, 8);
  copy.write(back);
  print("assigned", back, 8);

  // 2-D: dims[0] is the width. instance() counts from the whole stream.
  unsigned int wh[] = {4, 3};
  brook::Stream<int2> grid(2, wh);
  unsigned int start[] = {1, 1}, end[] = {3, 3};
  position(grid.domain(start, end));
  int2 cells[12];
  grid.write(cells);
  for (int y = 0; y < 3; ++y) {
    std::printf("grid:");
    for (int x = 0; x < 4; ++x) std::printf(" (%d,%d)", cells[y * 4 + x].x, cells[y * 4 + x].y);
    std::printf("\n");
  }
  // The next launch only: offset (2, 0), size (2, 2).
  brook::Stream<int2> grid2(2, wh);
  position.domainOffset(uint4(2, 0, 0, 0));
  position.domainSize(uint4(2, 2, 1, 1));
  position(grid2);
  grid2.write(cells);
  std::printf("sized:");
  for (int i = 0; i < 12; ++i) std::printf(" %d", cells[i].x + cells[i].y);
  std::printf("\n");
  position(grid2);  // the whole stream again
  grid2.write(cells);
  std::printf("reset: %d %d\n", cells[11].x, cells[11].y);

  // Reading and writing a domain: dense host buffers of the view's size.
  float part[4] = {};
  brook::Stream<float> window = out.domain(2, 6);
  window.write(part);
  print("window", part, 4);
  float ones[4] = {1, 1, 1, 1};
  window.read(ones);
  out.write(back);
  print("patched", back, 8);

  // A gather with a sized constant array (ImageFilter's form).
  unsigned int im[] = {3, 3};
  brook::Stream<float> img(2, im), smooth(2, im);
  float pixels[9] = {0, 0, 0, 0, 9, 0, 0, 0, 0}, mask[3][3] = {{0, 1, 0}, {1, 2, 1}, {0, 1, 0}},
        res[9];
  img.read(pixels);
  filter(img, mask, smooth);
  smooth.write(res);
  print("filter", res, 9);

  // Vector element types.
  unsigned int n2[] = {2};
  brook::Stream<uchar4> bytes(1, n2);
  brook::Stream<uint4> wide(1, n2);
  uchar4 b[2] = {uchar4(1, 2, 3, 4), uchar4(250, 0, 7, 128)};
  bytes.read(b);
  widen(bytes, wide);
  uint4 w[2];
  wide.write(w);
  std::printf("widen: %u %u %u %u %u %u %u %u\n", w[0].x, w[0].y, w[0].z, w[0].w, w[1].x, w[1].y,
              w[1].z, w[1].w);

  // Errors land on the streams; nothing throws, later calls work.
  std::printf("no error: %d\n", int(out.error()));
  in.read(nullptr);
  std::printf("null read: %d %s", int(in.error()), in.errorLog());
  std::printf("cleared: %d\n", int(in.error()));
  brook::Stream<float> wrong(1, n1);
  scale(wrong, out, 1.0f);  // extents differ: resampled, and Brook+'s entry on the output
  std::printf("resampled input: %d", int(out.error()));
  std::printf(" %s", out.errorLog());
  unsigned int bad_start[] = {5}, bad_end[] = {9};
  brook::Stream<float> outside = out.domain(bad_start, bad_end);
  std::printf("domain: %d\n", int(outside.error()));
  scale(outside, out, 1.0f);
  std::printf("kernel on a bad domain: %d %s", int(out.error()),
              std::strstr(out.errorLog(), "Kernel Execution : ") ? "logged\n" : "not logged\n");
  unsigned int r0[] = {0};
  brook::Stream<float> none(0, r0);
  std::printf("rank 0: %d\n", int(none.error()));
  return 0;
}
