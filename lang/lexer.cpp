// The lexer: bytes → C tokens. It never reads past the buffer (every peek is
// bounds-checked), reports malformed input and keeps going.
#include "lang/lexer.hpp"

#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>

namespace brook {
namespace {

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }
bool is_hex_digit(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(unsigned char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
bool is_horizontal_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

const std::unordered_map<std::string_view, Tok>& keyword_table() {
  static const std::unordered_map<std::string_view, Tok> table = {
#define BROOK_KW_ENTRY(name, spelling) {spelling, Tok::name},
      BROOK_KEYWORDS(BROOK_KW_ENTRY)
#undef BROOK_KW_ENTRY
  };
  return table;
}

// Punctuators, longest first so that the first match is the maximal munch.
struct Punct {
  std::string_view spelling;
  Tok kind;
};
constexpr Punct kPunctuators[] = {
    {"<<=", Tok::less_less_equal}, {">>=", Tok::greater_greater_equal},
    {"...", Tok::ellipsis},        {"->", Tok::arrow},
    {"++", Tok::plus_plus},        {"--", Tok::minus_minus},
    {"<<", Tok::less_less},        {">>", Tok::greater_greater},
    {"<=", Tok::less_equal},       {">=", Tok::greater_equal},
    {"==", Tok::equal_equal},      {"!=", Tok::exclaim_equal},
    {"&&", Tok::amp_amp},          {"||", Tok::pipe_pipe},
    {"+=", Tok::plus_equal},       {"-=", Tok::minus_equal},
    {"*=", Tok::star_equal},       {"/=", Tok::slash_equal},
    {"%=", Tok::percent_equal},    {"&=", Tok::amp_equal},
    {"|=", Tok::pipe_equal},       {"^=", Tok::caret_equal},
    {"##", Tok::hash_hash},        {"(", Tok::l_paren},
    {")", Tok::r_paren},           {"{", Tok::l_brace},
    {"}", Tok::r_brace},           {"[", Tok::l_square},
    {"]", Tok::r_square},          {";", Tok::semi},
    {",", Tok::comma},             {".", Tok::period},
    {"?", Tok::question},          {":", Tok::colon},
    {"+", Tok::plus},              {"-", Tok::minus},
    {"*", Tok::star},              {"/", Tok::slash},
    {"%", Tok::percent},           {"&", Tok::amp},
    {"|", Tok::pipe},              {"^", Tok::caret},
    {"~", Tok::tilde},             {"!", Tok::exclaim},
    {"<", Tok::less},              {">", Tok::greater},
    {"=", Tok::equal},             {"#", Tok::hash},
};

// How a byte is shown in "stray ... in program": printable as itself,
// anything else as a C octal escape (like GCC).
std::string show_byte(unsigned char c) {
  if (c >= 0x20 && c < 0x7f) return std::string(1, static_cast<char>(c));
  std::string s = "\\";
  s += static_cast<char>('0' + ((c >> 6) & 7));
  s += static_cast<char>('0' + ((c >> 3) & 7));
  s += static_cast<char>('0' + (c & 7));
  return s;
}

class Lexer {
 public:
  // `fixed_loc`, when set, is given to every token (fragments lexed by the preprocessor).
  Lexer(std::string_view text, uint32_t file, DiagnosticEngine& diags,
        std::optional<SourceLoc> fixed_loc)
      : text_(text), file_(file), diags_(diags), fixed_loc_(fixed_loc) {}

  std::vector<Token> run(bool append_eof) {
    std::vector<Token> out;
    bool line_start = true;
    bool space = false;
    for (;;) {
      skip_trivia(line_start, space);
      if (pos_ >= text_.size()) break;
      Token tok;
      tok.loc = loc_at(pos_);
      tok.at_line_start = line_start;
      tok.space_before = space;
      lex_token(tok);
      out.push_back(std::move(tok));
      line_start = false;
      space = false;
    }
    if (append_eof) {
      Token eof;
      eof.kind = Tok::eof;
      eof.loc = loc_at(text_.size());
      eof.at_line_start = true;
      eof.space_before = space;
      out.push_back(std::move(eof));
    }
    return out;
  }

 private:
  unsigned char peek(size_t ahead = 0) const {
    size_t p = pos_ + ahead;
    return p < text_.size() ? static_cast<unsigned char>(text_[p]) : '\0';
  }
  bool at_end(size_t ahead = 0) const { return pos_ + ahead >= text_.size(); }

  SourceLoc loc_at(size_t p) const {
    if (fixed_loc_) return *fixed_loc_;
    return SourceLoc{file_, line_, static_cast<uint32_t>(p - line_begin_ + 1)};
  }

  void newline_at(size_t p) {  // text_[p] == '\n'
    ++line_;
    line_begin_ = p + 1;
  }

  // Length of a backslash-newline splice at pos_ + ahead (0 if none).
  size_t splice_length(size_t ahead = 0) const {
    if (peek(ahead) != '\\' || at_end(ahead)) return 0;
    if (peek(ahead + 1) == '\n' && !at_end(ahead + 1)) return 2;
    if (peek(ahead + 1) == '\r' && peek(ahead + 2) == '\n' && !at_end(ahead + 2)) return 3;
    return 0;
  }

  void skip_trivia(bool& line_start, bool& space) {
    while (!at_end()) {
      unsigned char c = peek();
      if (c == '\n') {
        newline_at(pos_);
        ++pos_;
        line_start = true;
        space = true;
      } else if (is_horizontal_space(c)) {
        ++pos_;
        space = true;
      } else if (size_t n = splice_length()) {
        // A continued line continues the logical line: it is not a line start.
        newline_at(pos_ + n - 1);
        pos_ += n;
        space = true;
      } else if (c == '/' && peek(1) == '/' && !at_end(1)) {
        skip_line_comment();
        space = true;
      } else if (c == '/' && peek(1) == '*' && !at_end(1)) {
        skip_block_comment();
        space = true;
      } else {
        return;
      }
    }
  }

  void skip_line_comment() {
    pos_ += 2;
    while (!at_end() && peek() != '\n') {
      if (size_t n = splice_length()) {
        newline_at(pos_ + n - 1);
        pos_ += n;
      } else {
        ++pos_;
      }
    }
  }

  void skip_block_comment() {
    SourceLoc start = loc_at(pos_);
    pos_ += 2;
    while (!at_end()) {
      if (peek() == '*' && peek(1) == '/' && !at_end(1)) {
        pos_ += 2;
        return;
      }
      if (peek() == '\n') newline_at(pos_);
      ++pos_;
    }
    diags_.error(start, "unterminated comment");
  }

  void lex_token(Token& tok) {
    size_t start = pos_;
    unsigned char c = peek();
    if (is_ident_start(c)) {
      while (!at_end() && is_ident_char(peek())) ++pos_;
      tok.text = std::string(text_.substr(start, pos_ - start));
      auto it = keyword_table().find(tok.text);
      tok.kind = it != keyword_table().end() ? it->second : Tok::identifier;
      return;
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)) && !at_end(1))) {
      lex_number(tok);
      return;
    }
    if (c == '"' || c == '\'') {
      lex_quoted(tok, static_cast<char>(c));
      return;
    }
    for (const Punct& p : kPunctuators) {
      if (text_.substr(pos_, p.spelling.size()) == p.spelling) {
        pos_ += p.spelling.size();
        tok.kind = p.kind;
        tok.text = std::string(p.spelling);
        return;
      }
    }
    // A run of bytes that start no token becomes one unknown token with one
    // error, so binary junk does not produce an error per byte.
    diags_.error(tok.loc, "stray '" + show_byte(c) + "' in program");
    ++pos_;
    while (!at_end() && starts_nothing(peek())) ++pos_;
    tok.kind = Tok::unknown;
    tok.text = std::string(text_.substr(start, pos_ - start));
  }

