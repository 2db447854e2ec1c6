// The SPMD generator (jit/spmd.hpp). Uniformity of locals is found by
// generating code: a store of a varying value into a uniform local (or any
// store under divergent control) marks that component varying and restarts
// generation, until a fixed point. Anything outside the subset throws
// NotInSubset and the caller keeps the scalar path.
#include "jit/spmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>

#include "jit/abi.hpp"
#include "jit/codegen_impl.hpp"
#include "jit/spmd_impl.hpp"

namespace brook::jit {

using llvm::BasicBlock;
using llvm::Value;

namespace {
// The width of kernels whose real loops fold into a varying float (sgemm's
// `acc += a * b`): each lane's adds stay in order (the same bits), so one
// gang is one chain of dependent vector adds, latency-bound; 32 lanes are
// twice the independent chains per iteration and half the loop's scalar
// work per lane (bench/whole/sgemm.br: 0.32 -> 0.25 s CPU). Other kernels
// measured slower at 32 (blur3x3, invert_grey, sgm_path: register
// pressure of the wider lane vectors), so they keep 16. Kernels that call a
// gang form of brook_math.h take 32 too: each call is a round trip through
// memory and a chain of dependent double operations (about 140 cycles of
// latency for exp on AVX-512), which twice the lanes per call amortise
// (bench/whole/black_scholes.br: 15.5 -> 12 ms per launch; 64 lanes: 16 ms).
constexpr int kWideWidth = 32;
constexpr int kDefaultWidth = 16;
}  // namespace

namespace spmd {

Gen::Gen(Codegen& c, const ast::FuncDecl& k, const MapShape& s, int width, VaryingSet& v, LoopSet& l)
    : cg(c), b(c.b), kernel(k), shape(s), W(width), varying(v), masked_loops(l) {}

// ---------------------------------------------------------------------------
// Lanes and masks

llvm::Type* Gen::lane_type(llvm::Type* scalar) const { return llvm::FixedVectorType::get(scalar, W); }
bool Gen::is_lane(Value* v) { return v->getType()->isVectorTy(); }
Value* Gen::widen(Value* v) { return is_lane(v) ? v : b.CreateVectorSplat(W, v); }
void Gen::unify(Value*& x, Value*& y) {
  if (is_lane(x) || is_lane(y)) {
    x = widen(x);
    y = widen(y);
  }
}
Value* Gen::any(Value* m) {
  return b.CreateICmpNE(b.CreateBitCast(m, b.getIntNTy(W)), b.getIntN(W, 0));
}
Value* Gen::all(Value* m) {
  // The tail mask, alone or narrowing another mask: its part of the test is
  // one scalar compare (gang + W <= end) instead of a vector compare per
  // lane and a movemask in every gang (all(a & b) == all(a) && all(b)).
  if (gang_mask && gang_full) {
    if (m == gang_mask) return gang_full;
    if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(m);
        bo && bo->getOpcode() == llvm::Instruction::And) {
      Value* other = bo->getOperand(0) == gang_mask   ? bo->getOperand(1)
                     : bo->getOperand(1) == gang_mask ? bo->getOperand(0)
                                                      : nullptr;
      if (other) return b.CreateAnd(all(other), gang_full);
    }
  }
  return b.CreateICmpEQ(b.CreateBitCast(m, b.getIntNTy(static_cast<unsigned>(
                                               llvm::cast<llvm::FixedVectorType>(m->getType())->getNumElements()))),
                        llvm::Constant::getAllOnesValue(b.getIntNTy(static_cast<unsigned>(
                            llvm::cast<llvm::FixedVectorType>(m->getType())->getNumElements()))));
}
Value* Gen::no_lanes() { return llvm::Constant::getNullValue(lane_type(b.getInt1Ty())); }
Value* Gen::cur() { return b.CreateLoad(lane_type(b.getInt1Ty()), mask_slot); }
void Gen::set_cur(Value* m) { b.CreateStore(m, mask_slot); }
Value* Gen::iota64() {
  std::vector<llvm::Constant*> c;
  for (int l = 0; l < W; ++l) c.push_back(b.getInt64(static_cast<uint64_t>(l)));
  return llvm::ConstantVector::get(c);
}

Value* Gen::entry_alloca(llvm::Type* t) {
  llvm::IRBuilder<> e(alloca_block, alloca_block->begin());
  auto* a = e.CreateAlloca(t);
  a->setAlignment(llvm::Align(64));
  return a;
}

BasicBlock* Gen::block(const char* name) { return BasicBlock::Create(cg.ctx, name, fn); }

void Gen::branch_to(BasicBlock* bb) {
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(bb);
}

[[noreturn]] void Gen::outside(const std::string& why) { throw NotInSubset{why}; }

// ---------------------------------------------------------------------------
// Types and conversions

const Type* Gen::check_type(const Type* t) {
  if (!t || !(t->is_scalar() || (t->is_vector() && t->elem->is_scalar()))) outside("type");
  return t;
}
llvm::Type* Gen::reg(const Type* scalar) { return cg.scalar_reg(scalar); }
llvm::Type* Gen::mem(const Type* scalar) {
  return scalar->kind == TypeKind::Bool ? b.getInt8Ty() : cg.scalar_reg(scalar);
}
llvm::Type* Gen::shaped(llvm::Type* scalar, Value* like) {
  return is_lane(like) ? lane_type(scalar) : scalar;
}

Value* Gen::conv(Value* v, const Type* fs, const Type* ts) {
  if (fs == ts) return v;
  return convert_component(b, v, fs, ts, shaped(reg(ts), v));
}

SV Gen::conv(const SV& v, const Type* to) {
  check_type(to);
  SV out{{}, to};
  const Type* fs = v.t->scalar_of();
  const Type* ts = to->scalar_of();
  for (uint32_t i = 0; i < to->width(); ++i) out.c.push_back(conv(v.c[v.c.size() == 1 ? 0 : i], fs, ts));
  return out;
}

Value* Gen::truth(const SV& v) {
  if (v.t->is_vector()) outside("vector condition");
  return cg.to_bool({v.c[0], v.t});
}

// ---------------------------------------------------------------------------
// Slots: locals, parameters and outputs, one alloca per component

Slot& Gen::make_slot(const ast::Decl* d, const Type* t, bool force_varying) {
  Slot& s = slots[d];
  s.decl = d;
  s.t = t;
  s.region = region;
  if (t && t->is_array()) {
    const Type* e = check_type(t->elem);
    uint32_t total = t->count * e->width();
    if (total == 0 || total > 256) outside("local array size");
    bool v = force_varying || varying.count({d, 0});
    llvm::Type* st = reg(e->scalar_of());
    s.ptr.push_back(entry_alloca(llvm::ArrayType::get(v ? lane_type(st) : st, total)));
    s.varying.push_back(v);
    s.array_len = t->count;
    return s;
  }
  check_type(t);
  for (uint32_t k = 0; k < t->width(); ++k) {
    bool v = force_varying || varying.count({d, static_cast<int>(k)});
    llvm::Type* st = reg(t->scalar_of());
    s.ptr.push_back(entry_alloca(v ? lane_type(st) : st));
    s.varying.push_back(v);
  }
  return s;
}

Value* Gen::comp_ptr(const Slot& s, int k, Value* index) {
  if (!s.array_len) return s.ptr[static_cast<size_t>(k)];
  llvm::Type* st = reg(s.t->elem->scalar_of());
  llvm::Type* ct = s.varying[0] ? lane_type(st) : st;
  Value* flat = b.CreateAdd(b.CreateMul(index, cg.i64(s.t->elem->width())), cg.i64(k));
  return b.CreateGEP(ct, s.ptr[0], flat);
}

Value* Gen::load_comp(const Slot& s, int k, Value* index) {
  const Type* et = s.array_len ? s.t->elem : s.t;
  llvm::Type* st = reg(et->scalar_of());
  bool v = s.varying[s.array_len ? 0 : static_cast<size_t>(k)];
  return b.CreateLoad(v ? lane_type(st) : st, comp_ptr(s, k, index));
}

void Gen::store_comp(Slot& s, int k, Value* v, Value* index) {
  const size_t vk = s.array_len ? 0 : static_cast<size_t>(k);
  // Lanes outside the mask keep their value. A local stored in the region it
  // was declared in needs no select: lanes outside that region's mask never
  // read it again (they left the loop, skipped the branch or returned). A
  // slot read back for every lane needs one whenever lanes are masked off.
  const bool masked = s.read_by_all || s.written ? divergent() : s.region != region;
  if (!s.varying[vk]) {
    if (!is_lane(v) && !masked) {
      b.CreateStore(v, comp_ptr(s, k, index));
      return;
    }
    // The component varies: this round's code is wrong (earlier loads read
    // it as uniform), but carrying on with it varying finds the locals that
    // depend on it in this same round instead of one round each.
    varying.insert({s.decl, static_cast<int>(vk)});
    restart_pending = true;
    llvm::Type* st = reg((s.array_len ? s.t->elem : s.t)->scalar_of());
    llvm::Type* slot_type = lane_type(st);
    if (s.array_len) slot_type = llvm::ArrayType::get(slot_type, s.array_len * s.t->elem->width());
    s.ptr[vk] = entry_alloca(slot_type);
    s.varying[vk] = true;
  }
  v = widen(v);
  if (masked) v = b.CreateSelect(cur(), v, load_comp(s, k, index));
  b.CreateStore(v, comp_ptr(s, k, index));
}

void Gen::store_place(const Place& p, const SV& v) {
  for (size_t i = 0; i < p.comps.size(); ++i)
    store_comp(*p.slot, p.comps[i], v.c[v.c.size() == 1 ? 0 : i], p.index);
  if (p.slot->written) {
    // Outside divergent code the lanes are the gang's tail, which
    // store_outputs ANDs in anyway: all lanes here keeps the full-gang test
    // a scalar compare (Gen::all).
    Value* lanes = divergent() ? cur() : llvm::Constant::getAllOnesValue(lane_type(b.getInt1Ty()));
    b.CreateStore(b.CreateOr(b.CreateLoad(lane_type(b.getInt1Ty()), p.slot->written), lanes),
                  p.slot->written);
  }
}

SV Gen::load_place(const Place& p) {
  SV out{{}, p.t};
  for (int k : p.comps) out.c.push_back(load_comp(*p.slot, k, p.index));
  return out;
}

Place Gen::place(const ast::Expr& e) {
  if (const auto* n = e.as<ast::NameExpr>()) {
    auto it = slots.find(n->decl);
    if (it == slots.end() || it->second.array_len) outside("name");
    Place p{&it->second, {}, check_type(e.type)};
    for (uint32_t k = 0; k < e.type->width(); ++k) p.comps.push_back(static_cast<int>(k));
    return p;
  }
  if (const auto* ix = e.as<ast::IndexExpr>()) {
    const auto* n = ix->base->as<ast::NameExpr>();
    auto it = n ? slots.find(n->decl) : slots.end();
    if (it == slots.end() || !it->second.array_len) outside("indexing");
    Slot& s = it->second;
    SV i = rvalue(*ix->index);
    if (i.t->is_vector() || !i.t->is_integer() || is_lane(i.c[0])) outside("varying array index");
    // Out-of-range indices clamp, as on the scalar path.
    Value* idx = b.CreateSExtOrTrunc(i.c[0], b.getInt64Ty());
    const auto last = static_cast<int64_t>(s.array_len) - 1;
    idx = b.CreateSelect(b.CreateICmpSLT(idx, cg.i64(0)), cg.i64(0), idx);
    idx = b.CreateSelect(b.CreateICmpSGT(idx, cg.i64(last)), cg.i64(last), idx);
    Place p{&s, {}, check_type(e.type), idx};
    for (uint32_t k = 0; k < e.type->width(); ++k) p.comps.push_back(static_cast<int>(k));
    return p;
  }
  if (const auto* s = e.as<ast::SwizzleExpr>()) {
    Place base = place(*s->base);
    Place p{base.slot, {}, check_type(e.type), base.index};
    for (int i = 0; i < s->count; ++i) {
      size_t c = s->comps[i];
      if (c >= base.comps.size()) outside("swizzle");
      p.comps.push_back(base.comps[c]);
    }
    return p;
  }
  outside("assignment target");
}

// ---------------------------------------------------------------------------
// The slice entry

namespace {
bool reads_name(const ast::Stmt& s, const ast::Decl* d);
}  // namespace

void Gen::emit(const std::string& entry_name) {
  std::vector<llvm::Type*> p(5, b.getInt64Ty());
  p[0] = b.getPtrTy();
  auto* ft = llvm::FunctionType::get(b.getVoidTy(), p, false);
  fn = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, entry_name, cg.mod);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr("prefer-vector-width", std::to_string(W * 32 > 512 ? 512 : W * 32));
  fn->addFnAttr("min-legal-vector-width", "512");
  alloca_block = block("allocas");
  BasicBlock* start = block("start");
  b.SetInsertPoint(start);
  mask_slot = entry_alloca(lane_type(b.getInt1Ty()));
  ret_slot = entry_alloca(lane_type(b.getInt1Ty()));

