// SPMD expressions: component by component, uniform operands stay scalar and
// are broadcast only where they meet a varying one.
#include <algorithm>
#include <optional>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/abi.hpp"
#include "jit/spmd_impl.hpp"
#include "lang/kernel_walk.hpp"

namespace brook::jit::spmd {

using llvm::Value;
using ast::BinaryOp;
using stdlib::Builtin;
using stdlib::Sig;

bool speculable(const ast::Expr& e) {
  if (!analysis::side_effect_free(e)) return false;
  bool ok = true;
  analysis::walk_expr(&e, [&](const ast::Expr& x) {
    using K = ast::ExprKind;
    if (x.kind == K::Member || x.kind == K::InitList || x.kind == K::Domain || x.kind == K::IterInit) ok = false;
  });
  return ok;
}

SV Gen::rvalue(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::IntLit:
      check_type(e.type);
      return {{llvm::ConstantInt::get(reg(e.type), e.as<ast::IntLit>()->value)}, e.type};
    case K::FloatLit:
      check_type(e.type);
      return {{llvm::ConstantFP::get(reg(e.type), e.as<ast::FloatLit>()->value)}, e.type};
    case K::BoolLit: return {{b.getInt1(e.as<ast::BoolLit>()->value)}, e.type};
    case K::Name: {
      const auto* n = e.as<ast::NameExpr>();
      if (const auto* c = n->decl ? n->decl->as<ast::EnumConstDecl>() : nullptr) {
        check_type(e.type);
        return {{llvm::ConstantInt::get(reg(e.type), static_cast<uint64_t>(c->value), true)}, e.type};
      }
      return load_place(place(e));
    }
    case K::Unary: {
      const auto* u = e.as<ast::UnaryExpr>();
      switch (u->op) {
        case ast::UnaryOp::Plus: return rvalue(*u->operand);
        case ast::UnaryOp::Neg: {
          SV x = rvalue(*u->operand);
          for (Value*& c : x.c) c = x.t->scalar_of()->is_floating() ? b.CreateFNeg(c) : b.CreateNeg(c);
          return x;
        }
        case ast::UnaryOp::BitNot: {
          SV x = rvalue(*u->operand);
          for (Value*& c : x.c) c = b.CreateNot(c);
          return x;
        }
        case ast::UnaryOp::Not: {
          SV x = rvalue(*u->operand);
          if (x.t->is_vector()) outside("! of a vector");
          Value* z;
          Value* c = x.c[0];
          if (x.t->kind == TypeKind::Bool) z = b.CreateNot(c);
          else if (x.t->is_floating()) z = b.CreateFCmpOEQ(c, llvm::Constant::getNullValue(c->getType()));
          else z = b.CreateICmpEQ(c, llvm::Constant::getNullValue(c->getType()));
          return {{b.CreateZExt(z, shaped(reg(check_type(e.type)), z))}, e.type};
        }
        case ast::UnaryOp::PreInc:
        case ast::UnaryOp::PreDec:
        case ast::UnaryOp::PostInc:
        case ast::UnaryOp::PostDec: return incdec(*u);
        default: outside("pointer operator");
      }
    }
    case K::Binary: return binary(*e.as<ast::BinaryExpr>());
    case K::Assign: return assign(*e.as<ast::AssignExpr>());
    case K::Conditional: {
      const auto* c = e.as<ast::ConditionalExpr>();
      if (e.type->is_void() || !speculable(*c->then_expr) || !speculable(*c->else_expr))
        outside("conditional with effects");
      Value* t = truth(rvalue(*c->cond));
      SV x = conv(rvalue(*c->then_expr), e.type);
      SV y = conv(rvalue(*c->else_expr), e.type);
      return select(t, x, y);
    }
    case K::Comma: {
      const auto* c = e.as<ast::CommaExpr>();
      rvalue(*c->lhs);
      return rvalue(*c->rhs);
    }
    case K::Call: {
      const auto* c = e.as<ast::CallExpr>();
      if (c->target == ast::CallTarget::Kernel) return kernel_call(*c);
      if (c->target != ast::CallTarget::Builtin) outside("call");
      return builtin(*c);
    }
    case K::Construct: return construct(*e.as<ast::ConstructExpr>());
    case K::Cast: {
      const auto* c = e.as<ast::CastExpr>();
      switch (c->cast) {
        case ast::CastKind::Convert:
          if (auto exact = exact_cast(*c)) return *exact;
          return conv(rvalue(*c->operand), e.type);
        case ast::CastKind::Broadcast: {
          SV a = rvalue(*c->operand);
          check_type(e.type);
          Value* s = conv(a.c[0], a.t->scalar_of(), e.type->scalar_of());
          return {std::vector<Value*>(e.type->width(), s), e.type};
        }
        case ast::CastKind::ToBool: return {{truth(rvalue(*c->operand))}, e.type};
        case ast::CastKind::ToVoid: rvalue(*c->operand); return {{}, e.type};
        default: outside("cast");
      }
    }
    case K::Gather: return gather(*e.as<ast::GatherExpr>());
    case K::Index: return load_place(place(e));
    case K::Swizzle: {
      const auto* s = e.as<ast::SwizzleExpr>();
      SV base = rvalue(*s->base);
      SV out{{}, check_type(e.type)};
      for (int i = 0; i < s->count; ++i) {
        size_t c = base.t->is_vector() ? s->comps[i] : 0;
        if (c >= base.c.size()) outside("swizzle");
        out.c.push_back(base.c[c]);
      }
      return out;
    }
    case K::Sizeof:
      check_type(e.type);
      return {{llvm::ConstantInt::get(reg(e.type), e.as<ast::SizeofExpr>()->value)}, e.type};
    case K::Indexof: {
      const auto* n = e.as<ast::IndexofExpr>()->operand->as<ast::NameExpr>();
      if (!n) outside("indexof");
      auto it = indexof_.find(n->decl);
      if (it != indexof_.end()) return {it->second.c, e.type};
      if (gathers.count(n->decl) || slots.count(n->decl)) {
        Value* z = llvm::ConstantFP::get(b.getFloatTy(), 0.0);
        return {{z, z, z, z}, e.type};
      }
      outside("indexof");
    }
    default: outside("expression");
  }
}

