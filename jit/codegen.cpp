// Functions, statements and the two entry points (slice, fold). Expressions
// are in codegen_expr.cpp, builtins in codegen_builtins.cpp.
#include "jit/codegen_impl.hpp"

#include <functional>

#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/abi.hpp"
#include "jit/groups.hpp"
#include "jit/spmd.hpp"

namespace brook::jit {

using llvm::BasicBlock;
using llvm::Value;

Codegen::Codegen(llvm::Module& m, bool fp_relaxed)
    : ctx(m.getContext()), mod(m), b(m.getContext()), relaxed(fp_relaxed) {
  if (relaxed) {
    llvm::FastMathFlags f;
    f.setFast();
    b.setFastMathFlags(f);
  }
}

void Codegen::unsupported(SourceLoc loc, const std::string& what) {
  throw CodegenError{loc, "the JIT backend does not support " + what};
}

// ---------------------------------------------------------------------------
// Types and memory

llvm::Type* Codegen::scalar_reg(const Type* t) {
  switch (t->kind) {
    case TypeKind::Bool: return b.getInt1Ty();
    case TypeKind::Char:
    case TypeKind::UChar: return b.getInt8Ty();
    case TypeKind::Short:
    case TypeKind::UShort: return b.getInt16Ty();
    case TypeKind::Int:
    case TypeKind::UInt: return b.getInt32Ty();
    case TypeKind::Long:
    case TypeKind::ULong: return b.getInt64Ty();
    case TypeKind::Float: return b.getFloatTy();
    case TypeKind::Double: return b.getDoubleTy();
    case TypeKind::Void: return b.getVoidTy();
    case TypeKind::Pointer: return b.getPtrTy();
    default: break;
  }
  throw CodegenError{{}, "the JIT backend does not support values of type '" + t->name() + "'"};
}

llvm::Type* Codegen::reg_type(const Type* t) {
  if (t->is_vector()) return llvm::FixedVectorType::get(scalar_reg(t->elem), t->count);
  if (t->is_struct() || t->is_array()) return b.getPtrTy();
  return scalar_reg(t);
}

llvm::Type* Codegen::mem_type(const Type* t) {
  if (t->kind == TypeKind::Bool) return b.getInt8Ty();
  if (t->is_struct() || t->is_array()) return llvm::ArrayType::get(b.getInt8Ty(), t->size);
  return reg_type(t);
}

Value* Codegen::byte_gep(Value* ptr, int64_t offset) {
  if (offset == 0) return ptr;
  return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, static_cast<uint64_t>(offset));
}
Value* Codegen::byte_gep(Value* ptr, Value* offset) {
  return b.CreateGEP(b.getInt8Ty(), ptr, offset);
}

Value* Codegen::load_i64(Value* base, int64_t offset) {
  return b.CreateLoad(b.getInt64Ty(), byte_gep(base, offset));
}

Value* Codegen::load(Value* ptr, const Type* t) {
  if (t->is_struct() || t->is_array()) return ptr;
  llvm::Align align(t->scalar_of()->align ? t->scalar_of()->align : 1);
  if (t->kind == TypeKind::Bool) {
    Value* byte = b.CreateAlignedLoad(b.getInt8Ty(), ptr, align);
    return b.CreateICmpNE(byte, b.getInt8(0));
  }
  return b.CreateAlignedLoad(reg_type(t), ptr, align);
}

void Codegen::copy(Value* dst, Value* src, const Type* t) {
  b.CreateMemCpy(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1), t->size);
}

void Codegen::store(Value* ptr, const RV& v) {
  const Type* t = v.t;
  if (t->is_struct() || t->is_array()) {
    if (ptr != v.v) copy(ptr, v.v, t);
    return;
  }
  llvm::Align align(t->scalar_of()->align ? t->scalar_of()->align : 1);
  Value* x = v.v;
  if (t->kind == TypeKind::Bool) x = b.CreateZExt(x, b.getInt8Ty());
  b.CreateAlignedStore(x, ptr, align);
}

Value* Codegen::alloca_of(const Type* t, const char* name) {
  llvm::IRBuilder<> entry(fn->alloca_block, fn->alloca_block->begin());
  llvm::Type* ty = mem_type(t);
  auto* a = entry.CreateAlloca(ty, nullptr, name);
  a->setAlignment(llvm::Align(std::max<uint64_t>(t->align, 1)));
  return a;
}

Value* Codegen::const_of(const Type* t, double fv, int64_t iv) {
  const Type* s = t->scalar_of();
  llvm::Type* st = scalar_reg(s);
  llvm::Constant* c = s->is_floating() ? llvm::ConstantFP::get(st, fv)
                                       : llvm::ConstantInt::get(st, static_cast<uint64_t>(iv), true);
  if (t->is_vector()) return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(t->count), c);
  return c;
}

Value* Codegen::string_constant(const std::string& s) {
  auto it = strings.find(s);
  if (it != strings.end()) return it->second;
  Value* g = b.CreateGlobalStringPtr(s, "str", 0, &mod);
  strings[s] = g;
  return g;
}

