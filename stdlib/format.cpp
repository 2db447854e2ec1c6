#include "stdlib/format.hpp"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <utility>

namespace brook::stdlib {
namespace {

using Kind = FormatArg::Kind;

constexpr FormatKinds kinds(std::initializer_list<Kind> list) {
  FormatKinds set;
  for (Kind k : list) set.bits |= static_cast<uint8_t>(1u << static_cast<unsigned>(k));
  return set;
}
constexpr FormatKinds kIntKinds = kinds({Kind::Int, Kind::UInt});
constexpr FormatKinds kLongKinds = kinds({Kind::Long, Kind::ULong});
constexpr FormatKinds kDoubleKinds = kinds({Kind::Double});
constexpr FormatKinds kPointerKinds = kinds({Kind::Pointer});

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Built by appending: GCC 12's -Wrestrict misfires on "'" + std::string at -O3.
std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out.append(s);
  out += '\'';
  return out;
}

std::string with_article(std::string_view type) {
  bool vowel = !type.empty() && std::string_view("aeiou").find(type[0]) != std::string_view::npos;
  return (vowel ? "an '" : "a '") + std::string(type) + "'";
}

// A conversion as parsed, with what snprintf needs beyond FormatSpec.
struct Conversion {
  FormatSpec spec;
  std::string_view flags;
  std::optional<int> width;      // digits written in the format
  std::optional<int> precision;  // digits written (".": 0)
  std::size_t end = 0;           // one past the conversion character
};

// Reads a decimal field at `pos`; fails when it exceeds kMaxFieldWidth.
bool read_number(std::string_view f, std::size_t& pos, int& value) {
  long long n = 0;
  while (pos < f.size() && is_digit(f[pos])) {
    n = n * 10 + (f[pos++] - '0');
    if (n > kMaxFieldWidth) {
      // Consume the rest so the diagnostic quotes the whole number the user wrote.
      while (pos < f.size() && is_digit(f[pos])) ++pos;
      return false;
    }
  }
  value = static_cast<int>(n);
  return true;
}

// What the conversion accepts; false when the length modifier does not fit it.
bool classify(FormatSpec& spec, std::string& error) {
  std::string_view len = spec.length;
  bool small = len.empty() || len == "h" || len == "hh";
  // glibc also reads BSD's `q` (long long) and `Z` (size_t).
  bool wide_int = len == "l" || len == "ll" || len == "q" || len == "z" || len == "Z" ||
                  len == "j" || len == "t";
  switch (spec.conversion) {
    case 'd':
    case 'i':
      if (small) {
        spec.accepts = kIntKinds;
        spec.expected = "int";
        return true;
      }
      if (wide_int) {
        spec.accepts = kLongKinds;
        spec.expected = "long";
        return true;
      }
      break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      if (small) {
        spec.accepts = kIntKinds;
        spec.expected = "unsigned int";
        return true;
      }
      if (wide_int) {
        spec.accepts = kLongKinds;
        spec.expected = "unsigned long";
        return true;
      }
      break;
    case 'c':
    case 's':
      if (len == "l") {
        error = quoted(spec.text) + " (wide characters) is not supported";
        return false;
      }
      if (len.empty() && spec.conversion == 'c') {
        spec.accepts = kIntKinds;
        spec.expected = "int";
        return true;
      }
      if (len.empty()) {
        spec.accepts = kPointerKinds;
        spec.expected = "char*";
        return true;
      }
      break;
    case 'p':
      if (len.empty()) {
        spec.accepts = kPointerKinds;
        spec.expected = "void*";
        return true;
      }
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (len.empty() || len == "l" || len == "L") {
        spec.accepts = kDoubleKinds;
        spec.expected = "double";
        return true;
      }
      break;
    case 'n':
      error = quoted(spec.text) + " is not supported";
      return false;
    default:  // glibc prints an unknown conversion as written ("%%" with flags: "%")
      spec.verbatim = true;
      spec.width_from_arg = spec.precision_from_arg = false;
      return true;
  }
  error = "invalid conversion " + quoted(spec.text) + ": length modifier '" + std::string(len) +
          "' does not apply to '%" + spec.conversion + "'";
  return false;
}

// How glibc prints a conversion it does not know (FormatSpec::verbatim_out).
std::string glibc_unknown_text(const Conversion& c) {
  if (c.spec.conversion == '%') return "%";
  auto has = [&](char flag) { return c.flags.find(flag) != std::string_view::npos; };
  std::string out = "%";
  if (has('#')) out += '#';
  if (has('\'')) out += '\'';
  if (has('+'))
    out += '+';
  else if (has(' '))
    out += ' ';
  if (has('-')) out += '-';
  if (has('0') && !has('-')) out += '0';
  if (c.width && *c.width != 0) out += std::to_string(*c.width);
  if (c.precision) {
    out += '.';
    out += std::to_string(*c.precision);
  }
  out += c.spec.conversion;
  return out;
}

// Parses the conversion whose '%' is at `start` (not "%%").
std::optional<Conversion> parse_conversion(std::string_view f, std::size_t start,
                                           std::string& error) {
  Conversion c;
  std::size_t pos = start + 1;
  auto text_so_far = [&] { return f.substr(start, std::min(pos + 1, f.size()) - start); };

  // "%1$d": positional arguments are a POSIX extension we do not take.
  std::size_t digits = pos;
  while (digits < f.size() && is_digit(f[digits])) ++digits;
  if (digits > pos && digits < f.size() && f[digits] == '$') {
    pos = digits;
    error = "positional arguments (" + quoted(text_so_far()) + ") are not supported";
    return std::nullopt;
  }

  std::size_t flags_begin = pos;
  while (pos < f.size() && std::string_view("-+ #0'").find(f[pos]) != std::string_view::npos) ++pos;
  c.flags = f.substr(flags_begin, pos - flags_begin);

  if (pos < f.size() && f[pos] == '*') {
    c.spec.width_from_arg = true;
    ++pos;
  } else if (pos < f.size() && is_digit(f[pos])) {
    int w = 0;
    if (!read_number(f, pos, w)) {
      error = "field width in " + quoted(text_so_far()) + " is too large";
      return std::nullopt;
    }
    c.width = w;
  }
  if (pos < f.size() && f[pos] == '.') {
    ++pos;
    if (pos < f.size() && f[pos] == '*') {
      c.spec.precision_from_arg = true;
      ++pos;
    } else {
      int p = 0;
      if (!read_number(f, pos, p)) {
        error = "precision in " + quoted(text_so_far()) + " is too large";
        return std::nullopt;
      }
      c.precision = p;
    }
  }

  std::size_t length_begin = pos;
  if (pos < f.size()) {
    char l = f[pos];
    if (l == 'h' || l == 'l') {
      ++pos;
      if (pos < f.size() && f[pos] == l) ++pos;
    } else if (l == 'z' || l == 'j' || l == 't' || l == 'L' || l == 'q' || l == 'Z') {
      ++pos;
    }
  }
  c.spec.length = f.substr(length_begin, pos - length_begin);

  if (pos >= f.size()) {  // glibc prints nothing for a '%' that ends the format
    c.spec.verbatim = true;
    c.spec.offset = start;
    c.spec.text = f.substr(start);
    c.end = f.size();
    return c;
  }
  c.spec.conversion = f[pos++];
  c.spec.offset = start;
  c.spec.text = f.substr(start, pos - start);
  c.end = pos;
  if (!classify(c.spec, error)) return std::nullopt;
  if (c.spec.verbatim) c.spec.verbatim_out = glibc_unknown_text(c);
  return c;
}

// Calls snprintf with one validated spec and one argument.
template <class T>
bool c_format(std::string& out, const std::string& spec, T value) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (n < 0) return false;
  std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(n) + 1);
  std::snprintf(out.data() + at, static_cast<std::size_t>(n) + 1, spec.c_str(), value);
  out.resize(at + static_cast<std::size_t>(n));
  return true;
}

