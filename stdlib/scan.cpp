#include "stdlib/scan.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>

namespace brook::stdlib {
namespace {

bool is_space(int c) { return c >= 0 && std::isspace(c); }

// Reads characters while they can extend a number, at most `width`; the first
// one that cannot is pushed back (glibc keeps what it consumed, as here).
class Reader {
 public:
  Reader(ScanSource& in, size_t width) : in_(in), left_(width) {}
  int peek() {
    if (left_ == 0) return -1;
    if (!have_) {
      c_ = in_.get();
      have_ = true;
    }
    return c_;
  }
  void take() {
    text += static_cast<char>(c_);
    have_ = false;
    --left_;
  }
  bool take_if(const char* set) {
    int c = peek();
    if (c < 0) return false;
    for (const char* s = set; *s; ++s) {
      if (std::tolower(c) == *s) {
        take();
        return true;
      }
    }
    return false;
  }
  void finish() {
    if (have_ && c_ >= 0) in_.unget(c_);
    have_ = false;
  }
  bool hit_end() const { return have_ && c_ < 0; }
  std::string text;

 private:
  ScanSource& in_;
  size_t left_;
  int c_ = -1;
  bool have_ = false;
};

bool is_digit_in(int c, int base) {
  if (c < 0) return false;
  if (base == 16) return std::isxdigit(c) != 0;
  if (base == 8) return c >= '0' && c <= '7';
  return c >= '0' && c <= '9';
}

// An integer's text for strtoll/strtoull; base 0 (%i) detects 0x and 0.
std::string read_integer(Reader& r, int& base) {
  r.take_if("+-");
  if (base == 0 || base == 16) {
    if (r.peek() == '0') {
      r.take();
      if (r.take_if("x")) {
        base = 16;
      } else if (base == 0) {
        base = 8;
      }
      while (is_digit_in(r.peek(), base)) r.take();
      return r.text;
    }
    if (base == 0) base = 10;
  }
  while (is_digit_in(r.peek(), base)) r.take();
  return r.text;
}

void read_float(Reader& r) {
  r.take_if("+-");
  if (r.take_if("i")) {  // inf, infinity
    for (const char* s = "nf"; *s && r.take_if(std::string(1, *s).c_str()); ++s) {}
    for (const char* s = "inity"; *s && r.take_if(std::string(1, *s).c_str()); ++s) {}
    return;
  }
  if (r.take_if("n")) {  // nan, nan(chars)
    r.take_if("a") && r.take_if("n");
    if (r.peek() == '(') {
      r.take();
      while (r.peek() >= 0 && (std::isalnum(r.peek()) || r.peek() == '_')) r.take();
      if (r.peek() == ')') r.take();
    }
    return;
  }
  int base = 10;
  if (r.peek() == '0') {
    r.take();
    if (r.take_if("x")) base = 16;
  }
  while (is_digit_in(r.peek(), base)) r.take();
  if (r.peek() == '.') {
    r.take();
    while (is_digit_in(r.peek(), base)) r.take();
  }
  if (r.take_if(base == 16 ? "p" : "e")) {
    r.take_if("+-");
    while (is_digit_in(r.peek(), 10)) r.take();
  }
}

// %[...]: the set, from just after '['; `pos` ends after the closing ']'.
bool parse_set(std::string_view f, size_t& pos, bool (&in_set)[256]) {
  bool negate = false;
  if (pos < f.size() && f[pos] == '^') {
    negate = true;
    ++pos;
  }
  bool member[256] = {};
  size_t start = pos;
  while (pos < f.size() && (f[pos] != ']' || pos == start)) {
    unsigned char c = static_cast<unsigned char>(f[pos]);
    if (pos + 2 < f.size() && f[pos + 1] == '-' && f[pos + 2] != ']' &&
        static_cast<unsigned char>(f[pos + 2]) >= c) {
      for (int k = c; k <= static_cast<unsigned char>(f[pos + 2]); ++k) member[k] = true;
      pos += 3;
    } else {
      member[c] = true;
      ++pos;
    }
  }
  if (pos >= f.size()) return false;
  ++pos;  // ']'
  for (int k = 0; k < 256; ++k) in_set[k] = member[k] != negate;
  return true;
}

}  // namespace

ScanResult scan_format(std::string_view f, ScanSource& in, const ScanStore& store) {
  ScanResult res;
  int consumed = 0;  // characters read, for %n
  struct Counting : ScanSource {
    ScanSource& in;
    int& n;
    Counting(ScanSource& s, int& c) : in(s), n(c) {}
    int get() override {
      int c = in.get();
      if (c >= 0) ++n;
      return c;
    }
    void unget(int c) override {
      in.unget(c);
      --n;
    }
  } src(in, consumed);
  bool converted = false;  // some directive converted: an end of input is no longer EOF
  auto input_failure = [&]() {
    if (!converted) res.count = -1;
    return res;
  };
  auto skip_space = [&]() {
    int c;
    do c = src.get();
    while (is_space(c));
    if (c < 0) return false;
    src.unget(c);
    return true;
  };
  size_t pos = 0;
  while (pos < f.size()) {
    unsigned char fc = static_cast<unsigned char>(f[pos]);
    if (std::isspace(fc)) {
      while (pos < f.size() && std::isspace(static_cast<unsigned char>(f[pos]))) ++pos;
      int c;
      do c = src.get();
      while (is_space(c));
      if (c >= 0) src.unget(c);
      continue;
    }
    if (fc != '%') {
      int c = src.get();
      if (c < 0) return input_failure();
      if (c != fc) {
        src.unget(c);
        return res;
      }
      ++pos;
      continue;
    }
    size_t start = pos++;
    if (pos < f.size() && f[pos] == '%') {
      ++pos;
      if (!skip_space()) return input_failure();
      int c = src.get();
      if (c != '%') {
        src.unget(c);
        return res;
      }
      continue;
    }
    bool suppress = false;
    if (pos < f.size() && f[pos] == '*') {
      suppress = true;
      ++pos;
    }
    size_t width = 0;
    while (pos < f.size() && f[pos] >= '0' && f[pos] <= '9') {
      width = width * 10 + static_cast<size_t>(f[pos++] - '0');
      if (width > INT_MAX) width = INT_MAX;
    }
    ScanValue v;
    while (pos < f.size() && std::string_view("hljztL").find(f[pos]) != std::string_view::npos) {
      v.length += f[pos++];
    }
    if (pos >= f.size()) {
      res.error = "incomplete conversion '" + std::string(f.substr(start)) + "' in scanf format";
      return res;
    }
    v.conv = f[pos++];
    bool in_set[256] = {};
    if (v.conv == '[' && !parse_set(f, pos, in_set)) {
      res.error = "unterminated '%[' in scanf format";
      return res;
    }
    v.spec = std::string(f.substr(start, pos - start));
    static constexpr std::string_view kLengths[] = {"", "hh", "h", "l", "ll", "j", "z", "t", "L"};
    bool length_ok = false;
    for (std::string_view l : kLengths) length_ok |= v.length == l;
    if (!length_ok) {
      res.error = "invalid length modifier in scanf conversion '" + v.spec + "'";
      return res;
    }
    auto deliver = [&]() -> bool {
      converted = true;
      if (suppress) return true;
      std::string e = store(res.assigned, v);
      if (!e.empty()) {
        res.error = e;
        return false;
      }
      ++res.assigned;
      if (v.conv != 'n') ++res.count;
      return true;
    };
    switch (v.conv) {
      case 'n':
        v.kind = ScanValue::Kind::Signed;
        v.i = consumed;
        if (!suppress) {
          std::string e = store(res.assigned, v);
          if (!e.empty()) {
            res.error = e;
            return res;
          }
          ++res.assigned;
        }
        continue;
      case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
        if (!skip_space()) return input_failure();
        int base = v.conv == 'd' || v.conv == 'u' ? 10 : v.conv == 'i' ? 0 : v.conv == 'o' ? 8 : 16;
        Reader r(src, width ? width : SIZE_MAX);
        std::string text = read_integer(r, base);
        bool ended = r.hit_end();
        r.finish();
        size_t digits = text.size() - (!text.empty() && (text[0] == '+' || text[0] == '-'));
        if (digits == 0) {
          if (ended && text.empty()) return input_failure();
          return res;
        }
        errno = 0;
        if (v.conv == 'd' || v.conv == 'i') {
          v.kind = ScanValue::Kind::Signed;
          v.i = std::strtoll(text.c_str(), nullptr, base);
        } else {
          v.kind = ScanValue::Kind::Unsigned;
          v.u = std::strtoull(text.c_str(), nullptr, base);
        }
        if (!deliver()) return res;
        continue;
      }
      case 'a': case 'e': case 'f': case 'g': case 'A': case 'E': case 'F': case 'G': {
        if (v.length == "L") {
          res.error = "scanf conversion '" + v.spec + "' (long double) is not supported";
          return res;
        }
        if (!skip_space()) return input_failure();
        Reader r(src, width ? width : SIZE_MAX);
        read_float(r);
        bool ended = r.hit_end();
        r.finish();
        char* end = nullptr;
        v.kind = ScanValue::Kind::Floating;
        v.d = std::strtod(r.text.c_str(), &end);
        if (r.text.empty() || end != r.text.c_str() + r.text.size()) {
          if (ended && r.text.empty()) return input_failure();
          return res;
        }
        if (!deliver()) return res;
        continue;
      }
      case 'c': {
        size_t n = width ? width : 1;
        v.kind = ScanValue::Kind::Chars;
        int c = src.get();
        if (c < 0) return input_failure();
        v.chars += static_cast<char>(c);
        while (v.chars.size() < n && (c = src.get()) >= 0) v.chars += static_cast<char>(c);
        if (!deliver()) return res;
        continue;
      }
      case 's':
      case '[': {
        if (v.conv == 's' && !skip_space()) return input_failure();
        v.kind = ScanValue::Kind::Chars;
        v.terminate = true;
        size_t n = width ? width : SIZE_MAX;
        int c = -1;
        while (v.chars.size() < n) {
          c = src.get();
          bool ok = c >= 0 && (v.conv == 's' ? !is_space(c) : in_set[c]);
          if (!ok) {
            if (c >= 0) src.unget(c);
            break;
          }
          v.chars += static_cast<char>(c);
        }
        if (v.chars.empty()) {
          if (c < 0) return input_failure();
          return res;
        }
        if (!deliver()) return res;
        continue;
      }
      default:
        res.error = "unknown scanf conversion '" + v.spec + "'";
        return res;
    }
  }
  return res;
}

}  // namespace brook::stdlib
