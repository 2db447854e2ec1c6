// Places: the nodes that name memory (variables, elements, fields, derefs).
#include <cstring>

#include "interp/builders.hpp"
#include "interp/fast_nodes.hpp"

namespace brook::interp {
namespace {

struct LocalPlace : Node {
  uint32_t off;
  uint8_t* raw(Machine& m, bool) override { return m.fp + off; }
};

struct EscapingLocal : Node {
  uint32_t off;
  uint8_t* raw(Machine& m, bool) override { return load_as<uint8_t*>(m.fp + off); }
  uint64_t ptr(Machine& m) override { return make_pointer(load_as<uint32_t>(m.fp + off + 8), 0); }
};

struct ObjectPlace : Node {
  uint32_t id;
  uint8_t* data;
  bool read_only;
  uint8_t* raw(Machine&, bool write) override {
    if (write && read_only) throw RuntimeError{loc, "write to a string literal"};
    return data;
  }
  uint64_t ptr(Machine&) override { return make_pointer(id, 0); }
};

struct InitialisedPlace : Node {
  StmtNodePtr init;
  NodePtr place;
  uint8_t* raw(Machine& m, bool write) override {
    init->exec(m);
    return place->raw(m, write);
  }
  uint64_t ptr(Machine& m) override {
    init->exec(m);
    return place->ptr(m);
  }
};

struct ArrayIndex : Node {
  NodePtr base, index;
  uint64_t count, elem;
  const Type* array_type;
  [[noreturn]] void out_of_range(int64_t i) const {
    throw RuntimeError{loc, "index " + std::to_string(i) + " is out of bounds for type '" +
                                array_type->name() + "'"};
  }
  uint8_t* raw(Machine& m, bool write) override {
    int64_t i = index->eval(m).i;
    if (static_cast<uint64_t>(i) >= count) out_of_range(i);
    return base->raw(m, write) + static_cast<uint64_t>(i) * elem;
  }
  uint64_t ptr(Machine& m) override {
    int64_t i = index->eval(m).i;
    // One past the end is a valid address, as in C.
    if (count != 0 && (i < 0 || static_cast<uint64_t>(i) > count)) out_of_range(i);
    return pointer_add(base->ptr(m), i * static_cast<int64_t>(elem));
  }
};

struct PointerIndex : Node {
  NodePtr base, index;
  uint64_t elem;
  uint8_t* raw(Machine& m, bool write) override {
    int64_t i = index->eval(m).i;
    uint64_t p = pointer_add(base->eval(m).u, i * static_cast<int64_t>(elem));
    return m.memory.at(p, elem, loc, write);
  }
  uint64_t ptr(Machine& m) override {
    int64_t i = index->eval(m).i;
    return pointer_add(base->eval(m).u, i * static_cast<int64_t>(elem));
  }
};

struct Member : Node {
  NodePtr base;
  uint64_t off;
  uint8_t* raw(Machine& m, bool write) override { return base->raw(m, write) + off; }
  uint64_t ptr(Machine& m) override { return pointer_add(base->ptr(m), static_cast<int64_t>(off)); }
};

struct Arrow : Node {
  NodePtr base;
  uint64_t off, size;
  uint8_t* raw(Machine& m, bool write) override {
    return m.memory.at(pointer_add(base->eval(m).u, static_cast<int64_t>(off)), size, loc, write);
  }
  uint64_t ptr(Machine& m) override {
    return pointer_add(base->eval(m).u, static_cast<int64_t>(off));
  }
};

struct Deref : Node {
  NodePtr pointer;
  uint64_t size;
  uint8_t* raw(Machine& m, bool write) override {
    return m.memory.at(pointer->eval(m).u, size, loc, write);
  }
  uint64_t ptr(Machine& m) override { return pointer->eval(m).u; }
};

struct AddrOf : Node {
  NodePtr place;
  Scalar eval(Machine& m) override { return from_u64(place->ptr(m)); }
};

struct CopyAssign : Node {
  NodePtr place, rhs;
  uint64_t size;
  uint32_t temp;
  uint8_t* raw(Machine& m, bool) override {
    // Through a temporary: evaluating the destination may run code that
    // invalidates the source's host address.
    std::memcpy(m.fp + temp, rhs->raw(m, false), size);
    uint8_t* dst = place->raw(m, true);
    std::memcpy(dst, m.fp + temp, size);
    return dst;
  }
};

}  // namespace

NodePtr make_local(const Type* t, uint32_t offset) {
  if (t->is_scalar() || t->is_pointer()) {
    return with_scalar(scalar_kind(t), [&]<class T>(Tag<T>) -> NodePtr {
      auto n = std::make_unique<LocalScalar<T>>();
      n->off = offset;
      n->self_loading = true;
      return n;
    });
  }
  auto n = std::make_unique<LocalPlace>();
  n->off = offset;
  return n;
}

NodePtr make_global_scalar(const Type* t, Memory& memory, uint32_t id) {
  return with_scalar(scalar_kind(t), [&]<class T>(Tag<T>) -> NodePtr {
    auto n = std::make_unique<GlobalScalar<T>>();
    n->data = memory.data(id);
    n->id = id;
    n->self_loading = true;
    return n;
  });
}

NodePtr make_escaping_local(uint32_t slot_offset) {
  auto n = std::make_unique<EscapingLocal>();
  n->off = slot_offset;
  return n;
}

NodePtr make_object(Memory& memory, uint32_t id) {
  auto n = std::make_unique<ObjectPlace>();
  n->id = id;
  n->data = memory.data(id);
  n->read_only = memory.kind(id) == ObjectKind::literal;
  return n;
}

NodePtr make_initialised_place(StmtNodePtr init, NodePtr place) {
  auto n = std::make_unique<InitialisedPlace>();
  n->init = std::move(init);
  n->place = std::move(place);
  return n;
}

NodePtr make_array_index(const Type* array_type, NodePtr base, NodePtr index, SourceLoc loc) {
  auto n = std::make_unique<ArrayIndex>();
  n->loc = loc;
  n->base = std::move(base);
  n->index = std::move(index);
  n->count = array_type->count;
  n->elem = array_type->elem->size;
  n->array_type = array_type;
  return n;
}

NodePtr make_pointer_index(uint64_t elem_size, NodePtr base, NodePtr index, SourceLoc loc) {
  auto n = std::make_unique<PointerIndex>();
  n->loc = loc;
  n->base = std::move(base);
  n->index = std::move(index);
  n->elem = elem_size;
  return n;
}

NodePtr make_member(NodePtr base, uint64_t offset) {
  auto n = std::make_unique<Member>();
  n->loc = base->loc;
  n->base = std::move(base);
  n->off = offset;
  return n;
}

NodePtr make_arrow(NodePtr base, uint64_t offset, uint64_t size, SourceLoc loc) {
  auto n = std::make_unique<Arrow>();
  n->loc = loc;
  n->base = std::move(base);
  n->off = offset;
  n->size = size;
  return n;
}

NodePtr make_deref(NodePtr pointer, uint64_t size, SourceLoc loc) {
  auto n = std::make_unique<Deref>();
  n->loc = loc;
  n->pointer = std::move(pointer);
  n->size = size;
  return n;
}

NodePtr make_addr_of(NodePtr lvalue) {
  auto n = std::make_unique<AddrOf>();
  n->loc = lvalue->loc;
  n->place = std::move(lvalue);
  return n;
}

NodePtr make_copy_assign(uint64_t size, NodePtr lvalue, NodePtr rhs, uint32_t temp_offset) {
  auto n = std::make_unique<CopyAssign>();
  n->place = std::move(lvalue);
  n->rhs = std::move(rhs);
  n->size = size;
  n->temp = temp_offset;
  return n;
}

}  // namespace brook::interp
