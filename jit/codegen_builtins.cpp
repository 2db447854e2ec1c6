// Builtins, lowered from the one stdlib table (stdlib/builtins.hpp) to match
// stdlib/reference.hpp: inline IR where the reference is arithmetic, the libm
// function named in the table otherwise.
#include <llvm/IR/Intrinsics.h>

#include "jit/abi.hpp"
#include "jit/codegen_impl.hpp"
#include "jit/math_bitcode.hpp"
#include "stdlib/brook_math.hpp"

namespace brook::jit {

using llvm::Value;
using stdlib::Builtin;
using stdlib::Sig;

Value* Codegen::libm(std::string_view name, std::vector<Value*> args, llvm::Type* t) {
  ++libm_calls;
  // A gang of lanes (jit/spmd.cpp): one call of the scalar function per lane,
  // so results stay byte-identical with the interpreter's.
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    Value* out = llvm::PoisonValue::get(vt);
    for (unsigned l = 0; l < vt->getNumElements(); ++l) {
      std::vector<Value*> lane;
      for (Value* a : args) lane.push_back(b.CreateExtractElement(a, l));
      out = b.CreateInsertElement(out, libm(name, lane, vt->getElementType()), l);
    }
    return out;
  }
  std::vector<llvm::Type*> params(args.size(), t);
  auto callee = mod.getOrInsertFunction(std::string(name), llvm::FunctionType::get(t, params, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->setOnlyAccessesInaccessibleMemory();  // libm may set errno; nothing we read
  }
  auto* c = b.CreateCall(callee, args);
  c->setDoesNotThrow();
  return c;
}

// The helper `<N x float> name.N(<N x float>...)` (one argument per operand),
// defined once per module and width, stores the gangs, calls the gang form
// and loads the result. It is readnone and noinline so that LLVM still merges
// and hoists equal calls, as it does the scalar form's (black_scholes calls
// cnd(d1) twice).
Value* Codegen::gang_call(std::string_view gang_symbol, std::string_view inline_symbol,
                          llvm::ArrayRef<Value*> xs) {
  Value* x = xs[0];
  auto* vt = llvm::cast<llvm::FixedVectorType>(x->getType());
  const unsigned n = vt->getNumElements();
  ++gang_calls;
  const std::string name = std::string(gang_symbol) + "." + std::to_string(n);
  llvm::Function* h = mod.getFunction(name);
  // The sixteen-lane form from stdlib/brook_math_inline.cpp (bitcode that
  // compiler.cpp links in), for gangs of 16 or 32: the helper calls it on each
  // half, and compiler.cpp inlines the helper once the pipeline has merged
  // equal calls (kInlineLateAttr).
  if (!h && xs.size() == 1 && !inline_symbol.empty() && !math_bitcode().empty() && n % 16 == 0 &&
      n <= 32) {
    auto* v16 = llvm::FixedVectorType::get(b.getFloatTy(), 16);
    auto core = mod.getOrInsertFunction(std::string(inline_symbol),
                                        llvm::FunctionType::get(v16, {v16}, false));
    h = llvm::Function::Create(llvm::FunctionType::get(vt, {vt}, false),
                               llvm::GlobalValue::InternalLinkage, name, mod);
    h->addFnAttr(llvm::Attribute::NoInline);
    h->addFnAttr(kInlineLateAttr);
    h->addFnAttr("min-legal-vector-width", "512");
    h->setDoesNotAccessMemory();  // the lanes that are not plain write only a stack array
    h->setDoesNotThrow();
    h->setWillReturn();
    llvm::IRBuilder<> hb(llvm::BasicBlock::Create(mod.getContext(), "entry", h));
    Value* arg = h->getArg(0);
    if (n == 16) {
      hb.CreateRet(hb.CreateCall(core, {arg}));
    } else {
      llvm::SmallVector<int, 16> lo, hi;
      for (int i = 0; i < 16; ++i) lo.push_back(i), hi.push_back(16 + i);
      Value* a = hb.CreateCall(core, {hb.CreateShuffleVector(arg, lo)});
      Value* c = hb.CreateCall(core, {hb.CreateShuffleVector(arg, hi)});
      llvm::SmallVector<int, 32> both;
      for (int i = 0; i < 32; ++i) both.push_back(i);
      hb.CreateRet(hb.CreateShuffleVector(a, c, both));
    }
  }
  if (!h) {
    // void gang(const float* in..., float* out, int n)
    const unsigned ins = static_cast<unsigned>(xs.size());
    auto* ptr = b.getPtrTy();
    std::vector<llvm::Type*> params(ins + 1, ptr);
    params.push_back(b.getInt32Ty());
    auto callee = mod.getOrInsertFunction(std::string(gang_symbol),
                                          llvm::FunctionType::get(b.getVoidTy(), params, false));
    if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      f->setDoesNotThrow();
      f->setWillReturn();
      f->setOnlyAccessesArgMemory();
      for (unsigned i = 0; i <= ins; ++i) f->addParamAttr(i, llvm::Attribute::NoCapture);
      for (unsigned i = 0; i < ins; ++i) f->addParamAttr(i, llvm::Attribute::ReadOnly);
      f->addParamAttr(ins, llvm::Attribute::WriteOnly);
    }
    h = llvm::Function::Create(
        llvm::FunctionType::get(vt, std::vector<llvm::Type*>(ins, vt), false),
        llvm::GlobalValue::InternalLinkage, name, mod);
    h->addFnAttr(llvm::Attribute::NoInline);
    h->setDoesNotAccessMemory();  // it writes only its own stack frame
    h->setDoesNotThrow();
    h->setWillReturn();
    llvm::IRBuilder<> hb(llvm::BasicBlock::Create(mod.getContext(), "entry", h));
    std::vector<Value*> args;
    for (unsigned i = 0; i < ins; ++i) {
      Value* in = hb.CreateAlloca(vt);
      hb.CreateStore(h->getArg(i), in);
      args.push_back(in);
    }
    Value* out = hb.CreateAlloca(vt);
    args.push_back(out);
    args.push_back(hb.getInt32(n));
    hb.CreateCall(callee, args);
    hb.CreateRet(hb.CreateLoad(vt, out));
  }
  return b.CreateCall(h, xs);
}

