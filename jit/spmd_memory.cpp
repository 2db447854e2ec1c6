// SPMD memory access: stream arguments per gang (contiguous vector loads and
// stores, deinterleaving vector elements; masked only in a row's tail) and
// per-lane element loads that find consecutive, equal or reversed indices at
// run time before falling back to a hardware gather.
#include <map>
#include <optional>

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/abi.hpp"
#include "jit/spmd_impl.hpp"

namespace brook::jit::spmd {

using llvm::BasicBlock;
using llvm::Value;

namespace {

// How a <W x int/float> value steps from lane to lane, read off the IR that
// computes it: `lanes` is a splat plus <0, 1, 2, …>, `2 * x + j` then steps
// by 2. Only a guess that picks which run-time tests a gather gets (the
// clamps of gather indices are looked through, locals are followed to what
// was stored into them), never what it loads: a wrong guess costs time only.
class LaneStride {
 public:
  std::optional<int64_t> of(Value* v) {
    Lattice r = walk(v, 0);
    if (r.kind == Lattice::Known) return r.stride;
    return std::nullopt;
  }

 private:
  struct Lattice {
    enum Kind { Top, Known, Unknown } kind = Top;  // Top: no information yet
    int64_t stride = 0;
    static Lattice known(int64_t s) { return {Known, s}; }
    static Lattice unknown() { return {Unknown, 0}; }
    Lattice join(const Lattice& o) const {
      if (kind == Top) return o;
      if (o.kind == Top) return *this;
      if (kind == Known && o.kind == Known && stride == o.stride) return *this;
      return unknown();
    }
  };
  static constexpr int kMaxDepth = 24;
  std::map<Value*, Lattice> memo_;

  // An integral scalar constant (ints, or floats holding small integers).
  static std::optional<int64_t> integral(const llvm::Constant* c) {
    if (!c) return std::nullopt;
    if (const auto* i = llvm::dyn_cast<llvm::ConstantInt>(c)) {
      if (i->getBitWidth() > 64) return std::nullopt;
      return i->getSExtValue();
    }
    if (const auto* f = llvm::dyn_cast<llvm::ConstantFP>(c)) {
      double d = f->getValueAPF().convertToDouble();
      if (d == static_cast<double>(static_cast<int64_t>(d)) && d > -1e9 && d < 1e9) return static_cast<int64_t>(d);
    }
    return std::nullopt;
  }

  static std::optional<int64_t> splat_constant(Value* v) {
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
      if (!v->getType()->isVectorTy()) return integral(c);
      return integral(c->getSplatValue());
    }
    return std::nullopt;
  }

  static Lattice constant(llvm::Constant* c) {
    auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(c->getType());
    if (!vt) return Lattice::known(0);
    const unsigned n = vt->getNumElements();
    std::optional<int64_t> first = integral(c->getAggregateElement(0u));
    if (n < 2 || !first) return c->getSplatValue() ? Lattice::known(0) : Lattice::unknown();
    std::optional<int64_t> second = integral(c->getAggregateElement(1u));
    if (!second) return Lattice::unknown();
    const int64_t step = *second - *first;
    for (unsigned i = 2; i < n; ++i) {
      std::optional<int64_t> e = integral(c->getAggregateElement(i));
      if (!e || *e - *first != step * static_cast<int64_t>(i)) return Lattice::unknown();
    }
    return Lattice::known(step);
  }

  Lattice walk(Value* v, int depth) {
    if (!v->getType()->isVectorTy()) return Lattice::known(0);
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) return constant(c);
    if (llvm::getSplatValue(v)) return Lattice::known(0);
    if (depth > kMaxDepth) return Lattice::unknown();
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    memo_[v] = Lattice{};  // in progress: a cycle through a local adds nothing
    Lattice r = step(v, depth + 1);
    memo_[v] = r;
    return r;
  }

