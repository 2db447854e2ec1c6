// Nodes for vector values: per-component arithmetic, construction, swizzles.
#include "interp/builders.hpp"
#include "interp/ops.hpp"

namespace brook::interp {
namespace {

using ast::BinaryOp;
using ast::UnaryOp;

template <class T>
struct VecLoad : Node {
  NodePtr place;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    const uint8_t* p = place->raw(m, false);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = put<T>(load_scalar<T>(p + i * sizeof(T)));
  }
  uint8_t* raw(Machine& m, bool write) override { return place->raw(m, write); }
  uint64_t ptr(Machine& m) override { return place->ptr(m); }
};

template <class T>
struct VecAssign : Node {
  NodePtr place, rhs;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    rhs->eval_vec(m, out);
    uint8_t* p = place->raw(m, true);
    for (uint32_t i = 0; i < n; ++i) store_scalar<T>(p + i * sizeof(T), get<T>(out.c[i]));
  }
};

template <class T, class Op>
struct VecArith : Node {
  NodePtr l, r;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec a, b;
    l->eval_vec(m, a);
    r->eval_vec(m, b);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = put<T>(Op::apply(get<T>(a.c[i]), get<T>(b.c[i])));
  }
};

template <class T, bool Mod>
struct VecDivide : Node {
  NodePtr l, r;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec a, b;
    l->eval_vec(m, a);
    r->eval_vec(m, b);
    for (uint32_t i = 0; i < n; ++i) {
      T x = get<T>(a.c[i]), y = get<T>(b.c[i]);
      if constexpr (ops::is_int<T>) {
        if (y == 0) {
          if (m.in_kernel) {
            out.c[i] = put<T>(0);
            continue;
          }
          throw RuntimeError{loc, Mod ? "integer remainder by zero" : "integer division by zero"};
        }
      }
      out.c[i] = put<T>(Mod ? ops::mod(x, y) : ops::div(x, y));
    }
  }
};

template <class T, bool Left>
struct VecShift : Node {
  NodePtr l, r;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec a, b;
    l->eval_vec(m, a);
    r->eval_vec(m, b);
    for (uint32_t i = 0; i < n; ++i) {
      T x = get<T>(a.c[i]);
      out.c[i] = put<T>(Left ? ops::shl(x, b.c[i].i) : ops::shr(x, b.c[i].i));
    }
  }
};

template <class T, class Op>
struct VecCompare : Node {
  NodePtr l, r;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec a, b;
    l->eval_vec(m, a);
    r->eval_vec(m, b);
    for (uint32_t i = 0; i < n; ++i) {
      out.c[i] = put<int32_t>(Op::apply(get<T>(a.c[i]), get<T>(b.c[i])) ? 1 : 0);
    }
  }
};

template <class T, bool And>
struct VecLogical : Node {
  NodePtr l, r;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec a, b;
    l->eval_vec(m, a);
    r->eval_vec(m, b);
    for (uint32_t i = 0; i < n; ++i) {
      bool x = get<T>(a.c[i]) != T(0), y = get<T>(b.c[i]) != T(0);
      out.c[i] = put<int32_t>((And ? (x && y) : (x || y)) ? 1 : 0);
    }
  }
};

template <class T>
struct VecUnary : Node {
  NodePtr a;
  uint32_t n;
  UnaryOp op;
  void eval_vec(Machine& m, Vec& out) override {
    Vec v;
    a->eval_vec(m, v);
    for (uint32_t i = 0; i < n; ++i) {
      T x = get<T>(v.c[i]);
      switch (op) {
        case UnaryOp::Neg:
          if constexpr (ops::is_int<T>) out.c[i] = put<T>(ops::Sub::apply(T(0), x));
          else out.c[i] = put<T>(static_cast<T>(-x));
          break;
        case UnaryOp::Not: out.c[i] = put<int32_t>(x == T(0) ? 1 : 0); break;
        case UnaryOp::BitNot:
          if constexpr (ops::is_int<T>) out.c[i] = put<T>(static_cast<T>(~x));
          else out.c[i] = v.c[i];
          break;
        default: out.c[i] = v.c[i]; break;
      }
    }
  }
};

template <class F, class T>
struct VecConvert : Node {
  NodePtr a;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec v;
    a->eval_vec(m, v);
    for (uint32_t i = 0; i < n; ++i) {
      F x = get<F>(v.c[i]);
      if constexpr (std::is_same_v<T, bool>) out.c[i] = put<bool>(x != F(0));
      else out.c[i] = put<T>(static_cast<T>(x));
    }
  }
};

struct Broadcast : Node {
  NodePtr a;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Scalar s = a->eval(m);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = s;
  }
};

struct Construct : Node {
  std::vector<NodePtr> parts;
  std::vector<uint32_t> widths;
  void eval_vec(Machine& m, Vec& out) override {
    uint32_t k = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
      if (widths[p] == 1) {
        Scalar s = parts[p]->eval(m);
        if (k < 4) out.c[k++] = s;
      } else {
        Vec v;
        parts[p]->eval_vec(m, v);
        for (uint32_t i = 0; i < widths[p] && k < 4; ++i) out.c[k++] = v.c[i];
      }
    }
  }
};

