// `brook emit opencl`: the program each kernel and reduction would compile
// to when launched on whole 1-D streams (other shapes differ only in the
// entry kernel's index arithmetic).
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/opencl_backend.hpp"

namespace brook {

namespace {

StreamView line_of(const Type* elem) {
  StreamView v;
  v.elem = elem;
  v.stream_extents = v.extents = {1};
  v.offset = {0};
  return v;
}

const Type* element_of(const Type* t) {
  while (t && t->is_array()) t = t->elem;
  return t;
}

std::string emit_one(const ast::FuncDecl& f) {
  opencl::ClModule m;
  if (f.fkind == ast::FuncKind::Reduce) {
    ReducePlan plan;
    plan.reducer = &f;
    plan.loc = f.loc;
    for (const auto& p : f.params) {
      if (p->pkind == ast::ParamKind::Input) {
        plan.input_param = p->index;
        plan.input = line_of(p->type);
      } else if (p->pkind == ast::ParamKind::Reduce) {
        plan.reduce_param = p->index;
      } else {
        PlanArg a;
        a.param = p->index;
        a.role = p->pkind == ast::ParamKind::Gather ? ArgRole::Gather : ArgRole::Constant;
        a.view = line_of(element_of(p->type));
        plan.extra.push_back(std::move(a));
      }
    }
    return opencl::reduce_source(plan, m);
  }
  MapPlan plan;
  plan.kernel = &f;
  plan.loc = f.loc;
  plan.domain = {1};
  for (const auto& p : f.params) {
    PlanArg a;
    a.param = p->index;
    a.view = line_of(element_of(p->type));
    switch (p->pkind) {
      case ast::ParamKind::Input: a.role = ArgRole::Input; break;
      case ast::ParamKind::Iter: a.role = ArgRole::Iter; break;
      case ast::ParamKind::Out: a.role = ArgRole::Output; break;
      case ast::ParamKind::Gather: a.role = ArgRole::Gather; break;
      default: a.role = ArgRole::Constant; break;
    }
    if (a.role == ArgRole::Input || a.role == ArgRole::Iter || a.role == ArgRole::Output)
      a.map = {DimMap{0, 1, 1}};
    plan.args.push_back(std::move(a));
  }
  opencl::KernelFacts facts;
  return opencl::map_source(plan, m, facts);
}

}  // namespace

std::string emit_opencl(const ast::Program& program, std::string_view kernel_filter) {
  std::string out;
  for (const ast::StmtPtr& item : program.items) {
    auto* ds = item->as<ast::DeclStmt>();
    if (!ds) continue;
    for (const ast::DeclPtr& d : ds->decls) {
      auto* f = d->as<ast::FuncDecl>();
      if (!f || !f->body || f->fkind == ast::FuncKind::Host) continue;
      if (!kernel_filter.empty() && f->name != kernel_filter) continue;
      bool has_out = f->fkind == ast::FuncKind::Reduce;
      for (const auto& p : f->params)
        has_out = has_out || p->pkind == ast::ParamKind::Out || p->scatter;
      out += "// ==== " + std::string(f->fkind == ast::FuncKind::Reduce ? "reduce " : "kernel ") + f->name + "\n";
      if (!has_out) {
        out += "// (no output stream: only callable from other kernels)\n\n";
        continue;
      }
      try {
        out += emit_one(*f);
      } catch (const opencl::Unsupported& u) {
        out += "// cannot generate OpenCL C: " + u.message + "\n";
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace brook
