// SPMD statements: uniform conditions stay real branches; varying ones run
// both sides under masks, skipping a side no lane takes; loops whose
// condition varies (or that break, continue or return) run until no lane is
// left. break/continue/return remove lanes from the execution mask.
#include <optional>

#include <llvm/IR/MDBuilder.h>

#include "jit/spmd_impl.hpp"
#include "lang/counted_loop.hpp"

namespace brook::jit::spmd {

using llvm::BasicBlock;
using llvm::Value;

namespace {

// A return anywhere (a masked loop ends when no lane is left; a real one
// would not).
bool has_return(const ast::Stmt& s) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::Compound:
      for (const auto& c : s.as<ast::CompoundStmt>()->body)
        if (has_return(*c)) return true;
      return false;
    case K::If: {
      const auto* i = s.as<ast::IfStmt>();
      return has_return(*i->then_stmt) || (i->else_stmt && has_return(*i->else_stmt));
    }
    case K::For: return has_return(*s.as<ast::ForStmt>()->body);
    case K::While: return has_return(*s.as<ast::WhileStmt>()->body);
    case K::Do: return has_return(*s.as<ast::DoStmt>()->body);
    case K::Return:
    case K::Switch: return true;
    default: return false;
  }
}

// Whether `e` (through swizzles and conversions sema inserted) names a
// floating local: the decl, else null.
const ast::Decl* float_name(const ast::Expr* e) {
  while (e && e->as<ast::SwizzleExpr>()) e = e->as<ast::SwizzleExpr>()->base.get();
  while (e && e->as<ast::CastExpr>() && e->as<ast::CastExpr>()->implicit)
    e = e->as<ast::CastExpr>()->operand.get();
  const auto* n = e ? e->as<ast::NameExpr>() : nullptr;
  if (!n || !n->decl || !n->type || !n->type->scalar_of() || !n->type->scalar_of()->is_floating())
    return nullptr;
  return n->decl;
}

// The floating locals that expression statement `e` folds into: `x op= y`
// or `x = x op y` (op + - *), also in comma lists.
void fold_targets(const ast::Expr* e, std::set<const ast::Decl*>& out) {
  if (!e) return;
  if (const auto* c = e->as<ast::CommaExpr>()) {
    fold_targets(c->lhs.get(), out);
    fold_targets(c->rhs.get(), out);
    return;
  }
  const auto* a = e->as<ast::AssignExpr>();
  if (!a) return;
  const ast::Decl* d = float_name(a->lhs.get());
  if (!d) return;
  using Op = ast::BinaryOp;
  auto folding = [](Op op) { return op == Op::Add || op == Op::Sub || op == Op::Mul; };
  if (a->op) {
    if (folding(*a->op)) out.insert(d);
    return;
  }
  const ast::Expr* r = a->rhs.get();
  while (r && r->as<ast::CastExpr>() && r->as<ast::CastExpr>()->implicit)
    r = r->as<ast::CastExpr>()->operand.get();
  const auto* bin = r ? r->as<ast::BinaryExpr>() : nullptr;
  if (bin && folding(bin->op) &&
      (float_name(bin->lhs.get()) == d || float_name(bin->rhs.get()) == d))
    out.insert(d);
}

// Every local a loop body folds into (fold_targets), and the locals it
// declares (fresh each iteration: no chain across iterations).
void loop_folds(const ast::Stmt& s, std::set<const ast::Decl*>& folds,
                std::set<const ast::Decl*>& declared) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::Compound:
      for (const auto& c : s.as<ast::CompoundStmt>()->body) loop_folds(*c, folds, declared);
      return;
    case K::Expr:
      fold_targets(s.as<ast::ExprStmt>()->expr.get(), folds);
      return;
    case K::Decl:
      for (const auto& d : s.as<ast::DeclStmt>()->decls) declared.insert(d.get());
      return;
    case K::If: {
      const auto* i = s.as<ast::IfStmt>();
      loop_folds(*i->then_stmt, folds, declared);
      if (i->else_stmt) loop_folds(*i->else_stmt, folds, declared);
      return;
    }
    case K::For: {
      const auto* f = s.as<ast::ForStmt>();
      if (f->init) loop_folds(*f->init, folds, declared);
      loop_folds(*f->body, folds, declared);
      return;
    }
    case K::While:
      loop_folds(*s.as<ast::WhileStmt>()->body, folds, declared);
      return;
    case K::Do:
      loop_folds(*s.as<ast::DoStmt>()->body, folds, declared);
      return;
    default:
      return;
  }
}

}  // namespace

