// Leaf node classes the builders recognise to pick fused fast paths
// (`local op constant`, `local = e`), which is most of what hot loops run.
#pragma once

#include "interp/node.hpp"

namespace brook::interp {

struct ConstNode : Node {
  Scalar v;
  explicit ConstNode(Scalar s) : v(s) {}
  Scalar eval(Machine&) override { return v; }
};

template <class T>
struct LocalScalar : Node {
  uint32_t off;
  Scalar eval(Machine& m) override { return put<T>(load_scalar<T>(m.fp + off)); }
  uint8_t* raw(Machine& m, bool) override { return m.fp + off; }
};

// A global scalar: its storage never moves, so its address is fixed here.
template <class T>
struct GlobalScalar : Node {
  uint8_t* data;
  uint32_t id;
  Scalar eval(Machine&) override { return put<T>(load_scalar<T>(data)); }
  uint8_t* raw(Machine&, bool) override { return data; }
  uint64_t ptr(Machine&) override { return make_pointer(id, 0); }
};

// The host address of n when it is a global scalar of C++ type T, else null.
template <class T>
inline uint8_t* global_address(const Node* n) {
  auto* g = dynamic_cast<const GlobalScalar<T>*>(n);
  return g ? g->data : nullptr;
}

// The frame offset of n when it is a local scalar of C++ type T, else -1.
template <class T>
inline int64_t local_offset(const Node* n) {
  auto* l = dynamic_cast<const LocalScalar<T>*>(n);
  return l ? int64_t{l->off} : -1;
}
inline const ConstNode* as_const(const Node* n) { return dynamic_cast<const ConstNode*>(n); }

}  // namespace brook::interp