SV Gen::binary(const ast::BinaryExpr& e) {
  if (e.op == BinaryOp::LogAnd || e.op == BinaryOp::LogOr) {
    // Both sides are evaluated (no side effects in the right one), then combined.
    if (!speculable(*e.rhs)) outside("&& / || with effects");
    Value* l = truth(rvalue(*e.lhs));
    Value* r = truth(rvalue(*e.rhs));
    unify(l, r);
    Value* v = e.op == BinaryOp::LogAnd ? b.CreateAnd(l, r) : b.CreateOr(l, r);
    return {{b.CreateZExt(v, shaped(reg(check_type(e.type)), v))}, e.type};
  }
  SV l = rvalue(*e.lhs);
  SV r = rvalue(*e.rhs);
  check_type(e.type);
  SV out{{}, e.type};
  size_t n = std::max(l.c.size(), r.c.size());
  for (size_t i = 0; i < n; ++i) {
    Value* x = l.c[l.c.size() == 1 ? 0 : i];
    Value* y = r.c[r.c.size() == 1 ? 0 : i];
    unify(x, y);
    out.c.push_back(cg.binary(e.op, x, y, l.t->scalar_of(), r.t->scalar_of()));
  }
  return out;
}

SV Gen::assign(const ast::AssignExpr& e) {
  Place p = place(*e.lhs);
  SV r = rvalue(*e.rhs);
  if (!e.op) {
    SV v = conv(r, p.t);
    store_place(p, v);
    write_shadow(e);
    return v;
  }
  if (*e.op >= BinaryOp::Lt && *e.op <= BinaryOp::Ne) outside("compound comparison");
  const Type* op_t = check_type(e.op_type ? e.op_type : p.t);
  SV lhs = conv(load_place(p), op_t);
  SV res{{}, op_t};
  for (size_t i = 0; i < lhs.c.size(); ++i) {
    Value* x = lhs.c[i];
    Value* y = r.c[r.c.size() == 1 ? 0 : i];
    unify(x, y);
    res.c.push_back(cg.binary(*e.op, x, y, op_t->scalar_of(), r.t->scalar_of()));
  }
  SV back = conv(res, p.t);
  store_place(p, back);
  write_shadow(e);
  return back;
}

