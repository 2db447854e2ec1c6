// Leaf node classes the builders recognise to pick fused fast paths
// (`local op constant`, `local = e`), which is most of what hot loops run.
#pragma once

#include "backends/interp/node.hpp"

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

// The frame offset of n when it is a local scalar of C++ type T, else -1.
template <class T>
inline int64_t local_offset(const Node* n) {
  auto* l = dynamic_cast<const LocalScalar<T>*>(n);
  return l ? int64_t{l->off} : -1;
}
inline const ConstNode* as_const(const Node* n) { return dynamic_cast<const ConstNode*>(n); }

}  // namespace brook::interp
