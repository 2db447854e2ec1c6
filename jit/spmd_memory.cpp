// SPMD memory access: stream arguments per gang (contiguous vector loads and
// stores, deinterleaving vector elements; masked only in a row's tail) and
// per-lane element loads that find consecutive, equal or reversed indices at
// run time before falling back to a hardware gather.
#include <llvm/IR/Intrinsics.h>

#include "jit/abi.hpp"
#include "jit/spmd_impl.hpp"

namespace brook::jit::spmd {

using llvm::BasicBlock;
using llvm::Value;

// View position -> element index of the stream's storage. `p` holds the
// domain position (the last coordinate scalar or per lane).
Value* Gen::view_index(const Arg& a, const std::vector<Value*>& p, std::vector<Value*>* ids) {
  const ArgShape& s = *a.shape;
  Value* index = cg.i64(0);
  for (int d = 0; d < s.rank; ++d) {
    Value* id = cg.i64(0);
    if (s.out_dim[d] >= 0) {
      id = p[static_cast<size_t>(s.out_dim[d])];
      if (!s.identity[d] && id == lanes) {
        // floor((g + l) * num / den) without a vector division: the first
        // lane's quotient q0 and remainder r0 in scalars, then the small
        // per-lane quotient floor((r0 + l * num) / den) in double, exact
        // because it is below 1 + W * num / den and den < 2^40.
        Value* gn = b.CreateMul(gang_start, a.num[d]);
        Value* q0 = b.CreateSDiv(gn, a.den[d]);
        Value* r0 = b.CreateSub(gn, b.CreateMul(q0, a.den[d]));
        Value* t = b.CreateAdd(widen(r0), b.CreateMul(iota64(), widen(a.num[d])));
        llvm::Type* dv = lane_type(b.getDoubleTy());
        Value* q = b.CreateFDiv(b.CreateSIToFP(t, dv), widen(b.CreateSIToFP(a.den[d], b.getDoubleTy())));
        q = b.CreateFPToSI(b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q), lane_type(b.getInt64Ty()));
        id = b.CreateAdd(widen(q0), q);
      } else if (!s.identity[d]) {
        Value* num = a.num[d];
        Value* den = a.den[d];
        Value* m = id;
        unify(m, num);
        m = b.CreateMul(m, num);
        unify(m, den);
        id = b.CreateSDiv(m, den);
      }
    }
    if (ids) ids->push_back(id);
    Value* off = a.offset[d];
    unify(off, id);
    Value* term = b.CreateAdd(off, id);
    Value* st = a.stride[d];
    unify(term, st);
    term = b.CreateMul(term, st);
    unify(index, term);
    index = b.CreateAdd(index, term);
  }
  return index;
}

SV Gen::load_elems(Value* base, Value* index, const Type* t, Value* mask, bool contiguous) {
  const Type* st = t->scalar_of();
  const uint32_t n = t->width();
  llvm::Type* mt = mem(st);
  llvm::Align al(st->size ? st->size : 1);
  SV out{{}, t};
  auto fix = [&](Value* v) { return st->kind == TypeKind::Bool ? b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType())) : v; };
  Value* bytes = b.CreateMul(index, llvm::ConstantInt::get(index->getType(), t->size));
  if (!is_lane(index)) {
    Value* ptr = cg.byte_gep(base, bytes);
    if (!contiguous) {
      for (uint32_t k = 0; k < n; ++k)
        out.c.push_back(fix(b.CreateAlignedLoad(mt, cg.byte_gep(ptr, static_cast<int64_t>(k * st->size)), al)));
      return out;
    }
    auto* wide = llvm::FixedVectorType::get(mt, W * n);
    Value* v;
    if (mask) {
      // Full gangs take plain loads (masked ones are slower), the tail a masked one.
      BasicBlock* full = block("load.full");
      BasicBlock* part = block("load.tail");
      BasicBlock* done = block("load.end");
      b.CreateCondBr(all(mask), full, part);
      b.SetInsertPoint(full);
      Value* v1 = b.CreateAlignedLoad(wide, ptr, al);
      b.CreateBr(done);
      b.SetInsertPoint(part);
      std::vector<int> rep;
      for (int l = 0; l < W; ++l)
        for (uint32_t k = 0; k < n; ++k) rep.push_back(l);
      Value* m = n == 1 ? mask : b.CreateShuffleVector(mask, rep);
      Value* v2 = b.CreateMaskedLoad(wide, ptr, al, m, llvm::Constant::getNullValue(wide));
      b.CreateBr(done);
      b.SetInsertPoint(done);
      llvm::PHINode* phi = b.CreatePHI(wide, 2);
      phi->addIncoming(v1, full);
      phi->addIncoming(v2, part);
      v = phi;
    } else {
      v = b.CreateAlignedLoad(wide, ptr, al);
    }
    if (n == 1) {
      out.c.push_back(fix(v));
      return out;
    }
    for (uint32_t k = 0; k < n; ++k) {
      std::vector<int> sel;
      for (int l = 0; l < W; ++l) sel.push_back(static_cast<int>(l * n + k));
      out.c.push_back(fix(b.CreateShuffleVector(v, sel)));
    }
    return out;
  }
  Value* ptrs = b.CreateGEP(b.getInt8Ty(), base, bytes);
  Value* m = mask ? mask : llvm::Constant::getAllOnesValue(lane_type(b.getInt1Ty()));
  for (uint32_t k = 0; k < n; ++k) {
    Value* pk = k ? b.CreateGEP(b.getInt8Ty(), ptrs, cg.i64(static_cast<int64_t>(k * st->size))) : ptrs;
    out.c.push_back(fix(b.CreateMaskedGather(lane_type(mt), pk, al, m, llvm::Constant::getNullValue(lane_type(mt)))));
  }
  return out;
}

