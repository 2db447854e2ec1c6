// The Compiler's expressions: each AST expression becomes the node for its
// types, with conversions, offsets and element sizes fixed here.
#include <cstring>

#include "interp/bitfield_nodes.hpp"
#include "interp/builders.hpp"
#include "interp/compiler.hpp"
#include "interp/function_pointers.hpp"
#include "interp/math_nodes.hpp"
#include "interp/setjmp_nodes.hpp"
#include "interp/stmt_nodes.hpp"
#include "stdlib/builtins.hpp"

namespace brook::interp {

using namespace ast;

namespace {

NodePtr const_of(const Type* t, uint64_t bits, double fp) {
  if (t->kind == TypeKind::Float) return make_const(put<float>(static_cast<float>(fp)));
  if (t->kind == TypeKind::Double) return make_const(put<double>(fp));
  return with_scalar(scalar_kind(t), [&]<class T>(Tag<T>) -> NodePtr {
    return make_const(put<T>(static_cast<T>(bits)));
  });
}

uint64_t pointee_size(const Type* p) {
  const Type* e = p->elem;
  return (e == nullptr || e->is_void() || e->size == 0) ? 1 : e->size;
}

bool is_aggregate(const Type* t) { return t->is_struct() || t->is_array(); }

bool yields_truth(const Expr& e) {
  if (auto* b = e.as<BinaryExpr>()) {
    switch (b->op) {
      case BinaryOp::Lt: case BinaryOp::Gt: case BinaryOp::Le: case BinaryOp::Ge:
      case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::LogAnd: case BinaryOp::LogOr:
        return !b->type->is_vector();
      default: return false;
    }
  }
  if (auto* u = e.as<UnaryExpr>()) return u->op == UnaryOp::Not && !u->type->is_vector();
  return false;
}

// Streams on the host are 8-byte handles read through raw() (as in a
// variable). A pointer to a stream holds the same handle (LANGUAGE.md §12):
// HandleLoad turns a stream into that pointer value, HandleBox a pointer (or
// a chosen handle) back into a stream.
struct HandleLoad : Node {
  NodePtr stream;
  Scalar eval(Machine& m) override { return from_u64(load_as<uint64_t>(stream->raw(m, false))); }
};
struct HandleBox : Node {
  NodePtr handle_value;
  uint64_t handle = 0;
  Scalar eval(Machine& m) override { return handle_value->eval(m); }
  uint8_t* raw(Machine& m, bool) override {
    handle = handle_value->eval(m).u;
    return reinterpret_cast<uint8_t*>(&handle);
  }
};
NodePtr handle_load(NodePtr stream) {
  auto n = std::make_unique<HandleLoad>();
  n->stream = std::move(stream);
  return n;
}
NodePtr handle_box(NodePtr value) {
  auto n = std::make_unique<HandleBox>();
  n->handle_value = std::move(value);
  return n;
}

}  // namespace

NodePtr Compiler::rvalue(const Type* t, NodePtr place) {
  if (t->is_scalar() || t->is_pointer()) {
    if (place->self_loading) return place;
    return make_load(t, std::move(place));
  }
  if (t->is_vector()) return make_vec_load(t, std::move(place));
  return place;
}

NodePtr Compiler::condition(const Expr& e) {
  if (yields_truth(e)) return value(e);
  return make_truth(scalar_kind(e.type), value(e));
}

NodePtr Compiler::convert(NodePtr n, const Type* from, const Type* to, SourceLoc loc) {
  if (from == to || !from || !to) return n;
  if (to->is_void()) return make_comma(std::move(n), from, make_const(put<int32_t>(0)));
  if (from->is_array() && to->is_pointer()) return make_addr_of(std::move(n));
  if (to->kind == TypeKind::Bool && (from->is_scalar() || from->is_pointer())) {
    return make_truth(scalar_kind(from), std::move(n));
  }
  if ((from->is_scalar() || from->is_pointer()) && (to->is_scalar() || to->is_pointer())) {
    return make_convert(scalar_kind(from), scalar_kind(to), std::move(n));
  }
  if (from->is_scalar() && to->is_vector()) {
    return make_broadcast(to->count, convert(std::move(n), from, to->elem, loc));
  }
  if (from->is_vector() && to->is_vector()) return make_vec_convert(from, to, std::move(n));
  return n;
}

NodePtr Compiler::string_literal(const StringLit& e) {
  auto it = literals_.find(&e);
  uint32_t id;
  if (it != literals_.end()) {
    id = it->second;
  } else {
    uint64_t size = std::max<uint64_t>(e.value.size() + 1, e.type ? e.type->size : 0);
    id = machine_.memory.allocate(size, ObjectKind::literal, e.loc);
    std::memcpy(machine_.memory.data(id), e.value.data(), e.value.size());
    literals_[&e] = id;
  }
  NodePtr n = make_object(machine_.memory, id);
  n->loc = e.loc;
  return n;
}

NodePtr Compiler::name_place(const NameExpr& e) {
  const Decl* d = e.decl;
  if (auto* v = d ? d->as<VarDecl>() : nullptr) {
    if (v->is_global || v->is_static || v->is_shared) {
      if (!current_ || !current_->locals.count(v)) {
        uint32_t id = global_object(v, e.loc);
        NodePtr n = (v->type->is_scalar() || v->type->is_pointer())
                        ? make_global_scalar(v->type, machine_.memory, id)
                        : make_object(machine_.memory, id);
        n->loc = e.loc;
        return n;
      }
    }
  }
  if (current_) {
    auto it = current_->locals.find(d);
    if (it != current_->locals.end()) {
      const Type* t = e.type;
      if (auto* v = d->as<VarDecl>()) t = v->type;
      if (auto* p = d->as<ParamDecl>()) t = p->type;
      NodePtr n = it->second.escaping ? make_escaping_local(it->second.offset)
                                      : make_local(t, it->second.offset);
      n->loc = e.loc;
      return n;
    }
  }
  return make_fail(e.loc, "'" + e.name + "' cannot be used here");
}

NodePtr Compiler::value(const Expr& e) {
  NodePtr n;
  switch (e.kind) {
    case ExprKind::IntLit: n = const_of(e.type, e.as<IntLit>()->value, 0); break;
    case ExprKind::FloatLit: {
      double v = e.as<FloatLit>()->value;
      // The integer half is only read for an integer-typed literal; a float
      // outside int64's range (1e100) must not be converted (UB; the host
      // libFuzzer target found it).
      const bool fits = v >= -9223372036854775808.0 && v < 9223372036854775808.0;
      n = const_of(e.type, fits ? static_cast<uint64_t>(static_cast<int64_t>(v)) : 0, v);
      break;
    }
    case ExprKind::BoolLit: n = const_of(e.type, e.as<BoolLit>()->value ? 1 : 0, e.as<BoolLit>()->value ? 1 : 0); break;
    case ExprKind::StringLit: n = string_literal(*e.as<StringLit>()); break;
    case ExprKind::Name: {
      auto* ne = e.as<NameExpr>();
      if (auto* ec = ne->decl ? ne->decl->as<EnumConstDecl>() : nullptr) {
        n = const_of(e.type, static_cast<uint64_t>(ec->value), static_cast<double>(ec->value));
      } else if (auto* fd = ne->decl ? ne->decl->as<FuncDecl>() : nullptr) {
        n = make_const(from_u64(function_address(fd, e.loc)));  // a function designator
      } else {
        n = rvalue(e.type, name_place(*ne));
      }
      break;
    }
    case ExprKind::Unary: n = unary(*e.as<UnaryExpr>()); break;
    case ExprKind::Binary: n = binary(*e.as<BinaryExpr>()); break;
    case ExprKind::Assign: n = assign(*e.as<AssignExpr>()); break;
    case ExprKind::Conditional: {
      auto* c = e.as<ConditionalExpr>();
      if (!c->then_expr) {  // gcc's a ?: b (sema converted both to e.type)
        n = make_elvis(value(*c->cond), value(*c->else_expr), e.type);
        break;
      }
      if (e.type->is_stream()) {
        n = handle_box(make_select(condition(*c->cond), handle_load(value(*c->then_expr)),
                                   handle_load(value(*c->else_expr))));
        break;
      }
      if (c->cond->type->is_vector()) {
        n = make_vec_select(c->cond->type, value(*c->cond),
                            convert(value(*c->then_expr), c->then_expr->type, e.type, e.loc),
                            convert(value(*c->else_expr), c->else_expr->type, e.type, e.loc));
        break;
      }
      n = make_select(condition(*c->cond), convert(value(*c->then_expr), c->then_expr->type, e.type, e.loc),
                      convert(value(*c->else_expr), c->else_expr->type, e.type, e.loc));
      break;
    }
    case ExprKind::Comma: {
      auto* c = e.as<CommaExpr>();
      n = make_comma(value(*c->lhs), c->lhs->type, value(*c->rhs));
      break;
    }
    case ExprKind::StmtExpr: {
      auto* se = e.as<StmtExprExpr>();
      auto s = std::make_unique<StmtExprNode>();
      s->body = statement(*se->body);
      if (se->result) s->result = value(*se->result);
      n = std::move(s);
      break;
    }
    case ExprKind::Call: n = call(*e.as<CallExpr>()); break;
    case ExprKind::Construct: n = construct(*e.as<ConstructExpr>()); break;
    case ExprKind::Cast: n = cast(*e.as<CastExpr>()); break;
    case ExprKind::Index: n = rvalue(e.type, index(*e.as<IndexExpr>())); break;
    case ExprKind::Member:
      if (const FieldDecl* bf = bitfield_member(e)) {
        n = make_bitfield_load(bitfield_unit(*e.as<MemberExpr>()), bitfield_spec(*bf));
        break;
      }
      n = rvalue(e.type, member(*e.as<MemberExpr>()));
      break;
    case ExprKind::Swizzle: {
      auto* s = e.as<SwizzleExpr>();
      n = make_swizzle(value(*s->base), s->base->type->width(), s->comps, s->count);
      break;
    }
    case ExprKind::Sizeof: n = const_of(e.type, e.as<SizeofExpr>()->value, 0); break;
    case ExprKind::Gather:
      if (kernel_) n = kernel_->gather(*e.as<GatherExpr>(), *this);
      break;
    case ExprKind::Indexof:
      if (kernel_) n = kernel_->indexof(*e.as<IndexofExpr>(), *this);
      break;
    case ExprKind::Domain:
      if (host_) n = host_->domain(*e.as<DomainExpr>(), *this);
      break;
    case ExprKind::CompoundLit:
      n = rvalue(e.type, compound_literal(*e.as<CompoundLitExpr>()));
      break;
    case ExprKind::InitList:
    case ExprKind::IterInit: break;
  }
  if (!n) n = make_fail(e.loc, "this construct is not supported here");
  if (!n->loc.valid()) n->loc = e.loc;
  return n;
}

NodePtr Compiler::place(const Expr& e) {
  NodePtr n;
  switch (e.kind) {
    case ExprKind::Name: n = name_place(*e.as<NameExpr>()); break;
    case ExprKind::Unary: {
      auto* u = e.as<UnaryExpr>();
      if (u->op == UnaryOp::Deref && e.type->is_stream()) {
        n = handle_box(value(*u->operand));
      } else if (u->op == UnaryOp::Deref) {
        n = make_deref(value(*u->operand), e.type->size, e.loc);
      } else {
        n = value(e);
      }
      break;
    }
    case ExprKind::Index: n = index(*e.as<IndexExpr>()); break;
    case ExprKind::Member:
      n = bitfield_member(e) ? make_fail(e.loc, "a bit-field has no address")
                             : member(*e.as<MemberExpr>());
      break;
    case ExprKind::Swizzle: n = swizzle_place(*e.as<SwizzleExpr>()); break;
    case ExprKind::StringLit: n = string_literal(*e.as<StringLit>()); break;
    case ExprKind::CompoundLit:
      n = compound_literal(*e.as<CompoundLitExpr>());
      break;
    default: n = value(e); break;
  }
  if (!n->loc.valid()) n->loc = e.loc;
  return n;
}

// The object is a local of the enclosing function (its own memory object
// when its address is taken, as for named locals), or static outside one;
// each evaluation initialises it anew (C99 6.5.2.5p6, p16).
NodePtr Compiler::compound_literal(const CompoundLitExpr& e) {
  const VarDecl& v = *e.object;
  if (!v.type || !v.init) return make_fail(e.loc, "this compound literal is not supported here");
  auto object = [&]() -> NodePtr {
    if (v.is_global) return make_object(machine_.memory, global_object(&v, e.loc));
    auto it = current_->locals.find(&v);
    Local l = it != current_->locals.end() ? it->second : declare_local(&v, v.type);
    return l.escaping ? make_escaping_local(l.offset) : make_local(v.type, l.offset);
  };
  StmtNodePtr init = initializer(object(), v.type, *v.init);
  NodePtr n = make_initialised_place(std::move(init), object());
  n->loc = e.loc;
  return n;
}

NodePtr Compiler::unary(const UnaryExpr& e) {
  const Expr& x = *e.operand;
  switch (e.op) {
    case UnaryOp::Plus: return value(x);
    case UnaryOp::Neg:
    case UnaryOp::BitNot:
    case UnaryOp::Not:
      if (x.type->is_vector()) return make_vec_unary(e.op, x.type, value(x));
      if (e.op == UnaryOp::Not) return make_not(scalar_kind(x.type), value(x));
      if (e.op == UnaryOp::Neg) return make_neg(scalar_kind(e.type), convert(value(x), x.type, e.type, e.loc));
      return make_bitnot(scalar_kind(e.type), convert(value(x), x.type, e.type, e.loc));
    case UnaryOp::Deref:
      if (e.type->is_stream()) return handle_box(value(x));
      if (e.type->is_function()) return value(x);  // `*fp` is the function again
      return rvalue(e.type, make_deref(value(x), e.type->size, e.loc));
    case UnaryOp::AddrOf:
      if (x.type->is_stream()) return handle_load(value(x));
      if (x.type->is_function()) return value(x);
      return make_addr_of(place(x));
    case UnaryOp::PreInc:
    case UnaryOp::PreDec:
    case UnaryOp::PostInc:
    case UnaryOp::PostDec: {
      bool inc = e.op == UnaryOp::PreInc || e.op == UnaryOp::PostInc;
      bool post = e.op == UnaryOp::PostInc || e.op == UnaryOp::PostDec;
      if (!(x.type->is_scalar() || x.type->is_pointer())) {
        return make_fail(e.loc, "++/-- on a vector is not supported");
      }
      if (const FieldDecl* bf = bitfield_member(x)) {
        auto ls = std::make_unique<Slot>();
        auto rs = std::make_unique<Slot>();
        Slot* l = ls.get();
        Slot* r = rs.get();
        r->value.i = 1;
        NodePtr tree = make_arith(inc ? BinaryOp::Add : BinaryOp::Sub, scalar_kind(x.type),
                                  std::move(ls), std::move(rs), e.loc);
        return make_bitfield_update(bitfield_unit(*x.as<MemberExpr>()), bitfield_spec(*bf), nullptr,
                                    l, r, std::move(tree), post);
      }
      int64_t step = x.type->is_pointer() ? static_cast<int64_t>(pointee_size(x.type)) : 1;
      return make_incdec(x.type, inc, post, place(x), step);
    }
  }
  return nullptr;
}

NodePtr Compiler::binary(const BinaryExpr& e) {
  const Type* lt = e.lhs->type;
  if (e.op == BinaryOp::LogAnd || e.op == BinaryOp::LogOr) {
    if (lt->is_vector()) {
      return make_vec_binary(e.op, lt, value(*e.lhs),
                             convert(value(*e.rhs), e.rhs->type, lt, e.loc), e.loc);
    }
    return make_logical(e.op == BinaryOp::LogAnd, condition(*e.lhs), condition(*e.rhs));
  }
  return binary_nodes(e.op, lt, value(*e.lhs), e.rhs->type, value(*e.rhs), e.type, e.loc);
}

NodePtr Compiler::binary_nodes(BinaryOp op, const Type* lt, NodePtr l, const Type* rt, NodePtr r,
                               const Type* result, SourceLoc loc) {
  bool compare = op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le ||
                 op == BinaryOp::Ge || op == BinaryOp::Eq || op == BinaryOp::Ne;
  if (lt->is_pointer() || rt->is_pointer() || lt->is_array() || rt->is_array()) {
    if (lt->is_array()) {
      l = make_addr_of(std::move(l));
      lt = nullptr;
    }
    if (rt->is_array()) {
      r = make_addr_of(std::move(r));
      rt = nullptr;
    }
    bool lp = !lt || lt->is_pointer(), rp = !rt || rt->is_pointer();
    if (compare) {
      if (!lp) l = make_convert(scalar_kind(lt), TypeKind::ULong, std::move(l));
      if (!rp) r = make_convert(scalar_kind(rt), TypeKind::ULong, std::move(r));
      return make_compare(op, TypeKind::ULong, std::move(l), std::move(r));
    }
    if (lp && rp && op == BinaryOp::Sub) {
      return make_ptr_diff(std::move(l), std::move(r), static_cast<int64_t>(pointee_size(result->is_pointer() ? result : (lt ? lt : rt ? rt : result))));
    }
    if (lp && !rp && (op == BinaryOp::Add || op == BinaryOp::Sub)) {
      NodePtr n = make_ptr_add(std::move(l), make_convert(scalar_kind(rt), TypeKind::Long, std::move(r)),
                               static_cast<int64_t>(pointee_size(result)), op == BinaryOp::Sub);
      n->loc = loc;
      return n;
    }
    if (!lp && rp && op == BinaryOp::Add) {
      NodePtr n = make_ptr_add(std::move(r), make_convert(scalar_kind(lt), TypeKind::Long, std::move(l)),
                               static_cast<int64_t>(pointee_size(result)), false);
      n->loc = loc;
      return n;
    }
    return make_fail(loc, "unsupported pointer arithmetic");
  }
  if (op == BinaryOp::Shl || op == BinaryOp::Shr) {
    if (result->is_vector()) {
      l = convert(std::move(l), lt, result, loc);
      const Type* rvec = rt->is_vector() ? rt : result;
      r = convert(std::move(r), rt, rvec, loc);
      return make_vec_binary(op, result, std::move(l), std::move(r), loc);
    }
    return make_shift(op, scalar_kind(result), convert(std::move(l), lt, result, loc), std::move(r));
  }
  if (compare) {
    const Type* operand = lt->is_vector() ? lt : rt->is_vector() ? rt : lt;
    l = convert(std::move(l), lt, operand, loc);
    r = convert(std::move(r), rt, operand, loc);
    if (operand->is_vector()) return make_vec_binary(op, operand, std::move(l), std::move(r), loc);
    return make_compare(op, scalar_kind(operand), std::move(l), std::move(r));
  }
  l = convert(std::move(l), lt, result, loc);
  r = convert(std::move(r), rt, result, loc);
  if (result->is_vector()) return make_vec_binary(op, result, std::move(l), std::move(r), loc);
  return make_arith(op, scalar_kind(result), std::move(l), std::move(r), loc);
}

NodePtr Compiler::assign(const AssignExpr& e) {
  const Type* t = e.lhs->type;
  const Expr& lhs = *e.lhs;
  auto* sw = lhs.as<SwizzleExpr>();
  bool scattered = false;
  if (sw) {
    for (uint8_t i = 1; i < sw->count; ++i) scattered |= sw->comps[i] != sw->comps[0] + i;
  }
  const FieldDecl* bf = bitfield_member(lhs);
  if (!e.op) {
    NodePtr rhs = convert(value(*e.rhs), e.rhs->type, t, e.loc);
    if (bf)
      return make_bitfield_assign(bitfield_unit(*lhs.as<MemberExpr>()), bitfield_spec(*bf),
                                  std::move(rhs));
    if (scattered) {
      return make_swizzle_assign(sw->base->type, place(*sw->base), sw->comps, sw->count, std::move(rhs));
    }
    if (t->is_scalar() || t->is_pointer()) return make_assign(t, place(lhs), std::move(rhs));
    if (t->is_vector()) return make_vec_assign(t, place(lhs), std::move(rhs));
    return make_copy_assign(t->size, place(lhs), std::move(rhs), frame_slot(t->size, 16));
  }
  const Type* op_type = e.op_type ? e.op_type : t;
  const Type* rt = e.rhs->type;
  if (t == op_type && rt == op_type && t->is_scalar() && !bf) {
    if (NodePtr n = make_compound_simple(*e.op, scalar_kind(t), place(lhs), value(*e.rhs))) return n;
  }
  auto lslot_owned = std::make_unique<Slot>();
  auto rslot_owned = std::make_unique<Slot>();
  Slot* ls = lslot_owned.get();
  Slot* rs = rslot_owned.get();
  NodePtr tree;
  if (t->is_pointer()) {
    tree = make_ptr_add(std::move(lslot_owned), make_convert(scalar_kind(rt), TypeKind::Long, std::move(rslot_owned)),
                        static_cast<int64_t>(pointee_size(t)), *e.op == BinaryOp::Sub);
  } else {
    NodePtr l = convert(std::move(lslot_owned), t, op_type, e.loc);
    tree = binary_nodes(*e.op, op_type, std::move(l), rt, std::move(rslot_owned), op_type, e.loc);
    tree = convert(std::move(tree), op_type, t, e.loc);
  }
  if (bf) {
    return make_bitfield_update(bitfield_unit(*lhs.as<MemberExpr>()), bitfield_spec(*bf),
                                value(*e.rhs), ls, rs, std::move(tree), false);
  }
  if (scattered) {
    return make_swizzle_compound(sw->base->type, place(*sw->base), sw->comps, sw->count,
                                 value(*e.rhs), ls, rs, std::move(tree), rt->is_vector());
  }
  return make_compound_assign(t, place(lhs), value(*e.rhs), ls, rs, std::move(tree), rt->is_vector());
}

NodePtr Compiler::call(const CallExpr& e) {
  switch (e.target) {
    case CallTarget::Function: {
      if (!e.func) break;
      CompiledFunction* fn = function(e.func);
      auto n = std::make_unique<CallNode>();
      n->loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
      n->fn = fn;
      const FuncDecl* def = fn->decl;
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (!def || i >= def->params.size() || i >= fn->param_offsets.size()) {
          // Past the named parameters: the '...' of a variadic function
          // (promoted by the checker), kept for va_arg.
          n->extra_nodes.push_back(value(*e.args[i]));
          n->extras.push_back({n->extra_nodes.back().get(), e.args[i]->type});
          continue;
        }
        const Type* pt = def->params[i]->type;
        CallNode::Arg a;
        a.e = convert(value(*e.args[i]), e.args[i]->type, pt, e.args[i]->loc);
        if (!def->params[i]->extents.empty() && host_)
          a.e = host_->stream_param(std::move(a.e), *def->params[i], *e.args[i], *this);
        a.offset = fn->param_offsets[i];
        a.type = pt;
        a.store = (pt->is_scalar() || pt->is_pointer()) ? store_fn(pt) : nullptr;
        n->args.push_back(std::move(a));
      }
      if (is_aggregate(e.type)) {
        n->result_size = e.type->size;
        n->result_temp = frame_slot(e.type->size, 16);
      }
      return n;
    }
    case CallTarget::Builtin: {
      auto id = static_cast<stdlib::Builtin>(e.builtin);
      const stdlib::BuiltinInfo& info = stdlib::builtin_info(id);
      if (id == stdlib::Builtin::brook_va_start) {
        // va_start: the records pointer the call left in this frame.
        if (!current_ || current_->fn->va_offset < 0)
          return make_fail(e.loc, "va_start outside a function with '...'");
        auto offset = static_cast<uint32_t>(current_->fn->va_offset);
        return make_load(e.type, make_local(e.type, offset));
      }
      if (id == stdlib::Builtin::setjmp || id == stdlib::Builtin::longjmp)
        return setjmp_call(e, id == stdlib::Builtin::setjmp);
      if (info.sig == stdlib::Sig::Prototype || info.sig == stdlib::Sig::Stream) {
        if (host_) {
          if (NodePtr n = host_->builtin_call(e, *this)) return n;
        }
        return make_fail(e.callee_loc.valid() ? e.callee_loc : e.loc,
                         "'" + e.callee + "' is not available here");
      }
      if (info.where == stdlib::Where::kernel) {
        if (kernel_) return kernel_->kernel_builtin(e, *this);
        return make_fail(e.loc, "'" + e.callee + "' is only available in kernels");
      }
      return math_builtin(e);
    }
    case CallTarget::Pointer: {
      if (!e.callee_expr) break;
      auto n = std::make_unique<PointerCallNode>();
      n->loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
      n->callee = value(*e.callee_expr);
      n->fn_type = e.callee_expr->type->elem;
      for (size_t i = 0; i < e.args.size(); ++i) {
        const Type* t = e.args[i]->type;  // already converted to the parameter's type by sema
        PointerCallNode::Arg a;
        a.e = value(*e.args[i]);
        a.type = t;
        a.store = (t->is_scalar() || t->is_pointer()) ? store_fn(t) : nullptr;
        n->args.push_back(std::move(a));
        n->arg_types.push_back(t);
      }
      if (is_aggregate(e.type)) n->result_temp = frame_slot(e.type->size, 16);
      return n;
    }
    case CallTarget::Kernel:
    case CallTarget::Reduce:
      if (kernel_) return kernel_->kernel_call(e, *this);
      if (host_) return host_->launch(e, *this);
      break;
    case CallTarget::Unresolved: break;
  }
  return make_fail(e.loc, "call to '" + e.callee + "' cannot be run");
}