// One component of a component-wise builtin. `scalar` is the result's
// component type, `arg_scalar` the arguments' (they differ for isnan & co).
Value* Codegen::component_builtin(Builtin id, std::vector<Value*> a, const Type* scalar,
                                  const Type* arg_scalar) {
  const Type* s = arg_scalar;
  // Type-generic: the arguments are scalars, or gangs of lanes (jit/spmd.cpp)
  // of one shape, and every constant and result takes that shape.
  auto shaped = [&](llvm::Type* st) -> llvm::Type* {
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(a[0]->getType()))
      return llvm::FixedVectorType::get(st, vt->getNumElements());
    return st;
  };
  llvm::Type* t = shaped(scalar_reg(s));
  bool fp = s->is_floating();
  bool sign = s->kind != TypeKind::Bool && s->is_signed();
  auto un = [&](llvm::Intrinsic::ID iid) { return b.CreateUnaryIntrinsic(iid, a[0]); };
  auto to_int = [&](Value* flag) { return b.CreateZExt(flag, shaped(scalar_reg(scalar))); };
  switch (id) {
    case Builtin::abs:
    case Builtin::fabs:
      if (fp) return un(llvm::Intrinsic::fabs);
      if (!sign) return a[0];
      return b.CreateSelect(b.CreateICmpSLT(a[0], llvm::Constant::getNullValue(t)),
                            b.CreateNeg(a[0]), a[0]);
    case Builtin::sqrt: return un(llvm::Intrinsic::sqrt);
    case Builtin::floor: return un(llvm::Intrinsic::floor);
    case Builtin::ceil: return un(llvm::Intrinsic::ceil);
    case Builtin::trunc: return un(llvm::Intrinsic::trunc);
    case Builtin::round: return un(llvm::Intrinsic::round);
    case Builtin::fma:
      return b.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {a[0], a[1], a[2]});
    case Builtin::isnan: return to_int(b.CreateFCmpUNO(a[0], a[0]));
    case Builtin::isinf:
      return to_int(b.CreateFCmpOEQ(un(llvm::Intrinsic::fabs), llvm::ConstantFP::getInfinity(t)));
    case Builtin::isfinite:
      return to_int(b.CreateFCmpOLT(un(llvm::Intrinsic::fabs), llvm::ConstantFP::getInfinity(t)));
    case Builtin::popcount: return un(llvm::Intrinsic::ctpop);
    case Builtin::clz:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0], b.getInt1(false));
    case Builtin::ctz:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, a[0], b.getInt1(false));
    default: break;
  }
  // Float transcendentals are the project's own (stdlib/brook_math.h, the
  // interpreter's and OpenCL's bits): a gang of lanes calls the gang form
  // once, a scalar lane the scalar function. fp_relaxed keeps libm's, which
  // the loop vectoriser may turn into libmvec's.
  if (s->kind == TypeKind::Float && !relaxed) {
    std::string_view own = stdlib::brook_math_symbol(id);
    if (!own.empty() && llvm::isa<llvm::FixedVectorType>(t))
      return gang_call(stdlib::brook_math_gang_symbol(id), stdlib::brook_math_inline_symbol(id), a);
    if (!own.empty()) {
      Value* r = libm(own, a, t);
      if (llvm::Function* f = mod.getFunction(own)) {
        f->setDoesNotAccessMemory();  // pure: LLVM may hoist and merge calls
        f->setWillReturn();
      }
      return r;
    }
  }
  // Double ones likewise (stdlib/brook_math_double.h), one call per lane.
  if (s->kind == TypeKind::Double && !relaxed) {
    std::string_view own = stdlib::brook_math_symbol_f64(id);
    if (!own.empty()) {
      Value* r = libm(own, a, t);
      if (llvm::Function* f = mod.getFunction(own)) {
        f->setDoesNotAccessMemory();
        f->setWillReturn();
      }
      return r;
    }
  }
  const auto& info = stdlib::builtin_info(id);
  std::string_view name = s->kind == TypeKind::Float ? info.c_float_name : info.c_double_name;
  if (name.empty() || !fp) unsupported({}, "the builtin '" + std::string(info.name) + "' on '" + s->name() + "'");
  return libm(name, a, t);
}

