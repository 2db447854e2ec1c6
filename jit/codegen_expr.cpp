// Expressions: every node kind of the typed kernel AST (lang/ast.hpp).
#include <functional>

#include <llvm/IR/Intrinsics.h>

#include "jit/abi.hpp"
#include "jit/codegen_impl.hpp"
#include "lang/kernel_walk.hpp"

namespace brook::jit {

using llvm::Value;
using ast::BinaryOp;

namespace {
bool is_aggregate(const Type* t) { return t->is_struct() || t->is_array(); }
}  // namespace

Value* Codegen::to_bool(const RV& v) {
  if (v.t->kind == TypeKind::Bool) return v.v;
  if (v.t->is_floating()) return b.CreateFCmpUNE(v.v, llvm::ConstantFP::get(v.v->getType(), 0.0));
  if (v.t->is_pointer()) return b.CreateIsNotNull(v.v);
  if (v.t->is_integer()) return b.CreateICmpNE(v.v, llvm::ConstantInt::get(v.v->getType(), 0));
  unsupported({}, "a condition of type '" + v.t->name() + "'");
}

Value* Codegen::convert(Value* v, const Type* from, const Type* to) {
  if (from == to) return v;
  const Type* fs = from->scalar_of();
  const Type* ts = to->scalar_of();
  llvm::Type* target = reg_type(to);
  if (from->is_vector() != to->is_vector()) {
    // Scalar to vector: convert then splat.
    if (!from->is_vector()) {
      Value* s = convert(v, fs, ts);
      return b.CreateVectorSplat(to->count, s);
    }
    unsupported({}, "converting '" + from->name() + "' to '" + to->name() + "'");
  }
  return convert_component(b, v, fs, ts, target);
}

Value* convert_component(llvm::IRBuilder<>& b, Value* v, const Type* fs, const Type* ts, llvm::Type* target) {
  if (ts->kind == TypeKind::Bool) {
    if (fs->is_floating()) return b.CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
    return b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
  }
  if (fs->is_floating() && ts->is_floating()) return b.CreateFPCast(v, target);
  if (fs->is_floating()) {
    Value* r = ts->is_signed() ? b.CreateFPToSI(v, target) : b.CreateFPToUI(v, target);
    return b.CreateFreeze(r);  // out-of-range conversions: some value, never poison
  }
  bool src_signed = fs->kind != TypeKind::Bool && fs->is_signed();
  if (ts->is_floating()) return src_signed ? b.CreateSIToFP(v, target) : b.CreateUIToFP(v, target);
  return b.CreateIntCast(v, target, src_signed);
}

RV Codegen::rvalue(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::IntLit:
      return {llvm::ConstantInt::get(scalar_reg(e.type), e.as<ast::IntLit>()->value), e.type};
    case K::FloatLit:
      return {llvm::ConstantFP::get(scalar_reg(e.type), e.as<ast::FloatLit>()->value), e.type};
    case K::BoolLit: return {b.getInt1(e.as<ast::BoolLit>()->value), e.type};
    case K::StringLit: return {string_constant(e.as<ast::StringLit>()->value), e.type};
    case K::Name: {
      const auto* n = e.as<ast::NameExpr>();
      if (const auto* c = n->decl ? n->decl->as<ast::EnumConstDecl>() : nullptr)
        return {llvm::ConstantInt::get(scalar_reg(e.type), static_cast<uint64_t>(c->value), true), e.type};
      return load_lv(lvalue(e));
    }
    case K::Unary: {
      const auto* u = e.as<ast::UnaryExpr>();
      switch (u->op) {
        case ast::UnaryOp::Plus: return rvalue(*u->operand);
        case ast::UnaryOp::Neg: {
          RV x = rvalue(*u->operand);
          if (x.t->scalar_of()->is_floating()) return {b.CreateFNeg(x.v), x.t};
          return {b.CreateNeg(x.v), x.t};
        }
        case ast::UnaryOp::BitNot: {
          RV x = rvalue(*u->operand);
          return {b.CreateNot(x.v), x.t};
        }
        case ast::UnaryOp::Not: {
          RV x = rvalue(*u->operand);
          Value* z;
          if (x.t->kind == TypeKind::Bool) z = b.CreateNot(x.v);
          else if (x.t->scalar_of()->is_floating())
            z = b.CreateFCmpOEQ(x.v, llvm::Constant::getNullValue(x.v->getType()));
          else z = b.CreateICmpEQ(x.v, llvm::Constant::getNullValue(x.v->getType()));
          return {b.CreateZExt(z, reg_type(e.type)), e.type};
        }
        case ast::UnaryOp::PreInc:
        case ast::UnaryOp::PreDec:
        case ast::UnaryOp::PostInc:
        case ast::UnaryOp::PostDec: return incdec(*u);
        default: unsupported(e.loc, "pointers in kernels");
      }
    }
    case K::Binary: {
      const auto* bin = e.as<ast::BinaryExpr>();
      if (bin->op == BinaryOp::LogAnd || bin->op == BinaryOp::LogOr) return logical(*bin);
      RV l = rvalue(*bin->lhs);
      RV r = rvalue(*bin->rhs);
      return {binary(bin->op, l.v, r.v, l.t, r.t), e.type};
    }
    case K::Assign: return assign(*e.as<ast::AssignExpr>());
    case K::Conditional: return cond_expr(*e.as<ast::ConditionalExpr>());
    case K::Comma: {
      const auto* c = e.as<ast::CommaExpr>();
      rvalue(*c->lhs);
      return rvalue(*c->rhs);
    }
    case K::Call: return call(*e.as<ast::CallExpr>());
    case K::Construct: return construct(*e.as<ast::ConstructExpr>());
    case K::Cast: return cast(*e.as<ast::CastExpr>());
    case K::Index:
    case K::Member: return load_lv(lvalue(e));
    case K::Gather: return gather(*e.as<ast::GatherExpr>());
    case K::Swizzle: return swizzle(*e.as<ast::SwizzleExpr>());
    case K::Sizeof:
      return {llvm::ConstantInt::get(scalar_reg(e.type), e.as<ast::SizeofExpr>()->value), e.type};
    case K::Indexof: return indexof(*e.as<ast::IndexofExpr>());
    case K::InitList: unsupported(e.loc, "an initialiser list outside a declaration");
    case K::Domain: unsupported(e.loc, "'domain' inside a kernel");
    case K::IterInit: unsupported(e.loc, "'iter' inside a kernel");
    case K::CompoundLit:
      unsupported(e.loc, "a compound literal inside a kernel");  // sema rejects it
    case K::StmtExpr:
      unsupported(e.loc, "a statement expression inside a kernel");  // sema rejects it
  }
  unsupported(e.loc, "this expression");
}

