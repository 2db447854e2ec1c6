// Factories for the node classes. The Compiler (compiler.cpp) picks one per
// AST node from its types; the classes themselves stay private to their files.
#pragma once

#include <span>
#include <vector>

#include "interp/node.hpp"
#include "lang/ast.hpp"

namespace brook::interp {

// --- scalars (scalar_nodes.cpp) ----------------------------------------------
NodePtr make_const(Scalar v);
// Mul, Div, Mod, Add, Sub, BitAnd, BitXor, BitOr on operands of kind k.
NodePtr make_arith(ast::BinaryOp op, TypeKind k, NodePtr l, NodePtr r, SourceLoc loc);
NodePtr make_shift(ast::BinaryOp op, TypeKind k, NodePtr l, NodePtr r);
// Lt .. Ne on operands of kind k; the result is an int 0 or 1.
NodePtr make_compare(ast::BinaryOp op, TypeKind k, NodePtr l, NodePtr r);
// && and || over nodes that already yield 0 or 1.
NodePtr make_logical(bool is_and, NodePtr l, NodePtr r);
// A node yielding int 1 when n (of kind k) is nonzero, else 0.
NodePtr make_truth(TypeKind k, NodePtr n);
NodePtr make_not(TypeKind k, NodePtr n);
NodePtr make_neg(TypeKind k, NodePtr n);
NodePtr make_bitnot(TypeKind k, NodePtr n);
NodePtr make_convert(TypeKind from, TypeKind to, NodePtr n);
// p + i * elem (or p - i * elem); i is a long.
NodePtr make_ptr_add(NodePtr p, NodePtr i, int64_t elem, bool subtract);
NodePtr make_ptr_diff(NodePtr l, NodePtr r, int64_t elem);
// Loads a scalar or pointer lvalue.
NodePtr make_load(const Type* t, NodePtr lvalue);
NodePtr make_assign(const Type* t, NodePtr lvalue, NodePtr rhs);
// ++/-- on a scalar lvalue, or a pointer one moving by `step` bytes.
NodePtr make_incdec(const Type* t, bool increment, bool postfix, NodePtr lvalue, int64_t step);
// Evaluates `first` for its effects, then yields `second`'s value.
NodePtr make_comma(NodePtr first, const Type* first_type, NodePtr second);
// gcc's `a ?: b` on a scalar or pointer type t: a once, b when a is zero.
NodePtr make_elvis(NodePtr a, NodePtr b, const Type* t);
// cond ? a : b, for scalar, vector or aggregate results.
NodePtr make_select(NodePtr cond, NodePtr a, NodePtr b);
// Evaluates n (of type t) and discards the value.
void discard(Machine& m, Node& n, const Type* t);
// A node whose eval reads a value a compound assignment has put in place.
struct Slot : Node {
  Scalar value{};
  Vec vec{};
  Scalar eval(Machine&) override { return value; }
  void eval_vec(Machine&, Vec& out) override { out = vec; }
};
// lvalue op= rhs: `op_tree` computes the new value from two Slots.
NodePtr make_compound_assign(const Type* t, NodePtr lvalue, NodePtr rhs, Slot* lhs_slot,
                             Slot* rhs_slot, NodePtr op_tree, bool rhs_is_vec);

// lvalue op= rhs where lvalue, rhs and operation all have kind k (Add, Sub,
// Mul and bit operators); null for other operators.
NodePtr make_compound_simple(ast::BinaryOp op, TypeKind k, NodePtr lvalue, NodePtr rhs);

// --- places (lvalue_nodes.cpp) -----------------------------------------------
// A local in the frame at `offset`; scalars load themselves.
NodePtr make_local(const Type* t, uint32_t offset);
// A local with its own memory object: the frame slot holds (data*, id).
NodePtr make_escaping_local(uint32_t slot_offset);
// A global scalar or pointer variable; loads itself.
NodePtr make_global_scalar(const Type* t, Memory& memory, uint32_t id);
// A global or literal object.
NodePtr make_object(Memory& memory, uint32_t id);
// `place` after running `init` each time it is reached: a compound literal.
NodePtr make_initialised_place(StmtNodePtr init, NodePtr place);
// array[index] with the index checked against the array type.
NodePtr make_array_index(const Type* array_type, NodePtr base, NodePtr index, SourceLoc loc);
// pointer[index]: checked by memory.
NodePtr make_pointer_index(uint64_t elem_size, NodePtr base, NodePtr index, SourceLoc loc);
NodePtr make_member(NodePtr base, uint64_t offset);
NodePtr make_arrow(NodePtr base, uint64_t offset, uint64_t size, SourceLoc loc);
NodePtr make_deref(NodePtr pointer, uint64_t size, SourceLoc loc);
NodePtr make_addr_of(NodePtr lvalue);
// Copies `size` bytes from rhs's place to lhs's, through a frame temporary.
NodePtr make_copy_assign(uint64_t size, NodePtr lvalue, NodePtr rhs, uint32_t temp_offset);

// --- vectors (vector_nodes.cpp) ----------------------------------------------
NodePtr make_vec_load(const Type* t, NodePtr lvalue);
NodePtr make_vec_assign(const Type* t, NodePtr lvalue, NodePtr rhs);
NodePtr make_vec_binary(ast::BinaryOp op, const Type* operand, NodePtr l, NodePtr r, SourceLoc loc);
NodePtr make_vec_unary(ast::UnaryOp op, const Type* operand, NodePtr n);
NodePtr make_vec_convert(const Type* from, const Type* to, NodePtr n);
NodePtr make_broadcast(uint32_t count, NodePtr scalar);
// Per-component `cond ? a : b` (cond a vector of `cond_type`).
NodePtr make_vec_select(const Type* cond_type, NodePtr cond, NodePtr a, NodePtr b);
// Concatenates parts (scalars when width 1, else vectors).
NodePtr make_construct(std::vector<NodePtr> parts, std::vector<uint32_t> widths);
// base.xyzw read; base is a vector (or a scalar when base_width is 1).
NodePtr make_swizzle(NodePtr base, uint32_t base_width, std::array<uint8_t, 4> comps, uint8_t count);
// A swizzle used as a place: contiguous ascending components only.
NodePtr make_swizzle_place(NodePtr base, uint64_t comp_size, uint8_t first);
// base.pattern = rhs for any pattern without repeats.
NodePtr make_swizzle_assign(const Type* vec_type, NodePtr base, std::array<uint8_t, 4> comps,
                            uint8_t count, NodePtr rhs);
// base.pattern op= rhs (any pattern without repeats): `op_tree` computes the
// new components from two Slots, as in make_compound_assign.
NodePtr make_swizzle_compound(const Type* vec_type, NodePtr base, std::array<uint8_t, 4> comps,
                              uint8_t count, NodePtr rhs, Slot* lhs_slot, Slot* rhs_slot,
                              NodePtr op_tree, bool rhs_is_vec);
// The first component of a vector as a scalar.
NodePtr make_vec_component(NodePtr vec, uint8_t comp);

}  // namespace brook::interp
