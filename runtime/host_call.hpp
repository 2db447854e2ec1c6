// The node of a host library call (LANGUAGE.md §9), shared by the files that
// implement its families: host_library.cpp (printf, memory, strings, exit),
// host_stdio.cpp (FILE streams, scanf), host_clib.cpp (time, ctype, math,
// more of <string.h> and <stdlib.h>).
#pragma once

#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "interp/builders.hpp"
#include "interp/varargs.hpp"
#include "runtime/host_library.hpp"
#include "stdlib/format.hpp"

namespace brook::host_detail {

using interp::Machine;
using interp::Node;
using interp::NodePtr;
using interp::RuntimeError;
using interp::Scalar;
using interp::Vec;
using stdlib::Builtin;
using stdlib::FormatArg;

// Total live heap allowed before malloc reports out of memory.
constexpr uint64_t kMaxHeapBytes = uint64_t{8} << 30;

struct LibCall : Node {
  Builtin id;
  HostLibrary* lib;
  const ast::CallExpr* call;
  std::vector<NodePtr> args;
  std::vector<const Type*> types;
  std::string assert_text;

  Scalar arg(Machine& m, size_t i) { return args[i]->eval(m); }

  uint64_t allocate(Machine& m, uint64_t size) {
    if (size > interp::kMaxObjectSize || m.memory.heap_bytes_live() + size > kMaxHeapBytes) {
      throw RuntimeError{loc, "out of memory: cannot allocate " + std::to_string(size) + " bytes"};
    }
    return interp::make_pointer(m.memory.allocate(size, interp::ObjectKind::heap, loc), 0);
  }

  // printf and friends: the values from `first` on, formatted.
  std::string format(Machine& m, uint64_t fmt_ptr, size_t first, int first_number) {
    return format_values(m, fmt_ptr, values_from(m, first), first_number);
  }
  // vprintf and friends: the va_list in argument `ap_index`'s records.
  std::string format_va(Machine& m, uint64_t fmt_ptr, size_t ap_index) {
    // Messages count the variadic function's '...' arguments from 1.
    return format_values(m, fmt_ptr, interp::load_varargs(m, arg(m, ap_index).u, loc), 1);
  }
  // Evaluated last first, as gcc evaluates arguments (CallNode::store_args).
  std::vector<FormatArg> values_from(Machine& m, size_t first) {
    for (size_t i = first; i < args.size(); ++i) {
      const Type* t = types[i];
      if (t->is_vector() || t->is_struct()) {
        throw RuntimeError{loc, "argument " + std::to_string(i + 1) + " of '" + call->callee +
                                    "' cannot be a '" + t->name() + "'"};
      }
    }
    std::vector<FormatArg> values(args.size() > first ? args.size() - first : 0);
    for (size_t i = args.size(); i-- > first;)
      values[i - first] = interp::vararg_value(types[i], args[i]->eval(m));
    return values;
  }
  std::string format_values(Machine& m, uint64_t fmt_ptr, const std::vector<FormatArg>& values,
                            int first_number) {
    std::string fmt = m.memory.read_string(fmt_ptr, loc);
    auto read = [&m, this](uint64_t p, std::string& error) -> std::optional<std::string> {
      if (p == 0) return std::string("(null)");  // what glibc prints
      try {
        return m.memory.read_string(p, loc);
      } catch (const RuntimeError& e) {
        error = e.message;
        return std::nullopt;
      }
    };
    stdlib::FormatResult r = stdlib::format_printf(fmt, values, read, first_number);
    if (!r.ok()) throw RuntimeError{loc, r.error};
    return r.text;
  }

  void write(Machine& m, int stream, std::string_view text) {
    if (m.out) m.out->write(stream, text);
  }

  // A file to read: one fopen opened (and not yet closed) or stdin.
  std::FILE* file_of(Machine& m, uint64_t p);
  // A stream for fflush/feof/ferror/fseek/…: stdout/stderr give nullptr.
  std::FILE* any_file(Machine& m, uint64_t p);

  // fprintf, fputs, fputc, fwrite: stdout and stderr go through the output
  // layer (so the REPL and embedders see them), files straight to the file.
  void write_to(Machine& m, uint64_t p, std::string_view text) {
    if (p == m.stdout_ptr) return write(m, 1, text);
    if (p == m.stderr_ptr) return write(m, 2, text);
    std::fwrite(text.data(), 1, text.size(), file_of(m, p));
  }

  Scalar eval(Machine& m) override;
  // The families in other files; nullopt when `id` is not theirs.
  std::optional<Scalar> stdio(Machine& m);
  std::optional<Scalar> clib(Machine& m);
  std::optional<Scalar> process(Machine& m);  // environment, getopt, signals (host_process.cpp)
  // <time.h>'s struct tm in the program's memory, and asctime's static text.
  std::tm load_tm(Machine& m, uint64_t p);
  void store_tm(Machine& m, uint64_t p, const std::tm& t);
  uint64_t asctime_result(Machine& m, const std::tm& t);
  // The library's static object in `slot` (zeroed, made on first use):
  // errno's, localtime's struct tm, asctime's text.
  uint64_t static_object(Machine& m, uint64_t& slot, uint64_t size);
  // strtok's step: the token at or after s (0 at the end), `next` where the
  // following call goes on.
  uint64_t next_token(Machine& m, uint64_t s, const std::string& delim, uint64_t& next);
  std::optional<Scalar> sort(Machine& m);  // qsort, bsearch (host_sort.cpp)
  StreamArg stream_op(Machine& m);
  void eval_vec(Machine& m, Vec& out) override { out = stream_op(m).vec; }
  // div & co. return a struct: the bytes of its one static copy.
  uint8_t* raw(Machine& m, bool write) override;
};

}  // namespace brook::host_detail
