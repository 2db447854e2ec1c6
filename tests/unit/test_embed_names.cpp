// The embedding API in the user's terms: streams that Brook code declared,
// reductions into streams, streams described by eval, and struct arguments
// checked by layout (brook::layout_of, brook_layout).
#include <doctest/doctest.h>

#include <brook/brook.hpp>

#include "embed_error_of.hpp"

#include <string>
#include <vector>

namespace {

struct F4 {
  float x, y, z, w;
};
brook::Layout brook_layout(const F4&) {
  return brook::layout(&F4::x, &F4::y, &F4::z, &F4::w);
}

// The same 16 bytes as a float4, but two doubles.
struct D2 {
  double d[2];
};
brook::Layout brook_layout(const D2&) {
  return brook::layout(&D2::d);
}

// A Brook `struct particle { float mass; int id; float4 pos; }` in C++.
struct Particle {
  float mass;
  int id;
  F4 pos;
};
brook::Layout brook_layout(const Particle&) {
  return brook::layout(&Particle::mass, &Particle::id, &Particle::pos);
}

// Mass and id swapped: same size, same offsets, other scalars.
struct Swapped {
  int id;
  float mass;
  F4 pos;
};
brook::Layout brook_layout(const Swapped&) {
  return brook::layout(&Swapped::id, &Swapped::mass, &Swapped::pos);
}

// Not described: checked by size only.
struct Plain {
  float v[4];
};

using embed_test::error_of;

struct Fixture {
  std::string out, err;
  brook::Engine eng{
      brook::Options{.backend = brook::Backend::interp,
                     .output = [this](int s, std::string_view t) { (s == 1 ? out : err) += t; }}};
};

constexpr const char* kProgram = R"(
  float data<4>;
  float img<4, 6>;
  int counter = 3;
  struct particle { float mass; int id; float4 pos; };
  kernel void twice(float x<>, out float y<>) { y = 2.0f * x; }
  kernel void add4(float4 a<>, float4 k, out float4 r<>) { r = a + k; }
  kernel void weigh(float4 a<>, struct particle p, out float4 r<>) { r = a * p.mass + p.pos + (float)p.id; }
  reduce void sum(float v<>, reduce float t<>) { t += v; }
)";

}  // namespace

TEST_CASE("embed: stream_named hands out a stream the Brook program declared") {
  Fixture f;
  f.eng.load_source(kProgram);
  {
    brook::Stream<float> data = f.eng.stream_named<float>("data");
    CHECK(data.extents() == std::vector<int64_t>{4});
    CHECK(data.element_type() == "float");
    data.read(std::vector<float>{1, 2, 3, 4});
    auto out = f.eng.stream<float>({4});
    f.eng.call("twice", data, out);
    CHECK(out.to_vector() == std::vector<float>{2, 4, 6, 8});
  }
  // The handle is gone, the program's stream is not: Brook code still reads it.
  f.eng.eval("streamPrint(data);");
  CHECK(f.out.find("1.00") != std::string::npos);
  CHECK(f.out.find("4.00") != std::string::npos);
  CHECK(f.eng.stream_named("img").extents() == std::vector<int64_t>{4, 6});
  CHECK(error_of([&] { (void)f.eng.stream_named("nosuch"); }).find("no stream named 'nosuch'") !=
        std::string::npos);
  CHECK(error_of([&] { (void)f.eng.stream_named("counter"); }).find("'counter' is not a stream") !=
        std::string::npos);
  CHECK(error_of([&] {
          (void)f.eng.stream_named<double>("data");
        }).find("float element is 4 bytes") != std::string::npos);
}

TEST_CASE("embed: reduce into a stream folds each block (LANGUAGE.md §7)") {
  Fixture f;
  f.eng.load_source(kProgram);
  auto in = f.eng.stream<float>({8});
  auto halves = f.eng.stream<float>({2});
  in.read(std::vector<float>{1, 2, 3, 4, 10, 20, 30, 40});
  f.eng.reduce("sum", in, halves);
  CHECK(halves.to_vector() == std::vector<float>{10, 100});
}

TEST_CASE("embed: eval of a stream describes it") {
  Fixture f;
  f.eng.load_source(kProgram);
  CHECK(f.eng.eval("img") == "float<4, 6>");
  CHECK(f.eng.eval("data") == "float<4>");
  CHECK(f.out.empty());  // described, not printed
  CHECK(f.eng.eval("counter + 1") == "4");
}

TEST_CASE("embed: struct and vector arguments are checked by layout") {
  Fixture f;
  f.eng.load_source(kProgram);
  CHECK(brook::layout_of<F4>().fields.size() == 4);
  CHECK(brook::layout_of<F4>().fields[3] == brook::LayoutField{12, "float"});
  CHECK(brook::layout_of<Particle>().fields[1] == brook::LayoutField{4, "int"});
  CHECK(brook::layout_of<Particle>().fields[5] == brook::LayoutField{20, "float"});
  CHECK(brook::layout_of<Plain>().fields.empty());

  auto a = f.eng.stream<F4>("float4", {2});
  auto r = f.eng.stream<F4>("float4", {2});
  a.read(std::vector<F4>{{1, 2, 3, 4}, {5, 6, 7, 8}});
  f.eng.call("add4", a, F4{10, 20, 30, 40}, r);
  CHECK(r.to_vector()[1].w == 48);
  f.eng.call("weigh", a, Particle{2, 1, {0, 0, 0, 100}}, r);
  CHECK(r.to_vector()[0].x == 3);    // 1 * 2 + 0 + 1
  CHECK(r.to_vector()[1].w == 117);  // 8 * 2 + 100 + 1

  std::string doubles = error_of([&] { f.eng.call("add4", a, D2{{1, 2}}, r); });
  CHECK(doubles.find("argument 2 of kernel 'add4', 'k'") != std::string::npos);
  CHECK(
      doubles.find(
          "scalar 1 of the C++ type is a double at offset 0, but float4 has a float at offset 0") !=
      std::string::npos);
  std::string swapped = error_of([&] { f.eng.call("weigh", a, Swapped{1, 2, {0, 0, 0, 0}}, r); });
  CHECK(swapped.find("scalar 1 of the C++ type is an int at offset 0, but struct particle has a "
                     "float at offset 0") != std::string::npos);
  // Undescribed: the size is all that can be checked.
  f.eng.call("add4", a, Plain{{1, 1, 1, 1}}, r);
  CHECK(r.to_vector()[0].x == 2);
  // Streams of a described element type are checked too.
  CHECK(error_of([&] {
          (void)f.eng.stream<D2>("float4", {2});
        }).find("stream of float4: scalar 1") != std::string::npos);
}
