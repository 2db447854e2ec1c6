// The embedding API (include/brook/brook.hpp): every entry point, and every
// failure surfacing as brook::Error with the diagnostic text.
#include <doctest/doctest.h>

#include <brook/brook.hpp>

#include "embed_error_of.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct F4 {
  float x, y, z, w;
};

// An engine on the interpreter whose program output is captured.
struct Fixture {
  std::string out, err;
  brook::Engine eng{brook::Options{.backend = brook::Backend::interp,
                                   .output = [this](int s, std::string_view t) { (s == 1 ? out : err) += t; }}};
};

using embed_test::error_of;

constexpr const char* kKernels = R"(
  kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
  kernel void add4(float4 a<>, float4 k, out float4 r<>) { r = a + k; }
  reduce void sum(float v<>, reduce float t<>) { t += v; }
  reduce void sum4(float4 v<>, reduce float4 t<>) { t += v; }
  int counter = 0;
  float weights[3] = {0.5f, 1.5f, 2.5f};
  int bump(int by) { counter += by; return counter; }
  double half(double v) { return v / 2; }
  void hello() { printf("hello from brook\n"); }
)";

}  // namespace

TEST_CASE("embed: load_source, call, read/write and reduce") {
  Fixture f;
  f.eng.load_source(kKernels);
  auto X = f.eng.stream<float>({4});
  auto Y = f.eng.stream<float>({4});
  auto R = f.eng.stream<float>({4});
  std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40}, r(4);
  X.read(x);
  Y.read(y);
  f.eng.call("saxpy", 2.0f, X, Y, R);
  R.write(r);
  CHECK(r == std::vector<float>{12, 24, 36, 48});
  CHECK(f.eng.reduce<float>("sum", R) == 120.0f);
  // An int constant converts to the kernel's float parameter, as in C.
  f.eng.call("saxpy", 3, X, Y, R);
  CHECK(R.to_vector() == std::vector<float>{13, 26, 39, 52});
  CHECK(X.extents() == std::vector<int64_t>{4});
  CHECK(X.size() == 4);
  CHECK(X.element_type() == "float");
  CHECK(X.element_size() == sizeof(float));
}

TEST_CASE("embed: vector elements map to the embedder's structs") {
  Fixture f;
  f.eng.load_source(kKernels);
  auto A = f.eng.stream<F4>("float4", {2, 2});
  auto B = f.eng.stream<F4>("float4", {2, 2});
  std::vector<F4> a = {{1, 2, 3, 4}, {5, 6, 7, 8}, {0, 0, 0, 0}, {1, 1, 1, 1}};
  A.read(a);
  f.eng.call("add4", A, F4{10, 20, 30, 40}, B);
  std::vector<F4> b = B.to_vector();
  CHECK(b[1].x == 15);
  CHECK(b[1].w == 48);
  F4 total = f.eng.reduce<F4>("sum4", B);
  CHECK(total.x == 47);
  CHECK(total.w == 173);
  CHECK(A.extents() == std::vector<int64_t>{2, 2});
  CHECK(error_of([&] { (void)f.eng.stream<float>("float4", {2}); }).find("16 bytes") != std::string::npos);
}

TEST_CASE("embed: eval, invoke and globals") {
  Fixture f;
  f.eng.load_source(kKernels);
  CHECK(f.eng.eval("6 * 7") == "42");
  CHECK(f.eng.eval("float4(1, 2, 3, 4).wzyx") == "float4(4, 3, 2, 1)");
  CHECK(f.eng.eval("int fresh = 5;").empty());
  f.eng.eval("printf(\"%d\\n\", fresh * 2);");
  CHECK(f.out == "10\n");
  CHECK(f.eng.invoke<int>("bump", 5) == 5);
  CHECK(f.eng.invoke<int>("bump", 2) == 7);
  CHECK(f.eng.get<int>("counter") == 7);
  f.eng.set("counter", 100);
  CHECK(f.eng.invoke<int>("bump", 1) == 101);
  CHECK(f.eng.invoke<double>("half", 5) == 2.5);  // int → double, as in C
  f.eng.invoke("hello");
  CHECK(f.out.find("hello from brook\n") != std::string::npos);
  struct W {
    float w[3];
  };
  W w = f.eng.get<W>("weights");
  CHECK(w.w[2] == 2.5f);
  CHECK(f.eng.has("saxpy"));
  CHECK(f.eng.has("counter"));
  CHECK_FALSE(f.eng.has("nothing_here"));
}

