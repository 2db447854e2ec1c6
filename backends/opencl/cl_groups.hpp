// Brook+ work-group kernels on OpenCL (LANGUAGE.md §12,
// lang/analysis_group.hpp): real work-groups. The launch is a 1- to 3-D
// NDRange over the domain (never the flat one) whose local size is
// GroupSize(x, y, z) trimmed to the NDRange's dimensions; shared arrays are
// __local arrays of the launch kernel, zeroed by their owners before a
// barrier; syncGroup() is barrier(CLK_LOCAL_MEM_FENCE).
//
// A barrier inside control flow is native OpenCL, but OpenCL leaves a barrier
// that only part of a work-group reaches undefined (a GPU may hang). So where
// a syncGroup() sits in a loop or branch, every decision around it whose
// condition may differ within a group (analysis::varying_sync_decisions) is a
// group vote: each work-item stores its value in __local slots, a barrier, all
// compare, a barrier; the group then follows work-item 0's value, so control
// around every barrier stays uniform, and a disagreement sets the launch's
// divergence word, which the host reports as the runtime error of
// analysis::divergent_sync_error. Loops holding a syncGroup() that poll the
// stop word (Ctrl-C) poll it by vote too. This reports a divergence where a
// group's invocations take different ways at such a decision, even when no
// invocation reaches a syncGroup() on its way (the interpreter and the JIT
// compare the syncGroup()s actually reached); decisions proven uniform cost
// nothing.
#pragma once

#include <string>
#include <vector>

#include "backends/opencl/cl_module.hpp"
#include "lang/analysis_group.hpp"

namespace brook::opencl {

// The kernel's shared arrays; empty when it is not a group kernel.
std::vector<analysis::SharedArray> group_shared_arrays(const ast::FuncDecl& kernel);

struct GroupLaunch {
  std::string attribute;  // reqd_work_group_size
  std::string prologue;   // the launch kernel's first lines
  std::string call_args;  // appended to the body function's call
};
GroupLaunch group_launch(const ast::FuncDecl& kernel, ClModule& m);

// The kernel is a group kernel with a syncGroup() below the top level of its
// body: its body function takes `__local long* brook_vslots, __global int*
// brook_diverged` and calls brook_vote (vote_helper).
bool group_votes(const ast::FuncDecl& kernel);
// Registers brook_vote(value, slots, diverged, check) in `m`; returns its name.
std::string vote_helper(ClModule& m);

// The local size for a domain of `rank` dimensions (the NDRange's order: x first).
std::vector<size_t> group_local_size(const ast::FuncDecl& kernel, size_t rank);

}  // namespace brook::opencl