// ---------------------------------------------------------------------------
// Lvalues

LV Codegen::lvalue(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const auto* n = e.as<ast::NameExpr>();
      auto it = fn->ptrs.find(n->decl);
      if (it == fn->ptrs.end()) {
        unsupported(e.loc, "using '" + n->name + "' here (host variables are not visible in kernels)");
      }
      return {it->second, e.type};
    }
    case ast::ExprKind::Index: {
      const auto* ix = e.as<ast::IndexExpr>();
      LV base = lvalue(*ix->base);
      if (!base.t->is_array() || base.count) unsupported(e.loc, "indexing a pointer in a kernel");
      RV i = rvalue(*ix->index);
      Value* idx = convert(i.v, i.t, base.t->elem->kind == TypeKind::Long ? i.t : i.t);
      idx = b.CreateSExtOrTrunc(idx, b.getInt64Ty());
      // Out-of-range local array indices clamp so a kernel never faults.
      int64_t n = base.t->count ? base.t->count : 1;
      idx = b.CreateSelect(b.CreateICmpSLT(idx, i64(0)), i64(0), idx);
      idx = b.CreateSelect(b.CreateICmpSGT(idx, i64(n - 1)), i64(n - 1), idx);
      Value* off = b.CreateMul(idx, i64(static_cast<int64_t>(base.t->elem->size)));
      return {byte_gep(base.ptr, off), e.type};
    }
    case ast::ExprKind::Member: {
      const auto* m = e.as<ast::MemberExpr>();
      if (m->arrow) unsupported(e.loc, "'->' in a kernel");
      Value* base;
      const Type* bt;
      if (m->base->is_lvalue) {
        LV l = lvalue(*m->base);
        base = l.ptr;
        bt = l.t;
      } else {
        RV r = rvalue(*m->base);
        base = r.v;
        bt = r.t;
      }
      if (!bt->is_struct() || !bt->decl || m->field_index < 0) unsupported(e.loc, "this member access");
      const auto& field = bt->decl->fields[static_cast<size_t>(m->field_index)];
      return {byte_gep(base, static_cast<int64_t>(field.offset)), e.type};
    }
    case ast::ExprKind::Gather:
      return {gather_ptr(*e.as<ast::GatherExpr>()), e.type};
    case ast::ExprKind::Swizzle: {
      const auto* s = e.as<ast::SwizzleExpr>();
      LV base = lvalue(*s->base);
      LV out;
      out.ptr = base.ptr;
      out.t = e.type;
      out.vec = base.count ? base.vec : base.t;
      out.count = s->count;
      for (int i = 0; i < s->count; ++i) out.comps[i] = base.count ? base.comps[s->comps[i]] : s->comps[i];
      return out;
    }
    default: break;
  }
  // An rvalue used as a place (e.g. the base of a member access): a temporary.
  RV v = rvalue(e);
  Value* tmp = alloca_of(e.type);
  store(tmp, v);
  return {tmp, e.type};
}