int32_t as_int(const FormatArg& a) {
  return a.kind == Kind::Int ? static_cast<int32_t>(a.i) : static_cast<int32_t>(a.u);
}
uint32_t as_uint(const FormatArg& a) {
  return a.kind == Kind::Int ? static_cast<uint32_t>(a.i) : static_cast<uint32_t>(a.u);
}
int64_t as_long(const FormatArg& a) {
  return a.kind == Kind::Long ? a.i : static_cast<int64_t>(a.u);
}
uint64_t as_ulong(const FormatArg& a) {
  return a.kind == Kind::Long ? static_cast<uint64_t>(a.i) : a.u;
}

// The one wording for an argument that is missing or of the wrong kind, shared
// by format_printf and check_format_arguments; empty when it fits.
std::string argument_error(const FormatSpec& spec, FormatKinds accepts, std::string_view expected,
                           std::string_view role, std::optional<Kind> actual, int number) {
  if (!actual) return "too few arguments for format";
  if (accepts.contains(*actual)) return {};
  return "format " + quoted(spec.text) + " expects " + with_article(expected) + " argument" +
         std::string(role) + ", but argument " + std::to_string(number) + " is " +
         with_article(format_kind_name(*actual));
}

}  // namespace

std::string_view format_kind_name(FormatArg::Kind kind) {
  switch (kind) {
    case Kind::Int:
      return "int";
    case Kind::UInt:
      return "unsigned int";
    case Kind::Long:
      return "long";
    case Kind::ULong:
      return "unsigned long";
    case Kind::Double:
      return "double";
    case Kind::Pointer:
      return "pointer";
  }
  return "value";
}