TEST_CASE("embed: load_file, and redefinition replaces") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("brook_embed_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream(dir / "lib.br") << "int twice(int v) { return 2 * v; }\nint loaded = 1;\n";
  }
  Fixture f;
  f.eng.load_file((dir / "lib.br").string());
  CHECK(f.eng.invoke<int>("twice", 21) == 42);
  CHECK(f.eng.get<int>("loaded") == 1);
  f.eng.load_source("int twice(int v) { return 3 * v; }");
  CHECK(f.eng.invoke<int>("twice", 21) == 63);
  std::string e = error_of([&] { f.eng.load_file((dir / "missing.br").string()); });
  CHECK(e.find("cannot read") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("embed: errors are brook::Error with the diagnostic text") {
  Fixture f;
  f.eng.load_source(kKernels);
  std::string e = error_of([&] { f.eng.load_source("int broken = ;", "broken.br"); });
  CHECK(e.find("broken.br:1:14: error:") != std::string::npos);
  CHECK(e.find("int broken = ;") != std::string::npos);  // the source line and caret

  e = error_of([&] { f.eng.eval("1 / (counter - counter)"); });
  CHECK(e.find("runtime error: integer division by zero") != std::string::npos);

  auto X = f.eng.stream<float>({4});
  e = error_of([&] { f.eng.call("saxpy", X); });
  CHECK(e == "brook: kernel 'saxpy' takes 4 arguments, but 1 was given\n");
  e = error_of([&] { f.eng.call("saxpy", X, X, X, X); });
  CHECK(e.find("argument 1 of kernel 'saxpy', 'a' (value of float), is a stream") != std::string::npos);
  e = error_of([&] { f.eng.call("saxpy", 1.0f, 2.0f, X, X); });
  CHECK(e.find("'x' (input stream of float), is not a stream") != std::string::npos);
  auto F4s = f.eng.stream<F4>("float4", {4});
  e = error_of([&] { f.eng.call("saxpy", 1.0f, F4s, X, X); });
  CHECK(e == "brook: argument 2 of kernel 'saxpy', 'x' (input stream of float), is given a stream of float4\n");
  e = error_of([&] { f.eng.call("no_such_kernel", X); });
  CHECK(e == "brook: no kernel named 'no_such_kernel'\n");
  e = error_of([&] { f.eng.call("add4", X, 1.0, X); });
  CHECK(e.find("is a stream") == std::string::npos);
  CHECK(e != "<no error>");

  std::vector<float> small(3);
  e = error_of([&] { X.read(small); });
  CHECK(e.find("12 bytes into stream") != std::string::npos);
  e = error_of([&] { X.write(small); });
  CHECK(e.find("of 16 bytes (4 elements of float)") != std::string::npos);

  e = error_of([&] { (void)f.eng.reduce<float>("saxpy", X); });
  CHECK(e == "brook: no reduce function named 'saxpy'\n");
  e = error_of([&] { (void)f.eng.invoke<int>("bump"); });
  CHECK(e.find("takes 1 argument, but 0 were given") != std::string::npos);
  e = error_of([&] { (void)f.eng.get<double>("counter"); });
  CHECK(e.find("global 'counter' is a int of 4 bytes") != std::string::npos);
  e = error_of([&] { (void)f.eng.get<int>("nope"); });
  CHECK(e == "brook: no global variable named 'nope'\n");
  e = error_of([&] { f.eng.eval("exit(3);"); });
  CHECK(e.find("exit(3)") != std::string::npos);

  // The engine is still usable after all of that.
  CHECK(f.eng.eval("counter + 1") == "1");
}

TEST_CASE("embed: stream handles share storage and outlive the engine") {
  brook::Stream<float> kept;
  {
    brook::Engine eng({.backend = brook::Backend::interp});
    auto S = eng.stream<float>({3});
    brook::Stream<float> copy = S;
    std::vector<float> v = {1, 2, 3};
    copy.read(v);
    CHECK(S.to_vector() == v);
    kept = S;
  }
  CHECK(kept.to_vector() == std::vector<float>{1, 2, 3});
  brook::Stream<float> empty;
  CHECK_FALSE(empty);
  std::vector<float> v(1);
  CHECK(error_of([&] { empty.read(v); }).find("empty stream") != std::string::npos);
}

TEST_CASE("embed: separate engines are independent") {
  brook::Engine a({.backend = brook::Backend::interp}), b({.backend = brook::Backend::interp});
  a.load_source("int only_in_a = 1;");
  CHECK(a.has("only_in_a"));
  CHECK_FALSE(b.has("only_in_a"));
  brook::Engine moved = std::move(a);
  CHECK(moved.eval("only_in_a + 1") == "2");
}

TEST_CASE("embed: set_backend moves the streams; a backend that cannot start changes nothing") {
  Fixture f;
  f.eng.load_source(R"(
    kernel void twice(float a<>, out float b<>) { b = 2.0f * a; }
    reduce void total(float a<>, reduce float r<>) { r = r + a; }
  )");
  auto a = f.eng.stream<float>({5});
  auto b = f.eng.stream<float>({5});
  std::vector<float> host{1, 2, 3, 4, 5};
  a.read(host);
  CHECK(f.eng.backend() == "interp");
  CHECK_THROWS_AS(f.eng.set_backend("gpu9000"), brook::Error);
  CHECK(f.eng.backend() == "interp");
  CHECK(a.to_vector() == host);
#ifdef BROOK_HAVE_JIT
  f.eng.set_backend("jit");
  CHECK(f.eng.backend() == "jit");
#endif
  f.eng.call("twice", a, b);
  CHECK(b.to_vector() == std::vector<float>{2, 4, 6, 8, 10});
  f.eng.set_backend("interp");
  CHECK(f.eng.backend() == "interp");
  CHECK(b.to_vector() == std::vector<float>{2, 4, 6, 8, 10});
  CHECK(f.eng.reduce<float>("total", b) == 30.0f);
}
