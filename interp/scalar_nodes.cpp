// Nodes for scalar and pointer arithmetic, conversions, loads and stores.
#include <cstring>

#include "interp/builders.hpp"
#include "interp/fast_nodes.hpp"
#include "interp/ops.hpp"

namespace brook::interp {
namespace {

using ast::BinaryOp;

// Fused forms of Arith/Compare for the shapes hot loops are made of.
template <class T, class Op>
struct ArithK : Node {  // e op constant
  NodePtr l;
  T k;
  Scalar eval(Machine& m) override { return put<T>(Op::apply(get<T>(l->eval(m)), k)); }
};
template <class T, class Op>
struct ArithLK : Node {  // local op constant
  uint32_t off;
  T k;
  Scalar eval(Machine& m) override { return put<T>(Op::apply(load_scalar<T>(m.fp + off), k)); }
};
template <class T, class Op>
struct ArithLL : Node {  // local op local
  uint32_t a, b;
  Scalar eval(Machine& m) override {
    return put<T>(Op::apply(load_scalar<T>(m.fp + a), load_scalar<T>(m.fp + b)));
  }
};
template <class T, class Op>
struct CompareLK : Node {
  uint32_t off;
  T k;
  Scalar eval(Machine& m) override {
    return put<int32_t>(Op::apply(load_scalar<T>(m.fp + off), k) ? 1 : 0);
  }
};
template <class T, class Op>
struct CompareLL : Node {
  uint32_t a, b;
  Scalar eval(Machine& m) override {
    return put<int32_t>(Op::apply(load_scalar<T>(m.fp + a), load_scalar<T>(m.fp + b)) ? 1 : 0);
  }
};
template <class T>
struct AssignLocal : Node {
  uint32_t off;
  NodePtr rhs;
  Scalar eval(Machine& m) override {
    Scalar v = rhs->eval(m);
    store_scalar<T>(m.fp + off, get<T>(v));
    return v;
  }
};
template <class T>
struct AssignGlobal : Node {
  uint8_t* data;
  NodePtr rhs;
  Scalar eval(Machine& m) override {
    Scalar v = rhs->eval(m);
    store_scalar<T>(data, get<T>(v));
    return v;
  }
};
template <class T, bool Post>
struct IncDecLocal : Node {
  uint32_t off;
  T delta;
  Scalar eval(Machine& m) override {
    T old = load_scalar<T>(m.fp + off);
    T now = ops::Add::apply(old, delta);
    store_scalar<T>(m.fp + off, now);
    return put<T>(Post ? old : now);
  }
};
// lvalue op= rhs when lvalue, rhs and the operation share one type.
template <class T, class Op>
struct CompoundSimple : Node {
  NodePtr place, rhs;
  Scalar eval(Machine& m) override {
    T r = get<T>(rhs->eval(m));
    uint8_t* p = place->raw(m, true);
    T v = Op::apply(load_scalar<T>(p), r);
    store_scalar<T>(p, v);
    return put<T>(v);
  }
};
template <class T, class Op>
struct CompoundLocal : Node {
  uint32_t off;
  NodePtr rhs;
  Scalar eval(Machine& m) override {
    T r = get<T>(rhs->eval(m));
    T v = Op::apply(load_scalar<T>(m.fp + off), r);
    store_scalar<T>(m.fp + off, v);
    return put<T>(v);
  }
};

template <class T, class Op>
struct Arith : Node {
  NodePtr l, r;
  Scalar eval(Machine& m) override {
    T a = get<T>(l->eval(m));
    T b = get<T>(r->eval(m));
    return put<T>(Op::apply(a, b));
  }
};

template <class T, bool Mod>
struct Divide : Node {
  NodePtr l, r;
  Scalar eval(Machine& m) override {
    T a = get<T>(l->eval(m));
    T b = get<T>(r->eval(m));
    if constexpr (ops::is_int<T>) {
      if (b == 0) {
        if (m.in_kernel) return put<T>(0);
        throw RuntimeError{loc, Mod ? "integer remainder by zero" : "integer division by zero"};
      }
    }
    return put<T>(Mod ? ops::mod(a, b) : ops::div(a, b));
  }
};

template <class T, bool Left>
struct Shift : Node {
  NodePtr l, r;
  Scalar eval(Machine& m) override {
    T a = get<T>(l->eval(m));
    int64_t n = r->eval(m).i;
    return put<T>(Left ? ops::shl(a, n) : ops::shr(a, n));
  }
};

template <class T, class Op>
struct Compare : Node {
  NodePtr l, r;
  Scalar eval(Machine& m) override {
    T a = get<T>(l->eval(m));
    T b = get<T>(r->eval(m));
    return put<int32_t>(Op::apply(a, b) ? 1 : 0);
  }
};

template <bool And>
struct Logical : Node {
  NodePtr l, r;
  Scalar eval(Machine& m) override {
    if (And) {
      if (l->eval(m).i == 0) return put<int32_t>(0);
    } else {
      if (l->eval(m).i != 0) return put<int32_t>(1);
    }
    return put<int32_t>(r->eval(m).i != 0 ? 1 : 0);
  }
};

template <class T, bool Negate>
struct Truth : Node {
  NodePtr n;
  Scalar eval(Machine& m) override {
    bool t = get<T>(n->eval(m)) != T(0);
    return put<int32_t>(t != Negate ? 1 : 0);
  }
};

template <class T>
struct Neg : Node {
  NodePtr n;
  Scalar eval(Machine& m) override {
    T a = get<T>(n->eval(m));
    if constexpr (ops::is_int<T>) return put<T>(ops::Sub::apply(T(0), a));
    else return put<T>(static_cast<T>(-a));
  }
};

template <class T>
struct BitNot : Node {
  NodePtr n;
  Scalar eval(Machine& m) override {
    if constexpr (ops::is_int<T>) {
      return put<T>(static_cast<T>(~get<T>(n->eval(m))));
    } else {
      return n->eval(m);
    }
  }
};

template <class From, class To>
struct Convert : Node {
  NodePtr n;
  Scalar eval(Machine& m) override {
    From v = get<From>(n->eval(m));
    if constexpr (std::is_same_v<To, bool>) {
      return put<bool>(v != From(0));
    } else {
      return put<To>(static_cast<To>(v));
    }
  }
};

template <bool Subtract>
struct PtrAdd : Node {
  NodePtr p, i;
  int64_t elem;
  Scalar eval(Machine& m) override {
    uint64_t base = p->eval(m).u;
    int64_t k = i->eval(m).i;
    return from_u64(pointer_add(base, (Subtract ? -k : k) * elem));
  }
};

struct PtrDiff : Node {
  NodePtr l, r;
  int64_t elem;
  Scalar eval(Machine& m) override {
    uint64_t a = l->eval(m).u;
    uint64_t b = r->eval(m).u;
    int64_t bytes = int64_t(pointer_offset(a)) - int64_t(pointer_offset(b));
    return put<int64_t>(elem == 0 ? 0 : bytes / elem);
  }
};

template <class T>
struct Load : Node {
  NodePtr place;
  Scalar eval(Machine& m) override { return put<T>(load_scalar<T>(place->raw(m, false))); }
  uint8_t* raw(Machine& m, bool write) override { return place->raw(m, write); }
  uint64_t ptr(Machine& m) override { return place->ptr(m); }
};

template <class T>
struct Assign : Node {
  NodePtr place, rhs;
  Scalar eval(Machine& m) override {
    Scalar v = rhs->eval(m);
    store_scalar<T>(place->raw(m, true), get<T>(v));
    return v;
  }
};

template <class T, bool Post>
struct IncDec : Node {
  NodePtr place;
  T delta;
  Scalar eval(Machine& m) override {
    uint8_t* p = place->raw(m, true);
    T old = load_scalar<T>(p);
    T now;
    if constexpr (std::is_same_v<T, bool>) {
      now = delta ? true : !old;
    } else {
      now = ops::Add::apply(old, delta);
    }
    store_scalar<T>(p, now);
    return put<T>(Post ? old : now);
  }
};

struct PtrIncDec : Node {
  NodePtr place;
  int64_t step;
  bool post;
  Scalar eval(Machine& m) override {
    uint8_t* p = place->raw(m, true);
    uint64_t old = load_as<uint64_t>(p);
    uint64_t now = pointer_add(old, step);
    store_as<uint64_t>(p, now);
    return from_u64(post ? old : now);
  }
};

struct Comma : Node {
  NodePtr first, second;
  const Type* first_type;
  Scalar eval(Machine& m) override {
    discard(m, *first, first_type);
    return second->eval(m);
  }
  void eval_vec(Machine& m, Vec& out) override {
    discard(m, *first, first_type);
    second->eval_vec(m, out);
  }
  uint8_t* raw(Machine& m, bool write) override {
    discard(m, *first, first_type);
    return second->raw(m, write);
  }
};

struct Select : Node {
  NodePtr cond, a, b;
  Scalar eval(Machine& m) override { return cond->eval(m).i ? a->eval(m) : b->eval(m); }
  void eval_vec(Machine& m, Vec& out) override {
    if (cond->eval(m).i) a->eval_vec(m, out);
    else b->eval_vec(m, out);
  }
  uint8_t* raw(Machine& m, bool write) override {
    return cond->eval(m).i ? a->raw(m, write) : b->raw(m, write);
  }
};

struct CompoundAssign : Node {
  NodePtr place, rhs, op_tree;
  Slot* lhs_slot;
  Slot* rhs_slot;
  LoadFn load;
  StoreFn store;
  bool vector = false;
  const Type* type;
  Scalar eval(Machine& m) override {
    rhs_slot->value = rhs->eval(m);
    uint8_t* p = place->raw(m, true);
    lhs_slot->value = load(p);
    Scalar v = op_tree->eval(m);
    // The op tree makes no calls, so p is still valid.
    store(p, v);
    return v;
  }
  void eval_vec(Machine& m, Vec& out) override {
    if (rhs_is_vec) rhs->eval_vec(m, rhs_slot->vec);
    else rhs_slot->value = rhs->eval(m);
    uint8_t* p = place->raw(m, true);
    load_vec(type, p, lhs_slot->vec);
    op_tree->eval_vec(m, out);
    store_vec(type, p, out);
  }
  bool rhs_is_vec = true;
};

template <template <class, class> class N, class Op>
NodePtr arith_node(TypeKind k, NodePtr l, NodePtr r) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    constexpr bool compare = std::is_same_v<N<T, Op>, Compare<T, Op>>;
    const ConstNode* kr = as_const(r.get());
    int64_t la = local_offset<T>(l.get());
    int64_t lb = local_offset<T>(r.get());
    if constexpr (!std::is_same_v<T, bool>) {
      if (la >= 0 && kr) {
        std::conditional_t<compare, CompareLK<T, Op>, ArithLK<T, Op>>* raw_ptr;
        auto n = std::make_unique<std::remove_pointer_t<decltype(raw_ptr)>>();
        n->off = static_cast<uint32_t>(la);
        n->k = get<T>(kr->v);
        return n;
      }
      if (la >= 0 && lb >= 0) {
        std::conditional_t<compare, CompareLL<T, Op>, ArithLL<T, Op>>* raw_ptr;
        auto n = std::make_unique<std::remove_pointer_t<decltype(raw_ptr)>>();
        n->a = static_cast<uint32_t>(la);
        n->b = static_cast<uint32_t>(lb);
        return n;
      }
      if constexpr (!compare) {
        if (kr) {
          auto n = std::make_unique<ArithK<T, Op>>();
          n->l = std::move(l);
          n->k = get<T>(kr->v);
          return n;
        }
      }
    }
    auto n = std::make_unique<N<T, Op>>();
    n->l = std::move(l);
    n->r = std::move(r);
    return n;
  });
}

}  // namespace

