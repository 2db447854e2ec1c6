// Host memory with C layout and checked access (LANGUAGE.md §3, §11).
//
// Every object a pointer can point to (a global, a local whose address is
// taken, a heap block, a string literal, argv storage) has an id that is never
// reused, so a pointer is just 64 bits, (id << 32 | byte offset), and a stale
// pointer is always recognised. Id 0 is null.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interp/value.hpp"
#include "lang/source.hpp"

namespace brook {
class MemoryBudget;
}

namespace brook::interp {

enum class ObjectKind : uint8_t {
  global,    // a global or static variable
  local,     // a local variable whose address was taken
  heap,      // malloc/calloc/realloc
  literal,   // a string literal (read-only)
  argv,      // the strings and array of main's argv
  file,      // stdout / stderr: never dereferenced
  function,  // a function whose address was taken (size 0: never dereferenced)
};

enum class ObjectState : uint8_t { live, freed, dead };

// Largest single object: a larger malloc is "out of memory".
inline constexpr uint64_t kMaxObjectSize = uint64_t{1} << 30;

inline uint32_t pointer_id(uint64_t p) {
  return static_cast<uint32_t>(p >> 32);
}
inline int32_t pointer_offset(uint64_t p) {
  return static_cast<int32_t>(static_cast<uint32_t>(p));
}
inline uint64_t make_pointer(uint32_t id, int64_t offset) {
  return (uint64_t{id} << 32) | static_cast<uint32_t>(offset);
}
// Pointer arithmetic moves the offset only: a pointer never walks into another object.
inline uint64_t pointer_add(uint64_t p, int64_t bytes) {
  return make_pointer(pointer_id(p), pointer_offset(p) + bytes);
}

class Memory {
 public:
  Memory();

  // A new zeroed object; returns its id. Throws RuntimeError past kMaxObjectSize.
  // `name`: the variable's, for messages (it must outlive the object: the
  // AST's); `loc` also says where a heap block was allocated.
  uint32_t allocate(uint64_t size, ObjectKind kind, SourceLoc loc = {}, std::string_view name = {});
  // The end of a local's lifetime: later accesses report a dangling pointer.
  void kill(uint32_t id);
  // free(): heap objects only; null is a no-op.
  void free(uint64_t p, SourceLoc loc);
  // realloc(): a new object holding the old bytes; the old one is freed.
  uint64_t realloc(uint64_t p, uint64_t size, SourceLoc loc);

  // The host address of `size` bytes at `p`, after checking that p points into
  // a live object with room for them. `write` rejects read-only objects.
  uint8_t* at(uint64_t p, uint64_t size, SourceLoc loc, bool write = false) {
    uint32_t id = pointer_id(p);
    int32_t off = pointer_offset(p);
    if (id != 0 && id < objects_.size()) {
      Object& o = objects_[id];
      if (o.state == ObjectState::live && off >= 0 && uint64_t(off) + size <= o.size &&
          !(write && o.kind == ObjectKind::literal)) {
        return o.data.get() + off;
      }
    }
    fail(p, size, loc, write);
  }
  // Host address of an object's start (the object must exist and be live).
  uint8_t* data(uint32_t id) { return objects_[id].data.get(); }
  uint64_t size_of(uint32_t id) const { return objects_[id].size; }
  // Bytes from p to the end of its object (0 when p is not a valid pointer).
  uint64_t bytes_after(uint64_t p) const;
  bool is_live(uint32_t id) const {
    return id != 0 && id < objects_.size() && objects_[id].state == ObjectState::live;
  }
  ObjectKind kind(uint32_t id) const { return objects_[id].kind; }
  size_t object_count() const { return objects_.size(); }
  uint64_t heap_bytes_live() const { return heap_live_; }
  // Heap blocks count against `budget` (--max-memory); null: no cap.
  void set_budget(MemoryBudget* budget) { budget_ = budget; }

  // A NUL-terminated string at p, checked; error when unterminated in its object.
  std::string read_string(uint64_t p, SourceLoc loc);
  // Length of the string at p (like strlen), checked.
  uint64_t string_length(uint64_t p, SourceLoc loc);

 private:
  struct Object {
    std::unique_ptr<uint8_t[]> data;
    uint64_t size = 0;
    ObjectKind kind = ObjectKind::heap;
    ObjectState state = ObjectState::live;
    std::string_view name;  // a variable's name, else empty
    uint32_t line = 0;      // where it was declared or allocated
  };
  std::string describe(const Object& o) const;
  [[noreturn]] void fail(uint64_t p, uint64_t size, SourceLoc loc, bool write) const;

  std::vector<Object> objects_;
  uint64_t heap_live_ = 0;
  MemoryBudget* budget_ = nullptr;
};

}  // namespace brook::interp