RV Codegen::load_lv(const LV& lv) {
  if (!lv.count) return {load(lv.ptr, lv.t), lv.t};
  Value* whole = load(lv.ptr, lv.vec);
  if (lv.count == 1) return {b.CreateExtractElement(whole, lv.comps[0]), lv.t};
  std::vector<int> mask(lv.comps.begin(), lv.comps.begin() + lv.count);
  return {b.CreateShuffleVector(whole, mask), lv.t};
}

void Codegen::store_lv(const LV& lv, const RV& v) {
  if (!lv.count) {
    store(lv.ptr, v);
    return;
  }
  Value* whole = load(lv.ptr, lv.vec);
  for (int i = 0; i < lv.count; ++i) {
    Value* c = lv.count == 1 && !v.t->is_vector() ? v.v : b.CreateExtractElement(v.v, i);
    whole = b.CreateInsertElement(whole, c, lv.comps[i]);
  }
  store(lv.ptr, {whole, lv.vec});
}

// ---------------------------------------------------------------------------
// Operators

Value* Codegen::binary(BinaryOp op, Value* l, Value* r, const Type* t, const Type* rt) {
  const Type* s = t->scalar_of();
  bool fp = s->is_floating();
  bool sign = s->kind != TypeKind::Bool && s->is_signed();
  llvm::Type* ty = l->getType();
  auto cmp = [&](llvm::CmpInst::Predicate fpp, llvm::CmpInst::Predicate sp,
                 llvm::CmpInst::Predicate up) {
    Value* c = fp ? b.CreateFCmp(fpp, l, r) : b.CreateICmp(sign ? sp : up, l, r);
    // The result has the operands' shape: a Brook vector, or a gang of lanes
    // when the SPMD generator (jit/spmd.cpp) passes per-lane vectors.
    llvm::Type* it = b.getInt32Ty();
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(ty)) it = llvm::FixedVectorType::get(it, vt->getNumElements());
    return b.CreateZExt(c, it);
  };
  using P = llvm::CmpInst::Predicate;
  switch (op) {
    case BinaryOp::Add: return fp ? b.CreateFAdd(l, r) : b.CreateAdd(l, r);
    case BinaryOp::Sub: return fp ? b.CreateFSub(l, r) : b.CreateSub(l, r);
    case BinaryOp::Mul: return fp ? b.CreateFMul(l, r) : b.CreateMul(l, r);
    case BinaryOp::Div:
    case BinaryOp::Mod: {
      if (fp) return op == BinaryOp::Div ? b.CreateFDiv(l, r) : b.CreateFRem(l, r);
      // Kernels: x / 0 and x % 0 are 0; INT_MIN / -1 wraps (never a trap).
      Value* zero = llvm::Constant::getNullValue(ty);
      Value* is_zero = b.CreateICmpEQ(r, zero);
      Value* is_m1 = sign ? b.CreateICmpEQ(r, llvm::Constant::getAllOnesValue(ty)) : nullptr;
      Value* bad = is_m1 ? b.CreateOr(is_zero, is_m1) : is_zero;
      Value* safe = b.CreateSelect(bad, llvm::ConstantInt::get(ty, 1), r);
      Value* q = op == BinaryOp::Div ? (sign ? b.CreateSDiv(l, safe) : b.CreateUDiv(l, safe))
                                     : (sign ? b.CreateSRem(l, safe) : b.CreateURem(l, safe));
      if (is_m1) q = b.CreateSelect(is_m1, op == BinaryOp::Div ? b.CreateNeg(l) : zero, q);
      return b.CreateSelect(is_zero, zero, q);
    }
    case BinaryOp::Shl:
    case BinaryOp::Shr: {
      // The count is taken modulo the width, as x86 does, instead of poison.
      Value* n = r->getType() == ty ? r
                 : rt->is_vector() == t->is_vector()
                     ? b.CreateIntCast(r, ty, rt->scalar_of()->kind != TypeKind::Bool && rt->scalar_of()->is_signed())
                     : convert(r, rt, t);
      unsigned bits = ty->getScalarSizeInBits();
      n = b.CreateAnd(n, llvm::ConstantInt::get(ty, bits - 1));
      if (op == BinaryOp::Shl) return b.CreateShl(l, n);
      return sign ? b.CreateAShr(l, n) : b.CreateLShr(l, n);
    }
    case BinaryOp::Lt: return cmp(P::FCMP_OLT, P::ICMP_SLT, P::ICMP_ULT);
    case BinaryOp::Gt: return cmp(P::FCMP_OGT, P::ICMP_SGT, P::ICMP_UGT);
    case BinaryOp::Le: return cmp(P::FCMP_OLE, P::ICMP_SLE, P::ICMP_ULE);
    case BinaryOp::Ge: return cmp(P::FCMP_OGE, P::ICMP_SGE, P::ICMP_UGE);
    case BinaryOp::Eq: return cmp(P::FCMP_OEQ, P::ICMP_EQ, P::ICMP_EQ);
    case BinaryOp::Ne: return cmp(P::FCMP_UNE, P::ICMP_NE, P::ICMP_NE);
    case BinaryOp::BitAnd: return b.CreateAnd(l, r);
    case BinaryOp::BitXor: return b.CreateXor(l, r);
    case BinaryOp::BitOr: return b.CreateOr(l, r);
    case BinaryOp::LogAnd:
    case BinaryOp::LogOr: break;
  }
  unsupported({}, "this operator");
}