SV Gen::incdec(const ast::UnaryExpr& u) {
  Place p = place(*u.operand);
  SV cur_v = load_place(p);
  bool inc = u.op == ast::UnaryOp::PreInc || u.op == ast::UnaryOp::PostInc;
  bool post = u.op == ast::UnaryOp::PostInc || u.op == ast::UnaryOp::PostDec;
  SV next{{}, p.t};
  const Type* s = p.t->scalar_of();
  for (Value* c : cur_v.c) {
    if (s->kind == TypeKind::Bool) {
      next.c.push_back(inc ? static_cast<Value*>(llvm::ConstantInt::getTrue(c->getType())) : b.CreateNot(c));
    } else if (s->is_floating()) {
      Value* one = llvm::ConstantFP::get(c->getType(), 1.0);
      next.c.push_back(inc ? b.CreateFAdd(c, one) : b.CreateFSub(c, one));
    } else {
      Value* one = llvm::ConstantInt::get(c->getType(), 1);
      next.c.push_back(inc ? b.CreateAdd(c, one) : b.CreateSub(c, one));
    }
  }
  store_place(p, next);
  write_shadow(u);
  return post ? cur_v : next;
}

SV Gen::construct(const ast::ConstructExpr& e) {
  const Type* t = check_type(e.type);
  const Type* s = t->scalar_of();
  if (!t->is_vector()) {
    if (e.args.size() != 1) outside("constructor");
    return conv(rvalue(*e.args[0]), t);
  }
  SV out{{}, t};
  if (e.args.size() == 1 && !e.args[0]->type->is_vector()) {
    SV a = rvalue(*e.args[0]);
    out.c.assign(t->count, conv(a.c[0], a.t, s));
    return out;
  }
  for (const auto& arg : e.args) {
    SV a = rvalue(*arg);
    for (Value* c : a.c)
      if (out.c.size() < t->count) out.c.push_back(conv(c, a.t->scalar_of(), s));
  }
  while (out.c.size() < t->count) out.c.push_back(llvm::Constant::getNullValue(reg(s)));
  return out;
}

SV Gen::select(Value* c, const SV& t, const SV& f) {
  SV out{{}, t.t};
  for (size_t i = 0; i < t.c.size(); ++i) {
    Value* x = t.c[i];
    Value* y = f.c[f.c.size() == 1 ? 0 : i];
    Value* cc = c;
    if (is_lane(cc)) {
      x = widen(x);
      y = widen(y);
    } else {
      unify(x, y);
    }
    out.c.push_back(b.CreateSelect(cc, x, y));
  }
  return out;
}

// One gather index component -> a clamped i64 position (§5: a float selects
// floor(f + 0.25)).
Value* Gen::gather_index(Value* v, const Type* t, Value* extent) {
  Value* id;
  if (t->is_floating()) {
    Value* f = b.CreateFAdd(v, llvm::ConstantFP::get(v->getType(), 0.25));
    f = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, f);
    Value* lim = llvm::ConstantFP::get(v->getType(), 1e15);
    Value* neg = llvm::ConstantFP::get(v->getType(), -1.0);
    f = b.CreateSelect(b.CreateFCmpOGT(f, lim), lim, f);
    f = b.CreateSelect(b.CreateFCmpUGE(f, neg), f, neg);
    id = b.CreateFPToSI(f, shaped(b.getInt64Ty(), v));
  } else {
    bool sign = t->kind != TypeKind::Bool && t->is_signed();
    id = b.CreateIntCast(v, shaped(b.getInt64Ty(), v), sign);
    // An unsigned long at or above 2^63 is a huge index, not a negative one.
    if (!sign && t->size == 8) {
      Value* top = cg.i64(INT64_MAX);
      Value* zero = cg.i64(0);
      if (is_lane(id)) {
        top = widen(top);
        zero = widen(zero);
      }
      id = b.CreateSelect(b.CreateICmpSLT(id, zero), top, id);
    }
  }
  Value* hi = b.CreateSub(extent, cg.i64(1));
  Value* zero = cg.i64(0);
  if (is_lane(id)) {
    hi = widen(hi);
    zero = widen(zero);
  }
  id = b.CreateSelect(b.CreateICmpSLT(id, zero), zero, id);
  return b.CreateSelect(b.CreateICmpSGT(id, hi), hi, id);
}

