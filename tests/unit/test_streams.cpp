// Streams end to end (LANGUAGE.md §4–§8) on the reference backend: programs
// through the Engine with output captured, checking values, error messages
// and the plans `--dump-plans` / `brook emit plan` print.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/engine.hpp"

using namespace brook;

namespace {
struct Result {
  int status = -1;
  std::string out, err;
};

Result run(const std::string& source, EngineOptions options = {}) {
  options.backend = "interp";
  Engine engine(options);
  Result r;
  engine.set_output([&](int stream, std::string_view text) {
    (stream == 2 ? r.err : r.out).append(text);
  });
  if (!engine.compile_source("t.br", source)) {
    r.status = -2;
    return r;
  }
  std::vector<std::string> argv{"t.br"};
  r.status = engine.run(argv);
  return r;
}
}  // namespace

TEST_CASE("streams: read, kernel with a constant, write back") {
  Result r = run(
      "kernel void axpy(float x<>, float y<>, float a, out float r<>) { r = a * x + y; }\n"
      "int main() { float hx[4] = {1, 2, 3, 4}; float hy[4] = {10, 20, 30, 40}; float hr[4];\n"
      "  float x<4>, y<4>, r<4>; streamRead(x, hx); streamRead(y, hy);\n"
      "  axpy(x, y, 2.0f, r); streamWrite(r, hr);\n"
      "  printf(\"%g %g %g %g\\n\", hr[0], hr[1], hr[2], hr[3]); return 0; }");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "12 24 36 48\n");
}

TEST_CASE("streams: streamPrint formats scalars, vectors and rows") {
  Result r = run(
      "kernel void fill(out float2 v<>, out float s<>) { v = float2(indexof(v).x, -0.0000001f);\n"
      "  s = indexof(s).y - 0.5f; }\n"
      "int main() { float2 v<2, 2>; float s<2, 2>; fill(v, s); streamPrint(v); streamPrint(s); return 0; }");
  CHECK(r.status == 0);
  CHECK(r.out == "{0.00, 0.00}{1.00, 0.00}\n{0.00, 0.00}{1.00, 0.00}\n-0.50 -0.50 \n0.50 0.50 \n");
}

TEST_CASE("streams: resampling strides and repeats inputs") {
  Result r = run(
      "kernel void copy(float a<>, out float b<>) { b = a; }\n"
      "int main() { float h[6] = {0, 1, 2, 3, 4, 5}; float a<6>, s<3>, l<12>;\n"
      "  streamRead(a, h); copy(a, s); copy(a, l); streamPrint(s); streamPrint(l); return 0; }");
  CHECK(r.out == "0.00 2.00 4.00 \n0.00 0.00 1.00 1.00 2.00 2.00 3.00 3.00 4.00 4.00 5.00 5.00 \n");
}

TEST_CASE("streams: an input that is also the output sees values from before the call") {
  Result r = run(
      "kernel void shift(float a[], out float b<>) { b = a[indexof(b).x + 1.0f] + 1.0f; }\n"
      "int main() { float h[4] = {1, 2, 3, 4}; float b<4>; streamRead(b, h); shift(b, b);\n"
      "  streamPrint(b); return 0; }");
  CHECK(r.out == "3.00 4.00 5.00 5.00 \n");
}

TEST_CASE("streams: gathers clamp and use floor(f + 0.25) for float indices") {
  Result r = run(
      "kernel void g(float i<>, float t[][], out float o<>) { o = t[i][i + 0.8f] * 10.0f + t[float2(i, -5)]; }\n"
      "int main() { float h[2][3] = {{1, 2, 3}, {4, 5, 6}}; float t<2, 3>; streamRead(t, h);\n"
      "  float hi[3] = {-1, 0.74f, 7}; float i<3>; streamRead(i, hi); float o<3>;\n"
      "  g(i, t, o); streamPrint(o); return 0; }");
  // i=-1: t[0][0]*10 + t[0][0]; i=0.74: t[0][1]*10 + t[row 0][col 0]; i=7: t[1][2]*10 + t[0][2].
  CHECK(r.out == "11.00 21.00 63.00 \n");
}

TEST_CASE("streams: reductions fold left in row-major order, to a value and to a stream") {
  Result r = run(
      "reduce void sub(float a<>, reduce float r<>) { r = r - a; }\n"
      "int main() { float h[2][4] = {{10, 1, 2, 3}, {20, 4, 5, 6}}; float s<2, 4>; streamRead(s, h);\n"
      "  float v = 99.0f; sub(s, v); float t<2, 2>; sub(s, t);\n"
      "  printf(\"%g\\n\", v); streamPrint(t); return 0; }");
  CHECK(r.status == 0);
  // 10-1-2-3-20-4-5-6 = -31; blocks of 2 columns: 10-1, 2-3, 20-4, 5-6.
  CHECK(r.out == "-31\n9.00 -1.00 \n16.00 -1.00 \n");
}