  const ast::FuncDecl& def = kernel.defined();
  if (!def.body) outside("no body");
  if (def.return_type && !def.return_type->is_void()) outside("kernel with a result");
  Value* launch = fn->getArg(0);
  launch_ptr = launch;
  const int D = shape.domain_rank;
  if (D < 1 || D > kMaxRank || shape.args.size() != def.params.size()) outside("shape");
  std::vector<Value*> ext(static_cast<size_t>(D));
  for (int d = 0; d < D; ++d) ext[d] = cg.load_i64(launch, 8 * d);
  Value* args = b.CreateLoad(b.getPtrTy(), cg.byte_gep(launch, kLaunchArgs));

  args_.resize(shape.args.size());
  for (size_t i = 0; i < shape.args.size(); ++i) {
    const ArgShape& s = shape.args[i];
    const ast::ParamDecl* pd = def.params[i].get();
    Arg& a = args_[i];
    a.shape = &s;
    a.decl = pd;
    Value* rt = cg.byte_gep(args, static_cast<int64_t>(i * sizeof(ArgRt)));
    a.base = b.CreateLoad(b.getPtrTy(), cg.byte_gep(rt, kArgBase));
    if (s.role == ArgRole::Gather) {
      check_type(pd->type);
      for (int d = 0; d < s.rank; ++d) {
        a.extent.push_back(cg.load_i64(rt, kArgExtent + 8 * d));
        a.offset.push_back(cg.load_i64(rt, kArgOffset + 8 * d));
        a.stride.push_back(d == s.rank - 1 ? nullptr : cg.load_i64(rt, kArgStride + 8 * d));
      }
      gathers[pd] = &a;
      continue;
    }
    if (s.role == ArgRole::Constant) {
      Slot& slot = make_slot(pd, pd->type, false);
      const Type* st = pd->type->scalar_of();
      for (uint32_t k = 0; k < pd->type->width(); ++k) {
        Value* v = b.CreateAlignedLoad(mem(st), cg.byte_gep(a.base, static_cast<int64_t>(k * st->size)), llvm::Align(1));
        if (st->kind == TypeKind::Bool) v = b.CreateICmpNE(v, b.getInt8(0));
        b.CreateStore(v, slot.ptr[k]);
      }
      continue;
    }
    if (s.rank < 1 || s.rank > kMaxRank) outside("stream rank");
    for (int d = 0; d < s.rank; ++d) {
      a.stride.push_back(d == s.rank - 1 ? cg.i64(1) : cg.load_i64(rt, kArgStride + 8 * d));
      a.offset.push_back(cg.load_i64(rt, kArgOffset + 8 * d));
      a.num.push_back(s.identity[d] ? nullptr : cg.load_i64(rt, kArgNum + 8 * d));
      a.den.push_back(s.identity[d] ? nullptr : cg.load_i64(rt, kArgDen + 8 * d));
    }
    int last_maps = 0;
    for (int d = 0; d < s.rank; ++d) last_maps += s.out_dim[d] == D - 1;
    a.contiguous = last_maps == 1 && s.out_dim[s.rank - 1] == D - 1 && s.identity[s.rank - 1];
    if (s.role == ArgRole::Output) {
      Slot& slot = make_slot(pd, pd->type, true);
      slot.written = entry_alloca(lane_type(b.getInt1Ty()));
      a.read_before_write = reads_name(*def.body, pd);
    } else {
      bool uniform = last_maps == 0;
      make_slot(pd, pd->type, !uniform);
    }
  }