  Lattice step(Value* v, int depth) {
    auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst) return Lattice::unknown();
    auto scaled = [&](Value* x, Value* k, int64_t sign) {
      std::optional<int64_t> c = splat_constant(k);
      if (!c) return Lattice::unknown();
      Lattice s = walk(x, depth);
      if (s.kind == Lattice::Known) s.stride *= sign * *c;
      return s;
    };
    switch (inst->getOpcode()) {
      case llvm::Instruction::Add:
      case llvm::Instruction::FAdd:
      case llvm::Instruction::Sub:
      case llvm::Instruction::FSub: {
        Lattice x = walk(inst->getOperand(0), depth);
        Lattice y = walk(inst->getOperand(1), depth);
        if (x.kind == Lattice::Unknown || y.kind == Lattice::Unknown) return Lattice::unknown();
        if (x.kind == Lattice::Top || y.kind == Lattice::Top) return Lattice{};
        const bool sub = inst->getOpcode() == llvm::Instruction::Sub || inst->getOpcode() == llvm::Instruction::FSub;
        return Lattice::known(sub ? x.stride - y.stride : x.stride + y.stride);
      }
      case llvm::Instruction::Mul:
      case llvm::Instruction::FMul:
        if (splat_constant(inst->getOperand(1))) return scaled(inst->getOperand(0), inst->getOperand(1), 1);
        return scaled(inst->getOperand(1), inst->getOperand(0), 1);
      case llvm::Instruction::SIToFP:
      case llvm::Instruction::UIToFP:
      case llvm::Instruction::FPToSI:
      case llvm::Instruction::FPToUI:
      case llvm::Instruction::SExt:
      case llvm::Instruction::ZExt:
      case llvm::Instruction::Trunc:
      case llvm::Instruction::FPExt:
      case llvm::Instruction::FPTrunc:
      case llvm::Instruction::Freeze:
        return walk(inst->getOperand(0), depth);
      case llvm::Instruction::Select: {
        // Clamps select a splat bound in some lanes: look through them.
        Value* x = inst->getOperand(1);
        Value* y = inst->getOperand(2);
        const bool xs = llvm::getSplatValue(x) || llvm::isa<llvm::Constant>(x);
        const bool ys = llvm::getSplatValue(y) || llvm::isa<llvm::Constant>(y);
        if (xs && !ys) return walk(y, depth);
        if (ys && !xs) return walk(x, depth);
        return walk(x, depth).join(walk(y, depth));
      }
      case llvm::Instruction::Load: {
        // A local: what every store to it so far stored.
        Value* ptr = llvm::cast<llvm::LoadInst>(inst)->getPointerOperand();
        if (!llvm::isa<llvm::AllocaInst>(ptr)) return Lattice::unknown();
        Lattice r;
        for (llvm::User* u : ptr->users())
          if (auto* st = llvm::dyn_cast<llvm::StoreInst>(u); st && st->getPointerOperand() == ptr)
            r = r.join(walk(st->getValueOperand(), depth));
        return r;
      }
      default: return Lattice::unknown();
    }
  }
};

}  // namespace

