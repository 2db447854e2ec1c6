// The host C library of LANGUAGE.md §9 (printf, malloc, strings, rand, exit,
// assert, …) and the routing of stream operations and launches to a
// StreamHost: the HostHooks the interpreter core consults for host calls.
#pragma once

#include "backends/interp/compiler.hpp"
#include "backends/interp/hooks.hpp"
#include "runtime/stream_host.hpp"
#include "stdlib/host_rand.hpp"

namespace brook {

class HostLibrary : public interp::HostHooks {
 public:
  explicit HostLibrary(StreamHost& streams) : streams_(&streams) {}
  void set_stream_host(StreamHost& streams) { streams_ = &streams; }
  StreamHost& streams() { return *streams_; }
  stdlib::GlibcRand& rand() { return rand_; }

  interp::NodePtr builtin_call(const ast::CallExpr& e, interp::Compiler& c) override;
  interp::NodePtr launch(const ast::CallExpr& e, interp::Compiler& c) override;
  interp::NodePtr domain(const ast::DomainExpr& e, interp::Compiler& c) override;
  interp::StmtNodePtr stream_decl(const ast::VarDecl& v, interp::NodePtr slot,
                                  interp::Compiler& c) override;
  interp::StmtNodePtr stream_release(interp::NodePtr slot, interp::Compiler& c) override;

 private:
  StreamHost* streams_;
  stdlib::GlibcRand rand_;
};

// Evaluates an argument of a stream operation by its type.
StreamArg evaluate_stream_arg(interp::Machine& m, interp::Node& n, const ast::Expr& e);

}  // namespace brook
