// The seams between the interpreter core and what is not C: kernel-only
// constructs (implemented by the kernel backend, LANGUAGE.md §5) and host-only
// services — the C library, streams, launches (implemented by the runtime).
// The core compiles everything else and asks these for the rest; a missing
// hook is a runtime error at the construct, never a crash.
#pragma once

#include "interp/node.hpp"
#include "lang/ast.hpp"

namespace brook::interp {

class Compiler;

class KernelHooks {
 public:
  virtual ~KernelHooks() = default;
  // g[i], g[i][j], g[v] on a gather parameter.
  virtual NodePtr gather(const ast::GatherExpr& e, Compiler& c) = 0;
  // indexof x.
  virtual NodePtr indexof(const ast::IndexofExpr& e, Compiler& c) = 0;
  // instance() and any other kernel-only builtin.
  virtual NodePtr kernel_builtin(const ast::CallExpr& e, Compiler& c) = 0;
  // A kernel calling a kernel.
  virtual NodePtr kernel_call(const ast::CallExpr& e, Compiler& c) = 0;
};

class HostHooks {
 public:
  virtual ~HostHooks() = default;
  // A host library or stream builtin (printf, malloc, streamRead, …); null
  // when the hook does not know it.
  virtual NodePtr builtin_call(const ast::CallExpr& e, Compiler& c) = 0;
  // A kernel or reduce call from host code.
  virtual NodePtr launch(const ast::CallExpr& e, Compiler& c) = 0;
  // s.domain(a, b): a node whose eval yields a stream handle.
  virtual NodePtr domain(const ast::DomainExpr& e, Compiler& c) = 0;
  // The declaration of a stream variable whose handle lives in the frame at
  // `slot` (8 bytes); `release` is run when the enclosing block ends.
  virtual StmtNodePtr stream_decl(const ast::VarDecl& v, NodePtr slot, Compiler& c) = 0;
  virtual StmtNodePtr stream_release(NodePtr slot, Compiler& c) = 0;
  // The argument `arg` (a stream, or a pointer to one) of a host function's
  // stream parameter `p` with declared extents: a node that checks them
  // against the stream's when the call runs (LANGUAGE.md §12).
  virtual NodePtr stream_param(NodePtr arg, const ast::ParamDecl& p, const ast::Expr& written,
                               Compiler& c) {
    (void)p, (void)written, (void)c;
    return arg;
  }
};

}  // namespace brook::interp