SV Gen::gather(const ast::GatherExpr& e) {
  const auto* n = e.param->as<ast::NameExpr>();
  auto it = n ? gathers.find(n->decl) : gathers.end();
  if (it == gathers.end()) outside("gather");
  Arg& a = *it->second;
  const Type* elem = check_type(e.type);
  std::vector<std::pair<Value*, const Type*>> list;  // row first
  // A float counter's component indexes by its shadow when the clamp allows.
  const bool by_counter = counters && !counters->empty() && a.shape->counter_exact;
  const bool by_position = counters && shape.exact_positions && a.shape->counter_exact;
  // Integer indices at exact positions (spmd_exact.cpp), evaluated again
  // from the tree: only when that has no effects.
  const bool by_int_position = shape.exact_positions && calls.empty();
  auto add = [&](Value* v, const Type* t, const ast::Expr& ix, int comp) {
    const bool int_ok = by_int_position && t->is_integer() && speculable(ix);
    if (Value* s = int_ok ? exact_int_index(ix, comp) : nullptr) {
      list.push_back({s, t});
    } else if (Value* s = by_position ? exact_index(ix, comp) : nullptr) {
      list.push_back({s, counters->shadow_type()});
    } else if (Value* s = by_counter ? counter_index(ix, comp) : nullptr) {
      list.push_back({s, counters->shadow_type()});
    } else {
      list.push_back({v, t});
    }
  };
  if (e.indices.size() == 1 && e.indices[0]->type->is_vector()) {
    SV v = rvalue(*e.indices[0]);
    const Type* s = v.t->scalar_of();
    for (uint32_t c = ast::gather_vector_components(e); c-- > 0;) {
      if (c < 2)
        add(v.c[c], s, *e.indices[0], static_cast<int>(c));
      else
        list.push_back({v.c[c], s});  // z and w: no counter analysis
    }
  } else {
    for (const auto& ix : e.indices) {
      SV v = rvalue(*ix);
      if (v.t->is_vector()) outside("gather index");
      add(v.c[0], v.t, *ix, 0);
    }
  }
  const int rank = a.shape->rank;
  const int k = static_cast<int>(list.size());
  // The element index of dimension d, clamped, plus the view's offset.
  auto dim_index = [&](int d) {
    int j = k - rank + d;
    Value* id = j >= 0 ? gather_index(list[static_cast<size_t>(j)].first, list[static_cast<size_t>(j)].second, a.extent[d])
                       : b.CreateSelect(b.CreateICmpSLT(a.extent[d], cg.i64(1)), b.CreateSub(a.extent[d], cg.i64(1)), cg.i64(0));
    Value* off = a.offset[d];
    unify(off, id);
    return b.CreateAdd(off, id);
  };
  Value* row = cg.i64(0);
  for (int d = 0; d + 1 < rank; ++d) {
    Value* p = dim_index(d);
    Value* st = a.stride[d];
    unify(p, st);
    p = b.CreateMul(p, st);
    unify(row, p);
    row = b.CreateAdd(row, p);
  }
  const int last_j = k - 1;
  Value* col = last_j >= 0 ? list[static_cast<size_t>(last_j)].first : nullptr;
  const Type* col_t = last_j >= 0 ? list[static_cast<size_t>(last_j)].second : nullptr;
  if (!is_lane(row) && col && is_lane(col)) {
    // The column steps by one from lane to lane (`img[here.xy + float2(dx,
    // dy)]`): tested at run time, in range lanes take one vector load.
    if (auto run = consecutive_column(col, col_t, a.extent[rank - 1])) {
      llvm::BasicBlock* fast = block("gather.row");
      llvm::BasicBlock* slow = block("gather.lanes");
      llvm::BasicBlock* done = block("gather.done");
      // Weighted: only edge gangs take the per-lane path. Without weights
      // LLVM's machine CSE hoists the nine slow paths' lane-index vectors
      // into the fast path (their common dominator) and spills them there.
      b.CreateCondBr(run->second, fast, slow, llvm::MDBuilder(cg.ctx).createBranchWeights(64, 1));
      b.SetInsertPoint(fast);
      Value* off = a.offset[rank - 1];
      SV vf = load_elems(a.base, b.CreateAdd(row, b.CreateAdd(off, run->first)), elem, nullptr, true);
      llvm::BasicBlock* fast_end = b.GetInsertBlock();
      b.CreateBr(done);
      b.SetInsertPoint(slow);
      // Only gangs at an image edge (or not consecutive at all) come here.
      Value* last = dim_index(rank - 1);
      SV vs = load_elems(a.base, b.CreateAdd(widen(row), last), elem, nullptr, false);
      llvm::BasicBlock* slow_end = b.GetInsertBlock();
      b.CreateBr(done);
      b.SetInsertPoint(done);
      SV out{{}, elem};
      for (size_t i = 0; i < vs.c.size(); ++i) {
        llvm::PHINode* phi = b.CreatePHI(vs.c[i]->getType(), 2);
        phi->addIncoming(vf.c[i], fast_end);
        phi->addIncoming(vs.c[i], slow_end);
        out.c.push_back(phi);
      }
      return out;
    }
  }
  Value* last = dim_index(rank - 1);
  if (!is_lane(row) && !is_lane(last)) return load_elems(a.base, b.CreateAdd(row, last), elem, nullptr, false);
  if (is_lane(row)) {
    Value* index = last;
    unify(index, row);
    return load_elems(a.base, b.CreateAdd(index, row), elem, nullptr, false);
  }
  return load_lanes(a.base, row, last, elem, nullptr);
}

