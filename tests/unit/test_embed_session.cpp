// The Engine as a REPL session drives it: switching backends with live
// streams (their contents move along), and macros that persist across entries.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "runtime/engine.hpp"
#include "runtime/stream_runtime.hpp"

using namespace brook;

namespace {

struct Session {
  std::string out, err;
  Engine engine;

  explicit Session(EngineOptions options = {}) : engine(prepare(options)) {
    engine.set_output(
        [this](int stream, std::string_view text) { (stream == 2 ? err : out).append(text); });
  }
  static EngineOptions prepare(EngineOptions o) {
    if (o.backend.empty()) o.backend = "interp";
    o.repl = true;
    o.use_disk_cache = false;
    return o;
  }
  Engine::EntryResult eval(const std::string& text) {
    return engine.eval("<entry " + std::to_string(++entries) + ">", text);
  }
  std::vector<float> floats(const std::string& name, size_t count) {
    std::vector<float> v(count);
    std::string error;
    bool ok = engine.stream_data(name, false, std::as_writable_bytes(std::span<float>(v)), &error);
    CHECK_MESSAGE(ok, error);
    return v;
  }
  int entries = 0;
};

constexpr const char* kSetup = R"(
  kernel void saxpy(float k, float x<>, float y<>, out float r<>) { r = k * x + y; }
  reduce void sum(float v<>, reduce float acc<>) { acc += v; }
  float a<8>, b<8>, r<8>;
  float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  streamRead(a, h);
  saxpy(10.0f, a, a, b);
  iter float2 it<2, 3> = iter(float2(0.0f, 0.0f), float2(3.0f, 2.0f));
  float total;
)";

bool built(const std::string& name) {
  for (const std::string& b : built_backends())
    if (b == name) return true;
  return false;
}

}  // namespace

TEST_CASE("session: streams move to every built backend and keep working") {
  Session s;
  REQUIRE(s.eval(kSetup).status == Engine::EntryStatus::ok);
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> b = {11, 22, 33, 44, 55, 66, 77, 88};
  std::vector<std::string> order;
  for (const std::string& name : built_backends())
    if (name != "interp") order.push_back(name);
  order.push_back("interp");
  const std::vector<float> iterator = s.floats("it", 12);
  CHECK(iterator[11] > 0.9f);  // y of the last element, near 1
  float k = 1.0f;
  for (const std::string& name : order) {
    CAPTURE(name);
    std::string error;
    size_t moved = 0;
    REQUIRE_MESSAGE(s.engine.switch_backend(name, &error, &moved), error);
    CHECK(s.engine.backend_name() == name);
    CHECK(moved == 4);  // a, b, r and the iterator
    CHECK(s.floats("a", 8) == a);
    CHECK(s.floats("b", 8) == b);
    CHECK(s.engine.live_streams().size() == 4);
    // The streams made on the old backend are used by kernels on the new one.
    REQUIRE_MESSAGE(s.eval("saxpy(" + std::to_string(k) + "f, a, b, r); sum(r, total);").status ==
                        Engine::EntryStatus::ok,
                    s.err);
    std::vector<float> r = s.floats("r", 8);
    float expected_total = 0;
    for (size_t i = 0; i < 8; ++i) {
      CHECK(r[i] == k * a[i] + b[i]);
      expected_total += k * a[i] + b[i];
    }
    Engine::EntryResult t = s.eval("total;");
    CHECK(t.value == std::to_string(static_cast<int>(expected_total)));
    // The iterator keeps the values it was made with.
    CHECK(s.floats("it", 12) == iterator);
    k += 1.0f;
  }
  CHECK(s.err.empty());
}

TEST_CASE("session: a view of a moved stream reads the moved data") {
  Session s;
  REQUIRE(s.eval(kSetup).status == Engine::EntryStatus::ok);
  std::string error;
  REQUIRE(s.engine.switch_backend(built("jit") ? "jit" : "interp", &error));
  s.out.clear();
  REQUIRE(s.eval("streamPrint(b.domain(2, 5));").status == Engine::EntryStatus::ok);
  CHECK(s.out == "33.00 44.00 55.00 \n");
}

