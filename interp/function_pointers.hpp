// Function pointers in the host interpreter (LANGUAGE.md §9, C99 6.3.2.3,
// 6.5.2.2). Taking a function's address gives it a memory object of kind
// `function` (size 0, so reading or writing through it as data is an error);
// the pointer is that object's id, and Machine::functions maps it back to the
// compiled function. Calls through a pointer check that it points to a
// function of a compatible type, where C would have undefined behaviour.
#pragma once

#include <vector>

#include "interp/compiler.hpp"
#include "interp/node.hpp"

namespace brook::interp {

// The function `p` points to, after checking that it is one and that its type
// agrees with `fn_type` (the pointer's function type) for arguments of the
// static types `arg_types` (relevant to a no-prototype pointer type).
// Otherwise a runtime error at `loc`.
CompiledFunction& function_at(Machine& m, uint64_t p, const Type* fn_type,
                              const std::vector<const Type*>& arg_types, SourceLoc loc);

// `f(args)` where f is a function pointer: callee evaluated first, then the
// arguments straight into the callee's frame, as CallNode does.
struct PointerCallNode : Node {
  NodePtr callee;
  const Type* fn_type = nullptr;
  struct Arg {
    NodePtr e;
    const Type* type;
    StoreFn store;
  };
  std::vector<Arg> args;
  std::vector<const Type*> arg_types;
  uint32_t result_temp = 0;  // aggregate results
  // The last function called, whose type is already known to agree.
  CompiledFunction* checked = nullptr;
  uint64_t checked_ptr = 0;

  void call(Machine& m, uint8_t* dest);
  Scalar eval(Machine& m) override {
    call(m, nullptr);
    return m.ret;
  }
  void eval_vec(Machine& m, Vec& out) override {
    call(m, nullptr);
    out = m.retv;
  }
  uint8_t* raw(Machine& m, bool) override {
    uint8_t* dest = m.fp + result_temp;
    call(m, dest);
    return dest;
  }
};

}  // namespace brook::interp