std::vector<FormatSpec> parse_format(std::string_view format, std::string& error) {
  error.clear();
  std::vector<FormatSpec> specs;
  std::size_t pos = 0;
  while ((pos = format.find('%', pos)) != std::string_view::npos) {
    if (pos + 1 < format.size() && format[pos + 1] == '%') {
      pos += 2;
      continue;
    }
    auto c = parse_conversion(format, pos, error);
    if (!c) break;
    specs.push_back(c->spec);
    pos = c->end;
  }
  return specs;
}

FormatResult format_printf(std::string_view format, std::span<const FormatArg> args,
                           const ReadString& read_string, int first_argument_number) {
  FormatResult result;
  std::string& out = result.text;
  auto fail = [&](std::string message) {
    out.clear();
    result.error = std::move(message);
    return result;
  };
  std::size_t next_arg = 0;
  // Takes the next argument, checking its kind; nullptr (and an error) if not.
  auto take = [&](const FormatSpec& spec, FormatKinds accepts, std::string_view expected,
                  std::string_view role, std::string& error) -> const FormatArg* {
    std::optional<Kind> actual;
    if (next_arg < args.size()) actual = args[next_arg].kind;
    int number = first_argument_number + static_cast<int>(next_arg);
    error = argument_error(spec, accepts, expected, role, actual, number);
    return error.empty() ? &args[next_arg++] : nullptr;
  };

  std::size_t pos = 0;
  while (pos < format.size()) {
    std::size_t percent = format.find('%', pos);
    if (percent == std::string_view::npos) {
      out.append(format.substr(pos));
      break;
    }
    out.append(format.substr(pos, percent - pos));
    if (percent + 1 < format.size() && format[percent + 1] == '%') {
      out.push_back('%');
      pos = percent + 2;
      continue;
    }
    std::string error;
    auto c = parse_conversion(format, percent, error);
    if (!c) return fail(error);
    const FormatSpec& spec = c->spec;
    pos = c->end;
    if (spec.verbatim) {
      out.append(spec.verbatim_out);
      continue;
    }

    std::string flags(c->flags);
    std::optional<int> width = c->width;
    std::optional<int> precision = c->precision;
    if (spec.width_from_arg) {
      const FormatArg* a = take(spec, kIntKinds, "int", " for the field width", error);
      if (!a) return fail(error);
      long long w = as_int(*a);
      if (w < 0) {  // C: a negative `*` width is the '-' flag and its magnitude
        flags.push_back('-');
        w = -w;
      }
      if (w > kMaxFieldWidth) return fail("field width " + std::to_string(w) + " is too large");
      width = static_cast<int>(w);
    }
    if (spec.precision_from_arg) {
      const FormatArg* a = take(spec, kIntKinds, "int", " for the precision", error);
      if (!a) return fail(error);
      int p = as_int(*a);
      if (p > kMaxFieldWidth) return fail("precision " + std::to_string(p) + " is too large");
      if (p >= 0) precision = p;  // C: a negative `*` precision is taken as omitted
    }
    const FormatArg* value = take(spec, spec.accepts, spec.expected, "", error);
    if (!value) return fail(error);

    // The spec snprintf sees: same flags/width/precision, a length modifier
    // naming the C type we pass (l/ll/z/j/t are all 64-bit on LP64).
    std::string c_spec = "%" + flags;
    if (width) c_spec += std::to_string(*width);
    if (precision) {
      c_spec += '.';  // appended, not "." + …: GCC 12's -Wrestrict misfires on that at -O3
      c_spec += std::to_string(*precision);
    }
    const bool wide_int = value->kind == Kind::Long || value->kind == Kind::ULong;
    if (wide_int)
      c_spec += "ll";
    else if (spec.length == "h" || spec.length == "hh" || spec.length == "L")
      c_spec += spec.length;
    c_spec.push_back(spec.conversion);

    bool ok = true;
    switch (spec.conversion) {
      case 'd':
      case 'i':
      case 'c':
        ok = wide_int ? c_format(out, c_spec, static_cast<long long>(as_long(*value)))
                      : c_format(out, c_spec, static_cast<int>(as_int(*value)));
        break;
      case 'u':
      case 'o':
      case 'x':
      case 'X':
        ok = wide_int ? c_format(out, c_spec, static_cast<unsigned long long>(as_ulong(*value)))
                      : c_format(out, c_spec, static_cast<unsigned>(as_uint(*value)));
        break;
      case 'p':
        ok = c_format(out, c_spec, reinterpret_cast<void*>(static_cast<uintptr_t>(value->u)));
        break;
      case 's': {
        std::optional<std::string> s = read_string ? read_string(value->u, error) : std::nullopt;
        if (!s) {
          return fail(error.empty() ? "cannot read the string for " + quoted(spec.text) : error);
        }
        ok = c_format(out, c_spec, s->c_str());
        break;
      }
      default:  // the floating conversions
        ok = spec.length == "L" ? c_format(out, c_spec, static_cast<long double>(value->d))
                                : c_format(out, c_spec, value->d);
        break;
    }
    if (!ok) return fail("cannot format " + quoted(spec.text));
  }
  return result;
}

std::string check_format_arguments(std::string_view format, std::span<const FormatArg::Kind> kinds,
                                   int first_argument_number) {
  // The conversions before a malformed one are checked first, as format_printf
  // would meet them.
  std::string parse_error;
  std::vector<FormatSpec> specs = parse_format(format, parse_error);
  std::string error;
  std::size_t next = 0;
  auto check = [&](const FormatSpec& spec, FormatKinds accepts, std::string_view expected,
                   std::string_view role) {
    std::optional<Kind> actual;
    if (next < kinds.size()) actual = kinds[next];
    error = argument_error(spec, accepts, expected, role, actual,
                           first_argument_number + static_cast<int>(next));
    ++next;
    return error.empty();
  };
  for (const FormatSpec& spec : specs) {
    if (spec.verbatim) continue;
    if (spec.width_from_arg && !check(spec, kIntKinds, "int", " for the field width")) return error;
    if (spec.precision_from_arg && !check(spec, kIntKinds, "int", " for the precision"))
      return error;
    if (!check(spec, spec.accepts, spec.expected, "")) return error;
  }
  return parse_error;
}

}  // namespace brook::stdlib