// ---------------------------------------------------------------------------
// Body functions: void body(ctx*, ret*, p0*, idx0*, p1*, idx1*, ...)

llvm::Function* Codegen::body(const ast::FuncDecl& decl) {
  const ast::FuncDecl& f = decl.defined();
  if (auto it = bodies.find(&f); it != bodies.end()) return it->second;
  if (!f.body) unsupported(f.loc, "calling kernel '" + f.name + "' that has no body");
  std::vector<llvm::Type*> params(2 + 2 * f.params.size(), b.getPtrTy());
  auto* ft = llvm::FunctionType::get(b.getVoidTy(), params, false);
  auto* fnv = llvm::Function::Create(ft, llvm::Function::InternalLinkage, "brook_body_" + f.name, mod);
  fnv->addFnAttr(llvm::Attribute::AlwaysInline);
  fnv->addFnAttr(llvm::Attribute::NoUnwind);
  bodies[&f] = fnv;

  Fn state;
  state.decl = &f;
  state.fn = fnv;
  Fn* saved_fn = fn;
  auto saved_ip = b.saveIP();
  fn = &state;
  state.alloca_block = BasicBlock::Create(ctx, "allocas", fnv);
  BasicBlock* start = BasicBlock::Create(ctx, "start", fnv);
  b.SetInsertPoint(start);
  state.ctx = fnv->getArg(0);
  state.ret = fnv->getArg(1);
  const bool group = analysis::is_group_kernel(f);
  Value* phase = nullptr;
  if (group) {
    // Float counter shadows would be allocas lost between phases: none here.
    state.group = std::make_shared<const GroupLayout>(group_layout(f));
    Value* launch = b.CreateLoad(b.getPtrTy(), byte_gep(state.ctx, kCtxLaunch));
    // The invocation's index in its group, L = lx + gx * (ly + gy * lz).
    auto* v4 = llvm::FixedVectorType::get(b.getInt32Ty(), 4);
    Value* pos = b.CreateLoad(v4, state.ctx);
    Value* L = i64(0);
    for (int j = 2; j >= 0; --j) {
      Value* c =
          b.CreateSExt(b.CreateExtractElement(pos, static_cast<uint64_t>(j)), b.getInt64Ty());
      c = b.CreateSRem(c, i64(f.group_size[static_cast<size_t>(j)]));
      L = b.CreateAdd(b.CreateMul(L, i64(f.group_size[static_cast<size_t>(j)])), c);
    }
    Value* frames = b.CreateLoad(b.getPtrTy(), byte_gep(launch, kLaunchGroupFrames));
    state.group_frame = byte_gep(frames, b.CreateMul(L, load_i64(launch, kLaunchGroupFrameSize)));
    state.group_shared = b.CreateLoad(b.getPtrTy(), byte_gep(launch, kLaunchGroupShared));
    phase = load_i64(launch, kLaunchGroupPhase);
    // Places of the top-level locals and shared arrays, here so that they
    // dominate every phase.
    for (const auto& [d, off] : state.group->frame)
      if (d->kind == ast::DeclKind::Var)
        state.ptrs[d] = byte_gep(state.group_frame, static_cast<int64_t>(off));
    for (const auto& [d, off] : state.group->shared)
      state.ptrs[d] = byte_gep(state.group_shared, static_cast<int64_t>(off));
  } else {
    state.counters = std::make_unique<analysis::FloatCounters>(f);
  }
  std::vector<std::pair<Value*, std::pair<Value*, const Type*>>> first_phase_copies;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const ast::ParamDecl* p = f.params[i].get();
    Value* ptr = fnv->getArg(static_cast<unsigned>(2 + 2 * i));
    // Constants and inputs are read-only in the body but C lets a constant be
    // assigned: give those a private copy. Inputs get one too, read on entry:
    // an in-place call (`f(s, s)`, which the scheduler runs without a copy)
    // must see the input as it was before the body wrote the output (§5).
    if (p->pkind == ast::ParamKind::Const || p->pkind == ast::ParamKind::Value ||
        p->pkind == ast::ParamKind::Input || p->pkind == ast::ParamKind::Iter) {
      if (group) {
        // Kept in the frame, taken once, before the first phase.
        Value* local = byte_gep(state.group_frame, static_cast<int64_t>(state.group->frame.at(p)));
        first_phase_copies.push_back({local, {ptr, p->type}});
        ptr = local;
      } else {
        Value* local = alloca_of(p->type, p->name.c_str());
        copy(local, ptr, p->type);
        ptr = local;
      }
    }
    state.ptrs[p] = ptr;
    state.idx[p] = fnv->getArg(static_cast<unsigned>(3 + 2 * i));
  }
  if (group) {
    BasicBlock* take = BasicBlock::Create(ctx, "take_params", fnv);
    BasicBlock* taken = BasicBlock::Create(ctx, "params_taken", fnv);
    b.CreateCondBr(b.CreateICmpEQ(phase, i64(0)), take, taken);
    b.SetInsertPoint(take);
    for (auto& [local, from] : first_phase_copies) copy(local, from.first, from.second);
    b.CreateBr(taken);
    b.SetInsertPoint(taken);
    // One phase per call: the statements between its syncGroup()s; off the
    // phased path the whole body, suspended at each syncGroup() (groups.hpp).
    const analysis::GroupFacts facts = analysis::group_facts(f);
    if (!facts.phased) stmt(*f.body);
    for (size_t k = 0; facts.phased && k < facts.phases.size(); ++k) {
      BasicBlock* run = BasicBlock::Create(ctx, "phase", fnv);
      BasicBlock* next = BasicBlock::Create(ctx, "phase.next", fnv);
      b.CreateCondBr(b.CreateICmpEQ(phase, i64(static_cast<int64_t>(k))), run, next);
      b.SetInsertPoint(run);
      for (const ast::Stmt* st : facts.phases[k]) stmt(*st);
      if (!b.GetInsertBlock()->getTerminator()) b.CreateRetVoid();
      b.SetInsertPoint(next);
    }
  } else {
    stmt(*f.body);
  }
  if (!b.GetInsertBlock()->getTerminator()) b.CreateRetVoid();
  llvm::IRBuilder<> entry(state.alloca_block);
  entry.CreateBr(start);
  fn = saved_fn;
  b.restoreIP(saved_ip);
  return fnv;
}

