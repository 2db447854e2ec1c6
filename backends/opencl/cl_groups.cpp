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
  if (group_votes(kernel)) {
    m.group_votes = true;
    decls += "  __local long brook_vslots[" + std::to_string(s[0] * s[1] * s[2]) + "];\n";
    g.call_args += ", brook_vslots, brook_diverged";
    if (shared.empty()) g.prologue = decls;
  }
  if (!shared.empty()) {
    g.prologue = decls + "  long brook_L = (long)get_local_id(0) + " + std::to_string(s[0]) +
                 "L * ((long)get_local_id(1) + " + std::to_string(s[1]) +
                 "L * (long)get_local_id(2));\n" + zero + "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }
  return g;
}

bool group_votes(const ast::FuncDecl& kernel) {
  return analysis::is_group_kernel(kernel) && !analysis::group_facts(kernel).phased;
}

std::string vote_helper(ClModule& m) {
  m.helper("brook_vote", [] {
    return "static long brook_vote(long v, __local long* slots, __global int* diverged, int check) "
           "{\n"
           "  long L = (long)get_local_id(0) + (long)get_local_size(0) * ((long)get_local_id(1) +\n"
           "           (long)get_local_size(1) * (long)get_local_id(2));\n"
           "  long G = (long)get_local_size(0) * (long)get_local_size(1) * "
           "(long)get_local_size(2);\n"
           "  slots[L] = v;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  long first = slots[0];\n"
           "  int same = 1;\n"
           "  if (check)\n"
           "    for (long k = 1; k < G; ++k) same &= slots[k] == first;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  if (!same && L == 0) *diverged = 1;\n"
           "  return first;\n"
           "}\n";
  });
  return "brook_vote";
}

std::vector<size_t> group_local_size(const ast::FuncDecl& kernel, size_t rank) {
  std::vector<size_t> l;
  for (size_t k = 0; k < 3 && k < rank; ++k) l.push_back(static_cast<size_t>(kernel.group_size[k]));
  return l;
}

}  // namespace brook::opencl