  // rows
  Value* r0 = fn->getArg(1);
  Value* r1 = fn->getArg(2);
  Value* c0 = fn->getArg(3);
  Value* c1 = fn->getArg(4);
  BasicBlock* pre = b.GetInsertBlock();
  BasicBlock* row_head = block("row.head");
  BasicBlock* row_body = block("row");
  BasicBlock* row_end = block("row.end");
  b.CreateBr(row_head);
  b.SetInsertPoint(row_head);
  llvm::PHINode* r = b.CreatePHI(b.getInt64Ty(), 2, "row");
  r->addIncoming(r0, pre);
  b.CreateCondBr(b.CreateICmpSLT(r, r1), row_body, row_end);
  b.SetInsertPoint(row_body);
  {
    // Ctrl-C: stop before the next row.
    BasicBlock* stop = block("interrupted");
    BasicBlock* go = block("row.go");
    b.CreateCondBr(cg.interrupted(launch), stop, go);
    b.SetInsertPoint(stop);
    b.CreateRetVoid();
    b.SetInsertPoint(go);
  }
  pos.assign(static_cast<size_t>(D), nullptr);
  Value* rest = r;
  for (int d = D - 2; d >= 0; --d) {
    if (d == 0) {
      pos[d] = rest;
    } else {
      pos[d] = b.CreateSRem(rest, ext[d]);
      rest = b.CreateSDiv(rest, ext[d]);
    }
  }
  // gangs of W columns; the last one masked
  BasicBlock* gpre = b.GetInsertBlock();
  BasicBlock* g_head = block("gang.head");
  BasicBlock* g_body = block("gang");
  BasicBlock* g_end = block("gang.end");
  b.CreateBr(g_head);
  b.SetInsertPoint(g_head);
  llvm::PHINode* g = b.CreatePHI(b.getInt64Ty(), 2, "gang");
  g->addIncoming(c0, gpre);
  b.CreateCondBr(b.CreateICmpSLT(g, c1), g_body, g_end);
  b.SetInsertPoint(g_body);
  gang_start = g;
  lanes = b.CreateAdd(b.CreateVectorSplat(W, g), iota64());
  Value* tail = b.CreateICmpSLT(lanes, b.CreateVectorSplat(W, c1));
  set_cur(tail);
  b.CreateStore(no_lanes(), ret_slot);
  gang_mask = tail;
  gang_full = b.CreateICmpSLE(b.CreateAdd(g, cg.i64(W)), c1);
  load_streams();
  stmt(*def.body);
  store_outputs();
  Value* next = b.CreateAdd(g, cg.i64(W), "", true, true);
  g->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(g_head);
  b.SetInsertPoint(g_end);
  Value* rnext = b.CreateAdd(r, cg.i64(1), "", true, true);
  r->addIncoming(rnext, g_end);
  b.CreateBr(row_head);
  b.SetInsertPoint(row_end);
  b.CreateRetVoid();
  llvm::IRBuilder<> entry(alloca_block);
  entry.CreateBr(start);
}


