#include "lang/analysis_group.hpp"

#include "lang/kernel_walk.hpp"
#include "stdlib/builtins.hpp"

namespace brook::analysis {

using namespace ast;

uint64_t GroupFacts::shared_bytes() const {
  uint64_t n = 0;
  for (const SharedArray& s : shared) n += static_cast<uint64_t>(s.elements) * s.elem_size;
  return n;
}

bool is_sync_statement(const Stmt& s) {
  const auto* e = s.as<ExprStmt>();
  const auto* c = e && e->expr ? e->expr->as<CallExpr>() : nullptr;
  return c && c->target == CallTarget::Builtin &&
         static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::syncGroup;
}

GroupFacts group_facts(const FuncDecl& kernel) {
  GroupFacts g;
  g.size = kernel.group_size;
  g.count = g.size[0] * g.size[1] * g.size[2];
  g.phases.emplace_back();
  if (!kernel.body) return g;
  // Fibers are needed where a syncGroup() sits below the top level or a
  // return may skip one (a return after the last syncGroup() only ends the
  // invocation's last phase early).
  bool nested_sync = false, returned = false;
  for (const StmtPtr& s : kernel.body->body) {
    if (is_sync_statement(*s)) {
      if (returned) g.phased = false;
      g.phases.emplace_back();
      continue;
    }
    walk(
        s.get(),
        [&](const Expr& e) {
          const auto* c = e.as<CallExpr>();
          if (c && c->target == CallTarget::Builtin &&
              static_cast<stdlib::Builtin>(c->builtin) == stdlib::Builtin::syncGroup)
            nested_sync = true;
        },
        [&](const Stmt& st) {
          if (st.kind == StmtKind::Return) returned = true;
        });
    g.phases.back().push_back(s.get());
    if (const auto* ds = s->as<DeclStmt>()) {
      for (const DeclPtr& d : ds->decls) {
        const auto* v = d->as<VarDecl>();
        if (!v || !v->is_shared || !v->type || !v->type->is_array()) continue;
        SharedArray a;
        a.var = v;
        a.elements = v->type->count;
        a.per_invocation = g.count > 0 ? a.elements / g.count : 0;
        a.elem_size = v->type->elem->size;
        g.shared.push_back(a);
      }
    }
  }
  if (nested_sync) g.phased = false;
  return g;
}

std::string divergent_sync_error(const FuncDecl& kernel) {
  return "the invocations of a group of kernel '" + kernel.name +
         "' do not reach the same syncGroup() calls (every invocation of a group must reach the "
         "same sequence of syncGroup()s; the control flow around them must be the same for the "
         "whole group)";
}

std::vector<int64_t> group_extents(const FuncDecl& kernel, size_t rank) {
  std::vector<int64_t> e(rank, 1);
  for (size_t k = 0; k < 3 && k < rank; ++k) e[rank - 1 - k] = kernel.group_size[k];
  return e;
}

std::string group_domain_error(const FuncDecl& kernel, std::span<const int64_t> domain) {
  // Sizes beyond the domain's rank need an extent of 1 there, so they fail.
  bool ok = true;
  for (size_t k = 0; k < 3; ++k) {
    int64_t extent = k < domain.size() ? domain[domain.size() - 1 - k] : 1;
    if (extent % kernel.group_size[k] != 0) ok = false;
  }
  if (ok) return {};
  std::string dom, gs;
  for (size_t d = 0; d < domain.size(); ++d) dom += (d ? ", " : "") + std::to_string(domain[d]);
  size_t n = kernel.group_size[2] != 1 ? 3 : kernel.group_size[1] != 1 ? 2 : 1;
  for (size_t k = 0; k < n; ++k) gs += (k ? ", " : "") + std::to_string(kernel.group_size[k]);
  return "the domain <" + dom + "> of group kernel '" + kernel.name +
         "' is not cut into whole groups of GroupSize(" + gs +
         ") (x along the last dimension; each extent must be a multiple of its size)";
}

}  // namespace brook::analysis
