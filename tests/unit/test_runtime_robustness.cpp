// Runtime robustness (issues 3 and 4): findings of tests/fuzz/fuzz_runtime.sh,
// each pinned so the fix cannot regress.
#include <doctest/doctest.h>

#include <string>

#include "stdlib/format.hpp"

using brook::stdlib::parse_format;

TEST_CASE("robustness: an oversized printf width or precision is quoted whole") {
  // The diagnostic used to cut the number at the digit that overflowed.
  std::string error;
  parse_format("%.2147483647f\n", error);
  CHECK(error == "precision in '%.2147483647f' is too large");
  error.clear();
  parse_format("x %99999999999999999999999d", error);
  CHECK(error == "field width in '%99999999999999999999999d' is too large");
  error.clear();
  parse_format("%16777217d", error);  // one past kMaxFieldWidth
  CHECK(error == "field width in '%16777217d' is too large");
  error.clear();
  parse_format("%16777216d", error);  // kMaxFieldWidth itself is accepted
  CHECK(error.empty());
}