// Ctrl-C leaves the whole launch at once, as the row loop's test does (the
// results are abandoned either way). Leaving through the loop's exit instead
// would let enclosing loops run on, and the exits around each unrolled
// iteration would keep GVN from sharing one gather's lane tests with the next.
void Gen::poll_interrupt(BasicBlock*) {
  BasicBlock* stop = block("interrupted");
  BasicBlock* go = block("not_interrupted");
  b.CreateCondBr(cg.interrupted(launch_ptr), stop, go, llvm::MDBuilder(cg.ctx).createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(stop);
  b.CreateRetVoid();
  b.SetInsertPoint(go);
}

// break/continue: a real branch in a real loop when every lane takes it (no
// varying condition since the loop began), else lanes leave the mask.
void Gen::jump(bool is_break) {
  if (loops.empty()) outside("break");
  LoopCtx& l = loops.back();
  if (!l.cont_slot) {
    if (divergence != l.divergence) {
      masked_loops.insert(l.stmt);
      throw Restart{};
    }
    b.CreateBr(is_break ? l.brk : l.cont);
    return;
  }
  if (!is_break) b.CreateStore(b.CreateOr(b.CreateLoad(cur()->getType(), l.cont_slot), cur()), l.cont_slot);
  set_cur(no_lanes());
}

void Gen::stmt(const ast::Stmt& s) {
  using K = ast::StmtKind;
  // Code after a real break/continue is unreachable: its own block.
  if (b.GetInsertBlock()->getTerminator()) b.SetInsertPoint(block("dead"));
  switch (s.kind) {
    case K::Compound:
      for (const auto& c : s.as<ast::CompoundStmt>()->body) stmt(*c);
      return;
    case K::Expr:
      if (const auto* e = s.as<ast::ExprStmt>(); e->expr) rvalue(*e->expr);
      return;
    case K::Decl:
      for (const auto& d : s.as<ast::DeclStmt>()->decls) {
        const auto* v = d->as<ast::VarDecl>();
        if (!v) continue;
        if (v->is_stream || v->is_static) outside("declaration");
        auto it = slots.find(v);
        Slot& slot = it != slots.end() ? it->second : make_slot(v, v->type, false);
        if (slot.array_len) {
          array_decl(slot, v->init.get());
          continue;
        }
        SV init{{}, v->type};
        const Type* st = v->type->scalar_of();
        if (!v->init) {
          for (uint32_t k = 0; k < v->type->width(); ++k) init.c.push_back(llvm::Constant::getNullValue(reg(st)));
        } else if (const auto* list = v->init->as<ast::InitListExpr>()) {
          for (const auto& x : list->elems) {
            if (x->as<ast::InitListExpr>() || x->type->is_vector()) outside("initialiser list");
            init.c.push_back(conv(rvalue(*x).c[0], x->type, st));
          }
          while (init.c.size() < v->type->width()) init.c.push_back(llvm::Constant::getNullValue(reg(st)));
          if (init.c.size() != v->type->width()) outside("initialiser list");
        } else {
          init = conv(rvalue(*v->init), v->type);
        }
        for (uint32_t k = 0; k < v->type->width(); ++k) store_comp(slot, static_cast<int>(k), init.c[k]);
        init_shadow(*v);
      }
      return;
    case K::If: if_stmt(*s.as<ast::IfStmt>()); return;
    case K::For: {
      const auto* f = s.as<ast::ForStmt>();
      loop(*f, f->init.get(), f->cond.get(), f->step.get(), *f->body, true);
      return;
    }
    case K::While: {
      const auto* w = s.as<ast::WhileStmt>();
      loop(*w, nullptr, w->cond.get(), nullptr, *w->body, true);
      return;
    }
    case K::Do: {
      const auto* d = s.as<ast::DoStmt>();
      loop(*d, nullptr, d->cond.get(), nullptr, *d->body, false);
      return;
    }
    case K::Break: jump(true); return;
    case K::Continue: jump(false); return;
    case K::Return: {
      if (const ast::Expr* v = s.as<ast::ReturnStmt>()->value.get()) {
        if (!ret_value) outside("return value");
        SV x = conv(rvalue(*v), ret_value->t);
        for (size_t k = 0; k < x.c.size(); ++k) store_comp(*ret_value, static_cast<int>(k), x.c[k]);
      }
      b.CreateStore(b.CreateOr(b.CreateLoad(cur()->getType(), ret_slot), cur()), ret_slot);
      set_cur(no_lanes());
      after_return = true;
      return;
    }
    case K::Empty: return;
    default: outside("statement");
  }
}

// Every element starts zeroed, then takes the list's scalars in order.
void Gen::array_decl(Slot& slot, const ast::Expr* init) {
  const Type* e = slot.t->elem;
  const uint32_t n = e->width();
  std::vector<Value*> vals(slot.array_len * n, llvm::Constant::getNullValue(reg(e->scalar_of())));
  if (init) {
    const auto* list = init->as<ast::InitListExpr>();
    if (!list || e->is_vector() || list->elems.size() > slot.array_len) outside("array initialiser");
    for (size_t i = 0; i < list->elems.size(); ++i) {
      const ast::Expr& x = *list->elems[i];
      if (x.as<ast::InitListExpr>() || !x.type->is_scalar()) outside("array initialiser");
      vals[i] = conv(rvalue(x).c[0], x.type, e);
    }
  }
  // Zero the whole array at once where no lane must keep an old value: one
  // memset, not an element store per component (float4 m[16] on a gang of 16
  // is 64 vector stores, which the backend pays for in every large kernel).
  auto* a = llvm::dyn_cast<llvm::AllocaInst>(slot.ptr[0]);
  const bool masked = !a || (slot.read_by_all || slot.written ? divergent() : slot.region != region);
  uint32_t count = slot.array_len;
  if (!masked) {
    const uint64_t bytes = cg.mod.getDataLayout().getTypeAllocSize(a->getAllocatedType());
    b.CreateMemSet(a, b.getInt8(0), bytes, a->getAlign());
    count = init ? static_cast<uint32_t>(init->as<ast::InitListExpr>()->elems.size()) : 0;
  }
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t k = 0; k < n; ++k) {
      Value* v = vals[i * n + k];
      if (!masked && llvm::isa<llvm::Constant>(v) && llvm::cast<llvm::Constant>(v)->isNullValue()) continue;
      store_comp(slot, static_cast<int>(k), v, cg.i64(i));
    }
}

