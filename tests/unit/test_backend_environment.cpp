// The BROOK_* environment variables reach the backends only through
// backends/environment.hpp and each backend's options; these tests set the
// variables for one scope and check what the readers make of them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "backends/environment.hpp"
#ifdef BROOK_HAVE_JIT
#include "jit/jit_tuning.hpp"
#endif

using namespace brook;

namespace {

// Sets (or, with nullopt, unsets) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved_)
      ::setenv(name_, saved_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

}  // namespace

TEST_CASE("environment: text, flags and numbers") {
  {
    ScopedEnv v("BROOK_TEST_VARIABLE", "");
    CHECK_FALSE(environment::text("BROOK_TEST_VARIABLE"));
    CHECK(environment::flag("BROOK_TEST_VARIABLE", true));
    CHECK_FALSE(environment::number("BROOK_TEST_VARIABLE"));
  }
  {
    ScopedEnv v("BROOK_TEST_VARIABLE", "0");
    CHECK(environment::text("BROOK_TEST_VARIABLE") == "0");
    CHECK_FALSE(environment::flag("BROOK_TEST_VARIABLE", true));
    CHECK(environment::number("BROOK_TEST_VARIABLE") == 0);
  }
  for (const char* bad : {"abc", "12x", "-3"}) {
    ScopedEnv v("BROOK_TEST_VARIABLE", bad);
    CHECK_FALSE(environment::number("BROOK_TEST_VARIABLE"));
    CHECK(environment::flag("BROOK_TEST_VARIABLE", false) == false);
  }
  ScopedEnv v("BROOK_TEST_VARIABLE", "16");
  CHECK(environment::number("BROOK_TEST_VARIABLE") == 16);
}

TEST_CASE("environment: the cache folder follows XDG_CACHE_HOME, HOME and BROOK_CACHE") {
  ScopedEnv cache("BROOK_CACHE", std::nullopt);
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/x/cache");
    CHECK(environment::cache_dir("") == "/x/cache/brook");
    CHECK(environment::cache_dir("opencl") == "/x/cache/brook/opencl");
    ScopedEnv off("BROOK_CACHE", "0");
    CHECK(environment::cache_dir("") == "");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  {
    ScopedEnv home("HOME", "/home/u");
    CHECK(environment::cache_dir("") == "/home/u/.cache/brook");
  }
  ScopedEnv home("HOME", std::nullopt);
  CHECK(environment::cache_dir("opencl") == "");
}

#ifdef BROOK_HAVE_JIT
TEST_CASE(
    "environment: JitTuning reads the BROOK_JIT_* variables, and only from_environment does") {
  ScopedEnv spmd("BROOK_JIT_SPMD", "0"), width("BROOK_JIT_SPMD_WIDTH", "8"),
      always("BROOK_JIT_SPMD_ALWAYS", "1");
  ScopedEnv dump("BROOK_JIT_DUMP", "2"), pipeline("BROOK_JIT_PIPELINE", "function(instcombine)");
  JitTuning t = JitTuning::from_environment();
  CHECK_FALSE(t.spmd.enabled);
  CHECK(t.spmd.width == 8);
  CHECK(t.spmd.always);
  CHECK(t.dump == 2);
  CHECK(t.scalar_pipeline == "function(instcombine)");
  // A default JitTuning is brook's defaults whatever the environment says.
  JitTuning d;
  CHECK(d.spmd.enabled);
  CHECK(d.spmd.width == 0);
  CHECK(d.scalar_pipeline.empty());
  {
    ScopedEnv odd("BROOK_JIT_SPMD_WIDTH", "12");  // not a gang width
    CHECK(JitTuning::from_environment().spmd.width == 0);
  }
}
#endif