RV Codegen::logical(const ast::BinaryExpr& e) {
  bool is_and = e.op == BinaryOp::LogAnd;
  Value* l = to_bool(rvalue(*e.lhs));
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* rhs_bb = llvm::BasicBlock::Create(ctx, is_and ? "and.rhs" : "or.rhs", fn->fn);
  llvm::BasicBlock* end = llvm::BasicBlock::Create(ctx, "logic.end", fn->fn);
  if (is_and) b.CreateCondBr(l, rhs_bb, end);
  else b.CreateCondBr(l, end, rhs_bb);
  b.SetInsertPoint(rhs_bb);
  Value* r = to_bool(rvalue(*e.rhs));
  llvm::BasicBlock* rhs_end = b.GetInsertBlock();
  b.CreateBr(end);
  b.SetInsertPoint(end);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), 2);
  phi->addIncoming(b.getInt1(!is_and), from);
  phi->addIncoming(r, rhs_end);
  return {b.CreateZExt(phi, reg_type(e.type)), e.type};
}

RV Codegen::cond_expr(const ast::ConditionalExpr& e) {
  if (e.cond->type->is_vector()) {
    // Per component (LANGUAGE.md §12): both arms evaluated, then a select.
    RV c = rvalue(*e.cond);
    RV t = rvalue(*e.then_expr);
    RV f = rvalue(*e.else_expr);
    Value* zero = llvm::Constant::getNullValue(c.v->getType());
    Value* mask = c.t->elem->is_floating() ? b.CreateFCmpUNE(c.v, zero) : b.CreateICmpNE(c.v, zero);
    return {b.CreateSelect(mask, t.v, f.v), e.type};
  }
  Value* c = to_bool(rvalue(*e.cond));
  auto* then_bb = llvm::BasicBlock::Create(ctx, "cond.then", fn->fn);
  auto* else_bb = llvm::BasicBlock::Create(ctx, "cond.else", fn->fn);
  auto* end = llvm::BasicBlock::Create(ctx, "cond.end", fn->fn);
  b.CreateCondBr(c, then_bb, else_bb);
  b.SetInsertPoint(then_bb);
  RV t = rvalue(*e.then_expr);
  auto* then_end = b.GetInsertBlock();
  b.CreateBr(end);
  b.SetInsertPoint(else_bb);
  RV f = rvalue(*e.else_expr);
  auto* else_end = b.GetInsertBlock();
  b.CreateBr(end);
  b.SetInsertPoint(end);
  if (e.type->is_void()) return {nullptr, e.type};
  llvm::PHINode* phi = b.CreatePHI(t.v->getType(), 2);
  phi->addIncoming(t.v, then_end);
  phi->addIncoming(f.v, else_end);
  if (is_aggregate(e.type)) {
    // Both arms may be temporaries: copy so the result outlives neither.
    Value* tmp = alloca_of(e.type);
    copy(tmp, phi, e.type);
    return {tmp, e.type};
  }
  return {phi, e.type};
}