TEST_CASE("streams: a reduction to a non-dividing stream is a runtime error at the call") {
  Result r = run(
      "reduce void sum(float a<>, reduce float r<>) { r += a; }\n"
      "int main() { float s<10>, t<3>;\n  sum(s, t); return 0; }");
  CHECK(r.status == 1);
  CHECK(r.err.find("t.br:3:3: runtime error: cannot reduce a <10> stream to <3>: 10 is not a multiple of 3") == 0);
}

TEST_CASE("streams: views as output leave the rest of the stream untouched") {
  Result r = run(
      "kernel void one(out float b<>) { b = 1.0f; }\n"
      "int main() { float b<3, 4>; one(b.domain(int2(1, 1), int2(3, 3))); streamPrint(b); return 0; }");
  CHECK(r.out == "0.00 0.00 0.00 0.00 \n0.00 1.00 1.00 0.00 \n0.00 1.00 1.00 0.00 \n");
}

TEST_CASE("streams: scatter and gather operators, with a bad index reported") {
  Result r = run(
      "int main() { float hs[3] = {1, 2, 3}; float hi[3] = {0, 2, 0}; float s<3>, i<3>, a<3>;\n"
      "  streamRead(s, hs); streamRead(i, hi); streamScatterOp(s, i, a, STREAM_SCATTER_ADD);\n"
      "  streamPrint(a); streamGatherOp(s, i, a, STREAM_GATHER_INC); streamPrint(s); streamPrint(a);\n"
      "  float hb[3] = {0, 3, 0}; streamRead(i, hb);\n  streamGatherOp(s, i, a, STREAM_GATHER_FETCH); return 0; }");
  CHECK(r.status == 1);
  CHECK(r.out == "4.00 0.00 2.00 \n4.00 2.00 5.00 \n6.00 0.00 3.00 \n");
  CHECK(r.err.find("t.br:5:3: runtime error: index 3 of element 1 is outside the array <3>") == 0);
}

TEST_CASE("streams: kernel printf, instance() and integer division by zero in kernels") {
  Result r = run(
      "kernel void k(int a<>, out int b<>) { b = a / 0 + instance().x; printf(\"[%d]\", b); }\n"
      "int main() { int a<3>, b<3>; k(a, b); printf(\"\\n\"); return 0; }");
  CHECK(r.status == 0);
  CHECK(r.out == "[0][1][2]\n");
}

TEST_CASE("streams: streams declared in a loop are released at scope end") {
  Result r = run(
      "kernel void k(float a<>, out float b<>) { b = a + 1.0f; }\n"
      "int main() { float total = 0; for (int i = 0; i < 2000; i++) { float a<256>, b<256>; k(a, b);\n"
      "  float h[256]; streamWrite(b, h); total += h[255]; } printf(\"%g\\n\", total); return 0; }");
  CHECK(r.out == "2000\n");
}

TEST_CASE("streams: stream errors name the call: streamWrite, streamSwap, bad extents") {
  Result w = run("int main() { float s<10>; float h[3];\n  streamWrite(s, h); return 0; }");
  CHECK(w.err.find("t.br:2:3: runtime error: streamWrite needs 40 bytes but the host object has 12") == 0);
  Result s = run("int main() { float a<2>, b<3>;\n  streamSwap(a, b); return 0; }");
  CHECK(s.err.find("t.br:2:3: runtime error: streamSwap needs two streams of the same type and shape") == 0);
  Result e = run("int main() { int n = -1; float z<n>; return 0; }");
  CHECK(e.status == 1);
  CHECK(e.err.find("extents must be positive") != std::string::npos);
  // An extent of 0 is declared (nothing allocated); its first use is the error.
  Result z = run("int main() { int n = 0; float z<n, 2>; return 0; }");
  CHECK(z.status == 0);
  Result u = run("int main() { int n = 0; float z<n, 2>;\n  streamPrint(z); return 0; }");
  CHECK(u.status == 1);
  CHECK(u.err.find("t.br:2:3: runtime error: stream 'z' <0, 2> (line 1) has an extent of 0") == 0);
}

TEST_CASE("streams: --dump-plans describes each plan on stderr; emit_plans on stdout only") {
  const char* prog =
      "kernel void k(float a<>, out float b<>) { b = a; }\n"
      "int main() { float a<8>, b<4>; k(a, b); printf(\"done\\n\"); return 0; }";
  EngineOptions dump;
  dump.dump_plans = true;
  Result d = run(prog, dump);
  CHECK(d.out == "done\n");
  CHECK(d.err.find("plan map k @2:32") == 0);
  CHECK(d.err.find("a: input stream #1 <8> of float index [o0*8/4]") != std::string::npos);
  EngineOptions emit;
  emit.emit_plans = true;
  Result e = run(prog, emit);
  CHECK(e.status == 0);
  CHECK(e.err.empty());
  CHECK(e.out == d.err);
}