void Gen::if_stmt(const ast::IfStmt& s) {
  Value* c = truth(rvalue(*s.cond));
  if (!is_lane(c)) {
    BasicBlock* then_bb = block("then");
    BasicBlock* else_bb = s.else_stmt ? block("else") : nullptr;
    BasicBlock* end = block("endif");
    b.CreateCondBr(c, then_bb, else_bb ? else_bb : end);
    b.SetInsertPoint(then_bb);
    stmt(*s.then_stmt);
    branch_to(end);
    if (else_bb) {
      b.SetInsertPoint(else_bb);
      stmt(*s.else_stmt);
      branch_to(end);
    }
    b.SetInsertPoint(end);
    return;
  }
  Value* m0 = cur();
  Value* mt = b.CreateAnd(m0, c);
  Value* me = b.CreateAnd(m0, b.CreateNot(c));
  Value* acc = entry_alloca(m0->getType());
  b.CreateStore(no_lanes(), acc);
  ++divergence;
  const int outer = region;
  region = ++next_region;
  BasicBlock* then_bb = block("vthen");
  BasicBlock* mid = block("vmid");
  BasicBlock* end = block("vendif");
  b.CreateCondBr(any(mt), then_bb, mid);
  b.SetInsertPoint(then_bb);
  set_cur(mt);
  stmt(*s.then_stmt);
  b.CreateStore(cur(), acc);
  b.CreateBr(mid);
  b.SetInsertPoint(mid);
  if (s.else_stmt) {
    BasicBlock* else_bb = block("velse");
    b.CreateCondBr(any(me), else_bb, end);
    b.SetInsertPoint(else_bb);
    region = ++next_region;
    set_cur(me);
    stmt(*s.else_stmt);
    b.CreateStore(b.CreateOr(b.CreateLoad(m0->getType(), acc), cur()), acc);
    b.CreateBr(end);
  } else {
    b.CreateStore(b.CreateOr(b.CreateLoad(m0->getType(), acc), me), acc);
    b.CreateBr(end);
  }
  b.SetInsertPoint(end);
  set_cur(b.CreateLoad(m0->getType(), acc));
  --divergence;
  region = outer;
}

