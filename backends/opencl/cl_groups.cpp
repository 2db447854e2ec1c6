#include "backends/opencl/cl_groups.hpp"

namespace brook::opencl {

std::vector<analysis::SharedArray> group_shared_arrays(const ast::FuncDecl& kernel) {
  if (!analysis::is_group_kernel(kernel)) return {};
  return analysis::group_facts(kernel).shared;
}

GroupLaunch group_launch(const ast::FuncDecl& kernel, ClModule& m) {
  GroupLaunch g;
  const auto& s = kernel.group_size;
  g.attribute = "__attribute__((reqd_work_group_size(" + std::to_string(s[0]) + ", " +
                std::to_string(s[1]) + ", " + std::to_string(s[2]) + ")))";
  const std::vector<analysis::SharedArray> shared = group_shared_arrays(kernel);
  std::string decls, zero;
  for (const analysis::SharedArray& a : shared) {
    const std::string n = "brook_sh_" + safe_name(a.var->name);
    const std::string T = m.type_name(a.var->type->elem);
    decls += "  __local " + T + " " + n + "[" + std::to_string(a.elements) + "];\n";
    // Each invocation zeroes the elements it owns (Brook+'s owner rule).
    const std::string k = std::to_string(a.per_invocation);
    zero += "  for (long brook_e = brook_L * " + k + "; brook_e < (brook_L + 1) * " + k +
            "; ++brook_e) " + n + "[brook_e] = (" + T + ")(0);\n";
    g.call_args += ", " + n;
  }
  if (!shared.empty()) {
    g.prologue = decls + "  long brook_L = (long)get_local_id(0) + " + std::to_string(s[0]) +
                 "L * ((long)get_local_id(1) + " + std::to_string(s[1]) +
                 "L * (long)get_local_id(2));\n" + zero + "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }
  return g;
}

std::vector<size_t> group_local_size(const ast::FuncDecl& kernel, size_t rank) {
  std::vector<size_t> l;
  for (size_t k = 0; k < 3 && k < rank; ++k) l.push_back(static_cast<size_t>(kernel.group_size[k]));
  return l;
}

}  // namespace brook::opencl
