// `brook emit llvm`: each kernel and reduction compiled for a typical launch
// (1-D streams of the domain's shape), printed as optimised IR.
#include "jit/codegen.hpp"
#include "jit/compiler.hpp"
#include "jit/jit_backend.hpp"

namespace brook {

std::string jit_emit_llvm(const ast::Program& program, bool fp_relaxed, std::string_view only,
                          const JitTuning& tuning) {
  jit::JitCompiler compiler(tuning, "");
  std::string out;
  for (const auto& item : program.items) {
    const auto* ds = item->as<ast::DeclStmt>();
    if (!ds) continue;
    for (const auto& d : ds->decls) {
      const auto* f = d->as<ast::FuncDecl>();
      if (!f || !f->body || f->fkind == ast::FuncKind::Host) continue;
      if (!only.empty() && f->name != only) continue;
      try {
        if (f->fkind == ast::FuncKind::Kernel) {
          bool has_out = false;
          jit::MapShape shape;
          shape.narrow_columns = true;  // as every launch of fewer than 2^31 columns
          for (const auto& p : f->params) {
            jit::ArgShape s;
            switch (p->pkind) {
              case ast::ParamKind::Input:
                s.role = ArgRole::Input;
                break;
              case ast::ParamKind::Iter:
                s.role = ArgRole::Iter;
                break;
              case ast::ParamKind::Out:
                s.role = ArgRole::Output;
                has_out = true;
                break;
              case ast::ParamKind::Gather:
                s.role = ArgRole::Gather;
                s.rank = p->gather_rank;
                break;
              default:
                s.role = ArgRole::Constant;
                break;
            }
            if (s.role == ArgRole::Input || s.role == ArgRole::Iter || s.role == ArgRole::Output) {
              s.rank = 1;
              s.out_dim[0] = 0;
              s.identity[0] = true;
            }
            shape.args.push_back(s);
          }
          if (!has_out) continue;
          out += "; kernel " + f->name + " (1-D streams of the domain's shape)\n";
          out += compiler.optimized_ir([&](llvm::Module& m, const std::string& name) {
            jit::emit_map(m, *f, shape, name, fp_relaxed, tuning.spmd);
          });
        } else {
          int in = -1, red = -1;
          std::vector<jit::ArgShape> params(f->params.size());
          for (size_t i = 0; i < f->params.size(); ++i) {
            auto k = f->params[i]->pkind;
            if (k == ast::ParamKind::Input)
              in = static_cast<int>(i), params[i].role = ArgRole::Input;
            else if (k == ast::ParamKind::Reduce)
              red = static_cast<int>(i), params[i].role = ArgRole::Output;
            else if (k == ast::ParamKind::Gather)
              params[i].role = ArgRole::Gather, params[i].rank = f->params[i]->gather_rank;
          }
          if (in < 0 || red < 0) continue;
          out += "; reduce " + f->name + "\n";
          out += compiler.optimized_ir([&](llvm::Module& m, const std::string& name) {
            jit::emit_fold(m, *f, in, red, params, name, fp_relaxed);
          });
        }
      } catch (const jit::CodegenError& e) {
        out += "; " + f->name + ": " + e.message + "\n";
      }
    }
  }
  return out;
}

}  // namespace brook