void Gen::store_elems(Value* base, Value* index, const SV& v, Value* mask, bool contiguous) {
  const Type* t = v.t;
  const Type* st = t->scalar_of();
  const uint32_t n = t->width();
  llvm::Type* mt = mem(st);
  llvm::Align al(st->size ? st->size : 1);
  auto fix = [&](Value* x) { x = widen(x); return st->kind == TypeKind::Bool ? b.CreateZExt(x, lane_type(mt)) : x; };
  Value* bytes = b.CreateMul(index, llvm::ConstantInt::get(index->getType(), t->size));
  if (contiguous && !is_lane(index)) {
    Value* ptr = cg.byte_gep(base, bytes);
    // Gangs that wrote every lane take a plain store (masked ones are slower).
    auto store = [&](Value* x, Value* m) {
      BasicBlock* full = block("store.full");
      BasicBlock* part = block("store.tail");
      BasicBlock* done = block("store.end");
      b.CreateCondBr(all(m), full, part);
      b.SetInsertPoint(full);
      b.CreateAlignedStore(x, ptr, al);
      b.CreateBr(done);
      b.SetInsertPoint(part);
      b.CreateMaskedStore(x, ptr, al, m);
      b.CreateBr(done);
      b.SetInsertPoint(done);
    };
    if (n == 1) {
      store(fix(v.c[0]), mask);
      return;
    }
    // Interleave the components back into elements: concatenate them (each
    // shuffle doubles the width, padding with undefined lanes), then pick
    // lane l's components in order.
    std::vector<Value*> parts;
    for (uint32_t k = 0; k < n; ++k) parts.push_back(fix(v.c[k]));
    if (parts.size() == 3) parts.push_back(llvm::PoisonValue::get(parts[0]->getType()));
    while (parts.size() > 1) {
      std::vector<Value*> next;
      const int width = static_cast<int>(llvm::cast<llvm::FixedVectorType>(parts[0]->getType())->getNumElements());
      std::vector<int> cat;
      for (int i = 0; i < 2 * width; ++i) cat.push_back(i);
      for (size_t i = 0; i + 1 < parts.size(); i += 2) next.push_back(b.CreateShuffleVector(parts[i], parts[i + 1], cat));
      parts = std::move(next);
    }
    std::vector<int> sel, rep;
    for (int l = 0; l < W; ++l)
      for (uint32_t k = 0; k < n; ++k) {
        sel.push_back(static_cast<int>(k * W + l));
        rep.push_back(l);
      }
    Value* acc = b.CreateShuffleVector(parts[0], sel);
    store(acc, b.CreateShuffleVector(mask, rep));
    return;
  }
  Value* idx = widen(index);
  Value* ptrs = b.CreateGEP(b.getInt8Ty(), base, b.CreateMul(idx, llvm::ConstantInt::get(idx->getType(), t->size)));
  for (uint32_t k = 0; k < n; ++k) {
    Value* pk = k ? b.CreateGEP(b.getInt8Ty(), ptrs, cg.i64(static_cast<int64_t>(k * st->size))) : ptrs;
    b.CreateMaskedScatter(fix(v.c[k]), pk, al, mask);
  }
}