NodePtr Compiler::math_builtin(const CallExpr& e) {
  std::vector<NodePtr> args;
  std::vector<const Type*> types;
  for (auto& a : e.args) {
    args.push_back(value(*a));
    types.push_back(a->type);
  }
  NodePtr n = make_math(static_cast<stdlib::Builtin>(e.builtin), std::move(args), std::move(types),
                        e.type, e.loc, kernel_ != nullptr);
  if (!n) return make_fail(e.loc, "'" + e.callee + "' is not supported for these arguments");
  return n;
}

NodePtr Compiler::cast(const CastExpr& e) {
  const Expr& x = *e.operand;
  switch (e.cast) {
    case CastKind::Convert:
    case CastKind::PointerCast:
      if (x.type->is_function()) return value(x);  // a function's address
      return convert(value(x), x.type, e.type, e.loc);
    case CastKind::Broadcast:
      return make_broadcast(e.type->count, convert(value(x), x.type, e.type->elem, e.loc));
    case CastKind::ArrayDecay: return make_addr_of(place(x));
    case CastKind::ToBool: return make_truth(scalar_kind(x.type), value(x));
    case CastKind::ToVoid: return make_comma(value(x), x.type, make_const(put<int32_t>(0)));
  }
  return nullptr;
}

NodePtr Compiler::construct(const ConstructExpr& e) {
  const Type* t = e.type;
  if (!t->is_vector()) {
    if (e.args.empty()) return const_of(t, 0, 0);
    return convert(value(*e.args[0]), e.args[0]->type, t, e.loc);
  }
  if (e.args.size() == 1) return convert(value(*e.args[0]), e.args[0]->type, t, e.loc);
  std::vector<NodePtr> parts;
  std::vector<uint32_t> widths;
  for (auto& a : e.args) {
    const Type* at = a->type;
    if (at->is_vector()) {
      parts.push_back(value(*a));  // sema gives parts t's component type
      widths.push_back(at->count);
    } else {
      parts.push_back(convert(value(*a), at, t->elem, a->loc));
      widths.push_back(1);
    }
  }
  return make_construct(std::move(parts), std::move(widths));
}

