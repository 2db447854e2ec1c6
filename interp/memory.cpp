#include "interp/memory.hpp"

#include <cstring>
#include <new>

#include "interp/limits.hpp"

namespace brook::interp {

Memory::Memory() {
  objects_.emplace_back(); /* id 0: null, never live */
  objects_[0].state = ObjectState::dead;
}

uint32_t Memory::allocate(uint64_t size, ObjectKind kind, SourceLoc loc, std::string_view name) {
  if (size > kMaxObjectSize) {
    throw RuntimeError{loc, "out of memory: cannot allocate " + std::to_string(size) + " bytes"};
  }
  if (objects_.size() >= UINT32_MAX) throw RuntimeError{loc, "out of memory: too many objects"};
  if (kind == ObjectKind::heap && budget_ && !budget_->charge(size)) {
    throw RuntimeError{loc, "out of memory: " + budget_->exceeded("a heap block", size)};
  }
  Object o;
  // Size-0 objects still get storage so their address is distinct and valid.
  try {
    o.data = std::make_unique<uint8_t[]>(size == 0 ? 1 : size);  // value-initialised: zeroed
  } catch (const std::bad_alloc&) {
    if (kind == ObjectKind::heap && budget_) budget_->release(size);
    throw;
  }
  o.size = size;
  o.kind = kind;
  o.name = name;
  o.line = loc.line;
  if (kind == ObjectKind::heap) heap_live_ += size;
  objects_.push_back(std::move(o));
  return static_cast<uint32_t>(objects_.size() - 1);
}

void Memory::kill(uint32_t id) {
  if (id == 0 || id >= objects_.size()) return;
  Object& o = objects_[id];
  o.state = ObjectState::dead;
  o.data.reset();
}

void Memory::free(uint64_t p, SourceLoc loc) {
  if (p == 0) return;
  uint32_t id = pointer_id(p);
  if (id >= objects_.size() || pointer_offset(p) != 0) {
    throw RuntimeError{loc, "free() of a pointer that malloc did not return"};
  }
  Object& o = objects_[id];
  if (o.kind != ObjectKind::heap) {
    throw RuntimeError{loc, "free() of a pointer that malloc did not return"};
  }
  if (o.state == ObjectState::freed) throw RuntimeError{loc, "double free"};
  o.state = ObjectState::freed;
  heap_live_ -= o.size;
  if (budget_) budget_->release(o.size);
  o.data.reset();
}

uint64_t Memory::realloc(uint64_t p, uint64_t size, SourceLoc loc) {
  if (p == 0) return make_pointer(allocate(size, ObjectKind::heap, loc), 0);
  uint32_t id = pointer_id(p);
  if (id >= objects_.size() || pointer_offset(p) != 0 || objects_[id].kind != ObjectKind::heap) {
    throw RuntimeError{loc, "realloc() of a pointer that malloc did not return"};
  }
  if (objects_[id].state != ObjectState::live) throw RuntimeError{loc, "use of memory after free"};
  uint32_t fresh = allocate(size, ObjectKind::heap, loc);
  Object& old = objects_[id];  // after allocate: the vector may have moved
  std::memcpy(objects_[fresh].data.get(), old.data.get(), std::min(size, old.size));
  free(p, loc);
  return make_pointer(fresh, 0);
}

uint64_t Memory::bytes_after(uint64_t p) const {
  uint32_t id = pointer_id(p);
  int32_t off = pointer_offset(p);
  if (id == 0 || id >= objects_.size() || objects_[id].state != ObjectState::live || off < 0 ||
      uint64_t(off) > objects_[id].size) {
    return 0;
  }
  return objects_[id].size - uint64_t(off);
}

void Memory::fail(uint64_t p, uint64_t size, SourceLoc loc, bool write) const {
  uint32_t id = pointer_id(p);
  int32_t off = pointer_offset(p);
  if (id == 0) throw RuntimeError{loc, "null pointer dereference"};
  if (id >= objects_.size()) throw RuntimeError{loc, "dereference of an invalid pointer"};
  const Object& o = objects_[id];
  if (o.state == ObjectState::freed) throw RuntimeError{loc, "use of memory after free"};
  if (o.state == ObjectState::dead) {
    throw RuntimeError{loc, "use of a pointer to a variable that no longer exists"};
  }
  if (o.kind == ObjectKind::file) throw RuntimeError{loc, "dereference of a FILE pointer"};
  if (o.kind == ObjectKind::function)
    throw RuntimeError{loc, "dereference of a function pointer as data"};
  if (write && o.kind == ObjectKind::literal && off >= 0 && uint64_t(off) + size <= o.size) {
    throw RuntimeError{loc, "write to a string literal"};
  }
  throw RuntimeError{loc, "out-of-bounds access: " + std::to_string(size) +
                              (size == 1 ? " byte" : " bytes") + " at offset " +
                              std::to_string(off) + " of " + describe(o)};
}

// "'data' (16 bytes)", "an 8-byte block from malloc (line 5)". Built with
// += : GCC 12 sees a false -Wrestrict in `"literal" + std::string`.
std::string Memory::describe(const Object& o) const {
  std::string size = std::to_string(o.size);
  std::string out;
  if (!o.name.empty()) {
    out += '\'';
    out += o.name;
    out += "' (";
    out += size;
    out += o.size == 1 ? " byte)" : " bytes)";
    return out;
  }
  // "an" before the numbers read with a vowel: 8, 11, 18, 80-89, 8000, 11000…
  bool an = size[0] == '8' ||
            (size.size() % 3 == 2 && (size.starts_with("11") || size.starts_with("18")));
  out += an ? "an " : "a ";
  out += size;
  out += "-byte ";
  switch (o.kind) {
    case ObjectKind::heap:
      out += "block from malloc";
      break;
    case ObjectKind::literal:
      out += "string literal";
      break;
    case ObjectKind::argv:
      out += "argument of main";
      break;
    default:
      out += "object";
      break;
  }
  if (o.line && (o.kind == ObjectKind::heap || o.kind == ObjectKind::literal)) {
    out += " (line ";
    out += std::to_string(o.line);
    out += ')';
  }
  return out;
}

uint64_t Memory::string_length(uint64_t p, SourceLoc loc) {
  uint64_t avail = bytes_after(p);
  if (avail == 0) {
    at(p, 1, loc);  // reports the precise reason
    throw RuntimeError{loc, "string is not NUL-terminated within its object"};
  }
  const uint8_t* s = at(p, 1, loc);
  const void* nul = std::memchr(s, 0, avail);
  if (!nul) throw RuntimeError{loc, "string is not NUL-terminated within its object"};
  return static_cast<uint64_t>(static_cast<const uint8_t*>(nul) - s);
}

std::string Memory::read_string(uint64_t p, SourceLoc loc) {
  uint64_t n = string_length(p, loc);
  const uint8_t* s = at(p, n + 1, loc);
  return std::string(reinterpret_cast<const char*>(s), n);
}

}  // namespace brook::interp
