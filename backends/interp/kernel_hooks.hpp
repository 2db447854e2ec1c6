// The reference backend's KernelHooks: gathers with clamping, indexof,
// instance(), kernel-to-kernel calls (LANGUAGE.md §5), plus the HostHooks a
// kernel body needs (printf only: every other host service is unavailable).
#pragma once

#include <functional>
#include <string_view>

#include "interp/compiler.hpp"
#include "interp/hooks.hpp"
#include "backends/interp/kernel_context.hpp"

namespace brook::interp {

class KernelNodes : public KernelHooks {
 public:
  explicit KernelNodes(KernelContext& ctx) : ctx_(&ctx) {}
  NodePtr gather(const ast::GatherExpr& e, Compiler& c) override;
  NodePtr indexof(const ast::IndexofExpr& e, Compiler& c) override;
  NodePtr kernel_builtin(const ast::CallExpr& e, Compiler& c) override;
  NodePtr kernel_call(const ast::CallExpr& e, Compiler& c) override;

 private:
  KernelContext* ctx_;
};

// printf inside kernels (§5 [ext]); the text goes to the machine's output.
class KernelHostHooks : public HostHooks {
 public:
  NodePtr builtin_call(const ast::CallExpr& e, Compiler& c) override;
  NodePtr launch(const ast::CallExpr& e, Compiler& c) override;
  NodePtr domain(const ast::DomainExpr& e, Compiler& c) override;
  StmtNodePtr stream_decl(const ast::VarDecl& v, NodePtr slot, Compiler& c) override;
  StmtNodePtr stream_release(NodePtr slot, Compiler& c) override;
};

// syncGroup() inside a group kernel's body: on the phase-by-phase path a
// marker the body is cut at; on the fiber path it suspends the invocation
// through KernelContext::sync (kernel_groups.cpp).
struct SyncGroupNode : Node {
  KernelContext* ctx = nullptr;
  Scalar eval(Machine& m) override;
};

// Converts one gather index component to an integer: exact for integers,
// floor(f + 0.25) for floating types (§5).
int64_t gather_component(TypeKind k, Scalar s);

}  // namespace brook::interp