NodePtr Compiler::index(const IndexExpr& e) {
  const Expr* base = e.base.get();
  if (auto* c = base->as<CastExpr>(); c && c->cast == CastKind::ArrayDecay) base = c->operand.get();
  if (base->type->is_array() && base->type->count == 0) {
    // A flexible array member: its elements are checked against the object
    // that holds it (malloc'd with room for them), not against a count.
    return make_pointer_index(e.type->size ? e.type->size : 1, make_addr_of(place(*base)),
                              value(*e.index), e.loc);
  }
  if (base->type->is_array()) {
    return make_array_index(base->type, place(*base), value(*e.index), e.loc);
  }
  uint64_t elem = e.type->size ? e.type->size : 1;
  return make_pointer_index(elem, value(*base), value(*e.index), e.loc);
}

NodePtr Compiler::member(const MemberExpr& e) {
  const Type* st = e.arrow ? e.base->type->elem : e.base->type;
  if (!st || !st->decl) return make_fail(e.loc, "member access on a non-struct");
  int fi = e.field_index >= 0 ? e.field_index : st->decl->field_index(e.field);
  if (fi < 0 || static_cast<size_t>(fi) >= st->decl->fields.size()) {
    return make_fail(e.loc, "no field '" + e.field + "'");
  }
  uint64_t off = st->decl->fields[fi].offset;
  if (e.arrow) return make_arrow(value(*e.base), off, e.type->size, e.loc);
  return make_member(place(*e.base), off);
}

