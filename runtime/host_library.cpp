#include "runtime/host_library.hpp"

#include <stdio_ext.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "interp/builders.hpp"
#include "runtime/host_call.hpp"
#include "stdlib/format.hpp"

namespace brook {
namespace host_detail {

namespace {
// strcmp's and memcmp's value as glibc returns it, the difference of the
// first differing bytes (programs print it). Computed here: a sanitizer's
// interceptors return only the sign.
int32_t byte_difference(const uint8_t* a, const uint8_t* b, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return int32_t{a[i]} - int32_t{b[i]};
  return 0;
}

// errno (LANGUAGE.md §9) is an object of the program's (`*__brook_errno()`):
// a library call starts from its value and leaves the C library's errno in it.
struct ErrnoSync {
  Machine& m;
  explicit ErrnoSync(Machine& machine) : m(machine) {
    if (m.errno_ptr) std::memcpy(&errno, m.memory.at(m.errno_ptr, sizeof(int), {}), sizeof(int));
  }
  ~ErrnoSync() {
    try {
      const int e = errno;
      if (m.errno_ptr)
        std::memcpy(m.memory.at(m.errno_ptr, sizeof(int), {}, true), &e, sizeof(int));
    } catch (...) {
      // errno's object is never freed; nothing to keep.
    }
  }
};
}  // namespace

Scalar LibCall::eval(Machine& m) {
  ErrnoSync errno_sync(m);
  switch (id) {
    case Builtin::printf:
    case Builtin::vprintf: {
      uint64_t f = arg(m, 0).u;
      std::string text = id == Builtin::printf ? format(m, f, 1, 2) : format_va(m, f, 1);
      write(m, 1, text);
      return interp::put<int32_t>(static_cast<int32_t>(text.size()));
    }
    case Builtin::fprintf:
    case Builtin::vfprintf: {
      uint64_t s = arg(m, 0).u;
      uint64_t f = arg(m, 1).u;
      std::string text = id == Builtin::fprintf ? format(m, f, 2, 3) : format_va(m, f, 2);
      write_to(m, s, text);
      return interp::put<int32_t>(static_cast<int32_t>(text.size()));
    }
    case Builtin::sprintf:
    case Builtin::vsprintf: {
      uint64_t buf = arg(m, 0).u;
      uint64_t f = arg(m, 1).u;
      std::string text = id == Builtin::sprintf ? format(m, f, 2, 3) : format_va(m, f, 2);
      uint8_t* dst = m.memory.at(buf, text.size() + 1, loc, true);
      std::memcpy(dst, text.data(), text.size());
      dst[text.size()] = 0;
      return interp::put<int32_t>(static_cast<int32_t>(text.size()));
    }
    case Builtin::snprintf:
    case Builtin::vsnprintf: {
      uint64_t buf = arg(m, 0).u;
      uint64_t n = arg(m, 1).u;
      uint64_t f = arg(m, 2).u;
      std::string text = id == Builtin::snprintf ? format(m, f, 3, 4) : format_va(m, f, 3);
      if (n > 0) {
        uint64_t k = std::min<uint64_t>(text.size(), n - 1);
        uint8_t* dst = m.memory.at(buf, k + 1, loc, true);
        std::memcpy(dst, text.data(), k);
        dst[k] = 0;
      }
      return interp::put<int32_t>(static_cast<int32_t>(text.size()));
    }
    case Builtin::brook_va_arg:
      // The second argument is a null `T*` that only carries T.
      return interp::put<uint64_t>(interp::next_vararg(m, arg(m, 0).u, types[1]->elem, loc));
    case Builtin::puts: {
      std::string s = m.memory.read_string(arg(m, 0).u, loc);
      s += '\n';
      write(m, 1, s);
      return interp::put<int32_t>(static_cast<int32_t>(s.size()));
    }
    case Builtin::putchar: {
      int32_t c = static_cast<int32_t>(arg(m, 0).i);
      char ch = static_cast<char>(c);
      write(m, 1, std::string_view(&ch, 1));
      return interp::put<int32_t>(static_cast<uint8_t>(ch));
    }
    case Builtin::malloc:
      return interp::from_u64(allocate(m, arg(m, 0).u));
    case Builtin::calloc: {
      uint64_t count = arg(m, 0).u, size = arg(m, 1).u;
      if (size != 0 && count > UINT64_MAX / size) {
        throw RuntimeError{loc, "out of memory: cannot allocate " + std::to_string(count) + " x " +
                                    std::to_string(size) + " bytes"};
      }
      return interp::from_u64(allocate(m, count * size));
    }
    case Builtin::realloc: {
      uint64_t p = arg(m, 0).u, size = arg(m, 1).u;
      if (size > interp::kMaxObjectSize || m.memory.heap_bytes_live() + size > kMaxHeapBytes) {
        throw RuntimeError{loc,
                           "out of memory: cannot allocate " + std::to_string(size) + " bytes"};
      }
      return interp::from_u64(m.memory.realloc(p, size, loc));
    }
    case Builtin::free:
      m.memory.free(arg(m, 0).u, loc);
      return interp::put<int32_t>(0);
    case Builtin::memset: {
      uint64_t p = arg(m, 0).u;
      int32_t v = static_cast<int32_t>(arg(m, 1).i);
      uint64_t n = arg(m, 2).u;
      if (n) std::memset(m.memory.at(p, n, loc, true), v & 0xFF, n);
      return interp::from_u64(p);
    }
    case Builtin::memcpy: {
      uint64_t d = arg(m, 0).u, s = arg(m, 1).u, n = arg(m, 2).u;
      if (n) {
        const uint8_t* src = m.memory.at(s, n, loc);
        std::memmove(m.memory.at(d, n, loc, true), src, n);
      }
      return interp::from_u64(d);
    }
    case Builtin::memcmp: {
      uint64_t a = arg(m, 0).u, b = arg(m, 1).u, n = arg(m, 2).u;
      if (!n) return interp::put<int32_t>(0);
      return interp::put<int32_t>(
          byte_difference(m.memory.at(a, n, loc), m.memory.at(b, n, loc), n));
    }
    case Builtin::strlen:
      return interp::put<uint64_t>(m.memory.string_length(arg(m, 0).u, loc));
    case Builtin::strcmp: {
      std::string a = m.memory.read_string(arg(m, 0).u, loc);
      std::string b = m.memory.read_string(arg(m, 1).u, loc);
      return interp::put<int32_t>(byte_difference(reinterpret_cast<const uint8_t*>(a.c_str()),
                                                  reinterpret_cast<const uint8_t*>(b.c_str()),
                                                  std::min(a.size(), b.size()) + 1));
    }
    case Builtin::strcpy: {
      uint64_t d = arg(m, 0).u;
      std::string s = m.memory.read_string(arg(m, 1).u, loc);
      uint8_t* dst = m.memory.at(d, s.size() + 1, loc, true);
      std::memcpy(dst, s.c_str(), s.size() + 1);
      return interp::from_u64(d);
    }
    case Builtin::atoi: {
      std::string s = m.memory.read_string(arg(m, 0).u, loc);
      return interp::put<int32_t>(static_cast<int32_t>(std::strtol(s.c_str(), nullptr, 10)));
    }
    case Builtin::atof: {
      std::string s = m.memory.read_string(arg(m, 0).u, loc);
      return interp::put<double>(std::strtod(s.c_str(), nullptr));
    }
    case Builtin::rand:
      return interp::put<int32_t>(lib->rand().next());
    case Builtin::random:
      return interp::put<int64_t>(lib->rand().next());
    case Builtin::srandom:
    case Builtin::srand:
      lib->rand().seed(static_cast<uint32_t>(arg(m, 0).u));
      return interp::put<int32_t>(0);
    case Builtin::exit: {
      int32_t status = static_cast<int32_t>(arg(m, 0).i);
      if (m.out) m.out->flush();
      throw interp::ExitRequest{status};
    }
    case Builtin::abort:
      throw RuntimeError{loc, "abort() called"};
    case Builtin::assert_:
      if (arg(m, 0).i == 0) throw RuntimeError{loc, "assertion failed: " + assert_text};
      return interp::put<int32_t>(0);
    case Builtin::clock:
      return interp::put<int64_t>(static_cast<int64_t>(std::clock()));
    case Builtin::fopen: {
      std::string path = m.memory.read_string(arg(m, 0).u, loc);
      std::string mode = m.memory.read_string(arg(m, 1).u, loc);
      return interp::from_u64(lib->open_file(m, path, mode));
    }
    case Builtin::fclose: {
      uint64_t p = arg(m, 0).u;
      if (p != 0 && (p == m.stdout_ptr || p == m.stderr_ptr || p == m.stdin_ptr)) {
        // The process's own stream: C closes it, and what the program writes
        // (or reads) afterwards goes nowhere; here it goes to /dev/null, so
        // the stream stays a valid one for brook's own use.
        if (m.out) m.out->flush();
        std::FILE* s = p == m.stdout_ptr ? stdout : p == m.stderr_ptr ? stderr : stdin;
        std::fflush(s);
        return interp::put<int32_t>(std::freopen("/dev/null", s == stdin ? "r" : "w", s) ? 0 : -1);
      }
      file_of(m, p);
      return interp::put<int32_t>(lib->close_file(p) ? 0 : -1);
    }
    case Builtin::fputc: {
      char ch = static_cast<char>(arg(m, 0).i);
      write_to(m, arg(m, 1).u, std::string_view(&ch, 1));
      return interp::put<int32_t>(static_cast<uint8_t>(ch));
    }
    case Builtin::perror: {
      // The message for errno as the C library's last failing call (an
      // fopen, say) left it, on stderr as glibc prints it.
      const int err = errno;
      std::string s = arg(m, 0).u ? m.memory.read_string(arg(m, 0).u, loc) : std::string();
      write_to(m, m.stderr_ptr, (s.empty() ? "" : s + ": ") + ::strerror(err) + "\n");
      return interp::put<int32_t>(0);
    }
    case Builtin::fputs: {
      std::string text = m.memory.read_string(arg(m, 0).u, loc);
      write_to(m, arg(m, 1).u, text);
      return interp::put<int32_t>(1);
    }
    case Builtin::fwrite: {
      uint64_t data = arg(m, 0).u, size = arg(m, 1).u, count = arg(m, 2).u;
      if (size != 0 && count > interp::kMaxObjectSize / size) {
        throw RuntimeError{loc, "fwrite of more bytes than any object holds"};
      }
      uint64_t n = size * count;
      if (n == 0) return interp::put<uint64_t>(0);
      const uint8_t* src = m.memory.at(data, n, loc);
      write_to(m, arg(m, 3).u, std::string_view(reinterpret_cast<const char*>(src), n));
      return interp::put<uint64_t>(count);
    }
    case Builtin::fgetc: {
      return interp::put<int32_t>(std::fgetc(file_of(m, arg(m, 0).u)));
    }
    case Builtin::fread: {
      uint64_t data = arg(m, 0).u, size = arg(m, 1).u, count = arg(m, 2).u;
      std::FILE* f = file_of(m, arg(m, 3).u);
      if (size != 0 && count > interp::kMaxObjectSize / size) {
        throw RuntimeError{loc, "fread of more bytes than any object holds"};
      }
      uint64_t n = size * count;
      if (n == 0) return interp::put<uint64_t>(0);
      uint8_t* dst = m.memory.at(data, n, loc, true);
      return interp::put<uint64_t>(std::fread(dst, size, count, f));
    }
    default:
      break;
    }
    if (std::optional<Scalar> r = stdio(m)) return *r;
    if (std::optional<Scalar> r = clib(m)) return *r;
    if (std::optional<Scalar> r = process(m)) return *r;
    if (std::optional<Scalar> r = sort(m)) return *r;
    return stream_op(m).scalar;
}

StreamArg LibCall::stream_op(Machine& m) {
  std::vector<StreamArg> values;
  for (size_t i = 0; i < args.size(); ++i) {
    values.push_back(evaluate_stream_arg(m, *args[i], *call->args[i]));
  }
  return lib->streams().builtin(m, id, *call, values);
}

}  // namespace host_detail

using host_detail::LibCall;
using interp::Machine;
using interp::Node;
using interp::NodePtr;
using interp::Scalar;
using stdlib::Builtin;

namespace {

struct Launch : Node {
  HostLibrary* lib;
  const ast::CallExpr* call;
  std::vector<NodePtr> args;
  std::vector<bool> is_target;  // a reduction's host variable: passed by address
  Scalar eval(Machine& m) override {
    std::vector<StreamArg> values;
    for (size_t i = 0; i < args.size(); ++i) {
      if (is_target[i]) {
        StreamArg a;
        a.expr = call->args[i].get();
        a.type = a.expr->type;
        a.place = args[i]->raw(m, true);
        values.push_back(std::move(a));
        continue;
      }
      values.push_back(evaluate_stream_arg(m, *args[i], *call->args[i]));
    }
    lib->streams().launch(m, *call, values);
    return interp::put<int32_t>(0);
  }
};

struct Domain : Node {
  HostLibrary* lib;
  const ast::DomainExpr* expr;
  NodePtr stream, start, end;
  Scalar eval(Machine& m) override {
    StreamArg s = evaluate_stream_arg(m, *stream, *expr->stream);
    StreamArg a = evaluate_stream_arg(m, *start, *expr->start);
    StreamArg b = evaluate_stream_arg(m, *end, *expr->end);
    return interp::from_u64(lib->streams().domain(m, *expr, s, a, b));
  }
  // A view used where a stream is expected: its handle, as if in a variable.
  uint8_t* raw(Machine& m, bool) override {
    handle = eval(m).u;
    return reinterpret_cast<uint8_t*>(&handle);
  }
  uint64_t handle = 0;
};

struct StreamDecl : interp::StmtNode {
  HostLibrary* lib;
  const ast::VarDecl* decl;
  NodePtr slot;
  std::vector<NodePtr> extents;
  std::vector<NodePtr> init;
  std::vector<const ast::Expr*> init_exprs;
  interp::Flow exec(Machine& m) override {
    std::vector<int64_t> ext;
    for (auto& e : extents) ext.push_back(e->eval(m).i);
    std::vector<StreamArg> iv;
    for (size_t i = 0; i < init.size(); ++i) iv.push_back(evaluate_stream_arg(m, *init[i], *init_exprs[i]));
    uint64_t h = lib->streams().create(m, *decl, ext, iv);
    interp::store_as<uint64_t>(slot->raw(m, true), h);
    return interp::Flow::normal;
  }
};

struct StreamRelease : interp::StmtNode {
  HostLibrary* lib;
  NodePtr slot;
  interp::Flow exec(Machine& m) override {
    uint8_t* p = slot->raw(m, true);
    uint64_t h = interp::load_as<uint64_t>(p);
    if (h) lib->streams().release(m, h);
    interp::store_as<uint64_t>(p, 0);
    return interp::Flow::normal;
  }
};

// A stream argument of a host function whose parameter declares extents:
// checked when the argument is passed (the handle is read either way).
struct StreamParamCheck : Node {
  HostLibrary* lib;
  const ast::ParamDecl* param;
  NodePtr arg;
  std::vector<NodePtr> extents;
  void check(Machine& m, uint64_t handle) {
    std::vector<int64_t> ext;
    for (auto& e : extents) ext.push_back(e->eval(m).i);
    lib->streams().check_extents(m, handle, ext, *param, loc);
  }
  Scalar eval(Machine& m) override {
    Scalar s = arg->eval(m);
    check(m, s.u);
    return s;
  }
  uint8_t* raw(Machine& m, bool write) override {
    uint8_t* p = arg->raw(m, write);
    check(m, interp::load_as<uint64_t>(p));
    return p;
  }
};

}  // namespace

StreamArg evaluate_stream_arg(Machine& m, Node& n, const ast::Expr& e) {
  StreamArg a;
  a.expr = &e;
  a.type = e.type;
  const Type* t = e.type;
  if (t->is_stream()) {
    a.scalar.u = interp::load_as<uint64_t>(n.raw(m, false));
  } else if (t->is_vector()) {
    n.eval_vec(m, a.vec);
  } else if (t->is_struct() || t->is_array()) {
    const uint8_t* p = n.raw(m, false);
    a.bytes.assign(p, p + t->size);
    if (t->is_array()) a.place = const_cast<uint8_t*>(p);
  } else if (!t->is_void()) {
    a.scalar = n.eval(m);
  }
  return a;
}

std::FILE* HostLibrary::file(uint64_t pointer) const {
  auto it = files_.find(pointer);
  return it == files_.end() ? nullptr : it->second.get();
}

uint64_t HostLibrary::open_file(interp::Machine& m, const std::string& path,
                                const std::string& mode) {
  static const char* const kModes[] = {"r", "w", "a", "rb", "wb", "ab", "r+", "w+", "a+",
                                       "rb+", "wb+", "ab+", "r+b", "w+b", "a+b"};
  bool known = false;
  for (const char* k : kModes) known |= mode == k;
  if (!known) return 0;  // as fopen does with EINVAL
  std::FILE* f = std::fopen(path.c_str(), mode.c_str());
  return f ? adopt_file(m, f) : 0;
}

void HostLibrary::discard_files() {
  for (auto& [pointer, f] : files_) ::__fpurge(f.get());
  files_.clear();
}

uint64_t HostLibrary::adopt_file(interp::Machine& m, std::FILE* f) {
  uint64_t p = interp::make_pointer(m.memory.allocate(0, interp::ObjectKind::file), 0);
  files_[p].reset(f);
  return p;
}

bool HostLibrary::reopen_file(uint64_t pointer, const char* path, const std::string& mode) {
  auto it = files_.find(pointer);
  if (it == files_.end()) return false;
  std::FILE* f = std::freopen(path, mode.c_str(), it->second.release());
  if (!f) {
    files_.erase(it);  // C closes the old stream even when the open fails
    return false;
  }
  it->second.reset(f);
  return true;
}

bool HostLibrary::close_file(uint64_t pointer) {
  auto it = files_.find(pointer);
  if (it == files_.end()) return false;
  std::FILE* f = it->second.release();
  files_.erase(it);
  return std::fclose(f) == 0;
}

NodePtr HostLibrary::builtin_call(const ast::CallExpr& e, interp::Compiler& c) {
  auto n = std::make_unique<LibCall>();
  n->id = static_cast<Builtin>(e.builtin);
  n->lib = this;
  n->call = &e;
  n->loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
  for (auto& a : e.args) {
    // An array passed as it is (not decayed) means its address, as in C.
    bool stream_op = stdlib::builtin_info(n->id).sig == stdlib::Sig::Stream;
    n->args.push_back(a->type->is_array() && !stream_op ? interp::make_addr_of(c.place(*a)) : c.value(*a));
    n->types.push_back(a->type);
  }
  if (n->id == Builtin::assert_) n->assert_text = c.source_text(e);
  return n;
}

NodePtr HostLibrary::launch(const ast::CallExpr& e, interp::Compiler& c) {
  auto n = std::make_unique<Launch>();
  n->lib = this;
  n->call = &e;
  n->loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const ast::Expr& a = *e.args[i];
    bool target = e.target == ast::CallTarget::Reduce && e.func && i < e.func->params.size() &&
                  e.func->params[i]->pkind == ast::ParamKind::Reduce && !a.type->is_stream();
    n->is_target.push_back(target);
    n->args.push_back(target ? c.place(a) : c.value(a));
  }
  return n;
}

