// <stdio.h> streams (LANGUAGE.md §9): reading files and stdin, scanf's
// family, positioning and status. A FILE* is a checked object: a pointer
// fopen returned and fclose has not closed, or stdin/stdout/stderr; anything
// else is a runtime error, never a crash.
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "runtime/host_call.hpp"
#include "stdlib/scan.hpp"

namespace brook::host_detail {

std::FILE* LibCall::any_file(Machine& m, uint64_t p) {
  if (p == 0) throw RuntimeError{loc, "null pointer dereference"};
  if (p == m.stdout_ptr || p == m.stderr_ptr) return nullptr;
  if (p == m.stdin_ptr) return stdin;
  std::FILE* f = lib->file(p);
  if (!f) throw RuntimeError{loc, "not a file opened by fopen, or already closed"};
  return f;
}

std::FILE* LibCall::file_of(Machine& m, uint64_t p) {
  std::FILE* f = any_file(m, p);
  if (!f) throw RuntimeError{loc, "cannot read from stdout or stderr"};
  // Reading the terminal: what the program printed so far comes first.
  if (f == stdin && m.out) m.out->flush();
  return f;
}

namespace {

class FileSource : public stdlib::ScanSource {
 public:
  explicit FileSource(std::FILE* f) : f_(f) {}
  int get() override { return std::fgetc(f_); }
  void unget(int c) override { std::ungetc(c, f_); }

 private:
  std::FILE* f_;
};

class StringSource : public stdlib::ScanSource {
 public:
  explicit StringSource(std::string s) : s_(std::move(s)) {}
  int get() override { return pos_ < s_.size() ? static_cast<unsigned char>(s_[pos_++]) : (++pos_, -1); }
  void unget(int) override { --pos_; }