void discard(Machine& m, Node& n, const Type* t) {
  if (t->is_vector()) {
    Vec v;
    n.eval_vec(m, v);
  } else if (t->is_struct() || t->is_array()) {
    n.raw(m, false);
  } else {
    n.eval(m);  // scalars, pointers and void calls
  }
}

NodePtr make_const(Scalar v) { return std::make_unique<ConstNode>(v); }

NodePtr make_arith(BinaryOp op, TypeKind k, NodePtr l, NodePtr r, SourceLoc loc) {
  NodePtr n;
  switch (op) {
    case BinaryOp::Add: n = arith_node<Arith, ops::Add>(k, std::move(l), std::move(r)); break;
    case BinaryOp::Sub: n = arith_node<Arith, ops::Sub>(k, std::move(l), std::move(r)); break;
    case BinaryOp::Mul: n = arith_node<Arith, ops::Mul>(k, std::move(l), std::move(r)); break;
    case BinaryOp::BitAnd: n = arith_node<Arith, ops::BitAnd>(k, std::move(l), std::move(r)); break;
    case BinaryOp::BitOr: n = arith_node<Arith, ops::BitOr>(k, std::move(l), std::move(r)); break;
    case BinaryOp::BitXor: n = arith_node<Arith, ops::BitXor>(k, std::move(l), std::move(r)); break;
    case BinaryOp::Div:
    case BinaryOp::Mod:
      n = with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
        NodePtr d;
        if (op == BinaryOp::Mod) {
          auto x = std::make_unique<Divide<T, true>>();
          x->l = std::move(l);
          x->r = std::move(r);
          d = std::move(x);
        } else {
          auto x = std::make_unique<Divide<T, false>>();
          x->l = std::move(l);
          x->r = std::move(r);
          d = std::move(x);
        }
        return d;
      });
      break;
    default: internal_error(loc, "not an arithmetic operator");
  }
  n->loc = loc;
  return n;
}