// When the lanes of a gather column `v` (of Brook type t) select consecutive
// elements all inside [0, extent): {lane 0's element index (i64), the
// condition (i1)}, both computed at run time. A float column f selects
// floor(f + 0.25); the test asks for lane 0 an exact integer below 2^24 (or
// 2^53) and every lane exactly lane 0 + l, so each lane's floor is its own
// value and the clamp changes nothing. Nothing when the column is not
// guessed to step by one (the test would only cost code).
std::optional<std::pair<Value*, Value*>> Gen::consecutive_column(Value* v, const Type* t, Value* extent) {
  if (auto known = consecutive_.find(v); known != consecutive_.end()) {
    // Lanes + d (exact_index): consecutive by construction, only the range
    // is tested, 0 <= u <= extent - W as one unsigned compare.
    Value* u = known->second;
    // u is lane 0's exact (unwrapped) value: in range of a 32-bit index type
    // it is also the wrapped one (exact_int_index).
    if (t && t->is_integer() && t->size == 4)
      extent =
          b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, extent,
                                  cg.i64(t->is_signed() ? int64_t{1} << 31 : int64_t{1} << 32));
    Value* lim = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, b.CreateSub(extent, cg.i64(W - 1)),
                                         cg.i64(0));
    return std::make_pair(u, b.CreateICmpULT(u, lim));
  }
  if (!lane_stride_is_one(v)) return std::nullopt;
  llvm::Type* st = v->getType()->getScalarType();
  Value* first = b.CreateExtractElement(v, uint64_t{0});
  Value* ok = nullptr;
  Value* u = nullptr;
  if (st->isFloatTy() || st->isDoubleTy()) {
    const int64_t exact = st->isFloatTy() ? int64_t{1} << 24 : int64_t{1} << 53;
    std::vector<llvm::Constant*> iota;
    for (int l = 0; l < W; ++l) iota.push_back(llvm::ConstantFP::get(st, static_cast<double>(l)));
    // Lane 0 converted to an integer u and back, plus the lane: equal to
    // every lane only when lane 0 is an exact integer (NaN and values out of
    // range fail; freeze keeps their conversion defined, and whatever value
    // it picks then fails the test) and the lanes step by exactly one.
    u = b.CreateFreeze(b.CreateFPToSI(first, b.getInt64Ty()));
    Value* steps = b.CreateFAdd(b.CreateVectorSplat(W, b.CreateSIToFP(u, st)), llvm::ConstantVector::get(iota));
    ok = all(b.CreateFCmpOEQ(v, steps));
    extent = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, extent, cg.i64(exact));
  } else if (st->isIntegerTy() && t->kind != TypeKind::Bool && t->is_signed()) {
    auto* it = llvm::cast<llvm::IntegerType>(st);
    std::vector<llvm::Constant*> iota;
    for (int l = 0; l < W; ++l) iota.push_back(llvm::ConstantInt::get(it, static_cast<uint64_t>(l)));
    Value* steps = b.CreateAdd(b.CreateVectorSplat(W, first), llvm::ConstantVector::get(iota));
    ok = all(b.CreateICmpEQ(v, steps));
    llvm::APInt top = llvm::APInt::getSignedMaxValue(it->getBitWidth()) - static_cast<uint64_t>(W);
    ok = b.CreateAnd(ok, b.CreateICmpSLE(first, llvm::ConstantInt::get(b.getContext(), top)));
    u = b.CreateSExt(first, b.getInt64Ty());
  } else {
    return std::nullopt;
  }
  // 0 <= u <= extent - W as one unsigned test against a limit that is 0
  // (always failing) when the extent is below W.
  Value* lim = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, b.CreateSub(extent, cg.i64(W - 1)), cg.i64(0));
  ok = b.CreateAnd(ok, b.CreateICmpULT(u, lim));
  return std::make_pair(u, ok);
}