RV Codegen::assign(const ast::AssignExpr& e) {
  LV l = lvalue(*e.lhs);
  RV r = rvalue(*e.rhs);
  if (!e.op) {
    if (is_aggregate(l.t)) {
      // Copy through a temporary: `a = a` style overlap and aliasing stay C-like.
      Value* tmp = alloca_of(l.t);
      copy(tmp, r.v, l.t);
      copy(l.ptr, tmp, l.t);
      return {l.ptr, l.t};
    }
    store_lv(l, r);
    write_shadow(e);
    return {r.v, l.t};
  }
  const Type* op_t = e.op_type ? e.op_type : l.t;
  RV cur = load_lv(l);
  Value* lhs = convert(cur.v, l.t, op_t);
  Value* res = binary(*e.op, lhs, r.v, op_t, r.t);
  const Type* res_t = op_t;
  if (*e.op >= BinaryOp::Lt && *e.op <= BinaryOp::Ne) unsupported(e.loc, "this compound assignment");
  Value* back = convert(res, res_t, l.t);
  store_lv(l, {back, l.t});
  write_shadow(e);
  return {back, l.t};
}

RV Codegen::incdec(const ast::UnaryExpr& u) {
  LV l = lvalue(*u.operand);
  RV cur = load_lv(l);
  bool inc = u.op == ast::UnaryOp::PreInc || u.op == ast::UnaryOp::PostInc;
  bool post = u.op == ast::UnaryOp::PostInc || u.op == ast::UnaryOp::PostDec;
  Value* next;
  if (l.t->kind == TypeKind::Bool) {
    next = inc ? b.getInt1(true) : b.CreateNot(cur.v);
  } else {
    Value* one = const_of(l.t, 1.0, 1);
    if (l.t->scalar_of()->is_floating()) next = inc ? b.CreateFAdd(cur.v, one) : b.CreateFSub(cur.v, one);
    else next = inc ? b.CreateAdd(cur.v, one) : b.CreateSub(cur.v, one);
  }
  store_lv(l, {next, l.t});
  write_shadow(u);
  return {post ? cur.v : next, l.t};
}

// Float counters (lang/analysis.hpp): a long beside the float local, written
// wherever it is; a gather component that is the counter indexes by it.
void Codegen::write_shadow(const ast::Expr& e) {
  auto w = fn && fn->counters ? fn->counters->write(e) : std::nullopt;
  if (!w) return;
  auto it = fn->ptrs.find(w->first->shadow.get());
  if (it == fn->ptrs.end()) return;
  Value* v = i64(w->second.value);
  if (!w->second.reset) v = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), it->second), v);
  b.CreateStore(v, it->second);
}

Value* Codegen::counter_index(const ast::Expr& e, int comp) {
  switch (e.kind) {
    case ast::ExprKind::Name: {
      const analysis::FloatCounter* c =
          comp == 0 && fn->counters ? fn->counters->find(e.as<ast::NameExpr>()->decl) : nullptr;
      auto it = c ? fn->ptrs.find(c->shadow.get()) : fn->ptrs.end();
      return it == fn->ptrs.end() ? nullptr : b.CreateLoad(b.getInt64Ty(), it->second);
    }
    case ast::ExprKind::Construct:
    case ast::ExprKind::Swizzle: {
      auto part = analysis::component_part(e, comp);
      return part ? counter_index(*part->first, part->second) : nullptr;
    }
    default: return nullptr;
  }
}

