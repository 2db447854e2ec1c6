// qsort and bsearch (LANGUAGE.md §9, <stdlib.h>): glibc 2.36's algorithms, so
// a program sees the same order for equal keys and the same sequence of
// comparison calls as under gcc. The comparison function is the program's, called
// through its function pointer; every element it is handed is a pointer into
// the caller's array, checked like any other.
#include <cstring>
#include <vector>

#include "interp/function_pointers.hpp"
#include "runtime/host_call.hpp"

namespace brook::host_detail {

namespace {

struct Comparator {
  Machine& m;
  interp::CompiledFunction& fn;
  SourceLoc loc;
  // (*cmp)(a, b), as an int.
  int32_t operator()(uint64_t a, uint64_t b) {
    interp::invoke(m, fn, loc, nullptr, [&](uint8_t* frame) {
      // (A K&R `int cmp()` definition has no parameters to receive them.)
      if (fn.param_offsets.size() > 0) interp::store_as<uint64_t>(frame + fn.param_offsets[0], a);
      if (fn.param_offsets.size() > 1) interp::store_as<uint64_t>(frame + fn.param_offsets[1], b);
    });
    return static_cast<int32_t>(m.ret.i);
  }
};

struct MergeSort {
  Machine& m;
  Comparator& cmp;
  uint64_t size;
  std::vector<uint8_t> tmp;
  SourceLoc loc;

  // glibc's msort_with_tmp: sort both halves, then merge, taking from the
  // left half while cmp(left, right) <= 0 (so equal elements keep their order).
  void sort(uint64_t b, uint64_t n) {
    if (n <= 1) return;
    uint64_t n1 = n / 2, n2 = n - n1;
    uint64_t b1 = b, b2 = interp::pointer_add(b, static_cast<int64_t>(n1 * size));
    sort(b1, n1);
    sort(b2, n2);
    uint8_t* t = tmp.data();
    while (n1 > 0 && n2 > 0) {
      uint64_t& from = cmp(b1, b2) <= 0 ? b1 : b2;
      // The comparison may have freed the array: every access is checked again.
      std::memcpy(t, m.memory.at(from, size, loc), size);
      if (&from == &b1)
        --n1;
      else
        --n2;
      from = interp::pointer_add(from, static_cast<int64_t>(size));
      t += size;
    }
    if (n1 > 0) {
      std::memcpy(t, m.memory.at(b1, n1 * size, loc), n1 * size);
    }
    uint64_t done = (n - n2) * size;
    std::memcpy(m.memory.at(b, done, loc, true), tmp.data(), done);
  }
};

}  // namespace

std::optional<Scalar> LibCall::sort(Machine& m) {
  if (id != Builtin::qsort && id != Builtin::bsearch) return std::nullopt;
  bool is_qsort = id == Builtin::qsort;
  // qsort(base, n, size, cmp) and bsearch(key, base, n, size, cmp).
  size_t first = is_qsort ? 0 : 1;
  uint64_t key = is_qsort ? 0 : arg(m, 0).u;
  uint64_t base = arg(m, first).u;
  uint64_t n = arg(m, first + 1).u, size = arg(m, first + 2).u;
  uint64_t fp = arg(m, first + 3).u;
  const Type* cmp_type = types[first + 3]->elem;
  interp::CompiledFunction& fn = interp::function_at(m, fp, cmp_type, {}, loc);
  if (n == 0 || size == 0) return interp::from_u64(0);
  if (n > interp::kMaxObjectSize / size) {
    throw RuntimeError{loc, "'" + call->callee + "' of " + std::to_string(n) + " elements of " +
                                std::to_string(size) + " bytes: larger than any object"};
  }
  m.memory.at(base, n * size, loc, is_qsort);  // the whole array is there (and writable)
  Comparator cmp{m, fn, loc};
  if (is_qsort) {
    MergeSort ms{m, cmp, size, std::vector<uint8_t>(n * size), loc};
    ms.sort(base, n);
    return interp::from_u64(0);
  }
  // glibc's bsearch: the key is always the first argument of the comparison.
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    uint64_t p = interp::pointer_add(base, static_cast<int64_t>(mid * size));
    int32_t c = cmp(key, p);
    if (c < 0)
      hi = mid;
    else if (c > 0)
      lo = mid + 1;
    else
      return interp::from_u64(p);
  }
  return interp::from_u64(0);
}

}  // namespace brook::host_detail
