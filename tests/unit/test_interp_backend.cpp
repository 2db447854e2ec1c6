// The reference backend on its own: storage, views and the built-in
// gather/scatter operators, driven by plans from the scheduler.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "backends/interp/interp_backend.hpp"
#include "backends/scheduler.hpp"
#include "lang/types.hpp"

using namespace brook;

namespace {
struct Fixture {
  SourceManager sources;
  TypeContext types;
  std::string printed;
  InterpBackend backend{sources, [this](std::string_view t) { printed += t; }};
  const Type* f32() { return types.float_type(); }

  StreamView stream(const Extents& e, const Type* elem, const std::vector<float>& values = {}) {
    StreamView v = Scheduler::whole(backend.allocate(element_count(e) * elem->size), elem, e);
    if (!values.empty()) backend.write_view(v, std::as_bytes(std::span<const float>(values)));
    return v;
  }
  std::vector<float> read(const StreamView& v) {
    std::vector<float> out(static_cast<size_t>(element_count(v.extents)) * v.elem->size / sizeof(float));
    backend.read_view(v, std::as_writable_bytes(std::span<float>(out)));
    return out;
  }
};
}  // namespace

TEST_CASE("interp backend: storage starts zeroed and views address the sub-rectangle") {
  Fixture f;
  StreamView s = f.stream({3, 4}, f.f32());
  CHECK(f.read(s) == std::vector<float>(12, 0.0f));
  int64_t start[2] = {1, 1}, end[2] = {3, 3};  // (column, row)
  StreamView v = Scheduler::domain(s, start, end, {});
  std::vector<float> four{1, 2, 3, 4};
  f.backend.write_view(v, std::as_bytes(std::span<const float>(four)));
  CHECK(f.read(s) == std::vector<float>{0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0});
  CHECK(f.read(v) == four);
}

TEST_CASE("interp backend: scatter ADD accumulates repeated indices in row-major order") {
  Fixture f;
  StreamView src = f.stream({4}, f.f32(), {1, 2, 3, 4});
  StreamView idx = f.stream({4}, f.f32(), {2, 0, 2.4f, 1.4f});  // floats round: (int)(f + 0.5)
  StreamView arr = f.stream({3}, f.f32(), {10, 20, 30});
  f.backend.run_gather_scatter(Scheduler::plan_gather_scatter(true, src, idx, arr, 1, nullptr, {}));
  CHECK(f.read(arr) == std::vector<float>{12, 24, 34});
}

TEST_CASE("interp backend: gather INC fetches then increments, a 2-D index is (column, row)") {
  Fixture f;
  const Type* f2 = f.types.vector(f.f32(), 2);
  StreamView t = f.stream({3}, f.f32());
  StreamView idx = f.stream({3}, f2, {1, 0, 1, 0, 0, 1});
  StreamView arr = f.stream({2, 2}, f.f32(), {1, 2, 3, 4});
  f.backend.run_gather_scatter(Scheduler::plan_gather_scatter(false, t, idx, arr, 1, nullptr, {}));
  CHECK(f.read(t) == std::vector<float>{2, 3, 3});
  CHECK(f.read(arr) == std::vector<float>{1, 4, 4, 4});
}

TEST_CASE("interp backend: an index outside the array is reported and nothing is written") {
  Fixture f;
  const Type* f2 = f.types.vector(f.f32(), 2);
  StreamView src = f.stream({2, 1}, f.f32(), {5, 6});
  StreamView idx = f.stream({2, 1}, f2, {0, 0, 5, 9});
  StreamView arr = f.stream({4, 8}, f.f32());
  SourceLoc loc{1, 7, 3};
  try {
    f.backend.run_gather_scatter(Scheduler::plan_gather_scatter(true, src, idx, arr, 0, nullptr, loc));
    FAIL("expected a PlanError");
  } catch (const PlanError& e) {
    CHECK(e.message == "index (5, 9) of element (0, 1) is outside the array <4, 8>");
    CHECK(e.loc.line == 7);
  }
  CHECK(f.read(arr) == std::vector<float>(32, 0.0f));
}