// Float counters (lang/analysis.hpp): a shadow slot of type long beside the
// float local, written wherever the counter is, under the same mask.
void Gen::init_shadow(const ast::VarDecl& v) {
  const analysis::FloatCounter* c = counters ? counters->find(&v) : nullptr;
  if (!c) return;
  auto it = slots.find(c->shadow.get());
  Slot& s = it != slots.end() ? it->second : make_slot(c->shadow.get(), counters->shadow_type(), false);
  store_comp(s, 0, cg.i64(analysis::FloatCounters::initial(v)));
}

void Gen::write_shadow(const ast::Expr& e) {
  auto w = counters ? counters->write(e) : std::nullopt;
  if (!w) return;
  const ast::Decl* key = w->first->shadow.get();
  auto it = slots.find(key);
  // No slot: the counter was declared in an inlined callee or not yet
  // (never for a kernel's own local); then its gathers use the float.
  if (it == slots.end()) return;
  Slot& s = it->second;
  Value* v = cg.i64(w->second.value);
  if (!w->second.reset) {
    Value* cur = load_comp(s, 0);
    unify(cur, v);
    // Stepping by one, the shadow would need 2^63 steps (centuries) to
    // overflow, so the add is nsw: LLVM then knows a counter from 0 up is
    // never negative and drops the gathers' lower clamp, as for an int loop.
    const int64_t step = w->second.value;
    v = step == 1 || step == -1 ? b.CreateNSWAdd(cur, v) : b.CreateAdd(cur, v);
  }
  store_comp(s, 0, v);
}