TEST_CASE("session: a swapped pair and a released stream move correctly") {
  Session s;
  REQUIRE(s.eval(kSetup).status == Engine::EntryStatus::ok);
  REQUIRE(s.eval("streamSwap(a, b);").status == Engine::EntryStatus::ok);
  s.engine.release_stream("r");
  std::string error;
  size_t moved = 0;
  const std::string target = built("opencl") ? "opencl" : built("jit") ? "jit" : "interp";
  REQUIRE_MESSAGE(s.engine.switch_backend(target, &error, &moved), error);
  CHECK(moved == 3);
  CHECK(s.floats("a", 8) == std::vector<float>{11, 22, 33, 44, 55, 66, 77, 88});
  CHECK(s.floats("b", 8) == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(s.engine.live_streams().size() == 3);
}

TEST_CASE("session: a backend that cannot start leaves the old one in place") {
  Session s;
  REQUIRE(s.eval(kSetup).status == Engine::EntryStatus::ok);
  std::string error;
  CHECK_FALSE(s.engine.switch_backend("cuda", &error));
  CHECK(error.find("'cuda' is not built") != std::string::npos);
  CHECK(s.engine.backend_name() == "interp");
  CHECK(s.floats("b", 8) == std::vector<float>{11, 22, 33, 44, 55, 66, 77, 88});
  CHECK(s.eval("saxpy(1.0f, a, a, r); sum(r, total); total;").value == "72");
}

TEST_CASE("session: an OpenCL device that does not exist keeps the session on its backend") {
  if (!built("opencl")) return;
  EngineOptions o;
  o.device = 99;
  Session s(o);
  REQUIRE(s.eval(kSetup).status == Engine::EntryStatus::ok);
  std::string error;
  CHECK_FALSE(s.engine.switch_backend("opencl", &error));
  // "OpenCL device 99 does not exist…", or no platform at all on this machine.
  CHECK_MESSAGE(
      (error.find("99") != std::string::npos || error.find("no OpenCL") != std::string::npos),
      error);
  CHECK(s.engine.backend_name() == "interp");
  CHECK(s.floats("a", 8) == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(s.eval("sum(a, total); total;").value == "36");
}

TEST_CASE("session: with keep_macros, #define and #undef persist across entries") {
  EngineOptions o;
  o.keep_macros = true;
  Session s(o);
  REQUIRE(s.eval("#define N 4\n#define SQ(x) ((x) * (x))\n").status == Engine::EntryStatus::ok);
  CHECK(s.eval("SQ(N) + 1;").value == "17");
  REQUIRE(s.eval("#undef SQ\n").status == Engine::EntryStatus::ok);
  CHECK(s.eval("SQ(2);").status == Engine::EntryStatus::compile_error);
  CHECK(s.eval("N;").value == "4");
}

TEST_CASE("session: without keep_macros each entry is preprocessed alone") {
  Session s;
  REQUIRE(s.eval("#define N 4\n").status == Engine::EntryStatus::ok);
  CHECK(s.eval("N;").status == Engine::EntryStatus::compile_error);
}

namespace {

// The interpreter's storage, but only `budget` allocations of it: moving more
// streams than that fails part-way. `live` counts its storage still held.
class ScarceBackend : public Backend {
 public:
  ScarceBackend(std::unique_ptr<Backend> inner, int budget, int& live)
      : inner_(std::move(inner)), budget_(budget), live_(live) {}
  std::string_view name() const override { return "scarce"; }
  StorageId allocate(uint64_t bytes) override {
    if (budget_-- <= 0) throw std::bad_alloc();
    ++live_;
    return inner_->allocate(bytes);
  }
  void release(StorageId storage) override {
    --live_;
    inner_->release(storage);
  }
  void write_view(const StreamView& v, std::span<const std::byte> host) override {
    inner_->write_view(v, host);
  }
  void read_view(const StreamView& v, std::span<std::byte> host) override {
    inner_->read_view(v, host);
  }
  void run_map(const MapPlan& plan) override { inner_->run_map(plan); }
  void run_reduce(const ReducePlan& plan, std::span<std::byte> result) override {
    inner_->run_reduce(plan, result);
  }
  void run_gather_scatter(const GatherScatterPlan& plan) override {
    inner_->run_gather_scatter(plan);
  }

 private:
  std::unique_ptr<Backend> inner_;
  int budget_;
  int& live_;
};

}  // namespace

TEST_CASE("session: a move that fails part-way frees what it made and changes nothing") {
  SourceManager sources;
  BackendOptions bo;
  bo.sources = &sources;
  StreamRuntime rt(make_backend("interp", bo));
  interp::Machine m;
  TypeContext types;
  ast::VarDecl decl(SourceLoc{});
  decl.name = "s";
  decl.type = types.stream(types.float_type(), 1);
  const int64_t extent = 4;
  std::vector<uint64_t> handles;
  for (int k = 0; k < 3; ++k) {
    handles.push_back(rt.create(m, decl, std::span<const int64_t>(&extent, 1), {}));
    std::vector<float> v = {float(k), float(k) + 0.5f, float(k) + 1, float(k) + 1.5f};
    rt.backend().write_view(rt.view_of(handles.back(), {}),
                            std::as_bytes(std::span<const float>(v)));
  }
  auto contents = [&](uint64_t h) {
    std::vector<float> v(4);
    rt.backend().read_view(rt.view_of(h, {}), std::as_writable_bytes(std::span<float>(v)));
    return v;
  };

  int failed_live = 0;
  CHECK_THROWS_AS(
      rt.move_to(std::make_unique<ScarceBackend>(make_backend("interp", bo), 2, failed_live)),
      std::bad_alloc);
  CHECK(failed_live == 0);  // the two streams it did make were freed
  CHECK(rt.backend().name() == "interp");
  for (int k = 0; k < 3; ++k) {
    const float f = float(k);
    CHECK(contents(handles[size_t(k)]) == std::vector<float>{f, f + 0.5f, f + 1, f + 1.5f});
  }

  int live = 0;
  CHECK(rt.move_to(std::make_unique<ScarceBackend>(make_backend("interp", bo), 3, live)) == 3);
  CHECK(rt.backend().name() == "scarce");
  CHECK(live == 3);
  for (int k = 0; k < 3; ++k) CHECK(contents(handles[size_t(k)])[3] == float(k) + 1.5f);
  rt.release(m, handles[0]);
  CHECK(live == 2);
}

TEST_CASE("session: loading an edited file again replaces its struct and typedef") {
  // The multi-unit rule (a header read again is the earlier declaration)
  // must not keep the old definitions when the REPL loads a file again.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("brook_session_reload_" + std::to_string(::getpid()) + ".br"))
                               .string();
  auto write = [&](const char* text) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(text, f);
    std::fclose(f);
  };
  Session s;
  write(
      "struct rec { int a; };\ntypedef struct rec rec_t;\n"
      "int width(void) { return (int)(sizeof(struct rec) + sizeof(rec_t)); }\n");
  REQUIRE(s.engine.compile_file(path));
  write(
      "struct rec { int a; int b; };\ntypedef struct rec rec_t;\n"
      "int width(void) { return (int)(sizeof(struct rec) + sizeof(rec_t)); }\n");
  REQUIRE(s.engine.compile_file(path));
  CHECK(s.eval("printf(\"%d\\n\", width());").status == Engine::EntryStatus::ok);
  CHECK(s.out.find("16\n") != std::string::npos);
  std::remove(path.c_str());
}