NodePtr HostLibrary::domain(const ast::DomainExpr& e, interp::Compiler& c) {
  auto n = std::make_unique<Domain>();
  n->lib = this;
  n->expr = &e;
  n->loc = e.loc;
  n->stream = c.value(*e.stream);
  n->start = c.value(*e.start);
  n->end = c.value(*e.end);
  return n;
}

interp::StmtNodePtr HostLibrary::stream_decl(const ast::VarDecl& v, NodePtr slot,
                                             interp::Compiler& c) {
  auto n = std::make_unique<StreamDecl>();
  n->lib = this;
  n->decl = &v;
  n->slot = std::move(slot);
  for (auto& x : v.extents) n->extents.push_back(c.convert(c.value(*x), x->type, nullptr, x->loc));
  if (v.init) {
    if (auto* it = v.init->as<ast::IterInitExpr>()) {
      n->init.push_back(c.value(*it->lo));
      n->init_exprs.push_back(it->lo.get());
      n->init.push_back(c.value(*it->hi));
      n->init_exprs.push_back(it->hi.get());
    }
  }
  return n;
}

interp::StmtNodePtr HostLibrary::stream_release(NodePtr slot, interp::Compiler&) {
  auto n = std::make_unique<StreamRelease>();
  n->lib = this;
  n->slot = std::move(slot);
  return n;
}

interp::NodePtr HostLibrary::stream_param(interp::NodePtr arg, const ast::ParamDecl& p,
                                          const ast::Expr& written, interp::Compiler& c) {
  auto n = std::make_unique<StreamParamCheck>();
  n->lib = this;
  n->param = &p;
  n->loc = written.loc;
  n->arg = std::move(arg);
  for (auto& x : p.extents) n->extents.push_back(c.convert(c.value(*x), x->type, nullptr, x->loc));
  return n;
}

}  // namespace brook
