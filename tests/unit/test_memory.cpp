// The host memory model: C layout, checked access, stale pointers.
#include <doctest/doctest.h>

#include "interp/memory.hpp"

using namespace brook;
using namespace brook::interp;

namespace {
std::string error_of(auto&& f) {
  try {
    f();
  } catch (const RuntimeError& e) {
    return e.message;
  }
  return "";
}
}  // namespace

TEST_CASE("memory: pointers carry object id and offset") {
  uint64_t p = make_pointer(7, 40);
  CHECK(pointer_id(p) == 7);
  CHECK(pointer_offset(p) == 40);
  uint64_t q = pointer_add(p, -44);
  CHECK(pointer_id(q) == 7);  // never walks into another object
  CHECK(pointer_offset(q) == -4);
}

TEST_CASE("memory: in-bounds access works and out-of-bounds is reported") {
  Memory m;
  uint32_t id = m.allocate(40, ObjectKind::heap);
  uint64_t p = make_pointer(id, 0);
  store_as<int32_t>(m.at(pointer_add(p, 36), 4, {}), 123);
  CHECK(load_as<int32_t>(m.at(pointer_add(p, 36), 4, {})) == 123);
  CHECK(error_of([&] { m.at(pointer_add(p, 40), 4, {}); }) ==
        "out-of-bounds access: 4 bytes at offset 40 of a 40-byte block from malloc");
  CHECK(error_of([&] { m.at(pointer_add(p, 38), 4, {}); }) ==
        "out-of-bounds access: 4 bytes at offset 38 of a 40-byte block from malloc");
  CHECK(error_of([&] { m.at(pointer_add(p, -4), 4, {}); }) ==
        "out-of-bounds access: 4 bytes at offset -4 of a 40-byte block from malloc");
  // Named objects are named; "an" before the sizes read with a vowel.
  uint64_t named = make_pointer(m.allocate(16, ObjectKind::local, {1, 3, 5}, "data"), 0);
  CHECK(error_of([&] { m.at(pointer_add(named, 16), 4, {}); }) ==
        "out-of-bounds access: 4 bytes at offset 16 of 'data' (16 bytes)");
  uint64_t block = make_pointer(m.allocate(8, ObjectKind::heap, {1, 12, 5}), 0);
  CHECK(error_of([&] { m.at(pointer_add(block, 8), 1, {}); }) ==
        "out-of-bounds access: 1 byte at offset 8 of an 8-byte block from malloc (line 12)");
  uint64_t eleven = make_pointer(m.allocate(11, ObjectKind::heap), 0);
  CHECK(error_of([&] {
          m.at(pointer_add(eleven, 11), 1, {});
        }).ends_with("of an 11-byte block from malloc"));
}

TEST_CASE("memory: null, freed, double free and non-heap free") {
  Memory m;
  CHECK(error_of([&] { m.at(0, 1, {}); }) == "null pointer dereference");
  uint64_t p = make_pointer(m.allocate(8, ObjectKind::heap), 0);
  m.free(p, {});
  CHECK(error_of([&] { m.at(p, 1, {}); }) == "use of memory after free");
  CHECK(error_of([&] { m.free(p, {}); }) == "double free");
  uint64_t g = make_pointer(m.allocate(8, ObjectKind::global), 0);
  CHECK(error_of([&] { m.free(g, {}); }) == "free() of a pointer that malloc did not return");
  uint64_t h = make_pointer(m.allocate(8, ObjectKind::heap), 0);
  CHECK(error_of([&] { m.free(pointer_add(h, 4), {}); }) ==
        "free() of a pointer that malloc did not return");
  m.free(0, {});  // free(NULL) is a no-op
}

TEST_CASE("memory: dead locals and ids are never reused") {
  Memory m;
  uint32_t a = m.allocate(4, ObjectKind::local);
  m.kill(a);
  uint32_t b = m.allocate(4, ObjectKind::local);
  CHECK(a != b);
  CHECK(error_of([&] { m.at(make_pointer(a, 0), 4, {}); }) ==
        "use of a pointer to a variable that no longer exists");
  CHECK(m.is_live(b));
}

TEST_CASE("memory: realloc keeps the bytes and frees the old block") {
  Memory m;
  uint64_t p = make_pointer(m.allocate(4, ObjectKind::heap), 0);
  store_as<int32_t>(m.at(p, 4, {}), 77);
  uint64_t q = m.realloc(p, 16, {});
  CHECK(load_as<int32_t>(m.at(q, 4, {})) == 77);
  CHECK(m.size_of(pointer_id(q)) == 16);
  CHECK(error_of([&] { m.at(p, 4, {}); }) == "use of memory after free");
}

TEST_CASE("memory: strings must end inside their object; literals are read-only") {
  Memory m;
  uint32_t id = m.allocate(3, ObjectKind::heap);
  std::memcpy(m.data(id), "abc", 3);
  CHECK(error_of([&] { m.read_string(make_pointer(id, 0), {}); }) ==
        "string is not NUL-terminated within its object");
  m.data(id)[2] = 0;
  CHECK(m.read_string(make_pointer(id, 0), {}) == "ab");
  CHECK(m.string_length(make_pointer(id, 1), {}) == 1);
  uint32_t lit = m.allocate(2, ObjectKind::literal);
  CHECK(m.at(make_pointer(lit, 0), 1, {}) != nullptr);
  CHECK_FALSE(error_of([&] { m.at(make_pointer(lit, 0), 1, {}, true); }).empty());
}

TEST_CASE("memory: allocations above 1 GiB are out of memory") {
  Memory m;
  CHECK(error_of([&] { m.allocate(2000000000, ObjectKind::heap); }) ==
        "out of memory: cannot allocate 2000000000 bytes");
}
