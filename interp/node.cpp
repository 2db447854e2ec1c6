#include "interp/node.hpp"

namespace brook::interp {

void internal_error(SourceLoc loc, const std::string& what) {
  throw RuntimeError{loc, "internal interpreter error: " + what};
}

Scalar Node::eval(Machine&) { internal_error(loc, "expression has no scalar value"); }
void Node::eval_vec(Machine&, Vec&) { internal_error(loc, "expression has no vector value"); }
uint8_t* Node::raw(Machine&, bool) { internal_error(loc, "expression is not addressable"); }
uint64_t Node::ptr(Machine&) { internal_error(loc, "the address of this expression cannot be taken"); }

LoadFn load_fn(const Type* t) {
  return with_scalar(scalar_kind(t), []<class T>(Tag<T>) -> LoadFn {
    return [](const uint8_t* p) { return put<T>(load_scalar<T>(p)); };
  });
}

StoreFn store_fn(const Type* t) {
  return with_scalar(scalar_kind(t), []<class T>(Tag<T>) -> StoreFn {
    return [](uint8_t* p, Scalar s) { store_scalar<T>(p, get<T>(s)); };
  });
}

void load_vec(const Type* t, const uint8_t* p, Vec& v) {
  with_scalar(t->elem->kind, [&]<class T>(Tag<T>) {
    for (uint32_t i = 0; i < t->count; ++i) v.c[i] = put<T>(load_scalar<T>(p + i * sizeof(T)));
  });
}

void store_vec(const Type* t, uint8_t* p, const Vec& v) {
  with_scalar(t->elem->kind, [&]<class T>(Tag<T>) {
    for (uint32_t i = 0; i < t->count; ++i) store_scalar<T>(p + i * sizeof(T), get<T>(v.c[i]));
  });
}

}  // namespace brook::interp