void Gen::loop(const ast::Stmt& loop_stmt, const ast::Stmt* init, const ast::Expr* cond, const ast::Expr* step, const ast::Stmt& body,
               bool test_first) {
  has_loop = true;
  if (init) stmt(*init);
  const bool pure = !cond || speculable(*cond);
  // Whether the condition varies: evaluate it once in a block nothing reaches.
  bool cond_lane = false;
  if (cond && pure) {
    BasicBlock* here = b.GetInsertBlock();
    BasicBlock* probe = block("probe");
    b.SetInsertPoint(probe);
    cond_lane = is_lane(truth(rvalue(*cond)));
    b.CreateUnreachable();
    b.SetInsertPoint(here);
  }
  // A uniform loop stays a real loop, also under a mask: every lane runs
  // the same iterations.
  const bool masked = masked_loops.count(&loop_stmt) || has_return(body) || !pure || cond_lane;
  BasicBlock* head = block("loop.head");
  BasicBlock* body_bb = block("loop.body");
  BasicBlock* latch = block("loop.latch");
  BasicBlock* exit = block("loop.exit");
  if (!masked) {
    // Small counted loops (3x3 and 4x4 stencils) unroll fully whatever
    // their bodies' size: the gathers in them then share their lane tests.
    // Their first `trips` iterations skip the interrupt poll (a trip
    // counter, constant in each unrolled copy, so the polls fold away), and
    // a body that changes the counter still polls from then on.
    std::optional<analysis::CountedFor> counted =
        test_first ? analysis::counted_for(init, cond, step) : std::nullopt;
    // Only a hint: LLVM unrolls when it finds the same.
    std::optional<int64_t> trips = counted ? counted->trips() : std::nullopt;
    if (trips && *trips > kUnrollTrips) trips.reset();
    if (!trips) {
      std::set<const ast::Decl*> folds, declared;
      loop_folds(body, folds, declared);
      for (const ast::Decl* d : folds)
        if (!declared.count(d)) accumulators.insert(d);
    }
    Value* trip_slot = nullptr;
    if (trips) {
      trip_slot = entry_alloca(b.getInt32Ty());
      b.CreateStore(cg.i32(0), trip_slot);
    }
    b.CreateBr(test_first ? head : body_bb);
    // The condition is tested before the interrupt poll: SimplifyCFG would
    // merge a condition after it into one exit branch, and a loop whose only
    // exit depends on the poll has no trip count, so 3x3 stencil loops
    // would not unroll.
    auto test = [&] {
      BasicBlock* poll = block("loop.poll");
      b.CreateCondBr(cond ? truth(rvalue(*cond)) : b.getTrue(), poll, exit);
      b.SetInsertPoint(poll);
      if (trip_slot) {
        Value* k = b.CreateAdd(b.CreateLoad(b.getInt32Ty(), trip_slot), cg.i32(1));
        b.CreateStore(k, trip_slot);
        BasicBlock* check = block("loop.poll.check");
        b.CreateCondBr(b.CreateICmpUGT(k, cg.i32(static_cast<int32_t>(*trips))), check, body_bb);
        b.SetInsertPoint(check);
      }
      poll_interrupt(exit);
      b.CreateBr(body_bb);
    };
    b.SetInsertPoint(head);
    if (test_first) test();
    else b.CreateBr(body_bb);
    b.SetInsertPoint(body_bb);
    loops.push_back({&loop_stmt, nullptr, exit, latch, divergence});
    stmt(body);
    loops.pop_back();
    branch_to(latch);
    b.SetInsertPoint(latch);
    if (step) rvalue(*step);
    if (test_first) {
      llvm::BranchInst* back = b.CreateBr(head);
      if (trips) {
        llvm::Metadata* full = llvm::MDNode::get(cg.ctx, {llvm::MDString::get(cg.ctx, "llvm.loop.unroll.full")});
        llvm::MDNode* id = llvm::MDNode::getDistinct(cg.ctx, {nullptr, full});
        id->replaceOperandWith(0, id);
        back->setMetadata(llvm::LLVMContext::MD_loop, id);
      }
    } else {
      test();
    }
    b.SetInsertPoint(exit);
    return;
  }
  Value* entry = cur();
  Value* cont = entry_alloca(entry->getType());
  b.CreateStore(no_lanes(), cont);
  ++divergence;
  loops.push_back({&loop_stmt, cont, nullptr, nullptr, divergence});
  const int outer = region;
  region = ++next_region;
  auto test = [&] {
    poll_interrupt(exit);
    Value* m = cur();
    if (cond) m = b.CreateAnd(m, widen(truth(rvalue(*cond))));
    set_cur(m);
    b.CreateCondBr(any(m), body_bb, exit);
  };
  b.CreateBr(test_first ? head : body_bb);
  b.SetInsertPoint(head);
  if (test_first) test();
  else b.CreateBr(body_bb);
  b.SetInsertPoint(body_bb);
  stmt(body);
  branch_to(latch);
  b.SetInsertPoint(latch);
  set_cur(b.CreateOr(cur(), b.CreateLoad(entry->getType(), cont)));
  b.CreateStore(no_lanes(), cont);
  if (step) rvalue(*step);
  if (test_first) b.CreateBr(head);
  else test();
  b.SetInsertPoint(exit);
  --divergence;
  region = outer;
  loops.pop_back();
  set_cur(b.CreateAnd(entry, b.CreateNot(b.CreateLoad(entry->getType(), ret_slot))));
}

}  // namespace brook::jit::spmd