// ---------------------------------------------------------------------------
// Statements

Value* Codegen::interrupted(Value* launch) {
  Value* flag = b.CreateLoad(b.getPtrTy(), byte_gep(launch, kLaunchInterrupt));
  auto* v = b.CreateLoad(b.getInt8Ty(), flag);
  v->setAtomic(llvm::AtomicOrdering::Monotonic);
  v->setAlignment(llvm::Align(1));
  return b.CreateICmpNE(v, b.getInt8(0));
}

void Codegen::leave_loop_if_interrupted(BasicBlock* end) {
  Value* launch = b.CreateLoad(b.getPtrTy(), byte_gep(fn->ctx, kCtxLaunch));
  BasicBlock* go = BasicBlock::Create(ctx, "not_interrupted", fn->fn);
  b.CreateCondBr(interrupted(launch), end, go, llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(go);
}

void Codegen::branch_to(BasicBlock* bb) {
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(bb);
}

void Codegen::start_block(BasicBlock* bb) {
  branch_to(bb);
  b.SetInsertPoint(bb);
}

void Codegen::stmt(const ast::Stmt& s) {
  using K = ast::StmtKind;
  // Code after return/break/continue is unreachable; give it its own block.
  if (b.GetInsertBlock()->getTerminator()) {
    b.SetInsertPoint(BasicBlock::Create(ctx, "dead", fn->fn));
  }
  switch (s.kind) {
    case K::Compound:
      for (const auto& c : s.as<ast::CompoundStmt>()->body) stmt(*c);
      return;
    case K::Expr: {
      const auto* e = s.as<ast::ExprStmt>();
      if (e->expr) rvalue(*e->expr);
      return;
    }
    case K::Decl: decl_stmt(*s.as<ast::DeclStmt>()); return;
    case K::If: {
      const auto* i = s.as<ast::IfStmt>();
      Value* c = to_bool(rvalue(*i->cond));
      BasicBlock* then_bb = BasicBlock::Create(ctx, "then", fn->fn);
      BasicBlock* else_bb = i->else_stmt ? BasicBlock::Create(ctx, "else", fn->fn) : nullptr;
      BasicBlock* end = BasicBlock::Create(ctx, "endif", fn->fn);
      b.CreateCondBr(c, then_bb, else_bb ? else_bb : end);
      b.SetInsertPoint(then_bb);
      stmt(*i->then_stmt);
      branch_to(end);
      if (else_bb) {
        b.SetInsertPoint(else_bb);
        stmt(*i->else_stmt);
        branch_to(end);
      }
      b.SetInsertPoint(end);
      return;
    }
    case K::For: {
      const auto* f = s.as<ast::ForStmt>();
      if (f->init) stmt(*f->init);
      BasicBlock* cond = BasicBlock::Create(ctx, "for.cond", fn->fn);
      BasicBlock* body_bb = BasicBlock::Create(ctx, "for.body", fn->fn);
      BasicBlock* step = BasicBlock::Create(ctx, "for.step", fn->fn);
      BasicBlock* end = BasicBlock::Create(ctx, "for.end", fn->fn);
      start_block(cond);
      leave_loop_if_interrupted(end);
      if (f->cond) {
        b.CreateCondBr(to_bool(rvalue(*f->cond)), body_bb, end);
      } else {
        b.CreateBr(body_bb);
      }
      b.SetInsertPoint(body_bb);
      fn->breaks.push_back(end);
      fn->continues.push_back(step);
      stmt(*f->body);
      fn->breaks.pop_back();
      fn->continues.pop_back();
      start_block(step);
      if (f->step) rvalue(*f->step);
      branch_to(cond);
      b.SetInsertPoint(end);
      return;
    }
    case K::While: {
      const auto* w = s.as<ast::WhileStmt>();
      BasicBlock* cond = BasicBlock::Create(ctx, "while.cond", fn->fn);
      BasicBlock* body_bb = BasicBlock::Create(ctx, "while.body", fn->fn);
      BasicBlock* end = BasicBlock::Create(ctx, "while.end", fn->fn);
      start_block(cond);
      leave_loop_if_interrupted(end);
      b.CreateCondBr(to_bool(rvalue(*w->cond)), body_bb, end);
      b.SetInsertPoint(body_bb);
      fn->breaks.push_back(end);
      fn->continues.push_back(cond);
      stmt(*w->body);
      fn->breaks.pop_back();
      fn->continues.pop_back();
      branch_to(cond);
      b.SetInsertPoint(end);
      return;
    }
    case K::Do: {
      const auto* d = s.as<ast::DoStmt>();
      BasicBlock* body_bb = BasicBlock::Create(ctx, "do.body", fn->fn);
      BasicBlock* cond = BasicBlock::Create(ctx, "do.cond", fn->fn);
      BasicBlock* end = BasicBlock::Create(ctx, "do.end", fn->fn);
      start_block(body_bb);
      fn->breaks.push_back(end);
      fn->continues.push_back(cond);
      stmt(*d->body);
      fn->breaks.pop_back();
      fn->continues.pop_back();
      start_block(cond);
      leave_loop_if_interrupted(end);
      b.CreateCondBr(to_bool(rvalue(*d->cond)), body_bb, end);
      b.SetInsertPoint(end);
      return;
    }
    case K::Switch: switch_stmt(*s.as<ast::SwitchStmt>()); return;
    case K::Case:
    case K::Default: unsupported(s.loc, "a case label outside a switch body");
    case K::Break:
      if (fn->breaks.empty()) unsupported(s.loc, "'break' outside a loop or switch");
      b.CreateBr(fn->breaks.back());
      return;
    case K::Continue:
      if (fn->continues.empty()) unsupported(s.loc, "'continue' outside a loop");
      b.CreateBr(fn->continues.back());
      return;
    case K::Return: {
      const auto* r = s.as<ast::ReturnStmt>();
      if (r->value) {
        RV v = rvalue(*r->value);
        if (!v.t->is_void()) store(fn->ret, v);
      }
      b.CreateRetVoid();
      return;
    }
    case K::Empty: return;
    case K::Label:  // host code only: sema rejects labels and goto in kernels
    case K::Goto: return;
  }
}

void Codegen::switch_stmt(const ast::SwitchStmt& s) {
  RV c = rvalue(*s.cond);
  const auto* body_stmt = s.body->as<ast::CompoundStmt>();
  if (!body_stmt) unsupported(s.loc, "a switch whose body is not a block");
  BasicBlock* end = BasicBlock::Create(ctx, "switch.end", fn->fn);
  BasicBlock* dflt = end;
  // One block per label; statements fall through from label to label.
  std::vector<BasicBlock*> label_blocks;
  for (const auto& st : body_stmt->body) {
    if (st->kind == ast::StmtKind::Case || st->kind == ast::StmtKind::Default) {
      label_blocks.push_back(BasicBlock::Create(ctx, "case", fn->fn));
      if (st->kind == ast::StmtKind::Default) dflt = label_blocks.back();
    }
  }
  auto* sw = b.CreateSwitch(c.v, dflt);
  size_t k = 0;
  for (const auto& st : body_stmt->body) {
    if (const auto* cs = st->as<ast::CaseStmt>()) {
      auto* ity = llvm::cast<llvm::IntegerType>(c.v->getType());
      sw->addCase(llvm::ConstantInt::get(ity, static_cast<uint64_t>(cs->folded), true),
                  label_blocks[k]);
    }
    if (st->kind == ast::StmtKind::Case || st->kind == ast::StmtKind::Default) {
      start_block(label_blocks[k++]);
      continue;
    }
    if (b.GetInsertBlock()->getTerminator() && k == 0) continue;  // before the first label
    fn->breaks.push_back(end);
    stmt(*st);
    fn->breaks.pop_back();
  }
  start_block(end);
}

void Codegen::decl_stmt(const ast::DeclStmt& s) {
  for (const auto& d : s.decls) {
    const auto* v = d->as<ast::VarDecl>();
    if (!v) continue;  // struct/typedef/enum declarations need no code
    if (v->is_stream) unsupported(v->loc, "stream declarations inside kernels");
    // Locals live on a worker thread's stack.
    if (v->type->size > (1u << 20)) unsupported(v->loc, "kernel locals larger than 1 MiB ('" + v->name + "')");
    // The group's shared array, zeroed by the backend when the group starts.
    if (fn->group && v->is_shared) continue;
    // A group kernel's top-level locals keep their values from phase to
    // phase: their places in the frame were computed on entry (body()).
    Value* ptr = nullptr;
    if (fn->group && fn->group->frame.count(v)) ptr = fn->ptrs.at(v);
    if (!ptr) ptr = alloca_of(v->type, v->name.c_str());
    fn->ptrs[v] = ptr;
    // Locals start zeroed so every backend prints the same for a read
    // before a write.
    b.CreateMemSet(ptr, b.getInt8(0), v->type->size, llvm::MaybeAlign(1));
    if (v->init) init_memory(ptr, v->type, *v->init);
    if (const analysis::FloatCounter* c = fn->counters ? fn->counters->find(v) : nullptr) {
      Value* sp = alloca_of(fn->counters->shadow_type(), "counter");
      b.CreateStore(i64(analysis::FloatCounters::initial(*v)), sp);
      fn->ptrs[c->shadow.get()] = sp;
    }
  }
}

// ---------------------------------------------------------------------------
// Entry points

namespace {

// Loops `for (i = lo; i < hi; ++i)` with the counter in a register (phi).
template <class F>
llvm::BranchInst* counted_loop(Codegen& cg, Value* lo, Value* hi, const char* name, F body) {
  auto& b = cg.b;
  llvm::Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* pre = b.GetInsertBlock();
  BasicBlock* head = BasicBlock::Create(cg.ctx, std::string(name) + ".head", f);
  BasicBlock* loop = BasicBlock::Create(cg.ctx, name, f);
  BasicBlock* end = BasicBlock::Create(cg.ctx, std::string(name) + ".end", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, name);
  i->addIncoming(lo, pre);
  b.CreateCondBr(b.CreateICmpSLT(i, hi), loop, end);
  b.SetInsertPoint(loop);
  body(i);
  Value* next = b.CreateAdd(i, cg.i64(1), "", true, true);
  i->addIncoming(next, b.GetInsertBlock());
  llvm::BranchInst* latch = b.CreateBr(head);
  b.SetInsertPoint(end);
  return latch;
}

// Invocations are independent (LANGUAGE.md §5): every memory access of the
// module joins one access group and the element loop is marked parallel over
// it, so the vectoriser needs no alias checks between streams and gathers.
void mark_parallel(Codegen& cg, llvm::BranchInst* latch) {
  llvm::MDNode* group = llvm::MDNode::getDistinct(cg.ctx, {});
  for (llvm::Function& f : cg.mod)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& inst : bb)
        if (inst.mayReadOrWriteMemory()) inst.setMetadata(llvm::LLVMContext::MD_access_group, group);
  llvm::Metadata* parallel[] = {llvm::MDString::get(cg.ctx, "llvm.loop.parallel_accesses"), group};
  llvm::Metadata* ops[] = {nullptr, llvm::MDNode::get(cg.ctx, parallel)};
  llvm::MDNode* loop = llvm::MDNode::getDistinct(cg.ctx, ops);
  loop->replaceOperandWith(0, loop);
  latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

llvm::Function* make_entry(Codegen& cg, const std::string& name, size_t nparams, bool fold) {
  std::vector<llvm::Type*> p(nparams, cg.b.getInt64Ty());
  p[0] = cg.b.getPtrTy();
  if (fold) {
    p[1] = cg.b.getPtrTy();
    p[2] = cg.b.getPtrTy();
  }
  auto* ft = llvm::FunctionType::get(cg.b.getVoidTy(), p, false);
  auto* f = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, name, cg.mod);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  // A fold's accumulators are the caller's own scratch, never stream memory
  // (jit/jit_reduce.cpp): saying so lets LLVM keep them in registers instead
  // of storing every lane's running value after each element.
  if (fold) f->addParamAttr(1, llvm::Attribute::NoAlias);
  f->addFnAttr("prefer-vector-width", "512");
  return f;
}

void verify(llvm::Module& m) {
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(m, &os)) throw CodegenError{{}, "internal error: invalid IR: " + err};
}

}  // namespace

