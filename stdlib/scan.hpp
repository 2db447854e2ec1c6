// scanf's format engine (C99 7.19.6.2, with glibc's choices where C leaves
// room): the directives of a format applied to a character source, each
// converted value handed to the caller, who checks and stores it. Shared by
// scanf, fscanf and sscanf; independent of the interpreter.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace brook::stdlib {

// Characters to scan: get() returns the next one (0..255) or -1 at the end;
// unget(c) pushes back the one character get() returned last.
class ScanSource {
 public:
  virtual ~ScanSource() = default;
  virtual int get() = 0;
  virtual void unget(int c) = 0;
};

// One converted value. `length` is the length modifier as written ("", "hh",
// "h", "l", "ll", "j", "z", "t", "L"); `conv` the conversion character
// (d i o u x X n a e f g E G c s [; p is not supported).
struct ScanValue {
  enum class Kind { Signed, Unsigned, Floating, Chars } kind = Kind::Signed;
  char conv = 'd';
  std::string length;
  std::string spec;  // the directive as written ("%5lf"), for messages
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string chars;     // %c %s %[
  bool terminate = false;  // %s and %[ store a terminating NUL, %c does not
};

// Stores value number `index` (0-based, counting only assigned ones) and
// returns "" or a runtime error message (a wrong pointer type, a bad pointer).
using ScanStore = std::function<std::string(size_t index, const ScanValue& v)>;

struct ScanResult {
  int count = 0;      // what scanf returns: assignments made, or -1 (EOF)
  std::string error;  // non-empty: a runtime error (bad format, bad argument)
  size_t assigned = 0;  // values handed to the store
};

ScanResult scan_format(std::string_view format, ScanSource& in, const ScanStore& store);

}  // namespace brook::stdlib