  static bool starts_nothing(unsigned char c) {
    if (c == '\n' || is_horizontal_space(c) || c == '\\') return false;
    return c < 0x20 || c >= 0x7f || c == '@' || c == '$' || c == '`';
  }

  // A preprocessing number: digits, letters, '.', '_' and exponent signs.
  void lex_number(Token& tok) {
    size_t start = pos_;
    while (!at_end()) {
      unsigned char c = peek();
      if ((c == '+' || c == '-') && pos_ > start) {
        unsigned char prev = static_cast<unsigned char>(text_[pos_ - 1]);
        bool hex = text_.size() > start + 1 && text_[start] == '0' &&
                   (text_[start + 1] == 'x' || text_[start + 1] == 'X');
        bool exponent = hex ? (prev == 'p' || prev == 'P') : (prev == 'e' || prev == 'E');
        if (!exponent) break;
        ++pos_;
      } else if (is_ident_char(c) || c == '.') {
        ++pos_;
      } else {
        break;
      }
    }
    tok.text = std::string(text_.substr(start, pos_ - start));
    classify_number(tok);
  }

  void classify_number(Token& tok) {
    std::string_view s = tok.text;
    bool hex = s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t i = hex ? 2 : 0;
    size_t digits_begin = i;
    auto digit_ok = [&](unsigned char c) { return hex ? is_hex_digit(c) : is_digit(c); };
    while (i < s.size() && digit_ok(static_cast<unsigned char>(s[i]))) ++i;
    bool is_float = false;
    if (i < s.size() && s[i] == '.') {
      is_float = true;
      ++i;
      while (i < s.size() && digit_ok(static_cast<unsigned char>(s[i]))) ++i;
    }
    char exp_lo = hex ? 'p' : 'e';
    if (i < s.size() && (s[i] == exp_lo || s[i] == exp_lo - 32)) {
      size_t j = i + 1;
      if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
      if (j < s.size() && is_digit(static_cast<unsigned char>(s[j]))) {
        is_float = true;
        i = j;
        while (i < s.size() && is_digit(static_cast<unsigned char>(s[i]))) ++i;
      } else if (!hex || is_float) {
        tok.kind = Tok::float_literal;
        diags_.error(tok.loc, "exponent has no digits");
        return;
      }
    }
    if (is_float) {
      lex_float_value(tok, i, hex);
    } else {
      if (hex && i == digits_begin) {
        tok.kind = Tok::int_literal;
        diags_.error(tok.loc, "invalid suffix '" + std::string(s.substr(1)) +
                                  "' on integer constant");
        return;
      }
      lex_int_value(tok, digits_begin, i, hex);
    }
  }