// ---------------------------------------------------------------------------

namespace {

bool reads_expr(const ast::Expr* e, const ast::Decl* d);

bool reads_children(const ast::Expr& e, const ast::Decl* d) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Name: return e.as<ast::NameExpr>()->decl == d;
    case K::Unary: return reads_expr(e.as<ast::UnaryExpr>()->operand.get(), d);
    case K::Binary: {
      const auto* x = e.as<ast::BinaryExpr>();
      return reads_expr(x->lhs.get(), d) || reads_expr(x->rhs.get(), d);
    }
    case K::Assign: {
      const auto* x = e.as<ast::AssignExpr>();
      // A plain `y = …` (or `y.x = …`) writes y; anything else reads it.
      const ast::Expr* l = x->lhs.get();
      while (const auto* s = l->as<ast::SwizzleExpr>()) l = s->base.get();
      bool plain = !x->op && l->as<ast::NameExpr>();
      return (!plain && reads_expr(x->lhs.get(), d)) || reads_expr(x->rhs.get(), d) ||
             (plain && x->lhs->as<ast::SwizzleExpr>() && reads_expr(l, d));
    }
    case K::Conditional: {
      const auto* x = e.as<ast::ConditionalExpr>();
      return reads_expr(x->cond.get(), d) || reads_expr(x->then_expr.get(), d) || reads_expr(x->else_expr.get(), d);
    }
    case K::Comma: {
      const auto* x = e.as<ast::CommaExpr>();
      return reads_expr(x->lhs.get(), d) || reads_expr(x->rhs.get(), d);
    }
    case K::Call:
      for (const auto& a : e.as<ast::CallExpr>()->args)
        if (reads_expr(a.get(), d)) return true;
      return false;
    case K::Construct:
      for (const auto& a : e.as<ast::ConstructExpr>()->args)
        if (reads_expr(a.get(), d)) return true;
      return false;
    case K::Cast: return reads_expr(e.as<ast::CastExpr>()->operand.get(), d);
    case K::Index: {
      const auto* x = e.as<ast::IndexExpr>();
      return reads_expr(x->base.get(), d) || reads_expr(x->index.get(), d);
    }
    case K::Member: return reads_expr(e.as<ast::MemberExpr>()->base.get(), d);
    case K::Gather:
      for (const auto& a : e.as<ast::GatherExpr>()->indices)
        if (reads_expr(a.get(), d)) return true;
      return false;
    case K::Swizzle: return reads_expr(e.as<ast::SwizzleExpr>()->base.get(), d);
    case K::InitList:
      for (const auto& a : e.as<ast::InitListExpr>()->elems)
        if (reads_expr(a.get(), d)) return true;
      return false;
    default: return false;  // literals, sizeof, indexof (position only)
  }
}

