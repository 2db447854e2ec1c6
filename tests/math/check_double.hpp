// check_math --double: one double function of LANGUAGE.md §10 against MPFR.
#pragma once

#include <cstdint>
#include <string>

namespace brook::math_check {

struct DoubleCheck {
  std::string fn;     // exp, sin, pow, ...
  bool brook = true;  // brook's function, or glibc's
  uint64_t pairs = 1000000;
  uint64_t seed = 1;
  int list = 10;
};
// Prints the counts; exit status: 1 when a result is more than one ulp off
// (or, for brook, a NaN is not 0x7ff8000000000000), 2 for an unknown fn.
int run_double(const DoubleCheck& o);

}  // namespace brook::math_check