  void lex_float_value(Token& tok, size_t body_end, bool hex) {
    tok.kind = Tok::float_literal;
    std::string_view s = tok.text;
    std::string_view suffix = s.substr(body_end);
    if (suffix == "f" || suffix == "F") {
      tok.is_float = true;
    } else if (!(suffix.empty() || suffix == "l" || suffix == "L")) {
      diags_.error(tok.loc, "invalid suffix '" + std::string(suffix) +
                                "' on floating constant");
    }
    if (hex && s.find_first_of("pP") == std::string_view::npos) {
      diags_.error(tok.loc, "hexadecimal floating constant requires an exponent");
    }
    std::string body(s.substr(0, body_end));
    tok.float_value = std::strtod(body.c_str(), nullptr);
  }

  void lex_int_value(Token& tok, size_t digits_begin, size_t digits_end, bool hex) {
    tok.kind = Tok::int_literal;
    std::string_view s = tok.text;
    std::string_view suffix = s.substr(digits_end);
    if (!parse_int_suffix(suffix, tok)) {
      diags_.error(tok.loc, "invalid suffix '" + std::string(suffix) +
                                "' on integer constant");
    }
    bool octal = !hex && s.size() > 1 && s[0] == '0';
    tok.is_decimal = !hex && !octal;
    unsigned base = hex ? 16 : octal ? 8 : 10;
    uint64_t value = 0;
    bool overflow = false;
    for (size_t i = digits_begin; i < digits_end; ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      unsigned d = static_cast<unsigned>(hex_value(c));
      if (d >= base && octal && d < 10) {
        // BrookGPU's brcc read such a constant as strtol does, stopping at the
        // first 8 or 9, and real programs rely on it (LANGUAGE.md §2:
        // '06294306' is 062 = 50).
        diags_.warning(tok.loc, "invalid digit '" + std::string(1, static_cast<char>(c)) +
                                    "' in octal constant; BrookGPU reads it as its octal prefix " +
                                    std::string(s.substr(0, i)) + " = " + std::to_string(value));
        break;
      }
      if (d >= base) {
        diags_.error(tok.loc, "invalid digit '" + std::string(1, static_cast<char>(c)) +
                                  "' in octal constant");
        tok.int_value = 0;
        return;
      }
      if (value > (UINT64_MAX - d) / base) overflow = true;
      value = value * base + d;
    }
    if (overflow) {
      diags_.error(tok.loc, "integer literal is too large to be represented in any integer type");
      value = 0;
    }
    tok.int_value = value;
  }