void Gen::load_streams() {
  std::vector<Value*> lane_pos = pos;
  lane_pos.back() = lanes;
  std::vector<Value*> first_pos = pos;
  first_pos.back() = gang_start;
  for (Arg& a : args_) {
    const ArgShape& s = *a.shape;
    if (s.role == ArgRole::Gather || s.role == ArgRole::Constant) continue;
    std::vector<Value*> ids;
    Value* index = view_index(a, lane_pos, &ids);
    // indexof: component c is view dimension rank-1-c
    SV idx{{}, nullptr};
    for (int c = 0; c < 4; ++c) {
      int d = s.rank - 1 - c;
      idx.c.push_back(d >= 0 ? b.CreateSIToFP(ids[static_cast<size_t>(d)], shaped(b.getFloatTy(), ids[static_cast<size_t>(d)]))
                             : llvm::ConstantFP::get(b.getFloatTy(), 0.0));
    }
    indexof_[a.decl] = idx;
    a.index = index;
    if (a.contiguous) a.index = view_index(a, first_pos, nullptr);
    Slot& slot = slots.at(a.decl);
    if (s.role == ArgRole::Output) {
      b.CreateStore(no_lanes(), slot.written);
      if (!a.read_before_write) continue;
    }
    SV v = is_lane(a.index) ? load_lanes(a.base, cg.i64(0), a.index, a.decl->type, gang_mask)
                            : load_elems(a.base, a.index, a.decl->type, gang_mask, a.contiguous);
    for (size_t k = 0; k < v.c.size(); ++k) {
      Value* x = slot.varying[k] ? widen(v.c[k]) : v.c[k];
      if (!slot.varying[k] && is_lane(x)) outside("input shape");
      b.CreateStore(x, slot.ptr[k]);
    }
  }
}

void Gen::store_outputs() {
  for (Arg& a : args_) {
    if (a.shape->role != ArgRole::Output) continue;
    Slot& slot = slots.at(a.decl);
    SV v{{}, a.decl->type};
    for (size_t k = 0; k < slot.ptr.size(); ++k) v.c.push_back(load_comp(slot, static_cast<int>(k)));
    Value* written = b.CreateLoad(lane_type(b.getInt1Ty()), slot.written);
    written = b.CreateAnd(written, gang_mask);
    store_elems(a.base, a.index, v, written, a.contiguous);
  }
}

// Element row + last[l] for each lane (row uniform, last per lane). The
// lanes' indices often follow a pattern only known at run time: consecutive
// (one vector load), all equal (one scalar load), or consecutive downwards
// (one vector load, reversed); otherwise a hardware gather. With a mask (the
// tail of a row, whose inactive lanes may point anywhere) only full gangs
// test the patterns.
SV Gen::load_lanes(Value* base, Value* row, Value* last, const Type* elem, Value* mask) {
  Value* first = b.CreateExtractElement(last, uint64_t{0});
  Value* splat = b.CreateVectorSplat(W, first);
  Value* full = mask ? all(mask) : b.getTrue();
  Value* up = b.CreateAnd(full, all(b.CreateICmpEQ(last, b.CreateAdd(splat, iota64()))));
  Value* same = b.CreateAnd(full, all(b.CreateICmpEQ(last, splat)));
  Value* down = b.CreateAnd(full, all(b.CreateICmpEQ(last, b.CreateSub(splat, iota64()))));
  llvm::BasicBlock* merge = block("gather.end");
  std::vector<std::pair<SV, llvm::BasicBlock*>> results;
  auto path = [&](Value* cond, const char* name, auto emit_load) {
    llvm::BasicBlock* yes = block(name);
    llvm::BasicBlock* no = block("gather.next");
    b.CreateCondBr(cond, yes, no);
    b.SetInsertPoint(yes);
    SV v = emit_load();
    results.push_back({v, b.GetInsertBlock()});
    b.CreateBr(merge);
    b.SetInsertPoint(no);
  };
  path(up, "gather.contig", [&] { return load_elems(base, b.CreateAdd(row, first), elem, nullptr, true); });
  path(same, "gather.same", [&] {
    SV v = load_elems(base, b.CreateAdd(row, first), elem, nullptr, false);
    for (Value*& c : v.c) c = widen(c);
    return v;
  });
  path(down, "gather.down", [&] {
    SV v = load_elems(base, b.CreateAdd(row, b.CreateSub(first, cg.i64(W - 1))), elem, nullptr, true);
    std::vector<int> rev;
    for (int l = W - 1; l >= 0; --l) rev.push_back(l);
    for (Value*& c : v.c) c = b.CreateShuffleVector(c, rev);
    return v;
  });
  SV g = load_elems(base, b.CreateAdd(widen(row), last), elem, mask, false);
  results.push_back({g, b.GetInsertBlock()});
  b.CreateBr(merge);
  b.SetInsertPoint(merge);
  SV out{{}, elem};
  for (size_t i = 0; i < g.c.size(); ++i) {
    llvm::PHINode* phi = b.CreatePHI(g.c[i]->getType(), static_cast<unsigned>(results.size()));
    for (auto& [v, bb] : results) phi->addIncoming(v.c[i], bb);
    out.c.push_back(phi);
  }
  return out;
}

}  // namespace brook::jit::spmd
