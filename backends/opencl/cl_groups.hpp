// Brook+ work-group kernels on OpenCL (LANGUAGE.md §12,
// lang/analysis_group.hpp): real work-groups. The launch is a 1- to 3-D
// NDRange over the domain (never the flat one) whose local size is
// GroupSize(x, y, z) trimmed to the NDRange's dimensions; shared arrays are
// __local arrays of the launch kernel, zeroed by their owners before a
// barrier; syncGroup() is barrier(CLK_LOCAL_MEM_FENCE).
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

// The local size for a domain of `rank` dimensions (the NDRange's order: x first).
std::vector<size_t> group_local_size(const ast::FuncDecl& kernel, size_t rank);

}  // namespace brook::opencl
