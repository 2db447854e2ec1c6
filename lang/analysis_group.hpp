// Facts about Brook+ work-group kernels (LANGUAGE.md §12), computed once from
// a checked kernel so every backend runs the same model:
//  - the launch domain is cut into groups of GroupSize(x, y, z) invocations
//    along its last (x), second-last (y) and third-last (z) dimensions; every
//    other dimension groups by 1. The domain must be cut into whole groups.
//  - a group's invocations are numbered L = lx + gx * (ly + gy * lz), where
//    (lx, ly, lz) = instanceInGroup().
//  - `shared T a[N]` is one array per group, zero when the group starts;
//    invocation L owns elements [L * N / G, (L + 1) * N / G) (G invocations
//    per group; sema requires G to divide N).
//  - syncGroup() is a statement anywhere in the kernel body (inside `if`,
//    loops and `switch` too; never part of an expression, sema checks). It is
//    a barrier: no invocation of a group runs past its k-th syncGroup() call
//    before every invocation of the group has reached its k-th call, so
//    shared elements written before it are seen by every invocation after it.
//  - Group-uniform control flow around barriers: every invocation of a group
//    must reach the same sequence of syncGroup() calls (the same statements
//    in the same order; loop trip counts and branches around them the same
//    for the whole group). A group whose invocations wait at different
//    syncGroup()s, or where some wait while others have finished the body,
//    is a runtime error at the launch naming the kernel
//    (divergent_sync_error), never a hang.
//  - How backends run it: where every syncGroup() is a top-level statement
//    and no `return` comes before the last one (`phased`), the body is cut
//    into phases (the statements between syncGroup()s) and a group runs phase
//    p of all its invocations before phase p + 1; locals keep their values.
//    Otherwise the interpreter and the JIT run each invocation as a fiber
//    (interp/fiber.hpp) that syncGroup() suspends, and OpenCL uses barrier().
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "lang/ast.hpp"

namespace brook::analysis {

struct SharedArray {
  const ast::VarDecl* var = nullptr;
  int64_t elements = 0;        // N
  int64_t per_invocation = 0;  // N / G
  uint64_t elem_size = 0;
};

struct GroupFacts {
  std::array<int64_t, 3> size{1, 1, 1};  // x, y, z
  int64_t count = 1;                     // invocations per group, x * y * z
  std::vector<SharedArray> shared;
  // Every syncGroup() is a top-level statement of the body and no `return`
  // comes before the last one: `phases` then describes the whole body.
  bool phased = true;
  // The body's top-level statements of each phase, in order; the syncGroup()
  // statements themselves belong to no phase. Always at least one phase.
  std::vector<std::vector<const ast::Stmt*>> phases;
  uint64_t shared_bytes() const;
};

inline bool is_group_kernel(const ast::FuncDecl& k) {
  return k.group_size[0] > 0;
}

// Requires is_group_kernel(kernel) and a kernel sema accepted.
GroupFacts group_facts(const ast::FuncDecl& kernel);

// True for the statement `syncGroup();`.
bool is_sync_statement(const ast::Stmt& s);

// The decisions around syncGroup() (an `if`, loop or `switch` holding a
// syncGroup(), or a return, break or continue that can skip one) whose
// condition may differ between the invocations of a group: it depends on
// instanceInGroup(), instance(), indexof, a stream or shared element, a kernel
// call or a local that does (analysis_uniform.cpp). A backend whose barrier
// needs uniform control flow checks these at run time (OpenCL, cl_groups.hpp).
std::set<const ast::Stmt*> varying_sync_decisions(const ast::FuncDecl& kernel);

// The runtime error of a group whose invocations do not reach the same
// sequence of syncGroup() calls (the same text on every backend).
std::string divergent_sync_error(const ast::FuncDecl& kernel);

// Empty when `domain` (slowest dimension first) is cut into whole groups;
// else the runtime error message.
std::string group_domain_error(const ast::FuncDecl& kernel, std::span<const int64_t> domain);

// The group extents per domain dimension (slowest first): GroupSize's x on
// the last dimension, y on the second-last, z on the third-last, 1 elsewhere.
std::vector<int64_t> group_extents(const ast::FuncDecl& kernel, size_t rank);

}  // namespace brook::analysis