void emit_map(llvm::Module& module, const ast::FuncDecl& kernel, const MapShape& shape,
              const std::string& entry_name, bool fp_relaxed, const SpmdTuning& spmd) {
  // Work-group kernels take the scalar path (jit/groups.hpp).
  if (spmd.enabled && !analysis::is_group_kernel(kernel) &&
      emit_map_spmd(module, kernel, shape, entry_name, fp_relaxed, spmd)) {
    verify(module);
    return;
  }
  Codegen cg(module, fp_relaxed);
  auto& b = cg.b;
  const ast::FuncDecl& def = kernel.defined();
  for (size_t i = 0; i < shape.args.size() && i < def.params.size(); ++i)
    if (shape.args[i].role == ArgRole::Gather) {
      cg.gather_ranks[def.params[i].get()] = shape.args[i].rank;
      if (shape.args[i].counter_exact) cg.counter_exact.insert(def.params[i].get());
    }
  llvm::Function* bodyfn = cg.body(kernel);
  llvm::Function* f = make_entry(cg, entry_name, 5, false);
  Codegen::Fn state;
  state.fn = f;
  cg.fn = &state;
  state.alloca_block = BasicBlock::Create(cg.ctx, "allocas", f);
  BasicBlock* start = BasicBlock::Create(cg.ctx, "start", f);
  b.SetInsertPoint(start);
  Value* launch = f->getArg(0);
  const int D = shape.domain_rank;
  std::vector<Value*> ext(D);
  for (int d = 0; d < D; ++d) ext[d] = cg.load_i64(launch, 8 * d);
  Value* args = b.CreateLoad(b.getPtrTy(), cg.byte_gep(launch, kLaunchArgs));

  // Uniform per-argument data, loaded once.
  struct ArgVals {
    Value* rt = nullptr;
    Value* base = nullptr;
    std::vector<Value*> stride, offset, num, den;
    Value* idx = nullptr;  // float4 alloca
    Value* out_temp = nullptr;  // Output: the body's private copy of its element
  };
  struct Writeback {
    Value* temp;
    Value* element;
    uint64_t bytes;
  };
  std::vector<Writeback> writebacks;
  std::vector<ArgVals> av(shape.args.size());
  for (size_t i = 0; i < shape.args.size(); ++i) {
    const ArgShape& s = shape.args[i];
    ArgVals& a = av[i];
    a.rt = cg.byte_gep(args, static_cast<int64_t>(i * sizeof(ArgRt)));
    a.base = b.CreateLoad(b.getPtrTy(), cg.byte_gep(a.rt, kArgBase));
    if (s.role == ArgRole::Input || s.role == ArgRole::Iter || s.role == ArgRole::Output) {
      for (int d = 0; d < s.rank; ++d) {
        // Row-major storage: the last dimension is contiguous, which lets
        // the vectoriser use plain vector loads and stores.
        a.stride.push_back(d == s.rank - 1 ? cg.i64(1) : cg.load_i64(a.rt, kArgStride + 8 * d));
        a.offset.push_back(cg.load_i64(a.rt, kArgOffset + 8 * d));
        a.num.push_back(s.identity[d] ? nullptr : cg.load_i64(a.rt, kArgNum + 8 * d));
        a.den.push_back(s.identity[d] ? nullptr : cg.load_i64(a.rt, kArgDen + 8 * d));
      }
      llvm::IRBuilder<> entry(state.alloca_block);
      a.idx = entry.CreateAlloca(llvm::FixedVectorType::get(b.getFloatTy(), 4));
    } else {
      llvm::IRBuilder<> entry(state.alloca_block);
      a.idx = entry.CreateAlloca(llvm::FixedVectorType::get(b.getFloatTy(), 4));
      b.CreateStore(llvm::Constant::getNullValue(llvm::FixedVectorType::get(b.getFloatTy(), 4)), a.idx);
    }
  }
  Value* ctxp;
  {
    llvm::IRBuilder<> entry(state.alloca_block);
    auto* a = entry.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), kCtxSize));
    a->setAlignment(llvm::Align(16));
    ctxp = a;
  }
  b.CreateStore(launch, cg.byte_gep(ctxp, kCtxLaunch));
  Value* retslot = nullptr;
  if (kernel.return_type && !kernel.return_type->is_void()) {
    retslot = cg.alloca_of(kernel.return_type);
  } else {
    retslot = llvm::ConstantPointerNull::get(b.getPtrTy());
  }

  std::vector<Value*> pos(D, nullptr);
  llvm::BranchInst* col_latch = nullptr;
  counted_loop(cg, f->getArg(1), f->getArg(2), "row", [&](Value* r) {
    // Ctrl-C: stop before the next row (kernel loops end early by themselves).
    BasicBlock* stop = BasicBlock::Create(cg.ctx, "interrupted", f);
    BasicBlock* go = BasicBlock::Create(cg.ctx, "row.go", f);
    b.CreateCondBr(cg.interrupted(launch), stop, go);
    b.SetInsertPoint(stop);
    b.CreateRetVoid();
    b.SetInsertPoint(go);
    // Decompose the row number into the leading D-1 coordinates.
    Value* rest = r;
    for (int d = D - 2; d >= 0; --d) {
      if (d == 0) {
        pos[d] = rest;
      } else {
        pos[d] = b.CreateSRem(rest, ext[d]);
        rest = b.CreateSDiv(rest, ext[d]);
      }
    }
    col_latch = counted_loop(cg, f->getArg(3), f->getArg(4), "col", [&](Value* c) {
      pos[D - 1] = c;
      for (int d = 0; d < 4; ++d) {
        int src = D - 1 - d;
        Value* v = src >= 0 ? b.CreateTrunc(pos[src], b.getInt32Ty()) : cg.i32(0);
        b.CreateStore(v, cg.byte_gep(ctxp, 4 * d));
      }
      std::vector<Value*> call_args{ctxp, retslot};
      for (size_t i = 0; i < shape.args.size(); ++i) {
        const ArgShape& s = shape.args[i];
        ArgVals& a = av[i];
        const ast::ParamDecl& p = *kernel.params[i];
        Value* ptr = nullptr;
        switch (s.role) {
          case ArgRole::Input:
          case ArgRole::Iter:
          case ArgRole::Output: {
            Value* index = cg.i64(0);
            Value* idxv = llvm::Constant::getNullValue(llvm::FixedVectorType::get(b.getFloatTy(), 4));
            for (int d = 0; d < s.rank; ++d) {
              Value* id = cg.i64(0);
              if (s.out_dim[d] >= 0) {
                id = pos[s.out_dim[d]];
                if (!s.identity[d]) id = b.CreateSDiv(b.CreateMul(id, a.num[d]), a.den[d]);
              }
              index = b.CreateAdd(index, b.CreateMul(b.CreateAdd(a.offset[d], id), a.stride[d]));
              int comp = s.rank - 1 - d;
              if (comp < 4) idxv = b.CreateInsertElement(idxv, b.CreateSIToFP(id, b.getFloatTy()), comp);
            }
            b.CreateStore(idxv, a.idx);
            ptr = cg.byte_gep(a.base, b.CreateMul(index, cg.i64(static_cast<int64_t>(p.type->size))));
            if (s.role == ArgRole::Output) {
              // The body works on a private copy of its output element,
              // stored back after the call: an output read after a write
              // then never goes through stream memory, which the parallel
              // loop's vectoriser could reorder (it grouped `r.y = 1; r.x =
              // r.y` into one interleaved store after the load: fuzz seed
              // 1047), and an in-place input keeps its value before the call
              // (LANGUAGE.md §5). The copy starts as the element's current
              // value (an output read first sees it); SROA keeps it in registers.
              const uint64_t bytes = p.type->size;
              a.out_temp = a.out_temp ? a.out_temp : cg.alloca_of(p.type, "out");
              b.CreateMemCpy(a.out_temp, llvm::MaybeAlign(1), ptr, llvm::MaybeAlign(1), bytes);
              writebacks.push_back({a.out_temp, ptr, bytes});
              ptr = a.out_temp;
            }
            break;
          }
          case ArgRole::Constant: ptr = a.base; break;
          case ArgRole::Gather: ptr = a.rt; break;
        }
        call_args.push_back(ptr);
        call_args.push_back(a.idx);
      }
      b.CreateCall(bodyfn, call_args);
      for (const Writeback& w : writebacks) {
        b.CreateMemCpy(w.element, llvm::MaybeAlign(1), w.temp, llvm::MaybeAlign(1), w.bytes);
      }
      writebacks.clear();
    });
  });
  b.CreateRetVoid();
  llvm::IRBuilder<> entry(state.alloca_block);
  entry.CreateBr(start);
  mark_parallel(cg, col_latch);
  verify(module);
}

