#include "interp/setjmp_nodes.hpp"

#include <cstring>

namespace brook::interp {

namespace {

// What setjmp writes at the start of the jmp_buf (200 bytes, as glibc's).
struct JmpRecord {
  uint64_t magic;
  const void* site;
  uint8_t* fp;
  int64_t depth;
  const CompiledFunction* fn;  // the function at that depth (null at top level)
};
constexpr uint64_t kJmpMagic = 0x62726f6f6b6a6d70ull;  // "brookjmp"

}  // namespace

Scalar SetjmpNode::eval(Machine& m) {
  if (m.longjmp_site == this) {  // back from a longjmp
    m.longjmp_site = nullptr;
    return put<int32_t>(m.longjmp_value);
  }
  JmpRecord r{kJmpMagic, this, m.fp, m.depth, m.depth > 0 ? m.calls[m.depth - 1].fn : nullptr};
  std::memcpy(m.memory.at(env->eval(m).u, sizeof r, loc, true), &r, sizeof r);
  return put<int32_t>(0);
}

Scalar LongjmpNode::eval(Machine& m) {
  JmpRecord r{};
  std::memcpy(&r, m.memory.at(env->eval(m).u, sizeof r, loc), sizeof r);
  const int32_t v = static_cast<int32_t>(value->eval(m).i);
  if (r.magic != kJmpMagic) throw RuntimeError{loc, "longjmp with a jmp_buf that no setjmp filled"};
  if (r.depth > m.depth || (r.depth > 0 && m.calls[r.depth - 1].fn != r.fn))
    throw RuntimeError{loc, "longjmp to a setjmp whose function has returned"};
  throw LongJump{r.site, r.fp, v == 0 ? 1 : v, loc};
}

Flow SetjmpBlockNode::exec(Machine& m) {
  uint8_t* const fp = m.fp;
  const int depth = m.depth;
  const StackArena::Mark mark = m.stack.mark();
  Flow f = Flow::normal;
  for (size_t i = 0; i < body.size();) {
    try {
      f = body[i]->exec(m);
    } catch (const LongJump& j) {
      size_t k = SIZE_MAX;
      if (j.fp == fp)
        for (const auto& [site, index] : sites)
          if (site == j.site) k = index;
      if (k == SIZE_MAX) throw;  // an outer block's, or a caller's
      // The calls longjmp left are abandoned, as in C.
      m.fp = fp;
      m.depth = depth;
      m.stack.release(mark);
      m.longjmp_site = j.site;
      m.longjmp_value = j.value;
      poll_interrupt();
      i = k;
      continue;
    }
    if (f == Flow::normal) {
      ++i;
      continue;
    }
    if (f != Flow::jump) break;
    size_t k = find(m.jump_to);
    if (k == SIZE_MAX) break;
    poll_interrupt();
    f = Flow::normal;
    i = k;
  }
  for (auto& s : at_exit) s->exec(m);
  return f;
}

}  // namespace brook::interp