RV Codegen::construct(const ast::ConstructExpr& e) {
  const Type* t = e.type;
  if (!t->is_vector()) {
    if (e.args.size() != 1) unsupported(e.loc, "this constructor");
    RV a = rvalue(*e.args[0]);
    return {convert(a.v, a.t, t), t};
  }
  if (e.args.size() == 1 && !e.args[0]->type->is_vector()) {
    RV a = rvalue(*e.args[0]);
    return {b.CreateVectorSplat(t->count, convert(a.v, a.t, t->elem)), t};
  }
  Value* v = llvm::PoisonValue::get(reg_type(t));
  unsigned k = 0;
  for (const auto& arg : e.args) {
    RV a = rvalue(*arg);
    if (a.t->is_vector()) {
      for (unsigned i = 0; i < a.t->count && k < t->count; ++i)
        v = b.CreateInsertElement(v, convert(b.CreateExtractElement(a.v, i), a.t->elem, t->elem), k++);
    } else if (k < t->count) {
      v = b.CreateInsertElement(v, convert(a.v, a.t, t->elem), k++);
    }
  }
  while (k < t->count) v = b.CreateInsertElement(v, const_of(t->elem, 0, 0), k++);
  return {v, t};
}

RV Codegen::cast(const ast::CastExpr& e) {
  switch (e.cast) {
    case ast::CastKind::Convert: {
      RV a = rvalue(*e.operand);
      return {convert(a.v, a.t, e.type), e.type};
    }
    case ast::CastKind::Broadcast: {
      RV a = rvalue(*e.operand);
      Value* s = convert(a.v, a.t, e.type->elem);
      return {b.CreateVectorSplat(e.type->count, s), e.type};
    }
    case ast::CastKind::ToBool: return {to_bool(rvalue(*e.operand)), e.type};
    case ast::CastKind::ToVoid: rvalue(*e.operand); return {nullptr, e.type};
    case ast::CastKind::ArrayDecay: {
      if (const auto* s = e.operand->as<ast::StringLit>()) return {string_constant(s->value), e.type};
      LV l = lvalue(*e.operand);
      return {l.ptr, e.type};
    }
    case ast::CastKind::PointerCast: return {rvalue(*e.operand).v, e.type};
  }
  unsupported(e.loc, "this conversion");
}

RV Codegen::swizzle(const ast::SwizzleExpr& e) {
  RV base = rvalue(*e.base);
  if (!base.t->is_vector()) {
    // A swizzle of a scalar (x.xxx): broadcast.
    if (e.count == 1) return base;
    return {b.CreateVectorSplat(e.count, base.v), e.type};
  }
  if (e.count == 1) return {b.CreateExtractElement(base.v, e.comps[0]), e.type};
  std::vector<int> mask(e.comps.begin(), e.comps.begin() + e.count);
  return {b.CreateShuffleVector(base.v, mask), e.type};
}

// g[i], g[i][j], g[v]: indices clamp to the array's extents (§5); a float
// index selects floor(f + 0.25).
RV Codegen::gather(const ast::GatherExpr& e) {
  const Type* elem = e.type;
  Value* ptr = gather_ptr(e);
  if (is_aggregate(elem)) {
    Value* tmp = alloca_of(elem);
    copy(tmp, ptr, elem);
    return {tmp, elem};
  }
  return {load(ptr, elem), elem};
}