NodePtr make_shift(BinaryOp op, TypeKind k, NodePtr l, NodePtr r) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    if (op == BinaryOp::Shl) {
      auto n = std::make_unique<Shift<T, true>>();
      n->l = std::move(l);
      n->r = std::move(r);
      return n;
    }
    auto n = std::make_unique<Shift<T, false>>();
    n->l = std::move(l);
    n->r = std::move(r);
    return n;
  });
}

NodePtr make_compare(BinaryOp op, TypeKind k, NodePtr l, NodePtr r) {
  switch (op) {
    case BinaryOp::Lt: return arith_node<Compare, ops::Lt>(k, std::move(l), std::move(r));
    case BinaryOp::Gt: return arith_node<Compare, ops::Gt>(k, std::move(l), std::move(r));
    case BinaryOp::Le: return arith_node<Compare, ops::Le>(k, std::move(l), std::move(r));
    case BinaryOp::Ge: return arith_node<Compare, ops::Ge>(k, std::move(l), std::move(r));
    case BinaryOp::Eq: return arith_node<Compare, ops::Eq>(k, std::move(l), std::move(r));
    default: return arith_node<Compare, ops::Ne>(k, std::move(l), std::move(r));
  }
}

NodePtr make_logical(bool is_and, NodePtr l, NodePtr r) {
  if (is_and) {
    auto n = std::make_unique<Logical<true>>();
    n->l = std::move(l);
    n->r = std::move(r);
    return n;
  }
  auto n = std::make_unique<Logical<false>>();
  n->l = std::move(l);
  n->r = std::move(r);
  return n;
}