// Lanes of a fold that are fed through a register transpose (emit_fold).
constexpr int kTransposeLanes = 16;

// Transposes a square matrix of rows (rows[i][c] becomes rows[c][i]), n a
// power of two: stage b swaps, for each row i without bit b and its partner
// i + b, the elements (i, c) and (i + b, c - b) where c has bit b. Each new
// row is one two-source shuffle (vpermt2ps on AVX-512).
static void transpose_square(llvm::IRBuilder<>& b, std::vector<Value*>& rows) {
  const int n = static_cast<int>(rows.size());
  for (int bit = n / 2; bit >= 1; bit /= 2) {
    std::vector<int> low(static_cast<size_t>(n)), high(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
      low[static_cast<size_t>(c)] = (c & bit) ? n + c - bit : c;
      high[static_cast<size_t>(c)] = (c & bit) ? n + c : c + bit;
    }
    for (int i = 0; i < n; ++i) {
      if (i & bit) continue;
      Value* a = rows[static_cast<size_t>(i)];
      Value* z = rows[static_cast<size_t>(i + bit)];
      rows[static_cast<size_t>(i)] = b.CreateShuffleVector(a, z, low);
      rows[static_cast<size_t>(i + bit)] = b.CreateShuffleVector(a, z, high);
    }
  }
}