struct Swizzle : Node {
  NodePtr base;
  uint32_t base_width;
  std::array<uint8_t, 4> comps;
  uint8_t count;
  void read(Machine& m, Vec& v) {
    if (base_width == 1) v.c[0] = base->eval(m);
    else base->eval_vec(m, v);
  }
  Scalar eval(Machine& m) override {
    Vec v;
    read(m, v);
    return v.c[comps[0] & 3];
  }
  void eval_vec(Machine& m, Vec& out) override {
    Vec v;
    read(m, v);
    for (uint8_t i = 0; i < count; ++i) out.c[i] = v.c[comps[i] & 3];
  }
};

struct SwizzlePlace : Node {
  NodePtr base;
  uint64_t off;
  uint8_t* raw(Machine& m, bool write) override { return base->raw(m, write) + off; }
  uint64_t ptr(Machine& m) override { return pointer_add(base->ptr(m), static_cast<int64_t>(off)); }
};

template <class T>
struct SwizzleAssign : Node {
  NodePtr base, rhs;
  std::array<uint8_t, 4> comps;
  uint8_t count;
  Scalar eval(Machine& m) override {
    Scalar s = rhs->eval(m);
    store_scalar<T>(base->raw(m, true) + comps[0] * sizeof(T), get<T>(s));
    return s;
  }
  void eval_vec(Machine& m, Vec& out) override {
    rhs->eval_vec(m, out);
    uint8_t* p = base->raw(m, true);
    for (uint8_t i = 0; i < count; ++i) store_scalar<T>(p + comps[i] * sizeof(T), get<T>(out.c[i]));
  }
};

// base.pattern op= rhs for a pattern whose components are not contiguous.
template <class T>
struct SwizzleCompound : Node {
  NodePtr base, rhs, op_tree;
  Slot* lhs_slot;
  Slot* rhs_slot;
  std::array<uint8_t, 4> comps;
  uint8_t count;
  bool rhs_is_vec;
  void eval_vec(Machine& m, Vec& out) override {
    if (rhs_is_vec) rhs->eval_vec(m, rhs_slot->vec);
    else rhs_slot->value = rhs->eval(m);
    uint8_t* p = base->raw(m, true);
    for (uint8_t i = 0; i < count; ++i) {
      lhs_slot->vec.c[i] = put<T>(load_scalar<T>(p + comps[i] * sizeof(T)));
    }
    op_tree->eval_vec(m, out);  // makes no calls: p stays valid
    for (uint8_t i = 0; i < count; ++i) store_scalar<T>(p + comps[i] * sizeof(T), get<T>(out.c[i]));
  }
};

struct Component : Node {
  NodePtr vec;
  uint8_t comp;
  Scalar eval(Machine& m) override {
    Vec v;
    vec->eval_vec(m, v);
    return v.c[comp & 3];
  }
};

// `c ? a : b` with a vector condition: per component, both arms evaluated.
template <class C>
struct VecSelect : Node {
  NodePtr cond, a, b;
  uint32_t n;
  void eval_vec(Machine& m, Vec& out) override {
    Vec c, x, y;
    cond->eval_vec(m, c);
    a->eval_vec(m, x);
    b->eval_vec(m, y);
    for (uint32_t i = 0; i < n; ++i) out.c[i] = get<C>(c.c[i]) != C(0) ? x.c[i] : y.c[i];
  }
};

template <template <class, class> class N, class Op>
NodePtr vec_node(TypeKind k, NodePtr l, NodePtr r, uint32_t n) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<N<T, Op>>();
    x->l = std::move(l);
    x->r = std::move(r);
    x->n = n;
    return x;
  });
}

template <template <class, bool> class N, bool B>
NodePtr vec_node_b(TypeKind k, NodePtr l, NodePtr r, uint32_t n) {
  return with_scalar(k, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<N<T, B>>();
    x->l = std::move(l);
    x->r = std::move(r);
    x->n = n;
    return x;
  });
}

}  // namespace

NodePtr make_vec_load(const Type* t, NodePtr lvalue) {
  return with_scalar(t->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
    auto n = std::make_unique<VecLoad<T>>();
    n->loc = lvalue->loc;
    n->place = std::move(lvalue);
    n->n = t->count;
    return n;
  });
}

NodePtr make_vec_assign(const Type* t, NodePtr lvalue, NodePtr rhs) {
  return with_scalar(t->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
    auto n = std::make_unique<VecAssign<T>>();
    n->place = std::move(lvalue);
    n->rhs = std::move(rhs);
    n->n = t->count;
    return n;
  });
}

