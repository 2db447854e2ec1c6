// The REPL's stream display (runtime/stream_display.hpp): numpy's layout,
// elision with counts, the width limit, vectors, rank 3.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "runtime/stream_display.hpp"

using namespace brook;

namespace {

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<float> iota(int n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale;
  return v;
}

}  // namespace

TEST_CASE("stream display: values as the host prints them, ints as ints") {
  TypeContext types;
  interp::Memory memory;
  std::vector<float> f{0.001f, 1e7f, 123.456f};
  std::vector<int64_t> e{3};
  CHECK(display_stream(types.float_type(), e, bytes_of(f), memory) ==
        "float<3>\n[0.001, 1e+07, 123.456]\n");
  std::vector<int> i{1, -2, 30};
  CHECK(display_stream(types.int_type(), e, bytes_of(i), memory) == "int<3>\n[1, -2, 30]\n");
}

TEST_CASE("stream display: a long dimension shows its ends and how much it leaves out") {
  TypeContext types;
  interp::Memory memory;
  std::vector<int64_t> e{100000};
  std::string text = display_stream(types.float_type(), e, bytes_of(iota(100000)), memory);
  CHECK(text == "float<100000>\n[0, 1, 2, ... 99994 more ..., 99997, 99998, 99999]\n");
}

TEST_CASE("stream display: rows elided in a big 2-D stream, columns aligned") {
  TypeContext types;
  interp::Memory memory;
  std::vector<int64_t> e{40, 30};
  std::string text = display_stream(types.float_type(), e, bytes_of(iota(1200)), memory);
  CHECK(text ==
        "float<40, 30>\n"
        "[[   0,    1,    2, ... 24 more ...,   27,   28,   29],\n"
        " [  30,   31,   32, ... 24 more ...,   57,   58,   59],\n"
        " [  60,   61,   62, ... 24 more ...,   87,   88,   89],\n"
        " ... 34 more rows ...,\n"
        " [1110, 1111, 1112, ... 24 more ..., 1137, 1138, 1139],\n"
        " [1140, 1141, 1142, ... 24 more ..., 1167, 1168, 1169],\n"
        " [1170, 1171, 1172, ... 24 more ..., 1197, 1198, 1199]]\n");
}

TEST_CASE("stream display: columns past the width are left out, counted") {
  TypeContext types;
  interp::Memory memory;
  std::vector<int64_t> e{2, 50};
  StreamDisplay narrow;
  narrow.width = 60;
  std::string text =
      display_stream(types.float_type(), e, bytes_of(iota(100, 0.5f)), memory, narrow);
  // Cells are 4 wide ("49.5"): 2 + 2 k (4 + 2) + 20 <= 60 keeps k = 3 columns at each end.
  CHECK(text ==
        "float<2, 50>\n"
        "[[   0,  0.5,    1, ... 44 more ..., 23.5,   24, 24.5],\n"
        " [  25, 25.5,   26, ... 44 more ..., 48.5,   49, 49.5]]\n");
}

TEST_CASE("stream display: vectors as tuples, rank 3 as blocks") {
  TypeContext types;
  interp::Memory memory;
  std::vector<int64_t> e{2, 1, 2};
  const Type* f2 = types.vector(types.float_type(), 2);
  std::string text = display_stream(f2, e, bytes_of(iota(8)), memory);
  CHECK(text ==
        "float2<2, 1, 2>\n"
        "[[[(0, 1), (2, 3)]],\n"
        "\n"
        " [[(4, 5), (6, 7)]]]\n");
}