 private:
  std::string s_;
  size_t pos_ = 0;
};

// The integer type a scanf conversion stores through, by length modifier.
uint64_t scan_int_size(const std::string& length) {
  if (length == "hh") return 1;
  if (length == "h") return 2;
  if (length.empty()) return 4;
  return 8;  // l ll j z t
}

}  // namespace

// Stores scanf's values through the pointer arguments from `first` on, each
// checked against its conversion as gcc's -Wformat would, and its memory.
static int run_scan(LibCall& c, Machine& m, stdlib::ScanSource& in, uint64_t fmt_ptr, size_t first) {
  std::string fmt = m.memory.read_string(fmt_ptr, c.loc);
  auto store = [&](size_t index, const stdlib::ScanValue& v) -> std::string {
    size_t a = first + index;
    if (a >= c.args.size()) return "too few arguments for scanf format '" + v.spec + "'";
    const Type* t = c.types[a];
    const Type* pointee = t->is_pointer() ? t->elem : t->is_array() ? t->elem : nullptr;
    std::string where = "argument " + std::to_string(a + 1) + " of '" + c.call->callee + "'";
    if (!pointee) return "format '" + v.spec + "' needs a pointer, but " + where + " is a '" + t->name() + "'";
    uint64_t p = c.args[a]->eval(m).u;
    auto mismatch = [&](const char* want) {
      return "format '" + v.spec + "' expects " + want + ", but " + where + " has type '" + t->name() + "'";
    };
    switch (v.kind) {
      case stdlib::ScanValue::Kind::Signed:
      case stdlib::ScanValue::Kind::Unsigned: {
        uint64_t size = scan_int_size(v.length);
        if (!pointee->is_integer() || pointee->kind == TypeKind::Bool || pointee->size != size) {
          static const char* const kWant[] = {"", "'char*'", "'short*'", "", "'int*'", "", "", "", "'long*'"};
          return mismatch(kWant[size]);
        }
        uint64_t bits = v.kind == stdlib::ScanValue::Kind::Signed ? static_cast<uint64_t>(v.i) : v.u;
        std::memcpy(m.memory.at(p, size, c.loc, true), &bits, size);  // little-endian truncation
        return {};
      }
      case stdlib::ScanValue::Kind::Floating: {
        if (v.length.empty()) {
          if (pointee->kind != TypeKind::Float || !pointee->is_scalar()) return mismatch("'float*'");
          float f = static_cast<float>(v.d);
          std::memcpy(m.memory.at(p, 4, c.loc, true), &f, 4);
        } else {
          if (pointee->kind != TypeKind::Double || !pointee->is_scalar()) return mismatch("'double*'");
          std::memcpy(m.memory.at(p, 8, c.loc, true), &v.d, 8);
        }
        return {};
      }
      case stdlib::ScanValue::Kind::Chars: {
        if (pointee->size != 1 || !pointee->is_integer()) return mismatch("'char*'");
        uint64_t n = v.chars.size() + (v.terminate ? 1 : 0);
        uint8_t* dst = m.memory.at(p, n, c.loc, true);
        std::memcpy(dst, v.chars.data(), v.chars.size());
        if (v.terminate) dst[v.chars.size()] = 0;
        return {};
      }
    }
    return {};
  };
  stdlib::ScanResult r = stdlib::scan_format(fmt, in, store);
  if (!r.error.empty()) throw RuntimeError{c.loc, r.error};
  return r.count;
}

std::optional<Scalar> LibCall::stdio(Machine& m) {
  using interp::put;
  switch (id) {
    case Builtin::getchar: return put<int32_t>(std::fgetc(file_of(m, m.stdin_ptr)));
    case Builtin::fgets: {
      uint64_t buf = arg(m, 0).u;
      int32_t n = static_cast<int32_t>(arg(m, 1).i);
      std::FILE* f = file_of(m, arg(m, 2).u);
      if (n <= 0) return interp::from_u64(0);
      uint8_t* dst = m.memory.at(buf, static_cast<uint64_t>(n), loc, true);
      if (!std::fgets(reinterpret_cast<char*>(dst), n, f)) return interp::from_u64(0);
      return interp::from_u64(buf);
    }
    case Builtin::getline: {
      // POSIX: reads through the newline; *line is a heap object of at least
      // *n bytes, grown (as realloc would) to fit the line and its NUL.
      const uint64_t line_pp = arg(m, 0).u, n_p = arg(m, 1).u;
      std::FILE* f = file_of(m, arg(m, 2).u);
      std::string text;
      for (int c; (c = std::fgetc(f)) != EOF;) {
        text += static_cast<char>(c);
        if (c == '\n') break;
      }
      if (text.empty()) return put<int64_t>(-1);
      uint64_t buf = 0, cap = 0;
      std::memcpy(&buf, m.memory.at(line_pp, 8, loc), 8);
      std::memcpy(&cap, m.memory.at(n_p, 8, loc), 8);
      if (!buf || cap < text.size() + 1) {
        cap = std::max<uint64_t>(text.size() + 1, 120);
        if (cap > interp::kMaxObjectSize || m.memory.heap_bytes_live() + cap > kMaxHeapBytes)
          throw RuntimeError{loc,
                             "out of memory: cannot allocate " + std::to_string(cap) + " bytes"};
        buf = buf ? m.memory.realloc(buf, cap, loc)
                  : interp::make_pointer(m.memory.allocate(cap, interp::ObjectKind::heap, loc), 0);
        std::memcpy(m.memory.at(line_pp, 8, loc, true), &buf, 8);
        std::memcpy(m.memory.at(n_p, 8, loc, true), &cap, 8);
      }
      std::memcpy(m.memory.at(buf, text.size() + 1, loc, true), text.c_str(), text.size() + 1);
      return put<int64_t>(static_cast<int64_t>(text.size()));
    }
    case Builtin::scanf: {
      FileSource in(file_of(m, m.stdin_ptr));
      return put<int32_t>(run_scan(*this, m, in, arg(m, 0).u, 1));
    }
    case Builtin::fscanf: {
      FileSource in(file_of(m, arg(m, 0).u));
      return put<int32_t>(run_scan(*this, m, in, arg(m, 1).u, 2));
    }
    case Builtin::sscanf: {
      StringSource in(m.memory.read_string(arg(m, 0).u, loc));
      return put<int32_t>(run_scan(*this, m, in, arg(m, 1).u, 2));
    }
    case Builtin::fflush: {
      uint64_t p = arg(m, 0).u;
      if (p == 0) {  // every output stream
        if (m.out) m.out->flush();
        return put<int32_t>(std::fflush(nullptr) == 0 ? 0 : -1);
      }
      std::FILE* f = any_file(m, p);
      if (!f) {
        if (m.out) m.out->flush();
        return put<int32_t>(0);
      }
      return put<int32_t>(f == stdin ? 0 : std::fflush(f));
    }
    case Builtin::feof: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      return put<int32_t>(f && std::feof(f) ? 1 : 0);
    }
    case Builtin::ferror: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      return put<int32_t>(f && std::ferror(f) ? 1 : 0);
    }
    case Builtin::clearerr: {
      if (std::FILE* f = any_file(m, arg(m, 0).u)) std::clearerr(f);
      return put<int32_t>(0);
    }
    case Builtin::ungetc: {
      int32_t ch = static_cast<int32_t>(arg(m, 0).i);
      return put<int32_t>(std::ungetc(ch, file_of(m, arg(m, 1).u)));
    }
    case Builtin::fseek: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      int64_t off = arg(m, 1).i;
      int32_t whence = static_cast<int32_t>(arg(m, 2).i);
      if (!f || f == stdin || (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END))
        return put<int32_t>(-1);
      return put<int32_t>(std::fseek(f, off, whence) == 0 ? 0 : -1);
    }
    case Builtin::ftell: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      return put<int64_t>(f && f != stdin ? std::ftell(f) : -1);
    }
    case Builtin::rewind: {
      if (std::FILE* f = any_file(m, arg(m, 0).u); f && f != stdin) std::rewind(f);
      return put<int32_t>(0);
    }
    case Builtin::remove: {
      std::string path = m.memory.read_string(arg(m, 0).u, loc);
      return put<int32_t>(std::remove(path.c_str()) == 0 ? 0 : -1);
    }
    case Builtin::unlink: {
      std::string path = m.memory.read_string(arg(m, 0).u, loc);
      return put<int32_t>(::unlink(path.c_str()));
    }
    case Builtin::tmpfile: {
      std::FILE* f = std::tmpfile();
      return interp::from_u64(f ? lib->adopt_file(m, f) : 0);
    }
    case Builtin::freopen: {
      // The same FILE* names the newly opened file; a null path reopens the
      // same file with another mode, as glibc allows.
      const uint64_t path_p = arg(m, 0).u;
      const std::string path = path_p ? m.memory.read_string(path_p, loc) : std::string();
      const std::string mode = m.memory.read_string(arg(m, 1).u, loc);
      const uint64_t p = arg(m, 2).u;
      const char* where = path_p ? path.c_str() : nullptr;
      if (p == 0) throw RuntimeError{loc, "null pointer dereference"};
      if (p == m.stdout_ptr || p == m.stderr_ptr || p == m.stdin_ptr) {
        // The process's own stream: what the program printed so far goes
        // where it was going, the rest to the new file.
        if (m.out) m.out->flush();
        std::FILE* std_stream = p == m.stdout_ptr ? stdout : p == m.stderr_ptr ? stderr : stdin;
        return interp::from_u64(std::freopen(where, mode.c_str(), std_stream) ? p : 0);
      }
      any_file(m, p);  // a stream fopen opened, or a runtime error
      return interp::from_u64(lib->reopen_file(p, where, mode) ? p : 0);
    }
    case Builtin::fgetpos: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      const int64_t pos = f && f != stdin ? std::ftell(f) : -1;
      if (pos < 0) return put<int32_t>(-1);
      interp::store_as<int64_t>(m.memory.at(arg(m, 1).u, 8, loc, true), pos);
      return put<int32_t>(0);
    }
    case Builtin::fsetpos: {
      std::FILE* f = any_file(m, arg(m, 0).u);
      int64_t pos = 0;
      std::memcpy(&pos, m.memory.at(arg(m, 1).u, 8, loc), 8);
      if (!f || f == stdin) return put<int32_t>(-1);
      return put<int32_t>(std::fseek(f, pos, SEEK_SET) == 0 ? 0 : -1);
    }
    case Builtin::rename: {
      std::string from = m.memory.read_string(arg(m, 0).u, loc);
      std::string to = m.memory.read_string(arg(m, 1).u, loc);
      return put<int32_t>(std::rename(from.c_str(), to.c_str()) == 0 ? 0 : -1);
    }
    default: return std::nullopt;
  }
}

}  // namespace brook::host_detail