template <bool Negate>
static NodePtr truth_node(TypeKind k, NodePtr n) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    auto t = std::make_unique<Truth<T, Negate>>();
    t->n = std::move(n);
    return t;
  });
}
NodePtr make_truth(TypeKind k, NodePtr n) { return truth_node<false>(k, std::move(n)); }
NodePtr make_not(TypeKind k, NodePtr n) { return truth_node<true>(k, std::move(n)); }

NodePtr make_neg(TypeKind k, NodePtr n) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<Neg<T>>();
    x->n = std::move(n);
    return x;
  });
}

NodePtr make_bitnot(TypeKind k, NodePtr n) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<BitNot<T>>();
    x->n = std::move(n);
    return x;
  });
}

NodePtr make_convert(TypeKind from, TypeKind to, NodePtr n) {
  return with_scalar(from, [&]<class F>(Tag<F>) -> NodePtr {
    return with_scalar(to, [&]<class T>(Tag<T>) -> NodePtr {
      // Integer conversions that keep the 64-bit representation need no node.
      constexpr bool ints = ops::is_int<F> && ops::is_int<T>;
      constexpr bool same_repr =
          ints && (sizeof(T) == 8 ||
                   (sizeof(T) > sizeof(F) && (std::is_signed_v<T> || std::is_unsigned_v<F>)) ||
                   (sizeof(T) == sizeof(F) && std::is_signed_v<T> == std::is_signed_v<F>));
      if constexpr (std::is_same_v<F, T> || same_repr) {
        return std::move(n);
      } else {
        auto x = std::make_unique<Convert<F, T>>();
        x->n = std::move(n);
        return x;
      }
    });
  });
}