Value* Gen::counter_index(const ast::Expr& e, int comp) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const analysis::FloatCounter* c = comp == 0 ? counters->find(e.as<ast::NameExpr>()->decl) : nullptr;
      if (!c) return nullptr;
      auto it = slots.find(c->shadow.get());
      return it == slots.end() ? nullptr : load_comp(it->second, 0);
    }
    case ast::ExprKind::Construct:
    case ast::ExprKind::Swizzle: {
      auto part = analysis::component_part(e, comp);
      return part ? counter_index(*part->first, part->second) : nullptr;
    }
    default: return nullptr;
  }
}

// A kernel called from a kernel is inlined: its parameters are slots filled
// from the arguments (out parameters copied in and back out), its returns
// take lanes out of the call's mask only, and its result is a slot.
SV Gen::kernel_call(const ast::CallExpr& e) {
  if (!e.func) outside("call");
  const ast::FuncDecl& callee = e.func->defined();
  if (!callee.body || calls.size() >= 8 || std::find(calls.begin(), calls.end(), &callee) != calls.end() ||
      callee.params.size() != e.args.size())
    outside("call");
  // Every argument is evaluated before any parameter is bound: an argument
  // may itself call this kernel (f(1, f(2, 3))), which binds the same slots,
  // gathers and indexof entries.
  struct Bound {
    SV value;
    Place out;
    std::optional<SV> indexof_of;
    Arg* gather = nullptr;
  };
  std::vector<Bound> bound(callee.params.size());
  for (size_t i = 0; i < callee.params.size(); ++i) {
    const ast::ParamDecl* p = callee.params[i].get();
    const ast::Expr& a = *e.args[i];
    const auto* name = a.as<ast::NameExpr>();
    if (name) {
      if (auto it = indexof_.find(name->decl); it != indexof_.end()) bound[i].indexof_of = it->second;
    }
    if (p->pkind == ast::ParamKind::Gather) {
      auto it = name ? gathers.find(name->decl) : gathers.end();
      if (it == gathers.end()) outside("gather argument");
      bound[i].gather = it->second;
    } else if (p->pkind == ast::ParamKind::Out) {
      bound[i].out = place(a);
      bound[i].value = load_place(bound[i].out);
    } else {
      bound[i].value = conv(rvalue(a), p->type);
    }
  }
  std::vector<std::pair<Place, Slot*>> copy_out;
  for (size_t i = 0; i < callee.params.size(); ++i) {
    const ast::ParamDecl* p = callee.params[i].get();
    indexof_.erase(p);
    if (bound[i].indexof_of) indexof_[p] = *bound[i].indexof_of;
    indexof_ids_.erase(p);  // a callee's positions go the float way
    if (p->pkind == ast::ParamKind::Gather) {
      gathers[p] = bound[i].gather;
      continue;
    }
    auto it = slots.find(p);
    Slot& slot = it != slots.end() ? it->second : make_slot(p, p->type, false);
    if (slot.array_len) outside("array parameter");
    if (p->pkind == ast::ParamKind::Out) {
      slot.read_by_all = true;
      copy_out.push_back({bound[i].out, &slot});
    }
    const SV& v = bound[i].value;
    for (size_t k = 0; k < v.c.size(); ++k) store_comp(slot, static_cast<int>(k), v.c[k]);
  }
  Slot* result = nullptr;
  if (callee.return_type && !callee.return_type->is_void()) {
    auto it = slots.find(&callee);
    result = it != slots.end() ? &it->second : &make_slot(&callee, callee.return_type, false);
    result->read_by_all = true;
  }
  Value* entry = cur();
  Value* saved_ret = ret_slot;
  Slot* saved_value = ret_value;
  const bool saved_after = after_return;
  std::vector<LoopCtx> saved_loops = std::move(loops);
  loops.clear();
  ret_slot = entry_alloca(entry->getType());
  b.CreateStore(no_lanes(), ret_slot);
  ret_value = result;
  after_return = false;
  calls.push_back(&callee);
  stmt(*callee.body);
  calls.pop_back();
  if (b.GetInsertBlock()->getTerminator()) b.SetInsertPoint(block("dead"));
  set_cur(entry);  // the lanes that returned from the callee go on
  ret_slot = saved_ret;
  ret_value = saved_value;
  after_return = saved_after;
  loops = std::move(saved_loops);
  for (auto& [pl, slot] : copy_out) {
    SV v{{}, slot->t};
    for (size_t k = 0; k < slot->ptr.size(); ++k) v.c.push_back(load_comp(*slot, static_cast<int>(k)));
    store_place(pl, v);
  }
  if (!result) return {{}, e.type};
  SV out{{}, result->t};
  for (size_t k = 0; k < result->ptr.size(); ++k) out.c.push_back(load_comp(*result, static_cast<int>(k)));
  return out;
}