// The storage unit of the bit-field `e` names: its type's bytes at its offset.
NodePtr Compiler::bitfield_unit(const MemberExpr& e) {
  const Type* st = e.arrow ? e.base->type->elem : e.base->type;
  const FieldDecl& f = st->decl->fields[static_cast<size_t>(e.field_index)];
  if (e.arrow) return make_arrow(value(*e.base), f.offset, f.type->size, e.loc);
  return make_member(place(*e.base), f.offset);
}

NodePtr Compiler::swizzle_place(const SwizzleExpr& e) {
  for (uint8_t i = 1; i < e.count; ++i) {
    if (e.comps[i] != e.comps[0] + i) return make_fail(e.loc, "this swizzle is not a place in memory");
  }
  const Type* bt = e.base->type;
  uint64_t comp = bt->scalar_of()->size;
  if (!bt->is_vector()) return place(*e.base);
  return make_swizzle_place(place(*e.base), comp, e.comps[0]);
}

std::string Compiler::source_text(const CallExpr& call) const {
  // The text between the call's parentheses, when it is on one line.
  SourceLoc at = call.callee_loc.valid() ? call.callee_loc : call.loc;
  std::string_view line = sources_.line_text(at);
  if (line.empty() || at.col == 0 || at.col > line.size()) return "expression";
  size_t open = line.find('(', at.col - 1);
  if (open == std::string_view::npos) return "expression";
  int depth = 0;
  for (size_t end = open; end < line.size(); ++end) {
    if (line[end] == '(') ++depth;
    if (line[end] == ')' && --depth == 0) {
      std::string_view text = line.substr(open + 1, end - open - 1);
      while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
      return std::string(text);
    }
  }
  return "expression";
}

// setjmp and longjmp (interp/setjmp_nodes.hpp). A setjmp must be resumable:
// in a statement that sits directly in a block, as C's rules for where setjmp
// may appear come to.
NodePtr Compiler::setjmp_call(const ast::CallExpr& e, bool is_setjmp) {
  const SourceLoc loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
  if (e.args.size() != (is_setjmp ? 1u : 2u)) return make_fail(loc, "wrong number of arguments");
  if (!is_setjmp) {
    auto n = std::make_unique<LongjmpNode>();
    n->loc = loc;
    n->env = value(*e.args[0]);
    n->value = value(*e.args[1]);
    return n;
  }
  if (!setjmp_place_.sites) {
    return make_fail(loc,
                     "setjmp is supported only as a statement of its own or the condition of an "
                     "if, switch or while that sits directly in a block");
  }
  auto n = std::make_unique<SetjmpNode>();
  n->loc = loc;
  n->env = value(*e.args[0]);
  setjmp_place_.sites->push_back({n.get(), setjmp_place_.index});
  return n;
}

}  // namespace brook::interp