  // u, l, ll, ul, lu, ull, llu in any case ("lL" is not a suffix).
  static bool parse_int_suffix(std::string_view suffix, Token& tok) {
    size_t i = 0;
    bool seen_u = false;
    bool seen_l = false;
    while (i < suffix.size()) {
      char c = suffix[i];
      if ((c == 'u' || c == 'U') && !seen_u) {
        seen_u = true;
        ++i;
      } else if ((c == 'l' || c == 'L') && !seen_l) {
        seen_l = true;
        ++i;
        if (i < suffix.size() && suffix[i] == c) ++i;  // ll / LL
      } else {
        return false;
      }
    }
    tok.is_unsigned = seen_u;
    tok.is_long = seen_l;
    return true;
  }

  // Decodes one escape sequence; pos_ is just past the backslash.
  void decode_escape(std::string& out, SourceLoc loc) {
    unsigned char c = peek();
    ++pos_;
    switch (c) {
      case 'n': out += '\n'; return;
      case 't': out += '\t'; return;
      case 'r': out += '\r'; return;
      case 'a': out += '\a'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'v': out += '\v'; return;
      case 'e': out += '\x1b'; return;
      case '\\': out += '\\'; return;
      case '\'': out += '\''; return;
      case '"': out += '"'; return;
      case '?': out += '?'; return;
      case 'x': {
        unsigned value = 0;
        size_t n = 0;
        bool too_big = false;
        while (!at_end() && is_hex_digit(peek())) {
          value = value * 16 + static_cast<unsigned>(hex_value(peek()));
          if (value > 0xff) too_big = true;
          value &= 0xfff;
          ++pos_;
          ++n;
        }
        if (n == 0) diags_.error(loc, "\\x used with no following hex digits");
        if (too_big) diags_.error(loc, "hex escape sequence out of range");
        out += static_cast<char>(value & 0xff);
        return;
      }
      default: break;
    }
    if (c >= '0' && c <= '7') {
      unsigned value = c - '0';
      for (int k = 0; k < 2 && !at_end() && peek() >= '0' && peek() <= '7'; ++k) {
        value = value * 8 + (peek() - '0');
        ++pos_;
      }
      if (value > 0xff) diags_.error(loc, "octal escape sequence out of range");
      out += static_cast<char>(value & 0xff);
      return;
    }
    diags_.warning(loc, "unknown escape sequence '\\" + show_byte(c) + "'");
    out += static_cast<char>(c);
  }

  void lex_quoted(Token& tok, char quote) {
    size_t start = pos_;
    ++pos_;
    std::string value;
    bool closed = false;
    while (!at_end()) {
      unsigned char c = peek();
      if (c == static_cast<unsigned char>(quote)) {
        ++pos_;
        closed = true;
        break;
      }
      if (c == '\n') break;
      if (c == '\\') {
        if (size_t n = splice_length()) {
          newline_at(pos_ + n - 1);
          pos_ += n;
          continue;
        }
        SourceLoc esc_loc = loc_at(pos_);
        ++pos_;
        if (at_end()) break;
        decode_escape(value, esc_loc);
        continue;
      }
      value += static_cast<char>(c);
      ++pos_;
    }
    tok.text = std::string(text_.substr(start, pos_ - start));
    if (quote == '"') {
      tok.kind = Tok::string_literal;
      if (!closed) diags_.error(tok.loc, "unterminated string literal");
      tok.str_value = std::move(value);
      return;
    }
    tok.kind = Tok::char_literal;
    if (!closed) {
      diags_.error(tok.loc, "unterminated character literal");
    } else if (value.empty()) {
      diags_.error(tok.loc, "empty character constant");
    } else if (value.size() > 1) {
      diags_.warning(tok.loc, "multi-character character constant");
    }
    // C: a character constant has type int; a plain char is signed here, so
    // '\xff' is -1, stored two's-complement in the 64-bit value.
    int64_t v = value.empty() ? 0 : static_cast<signed char>(value[0]);
    if (value.size() > 1) {
      v = 0;
      for (unsigned char b : value) v = (v << 8) | b;
      v = static_cast<int32_t>(static_cast<uint32_t>(v));
    }
    tok.int_value = static_cast<uint64_t>(v);
  }

  std::string_view text_;
  uint32_t file_;
  DiagnosticEngine& diags_;
  std::optional<SourceLoc> fixed_loc_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  size_t line_begin_ = 0;
};

}  // namespace

std::vector<Token> lex_file(const SourceManager& sources, uint32_t file, DiagnosticEngine& diags) {
  return Lexer(sources.text(file), file, diags, std::nullopt).run(true);
}

std::vector<Token> lex_fragment(std::string_view text, SourceLoc loc, DiagnosticEngine& diags) {
  return Lexer(text, loc.file, diags, loc).run(false);
}

}  // namespace brook
