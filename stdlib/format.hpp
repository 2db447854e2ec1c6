// C printf formatting, byte for byte what glibc prints, for formats that come
// from user programs. The format is parsed and checked here; each conversion
// is then handed to snprintf as ONE validated spec with ONE argument of the
// right C type, so no untrusted format ever reaches the C library.
//
// Supported: flags `-+ #0'`, width and precision (digits or `*`), length
// modifiers hh h l ll z j t L, conversions d i u o x X c s p f F e E g G a A
// and %%. Rejected with an error: %n, positional arguments (%1$d), wide
// %lc/%ls, unknown conversions, widths/precisions above kMaxFieldWidth.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brook::stdlib {

// One value passed to printf after C's default argument promotions:
// bool/char/short/unsigned char/unsigned short/int → Int, unsigned int → UInt,
// long → Long, unsigned long → ULong, float/double → Double, any pointer,
// array or string literal → Pointer (its address in the program's memory).
struct FormatArg {
  enum class Kind : uint8_t { Int, UInt, Long, ULong, Double, Pointer };
  Kind kind = Kind::Int;
  int64_t i = 0;   // Int, Long
  uint64_t u = 0;  // UInt, ULong, Pointer (the program's address)
  double d = 0;    // Double

  static FormatArg of_int(int32_t v) { return {Kind::Int, v, 0, 0}; }
  static FormatArg of_uint(uint32_t v) { return {Kind::UInt, 0, v, 0}; }
  static FormatArg of_long(int64_t v) { return {Kind::Long, v, 0, 0}; }
  static FormatArg of_ulong(uint64_t v) { return {Kind::ULong, 0, v, 0}; }
  static FormatArg of_double(double v) { return {Kind::Double, 0, 0, v}; }
  static FormatArg of_pointer(uint64_t address) { return {Kind::Pointer, 0, address, 0}; }
};

// The C spelling of a kind, for messages: "int", "unsigned int", "long",
// "unsigned long", "double", "pointer".
std::string_view format_kind_name(FormatArg::Kind kind);

// A set of FormatArg kinds, one bit per kind.
struct FormatKinds {
  uint8_t bits = 0;
  bool contains(FormatArg::Kind k) const { return (bits >> static_cast<unsigned>(k)) & 1u; }
};

// One conversion of a format (`%%` yields none). `text` and `length` are
// views into the format string that was parsed.
struct FormatSpec {
  std::size_t offset = 0;           // where its '%' is in the format
  std::string_view text;            // the conversion as written, e.g. "%-8.3lf"
  char conversion = 0;              // 'd', 'f', 's', ...
  std::string_view length;          // "", "hh", "h", "l", "ll", "q", "z", "Z", "j", "t", "L"
  // An unknown conversion (`%\n`, `%y`): glibc prints it as written and
  // consumes no argument; gcc only warns. `%` ending the format prints nothing.
  bool verbatim = false;
  bool width_from_arg = false;      // `*` width: consumes an int argument first
  bool precision_from_arg = false;  // `.*` precision: consumes an int argument next
  FormatKinds accepts;              // what the value argument may be
  std::string_view expected;        // the C type it expects, e.g. "unsigned long"

  // Arguments consumed: the `*`s, then the value.
  int argument_count() const { return verbatim ? 0 : 1 + width_from_arg + precision_from_arg; }
  // What glibc prints for a verbatim conversion: '%', its flags in glibc's
  // order (#, ', + or space, -, 0 unless -), the width, the precision and the
  // conversion character; no length modifier ("%-5l]" prints "%-5]", "% %"
  // prints "% %"... as "%" when the character is '%'). Empty at the end.
  std::string verbatim_out;
};

inline constexpr int kMaxFieldWidth = 1 << 24;

// Parses `format` for a static check (sema, literal formats). On a malformed
// format returns what it parsed so far and sets `error` ("'%n' is not
// supported", "invalid conversion '%y'", ...); otherwise leaves `error` empty.
// A `*` argument must be an Int or UInt. Extra arguments are allowed (C does).
std::vector<FormatSpec> parse_format(std::string_view format, std::string& error);

// The static check of a literal format against the kinds of the call's
// arguments (after promotion): the first error format_printf would report, in
// the same words, or "" when they fit. Runtime-only problems (a `*` value too
// large, an unreadable string) are not checked.
std::string check_format_arguments(std::string_view format, std::span<const FormatArg::Kind> kinds,
                                   int first_argument_number = 2);

// The text, or an error message with empty text.
struct FormatResult {
  std::string text;
  std::string error;
  bool ok() const { return error.empty(); }
};

// Fetches the NUL-terminated string at a program address for %s; returns
// nullopt and sets `error` when it cannot (null or dangling pointer, ...).
using ReadString = std::function<std::optional<std::string>(uint64_t pointer, std::string& error)>;

// Formats like C's printf(format, args...). Errors read like gcc's -Wformat:
// "format '%d' expects an 'int' argument, but argument 2 is a 'double'",
// "too few arguments for format", "'%n' is not supported", "invalid
// conversion '%y'"; a failing `read_string` passes its message through. `first_argument_number` is
// the position of args[0] in the user's call, for messages ("argument 2"): 2 for printf, 3 for
// fprintf/sprintf, 4 for snprintf.
FormatResult format_printf(std::string_view format, std::span<const FormatArg> args,
                           const ReadString& read_string, int first_argument_number = 2);

}  // namespace brook::stdlib
