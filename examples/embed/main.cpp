// The shape of spec/EMBEDDING.md: load kernels, move data through streams,
// launch, reduce, run host code, and catch a mistake as brook::Error.
#include <brook/brook.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

// The embedder's own float4, described so that arguments are checked by
// layout (four floats at 0, 4, 8, 12), not only by size.
struct Vec4 {
  float x, y, z, w;
};
brook::Layout brook_layout(const Vec4&) { return brook::layout(&Vec4::x, &Vec4::y, &Vec4::z, &Vec4::w); }

int main() {
  brook::Engine eng({.backend = brook::Backend::automatic, .threads = 0});
  eng.load_source(R"(
    kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
    reduce void sum(float v<>, reduce float t<>) { t += v; }
    int calls = 0;
    int scale(int v) { calls++; return v * 3; }
    float4 corners<2, 2>;
    kernel void shift(float4 a<>, float4 by, out float4 r<>) { r = a + by; }
  )");

  const int n = 1 << 12;
  std::vector<float> x(n, 1.0f), y(n, 2.0f), r(n);
  auto X = eng.stream<float>({n});
  auto Y = eng.stream<float>({n});
  auto R = eng.stream<float>({n});
  X.read(x);
  Y.read(y);
  eng.call("saxpy", 2.5f, X, Y, R);
  R.write(r);
  float total = eng.reduce<float>("sum", R);
  std::printf("r[0] = %g, sum = %g\n", r[0], total);

  eng.eval("printf(\"%d\\n\", 6 * 7);");
  int tripled = eng.invoke<int>("scale", 14);
  std::printf("scale(14) = %d after %d call(s)\n", tripled, eng.get<int>("calls"));

  // A stream the Brook source declared, updated in place from C++.
  auto corners = eng.stream_named<Vec4>("corners");
  eng.call("shift", corners, Vec4{1, 2, 3, 4}, corners);
  std::printf("corners: %s, w of the last = %g\n", eng.eval("corners").c_str(), corners.to_vector()[3].w);

  try {
    eng.call("saxpy", X);  // wrong arity
    std::puts("FAILED: no error for a wrong call");
    return 1;
  } catch (const brook::Error& e) {
    std::cout << "caught: " << e.what();
  }
  bool ok = r[0] == 4.5f && std::fabs(total - 4.5f * n) < 1e-3f && tripled == 42 && corners.to_vector()[3].w == 4;
  std::puts(ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