bool reads_expr(const ast::Expr* e, const ast::Decl* d) { return e && reads_children(*e, d); }

// Whether statement `s` may read `d` (conservative: any read anywhere). The
// JIT stores only the lanes that wrote an output (Slot::written), so "may it
// be read" is all it needs; the OpenCL printer stores its private copy whole
// and asks a different question (ClPrinter::reads_before_write).
bool reads_name(const ast::Stmt& s, const ast::Decl* d) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::Compound:
      for (const auto& c : s.as<ast::CompoundStmt>()->body)
        if (reads_name(*c, d)) return true;
      return false;
    case K::Expr: return reads_expr(s.as<ast::ExprStmt>()->expr.get(), d);
    case K::Decl:
      for (const auto& x : s.as<ast::DeclStmt>()->decls)
        if (const auto* v = x->as<ast::VarDecl>(); v && reads_expr(v->init.get(), d)) return true;
      return false;
    case K::If: {
      const auto* i = s.as<ast::IfStmt>();
      return reads_expr(i->cond.get(), d) || reads_name(*i->then_stmt, d) ||
             (i->else_stmt && reads_name(*i->else_stmt, d));
    }
    case K::For: {
      const auto* f = s.as<ast::ForStmt>();
      return (f->init && reads_name(*f->init, d)) || reads_expr(f->cond.get(), d) ||
             reads_expr(f->step.get(), d) || reads_name(*f->body, d);
    }
    case K::While: {
      const auto* w = s.as<ast::WhileStmt>();
      return reads_expr(w->cond.get(), d) || reads_name(*w->body, d);
    }
    case K::Do: {
      const auto* w = s.as<ast::DoStmt>();
      return reads_expr(w->cond.get(), d) || reads_name(*w->body, d);
    }
    case K::Switch: return true;
    case K::Return: return reads_expr(s.as<ast::ReturnStmt>()->value.get(), d);
    default: return false;
  }
}

}  // namespace

}  // namespace spmd