SV Gen::builtin(const ast::CallExpr& e) {
  const Builtin id = static_cast<Builtin>(e.builtin);
  const auto& info = stdlib::builtin_info(id);
  if (id == Builtin::printf) outside("printf");
  if (id == Builtin::push) outside("push");
  if (id == Builtin::pack_4ubyte || id == Builtin::unpack_4ubyte)
    outside("pack_4ubyte / unpack_4ubyte");
  if (id == Builtin::instance) {
    SV out{{}, e.type};
    const int D = static_cast<int>(pos.size());
    for (int d = 0; d < 4; ++d) {
      // Plus the first output's view offset (§5), the same for every lane.
      Value* off = b.CreateAlignedLoad(b.getInt32Ty(), cg.byte_gep(launch_ptr, kLaunchInstanceOffset + 4 * d), llvm::Align(4));
      int src = D - 1 - d;
      if (src < 0) out.c.push_back(off);
      else if (src == D - 1) out.c.push_back(b.CreateAdd(b.CreateTrunc(lanes, lane_type(b.getInt32Ty())), b.CreateVectorSplat(W, off)));
      else out.c.push_back(b.CreateAdd(b.CreateTrunc(pos[static_cast<size_t>(src)], b.getInt32Ty()), off));
    }
    return out;
  }
  std::vector<SV> args;
  for (const auto& a : e.args) args.push_back(rvalue(*a));
  if (args.empty()) outside("builtin");
  for (const SV& a : args) check_type(a.t);
  check_type(e.type);
  if (const stdlib::Recipe* r = stdlib::recipe_of(id)) {
    // A composed builtin: its recipe on the components, uniform ones kept
    // scalar until they meet a gang of lanes.
    const Type* as = args[0].t->scalar_of();
    for (const SV& a : args)
      if (a.t->is_vector()) as = a.t->scalar_of();
    std::vector<std::vector<Value*>> xs;
    for (const SV& a : args) {
      xs.emplace_back();
      for (Value* x : a.c)
        xs.back().push_back(a.t->is_vector() || as == a.t ? x : conv(x, a.t, as));
    }
    auto same_shape = [&](llvm::MutableArrayRef<Value*> vs) {
      if (std::any_of(vs.begin(), vs.end(), [](Value* v) { return is_lane(v); }))
        for (Value*& v : vs) v = widen(v);
    };
    std::vector<Value*> out = cg.recipe(*r, xs, as, e.type->scalar_of(), same_shape);
    out.resize(e.type->width(), out[0]);  // a single value fills every component
    return {out, e.type};
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
      const Type* at = args[0].t;
      for (const SV& a : args)
        if (a.t->is_vector()) at = a.t;
      const Type* as = at->scalar_of();
      SV out{{}, e.type};
      for (uint32_t i = 0; i < e.type->width(); ++i) {
        std::vector<Value*> xs;
        bool lane = false;
        for (const SV& a : args) {
          Value* x = a.t->is_vector() ? a.c[i] : (as != a.t ? conv(a.c[0], a.t, as) : a.c[0]);
          lane = lane || is_lane(x);
          xs.push_back(x);
        }
        if (lane)
          for (Value*& x : xs) x = widen(x);
        out.c.push_back(cg.component_builtin(id, xs, e.type->scalar_of(), as));
      }
      return out;
    }
    default: break;
  }
  outside("builtin");
}

}  // namespace brook::jit::spmd
