// What backend unit tests share: a program compiled by the real front end, a
// backend (the fixture makes it), streams created and read through it, and
// launches planned by the Scheduler — without the Engine.
#pragma once

#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/scheduler.hpp"
#include "lang/frontend.hpp"

namespace brook::test {

struct BackendSession {
  FrontEnd fe;
  ast::Program* program = nullptr;
  std::unique_ptr<Backend> be;
  std::string printed;  // kernel printf output

  // The function `name` that has a body, or nullptr.
  const ast::FuncDecl* func(const std::string& name) const {
    for (const auto& item : program->items)
      if (const auto* ds = item->as<ast::DeclStmt>())
        for (const auto& d : ds->decls)
          if (const auto* f = d->as<ast::FuncDecl>(); f && f->name == name && f->body) return f;
    return nullptr;
  }
  const Type* type(const std::string& name) {
    if (name == "float") return fe.types().float_type();
    if (name == "int") return fe.types().int_type();
    if (name == "double") return fe.types().double_type();
    return fe.types().builtin_by_name(name);
  }

  template <class T>
  StreamView stream(const Type* elem, Extents e, const std::vector<T>& data = {}) {
    StreamView v = Scheduler::whole(be->allocate(static_cast<uint64_t>(element_count(e)) * elem->size), elem, e);
    if (!data.empty()) be->write_view(v, std::as_bytes(std::span(data)));
    return v;
  }
  template <class T>
  std::vector<T> read(const StreamView& v) {
    std::vector<T> out(static_cast<size_t>(element_count(v.extents)) * v.elem->size / sizeof(T));
    be->read_view(v, std::as_writable_bytes(std::span(out)));
    return out;
  }

  static CallArg arg(const StreamView& v) {
    CallArg a;
    a.kind = CallArg::Kind::Stream;
    a.stream = v;
    return a;
  }
  template <class T>
  static CallArg value(T x) {
    CallArg a;
    a.kind = CallArg::Kind::Value;
    a.value.resize(sizeof(T));
    std::memcpy(a.value.data(), &x, sizeof(T));
    return a;
  }
  template <class T>
  static CallArg host_array(const std::vector<T>& data, Extents e, const Type* elem) {
    CallArg a;
    a.kind = CallArg::Kind::HostArray;
    a.host.extents = e;
    a.host.elem = elem;
    a.host.bytes.resize(data.size() * sizeof(T));
    std::memcpy(a.host.bytes.data(), data.data(), a.host.bytes.size());
    return a;
  }

  void run(const std::string& kernel, std::vector<CallArg> args) {
    be->run_map(Scheduler::plan_map(*func(kernel), args, {}));
  }
  template <class T>
  T reduce(const std::string& reducer, std::vector<CallArg> args) {
    T out{};
    be->run_reduce(Scheduler::plan_reduce(*func(reducer), args, {}), std::as_writable_bytes(std::span(&out, 1)));
    return out;
  }
};

}  // namespace brook::test