void emit_fold(llvm::Module& module, const ast::FuncDecl& reducer, int input_param,
               int reduce_param, const std::vector<ArgShape>& params,
               const std::string& entry_name, bool fp_relaxed, int lanes) {
  Codegen cg(module, fp_relaxed);
  auto& b = cg.b;
  const ast::FuncDecl& def = reducer.defined();
  const int64_t es = static_cast<int64_t>(def.params[static_cast<size_t>(input_param)]->type->size);
  for (size_t i = 0; i < params.size() && i < def.params.size(); ++i)
    if (params[i].role == ArgRole::Gather) cg.gather_ranks[def.params[i].get()] = params[i].rank;
  llvm::Function* bodyfn = cg.body(reducer);
  llvm::Function* f = make_entry(cg, entry_name, 5, true);
  Codegen::Fn state;
  state.fn = f;
  cg.fn = &state;
  state.alloca_block = BasicBlock::Create(cg.ctx, "allocas", f);
  BasicBlock* start = BasicBlock::Create(cg.ctx, "start", f);
  b.SetInsertPoint(start);
  Value* launch = f->getArg(0);
  Value* acc = f->getArg(1);
  Value* elems = f->getArg(2);
  Value* stride = f->getArg(3);
  Value* count = f->getArg(4);
  Value* args = b.CreateLoad(b.getPtrTy(), cg.byte_gep(launch, kLaunchArgs));
  Value* ctxp;
  Value* zero_idx;
  {
    llvm::IRBuilder<> entry(state.alloca_block);
    auto* a = entry.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), kCtxSize));
    a->setAlignment(llvm::Align(16));
    ctxp = a;
    zero_idx = entry.CreateAlloca(llvm::FixedVectorType::get(b.getFloatTy(), 4));
  }
  b.CreateStore(llvm::Constant::getNullValue(llvm::FixedVectorType::get(b.getFloatTy(), 4)), zero_idx);
  b.CreateStore(llvm::Constant::getNullValue(llvm::FixedVectorType::get(b.getInt32Ty(), 4)), ctxp);
  b.CreateStore(launch, cg.byte_gep(ctxp, kCtxLaunch));
  std::vector<Value*> fixed(params.size(), nullptr);
  for (size_t i = 0; i < params.size(); ++i) {
    Value* rt = cg.byte_gep(args, static_cast<int64_t>(i * sizeof(ArgRt)));
    if (params[i].role == ArgRole::Gather) fixed[i] = rt;
    else fixed[i] = b.CreateLoad(b.getPtrTy(), cg.byte_gep(rt, kArgBase));
  }
  // One step of every lane's chain; lane j's operand k is at `input(j, k)`.
  auto step = [&](const std::function<Value*(int)>& input) {
    for (int j = 0; j < lanes; ++j) {
      std::vector<Value*> call_args{ctxp, llvm::ConstantPointerNull::get(b.getPtrTy())};
      for (size_t i = 0; i < params.size(); ++i) {
        Value* ptr = fixed[i];
        if (static_cast<int>(i) == input_param) ptr = input(j);
        if (static_cast<int>(i) == reduce_param) ptr = cg.byte_gep(acc, j * es);
        call_args.push_back(ptr);
        call_args.push_back(zero_idx);
      }
      b.CreateCall(bodyfn, call_args);
    }
  };
  auto operand = [&](int j, Value* k) {
    return lanes == 1 ? cg.byte_gep(elems, b.CreateMul(k, stride))
                      : cg.byte_gep(cg.byte_gep(elems, b.CreateMul(cg.i64(j), stride)),
                                    b.CreateMul(k, cg.i64(es)));
  };
  Value* first = cg.i64(0);
  if (lanes == kTransposeLanes && es == 4) {
    // Sixteen chains of 4-byte operands, sixteen steps at a time: each chain's
    // next sixteen operands are one contiguous vector load, and a transpose
    // in registers gives, per step, the sixteen lanes' operands side by side,
    // where the body's sixteen calls vectorise into one operation on the
    // accumulators. The chains still fold in order, so the bits are those of
    // the step-by-step loop below, which lane-by-lane loads made about 20 %
    // slower on sum (1<<24): sixteen scalar loads per step.
    f->addFnAttr(kKeepVectorsAttr);
    auto* vec = llvm::FixedVectorType::get(b.getInt32Ty(), kTransposeLanes);
    Value* buf;
    {
      llvm::IRBuilder<> entry(state.alloca_block);
      auto* a = entry.CreateAlloca(llvm::ArrayType::get(vec, kTransposeLanes));
      a->setAlignment(llvm::Align(64));
      buf = a;
    }
    Value* blocks = b.CreateSDiv(count, cg.i64(kTransposeLanes));
    counted_loop(cg, cg.i64(0), blocks, "fold.block", [&](Value* block) {
      Value* k0 = b.CreateMul(block, cg.i64(kTransposeLanes));
      std::vector<Value*> rows(kTransposeLanes);
      for (int j = 0; j < kTransposeLanes; ++j)
        rows[static_cast<size_t>(j)] = b.CreateAlignedLoad(vec, operand(j, k0), llvm::Align(4));
      transpose_square(b, rows);
      for (int t = 0; t < kTransposeLanes; ++t)
        b.CreateAlignedStore(rows[static_cast<size_t>(t)], cg.byte_gep(buf, t * 64),
                             llvm::Align(64));
      counted_loop(cg, cg.i64(0), cg.i64(kTransposeLanes), "fold.step", [&](Value* t) {
        Value* row = cg.byte_gep(buf, b.CreateMul(t, cg.i64(64)));
        step([&](int j) { return cg.byte_gep(row, j * 4); });
      });
    });
    first = b.CreateMul(blocks, cg.i64(kTransposeLanes));
  }
  counted_loop(cg, first, count, "fold",
               [&](Value* k) { step([&](int j) { return operand(j, k); }); });
  b.CreateRetVoid();
  llvm::IRBuilder<> entry(state.alloca_block);
  entry.CreateBr(start);
  verify(module);
}

}  // namespace brook::jit