bool Gen::lane_stride_is_one(Value* v) {
  const std::optional<int64_t> stride = LaneStride().of(v);
  return stride && *stride == 1;
}

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
        // Under narrow_ratio r0 + l * num < 2^31 and so is the quotient: the
        // same integers in 32-bit lanes, whose conversions are vector ones.
        llvm::Type* it = s.narrow_ratio[d] ? b.getInt32Ty() : b.getInt64Ty();
        Value* iota = iota64();
        Value* num = a.num[d];
        Value* rem = r0;
        if (s.narrow_ratio[d]) {
          iota = b.CreateTrunc(iota, lane_type(it));
          num = b.CreateTrunc(num, it);
          rem = b.CreateTrunc(rem, it);
        }
        Value* t = b.CreateAdd(widen(rem), b.CreateMul(iota, widen(num)));
        llvm::Type* dv = lane_type(b.getDoubleTy());
        Value* q = b.CreateFDiv(b.CreateSIToFP(t, dv), widen(b.CreateSIToFP(a.den[d], b.getDoubleTy())));
        q = b.CreateFPToSI(b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q), lane_type(it));
        if (s.narrow_ratio[d]) q = b.CreateSExt(q, lane_type(b.getInt64Ty()));
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
      b.CreateCondBr(all(mask), full, part, llvm::MDBuilder(cg.ctx).createBranchWeights(32, 1));
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
    // The test reads the lanes' mask; the tail alone widens it to one bit per
    // component (a <W*n x i1> mask tested or kept live on the full path costs
    // a bit-by-bit extraction per gang on AVX2).
    auto store = [&](Value* x) {
      BasicBlock* full = block("store.full");
      BasicBlock* part = block("store.tail");
      BasicBlock* done = block("store.end");
      b.CreateCondBr(all(mask), full, part, llvm::MDBuilder(cg.ctx).createBranchWeights(32, 1));
      b.SetInsertPoint(full);
      b.CreateAlignedStore(x, ptr, al);
      b.CreateBr(done);
      b.SetInsertPoint(part);
      std::vector<int> rep;
      for (int l = 0; l < W; ++l)
        for (uint32_t k = 0; k < n; ++k) rep.push_back(l);
      b.CreateMaskedStore(x, ptr, al, n == 1 ? mask : b.CreateShuffleVector(mask, rep));
      b.CreateBr(done);
      b.SetInsertPoint(done);
    };
    if (n == 1) {
      store(fix(v.c[0]));
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
    std::vector<int> sel;
    for (int l = 0; l < W; ++l)
      for (uint32_t k = 0; k < n; ++k) sel.push_back(static_cast<int>(k * W + l));
    store(b.CreateShuffleVector(parts[0], sel));
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
      Value* id = d >= 0 ? ids[static_cast<size_t>(d)] : nullptr;
      // Lane columns below 2^31 (MapShape::narrow_columns) are the same
      // integers in i32, whose conversion to float is exact alike and vector.
      if (id && id == lanes && shape.narrow_columns)
        id = b.CreateTrunc(id, lane_type(b.getInt32Ty()));
      idx.c.push_back(id ? b.CreateSIToFP(id, shaped(b.getFloatTy(), id))
                         : llvm::ConstantFP::get(b.getFloatTy(), 0.0));
    }
    indexof_[a.decl] = idx;
    indexof_ids_[a.decl].clear();
    for (int c = 0; c < 4; ++c) {
      int d = s.rank - 1 - c;
      indexof_ids_[a.decl].push_back(d >= 0 ? ids[static_cast<size_t>(d)] : nullptr);
    }
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
  // Lanes known to step by other than -1, 0 or 1 (`a[2 * x]`) never match a
  // pattern: the tests would only cost code. With a known step only its own
  // pattern is tested.
  const std::optional<int64_t> stride = LaneStride().of(last);
  if (stride && *stride != 0 && *stride != 1 && *stride != -1)
    return load_elems(base, b.CreateAdd(widen(row), last), elem, mask, false);
  const bool test_up = !stride || *stride == 1;
  const bool test_same = !stride || *stride == 0;
  const bool test_down = !stride || *stride == -1;
  Value* first = b.CreateExtractElement(last, uint64_t{0});
  Value* splat = b.CreateVectorSplat(W, first);
  Value* full = mask ? all(mask) : b.getTrue();
  Value* up = test_up ? b.CreateAnd(full, all(b.CreateICmpEQ(last, b.CreateAdd(splat, iota64())))) : nullptr;
  Value* same = test_same ? b.CreateAnd(full, all(b.CreateICmpEQ(last, splat))) : nullptr;
  Value* down = test_down ? b.CreateAnd(full, all(b.CreateICmpEQ(last, b.CreateSub(splat, iota64())))) : nullptr;
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
  if (test_up) path(up, "gather.contig", [&] { return load_elems(base, b.CreateAdd(row, first), elem, nullptr, true); });
  if (test_same) path(same, "gather.same", [&] {
    SV v = load_elems(base, b.CreateAdd(row, first), elem, nullptr, false);
    for (Value*& c : v.c) c = widen(c);
    return v;
  });
  if (test_down) path(down, "gather.down", [&] {
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
