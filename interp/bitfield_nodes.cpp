#include "interp/bitfield_nodes.hpp"

#include <cstring>

namespace brook::interp {

namespace {

uint64_t mask_of(uint32_t width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

bool is_signed_kind(TypeKind k) {
  return k == TypeKind::Char || k == TypeKind::Short || k == TypeKind::Int || k == TypeKind::Long;
}

uint64_t load_unit(const uint8_t* p, uint32_t size) {
  uint64_t u = 0;
  std::memcpy(&u, p, size);  // x86-64 is little-endian: the unit's bit 0 is bit 0 here
  return u;
}

struct BitfieldLoad : Node {
  NodePtr unit;
  BitfieldSpec s;
  Scalar eval(Machine& m) override {
    Scalar v;
    v.i = s.read(unit->raw(m, false));
    return v;
  }
};

struct BitfieldAssign : Node {
  NodePtr unit, rhs;
  BitfieldSpec s;
  Scalar eval(Machine& m) override {
    const int64_t v = rhs->eval(m).i;
    Scalar out;
    out.i = s.write(unit->raw(m, true), v);
    return out;
  }
};

struct BitfieldUpdate : Node {
  NodePtr unit, rhs, tree;
  Slot* lhs_slot;  // owned by `tree`, which reads them
  Slot* rhs_slot;
  BitfieldSpec s;
  bool postfix;
  Scalar eval(Machine& m) override {
    if (rhs) rhs_slot->value = rhs->eval(m);
    uint8_t* p = unit->raw(m, true);
    Scalar old;
    old.i = s.read(p);
    lhs_slot->value = old;
    const int64_t now = s.write(p, tree->eval(m).i);
    if (postfix) return old;
    Scalar out;
    out.i = now;
    return out;
  }
};

}  // namespace

int64_t BitfieldSpec::read(const uint8_t* unit) const {
  const uint64_t bits = (load_unit(unit, unit_size) >> bit_offset) & mask_of(width);
  if (is_signed_kind(field_kind) && width < 64 && (bits >> (width - 1)) & 1)
    return static_cast<int64_t>(bits | ~mask_of(width));
  return static_cast<int64_t>(bits);
}

int64_t BitfieldSpec::write(uint8_t* unit, int64_t v) const {
  // Conversions to an integer type keep the low bits (gcc's rule for signed
  // targets too); to _Bool, any nonzero value is 1.
  uint64_t bits = field_kind == TypeKind::Bool ? (v != 0) : static_cast<uint64_t>(v);
  bits &= mask_of(width);
  uint64_t u = load_unit(unit, unit_size);
  u = (u & ~(mask_of(width) << bit_offset)) | (bits << bit_offset);
  std::memcpy(unit, &u, unit_size);
  return read(unit);
}

BitfieldSpec bitfield_spec(const ast::FieldDecl& f) {
  BitfieldSpec s;
  s.unit_size = static_cast<uint32_t>(f.type->size);
  s.bit_offset = f.bit_offset;
  s.width = static_cast<uint32_t>(f.bit_width);
  s.field_kind = f.type->kind;
  return s;
}

NodePtr make_bitfield_load(NodePtr unit, const BitfieldSpec& s) {
  auto n = std::make_unique<BitfieldLoad>();
  n->unit = std::move(unit);
  n->s = s;
  return n;
}

NodePtr make_bitfield_assign(NodePtr unit, const BitfieldSpec& s, NodePtr rhs) {
  auto n = std::make_unique<BitfieldAssign>();
  n->unit = std::move(unit);
  n->rhs = std::move(rhs);
  n->s = s;
  return n;
}

NodePtr make_bitfield_update(NodePtr unit, const BitfieldSpec& s, NodePtr rhs, Slot* lhs_slot,
                             Slot* rhs_slot, NodePtr op_tree, bool postfix) {
  auto n = std::make_unique<BitfieldUpdate>();
  n->unit = std::move(unit);
  n->rhs = std::move(rhs);
  n->tree = std::move(op_tree);
  n->lhs_slot = lhs_slot;
  n->rhs_slot = rhs_slot;
  n->s = s;
  n->postfix = postfix;
  return n;
}

}  // namespace brook::interp