NodePtr make_vec_binary(BinaryOp op, const Type* operand, NodePtr l, NodePtr r, SourceLoc loc) {
  TypeKind k = operand->elem->kind;
  uint32_t n = operand->count;
  NodePtr x;
  switch (op) {
    case BinaryOp::Add: x = vec_node<VecArith, ops::Add>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Sub: x = vec_node<VecArith, ops::Sub>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Mul: x = vec_node<VecArith, ops::Mul>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::BitAnd: x = vec_node<VecArith, ops::BitAnd>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::BitOr: x = vec_node<VecArith, ops::BitOr>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::BitXor: x = vec_node<VecArith, ops::BitXor>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Div: x = vec_node_b<VecDivide, false>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Mod: x = vec_node_b<VecDivide, true>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Shl: x = vec_node_b<VecShift, true>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Shr: x = vec_node_b<VecShift, false>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Lt: x = vec_node<VecCompare, ops::Lt>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Gt: x = vec_node<VecCompare, ops::Gt>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Le: x = vec_node<VecCompare, ops::Le>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Ge: x = vec_node<VecCompare, ops::Ge>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Eq: x = vec_node<VecCompare, ops::Eq>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::Ne: x = vec_node<VecCompare, ops::Ne>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::LogAnd: x = vec_node_b<VecLogical, true>(k, std::move(l), std::move(r), n); break;
    case BinaryOp::LogOr: x = vec_node_b<VecLogical, false>(k, std::move(l), std::move(r), n); break;
  }
  x->loc = loc;
  return x;
}

NodePtr make_vec_unary(UnaryOp op, const Type* operand, NodePtr a) {
  return with_scalar(operand->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<VecUnary<T>>();
    x->a = std::move(a);
    x->n = operand->count;
    x->op = op;
    return x;
  });
}

NodePtr make_vec_convert(const Type* from, const Type* to, NodePtr a) {
  if (from->elem == to->elem) return a;
  return with_scalar(from->elem->kind, [&]<class F>(Tag<F>) -> NodePtr {
    return with_scalar(to->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
      auto x = std::make_unique<VecConvert<F, T>>();
      x->a = std::move(a);
      x->n = std::min(from->count, to->count);
      return x;
    });
  });
}

NodePtr make_broadcast(uint32_t count, NodePtr scalar) {
  auto x = std::make_unique<Broadcast>();
  x->a = std::move(scalar);
  x->n = count;
  return x;
}

NodePtr make_construct(std::vector<NodePtr> parts, std::vector<uint32_t> widths) {
  auto x = std::make_unique<Construct>();
  x->parts = std::move(parts);
  x->widths = std::move(widths);
  return x;
}

NodePtr make_swizzle(NodePtr base, uint32_t base_width, std::array<uint8_t, 4> comps, uint8_t count) {
  auto x = std::make_unique<Swizzle>();
  x->loc = base->loc;
  x->base = std::move(base);
  x->base_width = base_width;
  x->comps = comps;
  x->count = count;
  return x;
}

NodePtr make_swizzle_place(NodePtr base, uint64_t comp_size, uint8_t first) {
  auto x = std::make_unique<SwizzlePlace>();
  x->loc = base->loc;
  x->base = std::move(base);
  x->off = comp_size * first;
  return x;
}

NodePtr make_swizzle_assign(const Type* vec_type, NodePtr base, std::array<uint8_t, 4> comps,
                            uint8_t count, NodePtr rhs) {
  return with_scalar(vec_type->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<SwizzleAssign<T>>();
    x->base = std::move(base);
    x->rhs = std::move(rhs);
    x->comps = comps;
    x->count = count;
    return x;
  });
}

NodePtr make_swizzle_compound(const Type* vec_type, NodePtr base, std::array<uint8_t, 4> comps,
                              uint8_t count, NodePtr rhs, Slot* lhs_slot, Slot* rhs_slot,
                              NodePtr op_tree, bool rhs_is_vec) {
  return with_scalar(vec_type->elem->kind, [&]<class T>(Tag<T>) -> NodePtr {
    auto x = std::make_unique<SwizzleCompound<T>>();
    x->base = std::move(base);
    x->rhs = std::move(rhs);
    x->op_tree = std::move(op_tree);
    x->lhs_slot = lhs_slot;
    x->rhs_slot = rhs_slot;
    x->comps = comps;
    x->count = count;
    x->rhs_is_vec = rhs_is_vec;
    return x;
  });
}

NodePtr make_vec_component(NodePtr vec, uint8_t comp) {
  auto x = std::make_unique<Component>();
  x->vec = std::move(vec);
  x->comp = comp;
  return x;
}

NodePtr make_vec_select(const Type* cond_type, NodePtr cond, NodePtr a, NodePtr b) {
  return with_scalar(scalar_kind(cond_type->elem), [&]<class C>(Tag<C>) -> NodePtr {
    auto x = std::make_unique<VecSelect<C>>();
    x->cond = std::move(cond);
    x->a = std::move(a);
    x->b = std::move(b);
    x->n = cond_type->count;
    return x;
  });
}

}  // namespace brook::interp
