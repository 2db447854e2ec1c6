// EngineOptions' caps through the embedding API (EMBEDDING.md): past
// max_memory or time_limit a call throws brook::Error naming the limit, and
// the engine keeps working.
#include <doctest/doctest.h>

#include <brook/brook.hpp>

#include "embed_error_of.hpp"

#include <string>
#include <vector>

namespace {

std::vector<brook::Backend> built_backends() {
  std::vector<brook::Backend> b{brook::Backend::interp};
#ifdef BROOK_HAVE_JIT
  b.push_back(brook::Backend::jit);
#endif
#ifdef BROOK_HAVE_OPENCL
  b.push_back(brook::Backend::opencl);
#endif
  return b;
}

using embed_test::error_of;

constexpr const char* kProgram = R"(
  kernel void twice(float a<>, out float b<>) { b = 2.0f * a; }
  kernel void spin(float a<>, out float b<>) {
    float x = a;
    while (x >= 0.0f) x = x + 1.0f;
    b = x;
  }
)";

}  // namespace

TEST_CASE("embed: max_memory caps streams and the host heap; the engine stays usable") {
  for (brook::Backend backend : built_backends()) {
    std::string out;
    brook::Engine eng{brook::Options{.backend = backend,
                                     .output = [&](int, std::string_view t) { out += t; },
                                     .max_memory = 6u << 20}};
    eng.load_source(kProgram);
    auto a = eng.stream<float>({1024, 1024});  // 4 MiB of 6
    std::string e = error_of([&] { (void)eng.stream<float>({1024, 1024}); });
    CHECK(e.find("past the memory limit of 6 MiB (4 MiB in use") != std::string::npos);
    e = error_of([&] { eng.eval("char* p = (char*)malloc(3 << 20);"); });
    CHECK(e.find("a heap block needs 3 MiB, past the memory limit of 6 MiB") != std::string::npos);
    // Small work still fits, and runs.
    auto x = eng.stream<float>({4});
    auto y = eng.stream<float>({4});
    x.read(std::vector<float>{1, 2, 3, 4});
    eng.call("twice", x, y);
    CHECK(y.to_vector() == std::vector<float>{2, 4, 6, 8});
  }
}

TEST_CASE("embed: time_limit stops a kernel that never ends; the engine stays usable") {
  for (brook::Backend backend : built_backends()) {
    brook::Engine eng{brook::Options{
        .backend = backend, .output = [](int, std::string_view) {}, .time_limit = 0.5}};
    eng.load_source(kProgram);
    auto x = eng.stream<float>({16});
    auto y = eng.stream<float>({16});
    std::string e = error_of([&] { eng.call("spin", x, y); });
    CHECK(e.find("the time limit of 0.5 s was reached") != std::string::npos);
    x.read(std::vector<float>(16, 1.5f));
    eng.call("twice", x, y);
    CHECK(y.to_vector() == std::vector<float>(16, 3.0f));
  }
}