NodePtr make_ptr_add(NodePtr p, NodePtr i, int64_t elem, bool subtract) {
  if (subtract) {
    auto n = std::make_unique<PtrAdd<true>>();
    n->p = std::move(p);
    n->i = std::move(i);
    n->elem = elem;
    return n;
  }
  auto n = std::make_unique<PtrAdd<false>>();
  n->p = std::move(p);
  n->i = std::move(i);
  n->elem = elem;
  return n;
}

NodePtr make_ptr_diff(NodePtr l, NodePtr r, int64_t elem) {
  auto n = std::make_unique<PtrDiff>();
  n->l = std::move(l);
  n->r = std::move(r);
  n->elem = elem;
  return n;
}

NodePtr make_load(const Type* t, NodePtr lvalue) {
  return with_scalar(scalar_kind(t), [&]<class T>(Tag<T>) -> NodePtr {
    auto n = std::make_unique<Load<T>>();
    n->loc = lvalue->loc;
    n->place = std::move(lvalue);
    return n;
  });
}

NodePtr make_assign(const Type* t, NodePtr lvalue, NodePtr rhs) {
  return with_scalar(scalar_kind(t), [&]<class T>(Tag<T>) -> NodePtr {
    if (int64_t off = local_offset<T>(lvalue.get()); off >= 0) {
      auto n = std::make_unique<AssignLocal<T>>();
      n->off = static_cast<uint32_t>(off);
      n->rhs = std::move(rhs);
      return n;
    }
    if (uint8_t* data = global_address<T>(lvalue.get())) {
      auto n = std::make_unique<AssignGlobal<T>>();
      n->data = data;
      n->rhs = std::move(rhs);
      return n;
    }
    auto n = std::make_unique<Assign<T>>();
    n->place = std::move(lvalue);
    n->rhs = std::move(rhs);
    return n;
  });
}

NodePtr make_incdec(const Type* t, bool increment, bool postfix, NodePtr lvalue, int64_t step) {
  if (t->is_pointer()) {
    auto n = std::make_unique<PtrIncDec>();
    n->place = std::move(lvalue);
    n->step = increment ? step : -step;
    n->post = postfix;
    return n;
  }
  return with_scalar(t->kind, [&]<class T>(Tag<T>) -> NodePtr {
    T delta;
    if constexpr (std::is_same_v<T, bool>) {
      delta = increment;
    } else if constexpr (std::is_unsigned_v<T>) {
      delta = increment ? T(1) : static_cast<T>(~T(0));
    } else {
      delta = increment ? T(1) : T(-1);
    }
    if constexpr (!std::is_same_v<T, bool>) {
      if (int64_t off = local_offset<T>(lvalue.get()); off >= 0) {
        if (postfix) {
          auto n = std::make_unique<IncDecLocal<T, true>>();
          n->off = static_cast<uint32_t>(off);
          n->delta = delta;
          return n;
        }
        auto n = std::make_unique<IncDecLocal<T, false>>();
        n->off = static_cast<uint32_t>(off);
        n->delta = delta;
        return n;
      }
    }
    if (postfix) {
      auto n = std::make_unique<IncDec<T, true>>();
      n->place = std::move(lvalue);
      n->delta = delta;
      return n;
    }
    auto n = std::make_unique<IncDec<T, false>>();
    n->place = std::move(lvalue);
    n->delta = delta;
    return n;
  });
}