// The address of g[i] after index conversion and clamping; a scatter
// output's `a[i] = v` (§12) stores through it.
Value* Codegen::gather_ptr(const ast::GatherExpr& e) {
  const auto* n = e.param->as<ast::NameExpr>();
  auto it = n ? fn->ptrs.find(n->decl) : fn->ptrs.end();
  if (it == fn->ptrs.end()) unsupported(e.loc, "this gather");
  Value* rt = it->second;
  const Type* elem = e.type;
  // Index components, row first: list[k-1] is the column.
  std::vector<std::pair<Value*, const Type*>> list;
  const bool by_counter = fn->counters && !fn->counters->empty() && counter_exact.count(n->decl);
  auto add = [&](Value* v, const Type* t, const ast::Expr& ix, int comp) {
    if (Value* s = by_counter ? counter_index(ix, comp) : nullptr) list.push_back({s, fn->counters->shadow_type()});
    else list.push_back({v, t});
  };
  if (e.indices.size() == 1 && e.indices[0]->type->is_vector()) {
    RV v = rvalue(*e.indices[0]);
    const Type* s = v.t->elem;
    for (uint32_t c = ast::gather_vector_components(e); c-- > 0;) {
      Value* comp = b.CreateExtractElement(v.v, uint64_t{c});
      if (c < 2)
        add(comp, s, *e.indices[0], static_cast<int>(c));
      else
        list.push_back({comp, s});  // z and w: no counter analysis
    }
  } else {
    for (const auto& ix : e.indices) {
      RV v = rvalue(*ix);
      add(v.v, v.t, *ix, 0);
    }
  }
  // The array's rank is part of the compiled shape (gather_ranks).
  const int rank = gather_rank(n->decl);
  Value* index = i64(0);
  const int k = static_cast<int>(list.size());
  for (int d = 0; d < rank; ++d) {
    // Array dimension d pairs with index list[k - rank + d]; missing ones are 0.
    int j = k - rank + d;
    Value* id = i64(0);
    if (j >= 0) {
      auto [v, t] = list[static_cast<size_t>(j)];
      if (t->is_floating()) {
        Value* f = b.CreateFAdd(v, llvm::ConstantFP::get(v->getType(), 0.25));
        f = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, f);
        // Bring huge values and NaN into range first (they clamp anyway), so
        // the conversion is a plain, vectorisable fptosi.
        llvm::Constant* lim = llvm::ConstantFP::get(v->getType(), 1e15);
        llvm::Constant* neg = llvm::ConstantFP::get(v->getType(), -1.0);
        f = b.CreateSelect(b.CreateFCmpOGT(f, lim), lim, f);
        f = b.CreateSelect(b.CreateFCmpUGE(f, neg), f, neg);
        id = b.CreateFPToSI(f, b.getInt64Ty());
      } else {
        bool sign = t->kind != TypeKind::Bool && t->is_signed();
        id = b.CreateIntCast(v, b.getInt64Ty(), sign);
        // An unsigned long at or above 2^63 is a huge index, not a negative one.
        if (!sign && t->size == 8)
          id = b.CreateSelect(b.CreateICmpSLT(id, i64(0)), i64(INT64_MAX), id);
      }
    }
    Value* ext = load_i64(rt, kArgExtent + 8 * d);
    Value* hi = b.CreateSub(ext, i64(1));
    id = b.CreateSelect(b.CreateICmpSLT(id, i64(0)), i64(0), id);
    id = b.CreateSelect(b.CreateICmpSGT(id, hi), hi, id);
    Value* off = load_i64(rt, kArgOffset + 8 * d);
    Value* pos = b.CreateAdd(off, id);
    index = b.CreateAdd(index, d == rank - 1 ? pos : b.CreateMul(pos, load_i64(rt, kArgStride + 8 * d)));
  }
  Value* base = b.CreateLoad(b.getPtrTy(), byte_gep(rt, kArgBase));
  return byte_gep(base, b.CreateMul(index, i64(static_cast<int64_t>(elem->size))));
}

RV Codegen::indexof(const ast::IndexofExpr& e) {
  const auto* n = e.operand->as<ast::NameExpr>();
  auto it = n ? fn->idx.find(n->decl) : fn->idx.end();
  if (it == fn->idx.end()) unsupported(e.loc, "'indexof' of this operand");
  return {b.CreateLoad(reg_type(e.type), it->second), e.type};
}

void Codegen::init_memory(Value* ptr, const Type* t, const ast::Expr& init) {
  const auto* list = init.as<ast::InitListExpr>();
  if (!list) {
    RV v = rvalue(init);
    store(ptr, {v.v, t});
    return;
  }
  // Sema has checked the list against the type; leaves are converted. Walk
  // leaves in C order, eliding braces like C does.
  size_t next = 0;
  std::function<void(Value*, const Type*, const ast::InitListExpr&, size_t&)> fill;
  fill = [&](Value* p, const Type* ty, const ast::InitListExpr& l, size_t& k) {
    auto elem_at = [&](size_t i, const Type*& et) -> Value* {
      if (ty->is_vector() || ty->is_array()) {
        et = ty->elem;
        return byte_gep(p, static_cast<int64_t>(i * ty->elem->size));
      }
      const auto& f = ty->decl->fields[i];
      et = f.type;
      return byte_gep(p, static_cast<int64_t>(f.offset));
    };
    size_t count = ty->is_struct() ? ty->decl->fields.size() : ty->count;
    for (size_t i = 0; i < count && k < l.elems.size(); ++i) {
      const Type* et = nullptr;
      Value* ep = elem_at(i, et);
      const ast::Expr& x = *l.elems[k];
      if (const auto* sub = x.as<ast::InitListExpr>()) {
        size_t kk = 0;
        fill(ep, et, *sub, kk);
        ++k;
      } else if ((et->is_struct() || et->is_array() || et->is_vector()) && x.type != et) {
        fill(ep, et, l, k);  // brace elision
      } else {
        RV v = rvalue(x);
        store(ep, {convert(v.v, v.t, et), et});
        ++k;
      }
    }
  };
  if (!t->is_struct() && !t->is_array() && !t->is_vector()) {
    if (!list->elems.empty()) init_memory(ptr, t, *list->elems[0]);
    return;
  }
  fill(ptr, t, *list, next);
}

