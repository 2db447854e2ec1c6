// Bit-fields (C99 6.7.2.1) in host code: reads and writes of `width` bits at
// `bit_offset` of a storage unit of `unit_size` bytes (little-endian, as
// x86-64 lays them out). lang/sema_decl.cpp places them; these nodes move the
// bits.
#pragma once

#include <cstdint>

#include "interp/builders.hpp"

namespace brook::interp {

struct BitfieldSpec {
  uint32_t unit_size = 4;  // bytes: the declared type's size
  uint32_t bit_offset = 0;
  uint32_t width = 1;
  TypeKind field_kind = TypeKind::Int;  // the declared type: its signedness; Bool stores 0/1
  // The bits as the field holds them, sign- or zero-extended.
  int64_t read(const uint8_t* unit) const;
  // Stores v (an integer of the member expression's type) as the declared
  // type converts it, keeping `width` bits; returns the value now held.
  int64_t write(uint8_t* unit, int64_t v) const;
};

BitfieldSpec bitfield_spec(const ast::FieldDecl& f);
// The value of the bit-field in the storage unit at `unit` (a place).
NodePtr make_bitfield_load(NodePtr unit, const BitfieldSpec& s);
// unit.field = rhs; yields the value stored.
NodePtr make_bitfield_assign(NodePtr unit, const BitfieldSpec& s, NodePtr rhs);
// unit.field op= rhs, ++ and --: the old value goes to lhs_slot, rhs (if any)
// to rhs_slot, `op_tree` computes the new one; yields the new value, or the
// old one when `postfix`.
NodePtr make_bitfield_update(NodePtr unit, const BitfieldSpec& s, NodePtr rhs, Slot* lhs_slot,
                             Slot* rhs_slot, NodePtr op_tree, bool postfix);

}  // namespace brook::interp
