// JitCompiler's pipeline choice (brook.spmd modules keep their vectors) and
// its disk cache key, on hand-built modules so the checks do not depend on
// the code generator.
#include <doctest/doctest.h>

#ifdef BROOK_HAVE_JIT

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "jit/compiler.hpp"

using brook::jit::JitCompiler;

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// entry(a, b): c = load <16 x float> a + load <16 x float> b, then each lane
// goes to an opaque call. Call arguments are no SLP seed, so a scalarised
// module stays scalar, and the vector add has 16 users, so InstCombine has no
// reason to split it either.
std::string lanes_to_calls(bool spmd) {
  std::string ir =
      "declare void @brook_test_sink(float)\n"
      "define void @$entry(ptr %a, ptr %b) {\n"
      "  %x = load <16 x float>, ptr %a, align 64\n"
      "  %y = load <16 x float>, ptr %b, align 64\n"
      "  %c = fadd <16 x float> %x, %y\n";
  for (int i = 0; i < 16; ++i) {
    auto n = std::to_string(i);
    ir += "  %e" + n + " = extractelement <16 x float> %c, i32 " + n + "\n";
    ir += "  call void @brook_test_sink(float %e" + n + ")\n";
  }
  ir += "  ret void\n}\n";
  if (spmd) ir += "!brook.spmd = !{}\n";
  return ir;
}

// float entry(float x): x * k.
std::string times(const std::string& k) {
  return "define float @$entry(float %x) {\n  %r = fmul float %x, " + k + "\n  ret float %r\n}\n";
}

}  // namespace

TEST_CASE("jit compile: a brook.spmd module keeps its <16 x float> operations, others are scalarised") {
  JitCompiler c({}, "");
  auto spmd = c.optimized_ir(JitCompiler::emit_ir_text(lanes_to_calls(true)));
  auto plain = c.optimized_ir(JitCompiler::emit_ir_text(lanes_to_calls(false)));
  CHECK(count(spmd, "fadd <16 x float>") == 1);
  CHECK(count(spmd, "load <16 x float>") == 2);
  CHECK(count(plain, "<16 x float>") == 0);
  CHECK(count(plain, "fadd float") == 16);
  CHECK(count(plain, "call void @brook_test_sink") == 16);
}

TEST_CASE("jit compile: a second compiler answers from the disk cache, keyed by module and pipeline") {
  auto dir = std::filesystem::temp_directory_path() / ("brook_jit_compile_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto objects = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir / "brook")) n += e.path().extension() == ".o";
    return n;
  };
  for (int run = 0; run < 2; ++run) {
    JitCompiler c({}, (dir / "brook").string());
    REQUIRE(c.cache_dir() == (dir / "brook").string());
    auto r3 = c.get(JitCompiler::emit_ir_text(times("3.0")));
    REQUIRE(r3.address);
    CHECK(r3.compiled == (run == 0));
    CHECK(reinterpret_cast<float (*)(float)>(r3.address)(2.0f) == 6.0f);
    // The same module again in one process: the in-memory table answers.
    auto again = c.get(JitCompiler::emit_ir_text(times("3.0")));
    CHECK(again.address == r3.address);
    CHECK_FALSE(again.compiled);
    auto r5 = c.get(JitCompiler::emit_ir_text(times("5.0")));
    CHECK(r5.compiled == (run == 0));
    CHECK(reinterpret_cast<float (*)(float)>(r5.address)(2.0f) == 10.0f);
  }
  CHECK(objects() == 2);
  {
    // Another pipeline is another key: its objects are never taken for the
    // default pipeline's, nor the other way round.
    brook::JitTuning tuning;
    tuning.scalar_pipeline = "function(instcombine)";
    JitCompiler c(tuning, (dir / "brook").string());
    auto r3 = c.get(JitCompiler::emit_ir_text(times("3.0")));
    CHECK(r3.compiled);
    CHECK(reinterpret_cast<float (*)(float)>(r3.address)(2.0f) == 6.0f);
  }
  CHECK(objects() == 3);
  CHECK_FALSE(std::string(JitCompiler::pipeline_version()).empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("jit compile: bad modules are errors, not crashes") {
  JitCompiler c({}, "");
  CHECK_THROWS_AS(c.get(JitCompiler::emit_ir_text("define void @not_the_entry() {\n  ret void\n}\n")),
                  std::runtime_error);
  CHECK_THROWS_AS(c.get(JitCompiler::emit_ir_text("define void @$entry( {")), std::runtime_error);
  // The compiler stays usable afterwards.
  auto r = c.get(JitCompiler::emit_ir_text(times("4.0")));
  REQUIRE(r.address);
  CHECK(reinterpret_cast<float (*)(float)>(r.address)(2.0f) == 8.0f);
}

#endif  // BROOK_HAVE_JIT