// ---------------------------------------------------------------------------
// Calls

RV Codegen::call(const ast::CallExpr& e) {
  switch (e.target) {
    case ast::CallTarget::Builtin: return builtin(e);
    case ast::CallTarget::Kernel: return kernel_call(e);
    default: unsupported(e.loc, "calling '" + e.callee + "' from a kernel");
  }
}

RV Codegen::kernel_call(const ast::CallExpr& e) {
  const ast::FuncDecl& callee = e.func->defined();
  // Gather arrays passed through keep the caller's rank.
  for (size_t i = 0; i < callee.params.size() && i < e.args.size(); ++i) {
    if (callee.params[i]->pkind != ast::ParamKind::Gather) continue;
    if (const auto* n = e.args[i]->as<ast::NameExpr>()) {
      gather_ranks.emplace(callee.params[i].get(), gather_rank(n->decl));
      if (counter_exact.count(n->decl)) counter_exact.insert(callee.params[i].get());
    }
  }
  llvm::Function* f = body(callee);
  Value* ret = llvm::ConstantPointerNull::get(b.getPtrTy());
  if (callee.return_type && !callee.return_type->is_void()) ret = alloca_of(callee.return_type);
  std::vector<Value*> args{fn->ctx, ret};
  auto zero_idx = [&] {
    llvm::IRBuilder<> entry(fn->alloca_block, fn->alloca_block->begin());
    auto* a = entry.CreateAlloca(llvm::FixedVectorType::get(b.getFloatTy(), 4));
    b.CreateStore(llvm::Constant::getNullValue(llvm::FixedVectorType::get(b.getFloatTy(), 4)), a);
    return a;
  };
  std::vector<std::pair<LV, Value*>> writebacks;
  for (size_t i = 0; i < callee.params.size() && i < e.args.size(); ++i) {
    const ast::ParamDecl& p = *callee.params[i];
    const ast::Expr& a = *e.args[i];
    // indexof in the callee follows the caller's stream when one is passed.
    Value* idx = nullptr;
    if (const auto* n = a.as<ast::NameExpr>()) {
      auto it = fn->idx.find(n->decl);
      if (it != fn->idx.end()) idx = it->second;
    }
    if (!idx) idx = zero_idx();
    Value* ptr;
    if (p.pkind == ast::ParamKind::Gather) {
      const auto* n = a.as<ast::NameExpr>();
      auto it = n ? fn->ptrs.find(n->decl) : fn->ptrs.end();
      if (it == fn->ptrs.end()) unsupported(a.loc, "this gather argument");
      ptr = it->second;
    } else if (p.pkind == ast::ParamKind::Out) {
      LV l = lvalue(a);
      if (l.count) {
        Value* tmp = alloca_of(p.type);
        store(tmp, load_lv(l));
        writebacks.push_back({l, tmp});
        ptr = tmp;
      } else {
        ptr = l.ptr;
      }
    } else {
      RV v = rvalue(a);
      Value* tmp = alloca_of(p.type);
      store(tmp, {v.v, p.type});
      ptr = tmp;
    }
    args.push_back(ptr);
    args.push_back(idx);
  }
  b.CreateCall(f, args);
  for (auto& [l, tmp] : writebacks) store_lv(l, {load(tmp, l.t), l.t});
  if (callee.return_type && !callee.return_type->is_void()) {
    return {load(ret, callee.return_type), callee.return_type};
  }
  return {nullptr, e.type};
}

}  // namespace brook::jit