NodePtr make_comma(NodePtr first, const Type* first_type, NodePtr second) {
  auto n = std::make_unique<Comma>();
  n->first = std::move(first);
  n->first_type = first_type;
  n->second = std::move(second);
  return n;
}

namespace {
struct Elvis : Node {
  NodePtr a, b;
  TypeKind kind;
  uint64_t size;
  Scalar eval(Machine& m) override {
    Scalar v = a->eval(m);
    bool nonzero = kind == TypeKind::Float    ? v.f != 0.0f
                   : kind == TypeKind::Double ? v.d != 0.0
                   : size >= 8                ? v.u != 0
                                              : (v.u & ((uint64_t{1} << (8 * size)) - 1)) != 0;
    return nonzero ? v : b->eval(m);
  }
};
}  // namespace

NodePtr make_elvis(NodePtr a, NodePtr b, const Type* t) {
  auto n = std::make_unique<Elvis>();
  n->a = std::move(a);
  n->b = std::move(b);
  n->kind = t->is_pointer() ? TypeKind::ULong : t->kind;
  n->size = t->is_pointer() ? 8 : t->size;
  return n;
}

NodePtr make_select(NodePtr cond, NodePtr a, NodePtr b) {
  auto n = std::make_unique<Select>();
  n->cond = std::move(cond);
  n->a = std::move(a);
  n->b = std::move(b);
  return n;
}

NodePtr make_compound_assign(const Type* t, NodePtr lvalue, NodePtr rhs, Slot* lhs_slot,
                             Slot* rhs_slot, NodePtr op_tree, bool rhs_is_vec) {
  auto n = std::make_unique<CompoundAssign>();
  n->place = std::move(lvalue);
  n->rhs = std::move(rhs);
  n->op_tree = std::move(op_tree);
  n->lhs_slot = lhs_slot;
  n->rhs_slot = rhs_slot;
  n->type = t;
  n->rhs_is_vec = rhs_is_vec;
  if (t->is_vector()) {
    n->vector = true;
  } else {
    n->load = load_fn(t);
    n->store = store_fn(t);
  }
  return n;
}

}  // namespace brook::interp

namespace brook::interp {

template <class Op>
static NodePtr compound_simple_node(TypeKind k, NodePtr lvalue, NodePtr rhs) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    if constexpr (std::is_same_v<T, bool>) {
      return nullptr;
    } else {
      if (int64_t off = local_offset<T>(lvalue.get()); off >= 0) {
        auto n = std::make_unique<CompoundLocal<T, Op>>();
        n->off = static_cast<uint32_t>(off);
        n->rhs = std::move(rhs);
        return n;
      }
      auto n = std::make_unique<CompoundSimple<T, Op>>();
      n->place = std::move(lvalue);
      n->rhs = std::move(rhs);
      return n;
    }
  });
}

NodePtr make_compound_simple(ast::BinaryOp op, TypeKind k, NodePtr lvalue, NodePtr rhs) {
  switch (op) {
    case BinaryOp::Add: return compound_simple_node<ops::Add>(k, std::move(lvalue), std::move(rhs));
    case BinaryOp::Sub: return compound_simple_node<ops::Sub>(k, std::move(lvalue), std::move(rhs));
    case BinaryOp::Mul: return compound_simple_node<ops::Mul>(k, std::move(lvalue), std::move(rhs));
    case BinaryOp::BitAnd: return compound_simple_node<ops::BitAnd>(k, std::move(lvalue), std::move(rhs));
    case BinaryOp::BitOr: return compound_simple_node<ops::BitOr>(k, std::move(lvalue), std::move(rhs));
    case BinaryOp::BitXor: return compound_simple_node<ops::BitXor>(k, std::move(lvalue), std::move(rhs));
    default: return nullptr;
  }
}

}  // namespace brook::interp
