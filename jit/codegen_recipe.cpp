// Composed builtins (stdlib/recipe.hpp) in LLVM IR, for both the scalar path
// (codegen_builtins.cpp) and the SPMD path (spmd_expr.cpp): the recipe's
// steps become plain IR on component values, which the SPMD path keeps as
// gangs of lanes so that these builtins vectorise like any arithmetic.
#include "jit/codegen_impl.hpp"
#include "stdlib/recipe_eval.hpp"

namespace brook::jit {

using llvm::Value;
using stdlib::StepOp;

namespace {

// The recipe's operations in IR on values of component type `s`: unfused
// (no fast-math flags), unordered only for != as C's comparisons are.
struct IrLowering {
  using Value = llvm::Value*;
  Codegen& cg;
  const Type* s;
  llvm::function_ref<void(llvm::MutableArrayRef<Value>)> same_shape;

  llvm::IRBuilder<>& b() { return cg.b; }
  bool fp() const { return s->is_floating(); }
  bool sign() const { return s->kind != TypeKind::Bool && s->is_signed(); }

  Value constant(double v) {
    llvm::Type* t = cg.scalar_reg(s);
    if (fp()) return llvm::ConstantFP::get(t, v);
    return llvm::ConstantInt::get(t, static_cast<uint64_t>(static_cast<int64_t>(v)), true);
  }
  Value neg(Value x) { return fp() ? b().CreateFNeg(x) : b().CreateNeg(x); }
  Value binary(StepOp op, Value x, Value y) {
    Value xy[] = {x, y};
    same_shape(xy);
    x = xy[0];
    y = xy[1];
    using P = llvm::CmpInst::Predicate;
    auto cmp = [&](P f, P si, P ui) { return b().CreateCmp(fp() ? f : sign() ? si : ui, x, y); };
    switch (op) {
      case StepOp::add:
        return fp() ? b().CreateFAdd(x, y) : b().CreateAdd(x, y);
      case StepOp::sub:
        return fp() ? b().CreateFSub(x, y) : b().CreateSub(x, y);
      case StepOp::mul:
        return fp() ? b().CreateFMul(x, y) : b().CreateMul(x, y);
      case StepOp::div:
        return fp() ? b().CreateFDiv(x, y) : sign() ? b().CreateSDiv(x, y) : b().CreateUDiv(x, y);
      case StepOp::lt:
        return cmp(P::FCMP_OLT, P::ICMP_SLT, P::ICMP_ULT);
      case StepOp::le:
        return cmp(P::FCMP_OLE, P::ICMP_SLE, P::ICMP_ULE);
      case StepOp::gt:
        return cmp(P::FCMP_OGT, P::ICMP_SGT, P::ICMP_UGT);
      case StepOp::ge:
        return cmp(P::FCMP_OGE, P::ICMP_SGE, P::ICMP_UGE);
      case StepOp::eq:
        return cmp(P::FCMP_OEQ, P::ICMP_EQ, P::ICMP_EQ);
      case StepOp::ne:
        return cmp(P::FCMP_UNE, P::ICMP_NE, P::ICMP_NE);
      default:
        return nullptr;
    }
  }
  Value select(Value c, Value x, Value y) {
    Value cxy[] = {c, x, y};
    same_shape(cxy);
    return b().CreateSelect(cxy[0], cxy[1], cxy[2]);
  }
  Value either(Value f, Value g) {
    Value fg[] = {f, g};
    same_shape(fg);
    return b().CreateOr(fg[0], fg[1]);
  }
  Value both(Value f, Value g) {
    Value fg[] = {f, g};
    same_shape(fg);
    return b().CreateAnd(fg[0], fg[1]);
  }
  // A primitive builtin as a direct call of it is lowered.
  Value call(stdlib::Builtin fn, std::span<const Value> xs) {
    std::vector<Value> a(xs.begin(), xs.end());
    same_shape(a);
    return cg.component_builtin(fn, a, s, s);
  }
};

}  // namespace

std::vector<Value*> Codegen::recipe(
    const stdlib::Recipe& r, const std::vector<std::vector<Value*>>& args, const Type* comp,
    const Type* result_comp, llvm::function_ref<void(llvm::MutableArrayRef<Value*>)> same_shape) {
  std::vector<stdlib::Comps<Value*>> in(args.size());
  for (size_t a = 0; a < args.size(); ++a) {
    in[a].n = static_cast<uint8_t>(args[a].size());
    for (size_t k = 0; k < args[a].size() && k < 4; ++k) in[a].c[k] = args[a][k];
  }
  IrLowering low{*this, comp, same_shape};
  stdlib::Comps<Value*> out = stdlib::evaluate(r, low, std::span<const stdlib::Comps<Value*>>(in));
  std::vector<Value*> result(out.c.begin(), out.c.begin() + out.n);
  if (r.steps.back().flag) {
    // any, all: a flag becomes int 1 or 0.
    for (Value*& v : result) {
      llvm::Type* t = scalar_reg(result_comp);
      if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(v->getType()))
        t = llvm::FixedVectorType::get(t, vt->getNumElements());
      v = b.CreateZExt(v, t);
    }
  }
  return result;
}

}  // namespace brook::jit