RV Codegen::builtin(const ast::CallExpr& e) {
  const Builtin id = static_cast<Builtin>(e.builtin);
  const auto& info = stdlib::builtin_info(id);
  if (id == Builtin::printf) return printf_call(e);
  if (id == Builtin::push) {
    // push(e) (§12): brook_jit_push(ctx, parameter, &e, sizeof e).
    const auto* n = e.args.at(0)->as<ast::NameExpr>();
    const auto* p = n && n->decl ? n->decl->as<ast::ParamDecl>() : nullptr;
    if (!p) unsupported(e.loc, "'push' of something other than a vout parameter");
    LV lv = lvalue(*e.args[0]);
    auto hook = mod.getOrInsertFunction(
        "brook_jit_push", llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getInt64Ty(), b.getPtrTy(), b.getInt64Ty()}, false));
    b.CreateCall(hook, {fn->ctx, i64(p->index), lv.ptr, i64(static_cast<int64_t>(e.args[0]->type->size))});
    return {nullptr, e.type};
  }
  if (id == Builtin::pack_4ubyte || id == Builtin::unpack_4ubyte) {
    // §12 (Cg's PK4UB / UP4UB): bytes round(255 * clamp(c, 0, 1)), NaN as 0,
    // x in the low byte, in a float's bits; unpacking divides by 255.
    RV a = rvalue(*e.args.at(0));
    llvm::Type* f32 = b.getFloatTy();
    if (id == Builtin::pack_4ubyte) {
      Value* bits = b.getInt32(0);
      for (unsigned j = 0; j < 4; ++j) {
        Value* c = b.CreateExtractElement(a.v, j);
        Value *zero = llvm::ConstantFP::get(f32, 0.0), *one = llvm::ConstantFP::get(f32, 1.0);
        c = b.CreateSelect(b.CreateFCmpOGT(c, zero),
                           b.CreateSelect(b.CreateFCmpOLT(c, one), c, one), zero);
        c = b.CreateUnaryIntrinsic(llvm::Intrinsic::round,
                                   b.CreateFMul(llvm::ConstantFP::get(f32, 255.0), c));
        Value* byte = b.CreateFPToUI(c, b.getInt32Ty());
        bits = b.CreateOr(bits, b.CreateShl(byte, b.getInt32(8 * j)));
      }
      return {b.CreateBitCast(bits, f32), e.type};
    }
    Value* bits = b.CreateBitCast(a.v, b.getInt32Ty());
    Value* out = llvm::UndefValue::get(llvm::FixedVectorType::get(f32, 4));
    for (unsigned j = 0; j < 4; ++j) {
      Value* byte = b.CreateAnd(b.CreateLShr(bits, b.getInt32(8 * j)), b.getInt32(255));
      Value* c = b.CreateFDiv(b.CreateUIToFP(byte, f32), llvm::ConstantFP::get(f32, 255.0));
      out = b.CreateInsertElement(out, c, j);
    }
    return {out, e.type};
  }
  if (id == Builtin::instanceInGroup) {
    // The position modulo the group size (groups tile the domain from 0).
    auto* v4 = llvm::FixedVectorType::get(b.getInt32Ty(), 4);
    Value* v = b.CreateLoad(v4, fn->ctx);
    const auto& g = fn->decl->group_size;
    if (g[0] <= 0) unsupported(e.loc, "'instanceInGroup()' outside a work-group kernel");
    Value* size = llvm::ConstantVector::get(
        {b.getInt32(static_cast<uint32_t>(g[0])), b.getInt32(static_cast<uint32_t>(g[1])),
         b.getInt32(static_cast<uint32_t>(g[2])), b.getInt32(1)});
    return {b.CreateSRem(v, size), e.type};
  }
  if (id == Builtin::syncGroup) {
    // Reached only off the phase-by-phase path (a syncGroup() in a loop or
    // branch): the invocation runs on a fiber and the hook suspends it
    // (jit/groups.cpp). Sema keeps syncGroup() a statement of its own.
    if (fn->decl->group_size[0] <= 0)
      unsupported(e.loc, "'syncGroup()' outside a work-group kernel");
    Value* launch = b.CreateLoad(b.getPtrTy(), byte_gep(fn->ctx, kCtxLaunch));
    auto hook = mod.getOrInsertFunction(
        "brook_jit_sync",
        llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getInt64Ty()}, false));
    uint64_t loc = (static_cast<uint64_t>(e.loc.line) << 32) | e.loc.col;
    b.CreateCall(hook, {launch, i64(static_cast<int64_t>(loc))});
    return {nullptr, e.type};
  }
  if (id == Builtin::instance) {
    // The domain position plus the first output's view offset (§5).
    auto* v4 = llvm::FixedVectorType::get(b.getInt32Ty(), 4);
    Value* v = b.CreateLoad(v4, fn->ctx);
    Value* launch = b.CreateLoad(b.getPtrTy(), byte_gep(fn->ctx, kCtxLaunch));
    Value* off = b.CreateAlignedLoad(v4, byte_gep(launch, kLaunchInstanceOffset), llvm::Align(4));
    return {b.CreateAdd(v, off), e.type};
  }
  std::vector<RV> args;
  for (const auto& a : e.args) args.push_back(rvalue(*a));
  if (args.empty()) unsupported(e.loc, "this builtin call");
  const Type* at = args[0].t;
  for (const RV& a : args)
    if (a.t->is_vector()) at = a.t;
  const Type* as = at->scalar_of();
  auto comp = [&](const RV& v, unsigned i, const Type* want) -> Value* {
    if (v.t->is_vector()) return b.CreateExtractElement(v.v, i);
    if (want && want != v.t) return convert(v.v, v.t, want);
    return v.v;
  };
  auto result = [&](const std::vector<Value*>& c) -> RV {
    if (!e.type->is_vector()) return {c.at(0), e.type};
    Value* out = llvm::PoisonValue::get(reg_type(e.type));
    for (unsigned i = 0; i < e.type->count; ++i)
      out = b.CreateInsertElement(out, c[c.size() == 1 ? 0 : i], i);
    return {out, e.type};
  };
  if (const stdlib::Recipe* r = stdlib::recipe_of(id)) {
    // A composed builtin: its recipe on the arguments' components.
    std::vector<std::vector<Value*>> xs;
    for (const RV& a : args) {
      xs.emplace_back();
      for (unsigned i = 0; i < a.t->width(); ++i) xs.back().push_back(comp(a, i, as));
    }
    return result(recipe(*r, xs, as, e.type->scalar_of(), [](llvm::MutableArrayRef<Value*>) {}));
  }
  switch (info.sig) {
    case Sig::FloatUnary:
    case Sig::FloatBinary:
    case Sig::FloatTernary:
    case Sig::Lerp:
    case Sig::AnyUnary:
    case Sig::AnyBinary:
    case Sig::AnyTernary:
    case Sig::Classify:
    case Sig::IntUnary: {
      std::vector<Value*> out;
      for (unsigned i = 0; i < e.type->width(); ++i) {
        std::vector<Value*> xs;
        for (const RV& a : args) xs.push_back(comp(a, i, as));
        out.push_back(component_builtin(id, xs, e.type->scalar_of(), as));
      }
      return result(out);
    }
    default: break;
  }
  unsupported(e.loc, "the builtin '" + std::string(info.name) + "' in a kernel");
}