bool emit_map_spmd(llvm::Module& module, const ast::FuncDecl& kernel, const MapShape& shape,
                   const std::string& entry_name, bool fp_relaxed, const SpmdTuning& tuning) {
  // Scatter outputs (§12) store to computed positions that lanes may share:
  // the scalar path keeps them plain stores.
  for (const auto& p : kernel.params)
    if (p->scatter) return false;
  spmd::VaryingSet varying;
  spmd::LoopSet masked_loops;
  const analysis::FloatCounters counters(kernel);  // its shadows' keys outlive the rounds
  // Each restart marks at least one more local component varying.
  int width = tuning.width ? tuning.width : kDefaultWidth;
  for (int attempt = 0; attempt < 256; ++attempt) {
    Codegen cg(module, fp_relaxed);
    spmd::Gen gen(cg, kernel, shape, width, varying, masked_loops);
    gen.counters = &counters;
    try {
      gen.emit(entry_name);
      if (gen.restart_pending) throw spmd::Restart{};
    } catch (const spmd::Restart&) {
      if (gen.fn) gen.fn->eraseFromParent();
      continue;
    } catch (const spmd::NotInSubset& e) {
      if (gen.fn) gen.fn->eraseFromParent();
      if (tuning.debug)
        std::fprintf(stderr, "spmd: kernel %s: scalar path (%s)\n", kernel.name.c_str(), e.why.c_str());
      return false;
    } catch (const CodegenError&) {
      if (gen.fn) gen.fn->eraseFromParent();
      return false;
    }
    // Invalid IR would be a bug here; the scalar path still runs the kernel.
    if (llvm::verifyFunction(*gen.fn)) {
      gen.fn->eraseFromParent();
      return false;
    }
    // Straight-line kernels that call libm per lane (double transcendentals,
    // fp_relaxed) are faster on the scalar path, whose loop vectoriser calls
    // libmvec's vector versions; brook_math.h's float functions are called
    // once per gang (gang forms) and count for nothing here. Measured equal
    // or better on SPMD: everything else (bench/RESULTS.md).
    if (!gen.has_loop && cg.libm_calls > 0 && !tuning.always) {
      gen.fn->eraseFromParent();
      return false;
    }
    // A varying accumulator or a gang-form call: generate again at the wide
    // width (the varying set and the masked loops do not depend on the width).
    if (width != kWideWidth && !tuning.width) {
      bool wide = cg.gang_calls > 0;
      for (const ast::Decl* d : gen.accumulators)
        for (int k = 0; k < 4; ++k) wide = wide || varying.count({d, k});
      if (wide) {
        gen.fn->eraseFromParent();
        width = kWideWidth;
        continue;
      }
    }
    if (!module.getNamedMetadata("brook.spmd")) module.getOrInsertNamedMetadata("brook.spmd");
    if (tuning.debug)
      std::fprintf(stderr, "spmd: kernel %s: %d rounds, width %d\n", kernel.name.c_str(),
                   attempt + 1, width);
    return true;
  }
  return false;
}

}  // namespace brook::jit
