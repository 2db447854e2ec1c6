// The host C library of LANGUAGE.md §9 (printf, malloc, strings, rand, exit,
// assert, …) and the routing of stream operations and launches to a
// StreamHost: the HostHooks the interpreter core consults for host calls.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "interp/compiler.hpp"
#include "interp/hooks.hpp"
#include "runtime/stream_host.hpp"
#include "stdlib/host_rand.hpp"

namespace brook {

class HostLibrary : public interp::HostHooks {
 public:
  explicit HostLibrary(StreamHost& streams) : streams_(&streams) {}
  void set_stream_host(StreamHost& streams) { streams_ = &streams; }
  StreamHost& streams() { return *streams_; }
  stdlib::GlibcRand& rand() { return rand_; }

  // [ext] Files opened by fopen, keyed by the pointer value fopen returned
  // (a `file` object no access can dereference). nullptr once closed.
  std::FILE* file(uint64_t pointer) const;
  uint64_t open_file(interp::Machine& m, const std::string& path, const std::string& mode);
  bool close_file(uint64_t pointer);
  // tmpfile's stream, as fopen's are kept.
  uint64_t adopt_file(interp::Machine& m, std::FILE* f);
  // freopen of a stream fopen opened: the same pointer names the new file;
  // false (and the stream closed) when the open fails.
  bool reopen_file(uint64_t pointer, const char* path, const std::string& mode);
  // _Exit: every open file is closed without writing what it buffers.
  void discard_files();

  interp::NodePtr builtin_call(const ast::CallExpr& e, interp::Compiler& c) override;
  interp::NodePtr launch(const ast::CallExpr& e, interp::Compiler& c) override;
  interp::NodePtr domain(const ast::DomainExpr& e, interp::Compiler& c) override;
  interp::StmtNodePtr stream_decl(const ast::VarDecl& v, interp::NodePtr slot,
                                  interp::Compiler& c) override;
  interp::StmtNodePtr stream_release(interp::NodePtr slot, interp::Compiler& c) override;
  interp::NodePtr stream_param(interp::NodePtr arg, const ast::ParamDecl& p,
                               const ast::Expr& written, interp::Compiler& c) override;

 private:
  StreamHost* streams_;
  stdlib::GlibcRand rand_;
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::map<uint64_t, std::unique_ptr<std::FILE, FileCloser>> files_;
};

// Evaluates an argument of a stream operation by its type.
StreamArg evaluate_stream_arg(interp::Machine& m, interp::Node& n, const ast::Expr& e);

}  // namespace brook