// printf in a kernel: the arguments (already promoted by sema) are packed as
// PrintfArg records and formatted on the host by brook_jit_printf.
RV Codegen::printf_call(const ast::CallExpr& e) {
  if (e.args.empty()) unsupported(e.loc, "printf without a format");
  RV fmt = rvalue(*e.args[0]);
  size_t n = e.args.size() - 1;
  auto* rec_ty = llvm::ArrayType::get(b.getInt64Ty(), 2 * std::max<size_t>(n, 1));
  llvm::IRBuilder<> entry(fn->alloca_block, fn->alloca_block->begin());
  Value* recs = entry.CreateAlloca(rec_ty);
  for (size_t i = 0; i < n; ++i) {
    RV v = rvalue(*e.args[i + 1]);
    int64_t kind;
    Value* bits;
    const Type* t = v.t;
    if (t->is_pointer() || t->is_array()) {
      kind = 5;
      bits = b.CreatePtrToInt(v.v, b.getInt64Ty());
    } else if (t->is_floating()) {
      kind = 4;
      bits = b.CreateBitCast(b.CreateFPExt(v.v, b.getDoubleTy()), b.getInt64Ty());
    } else if (t->is_integer()) {
      bool sign = t->kind != TypeKind::Bool && t->is_signed();
      bool wide = t->size == 8;
      kind = wide ? (sign ? 2 : 3) : (sign ? 0 : 1);
      if (t->size < 4) kind = 0;
      bits = b.CreateIntCast(v.v, b.getInt64Ty(), sign);
    } else {
      unsupported(e.args[i + 1]->loc, "printing a value of type '" + t->name() + "'");
    }
    b.CreateStore(i64(kind), byte_gep(recs, static_cast<int64_t>(16 * i)));
    b.CreateStore(bits, byte_gep(recs, static_cast<int64_t>(16 * i + 8)));
  }
  Value* launch = b.CreateLoad(b.getPtrTy(), byte_gep(fn->ctx, kCtxLaunch));
  auto hook = mod.getOrInsertFunction(
      "brook_jit_printf",
      llvm::FunctionType::get(b.getInt32Ty(),
                              {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty()},
                              false));
  uint64_t loc = (static_cast<uint64_t>(e.loc.line) << 32) | e.loc.col;
  Value* r = b.CreateCall(hook, {launch, fmt.v, recs, i64(static_cast<int64_t>(n)), i64(static_cast<int64_t>(loc))});
  return {r, e.type};
}

}  // namespace brook::jit
