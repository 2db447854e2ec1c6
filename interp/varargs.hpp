// Variadic host functions (<stdarg.h>, LANGUAGE.md §9).
//
// A call's arguments past the named parameters, already promoted by the
// checker (float → double, char/short → int), are written to a memory object
// of their own as 16-byte records: a kind tag, then the value, with a final
// record of tag 0. The callee's frame holds a pointer to the first record;
// `va_start` copies it into a va_list (a pointer), `va_arg(ap, T)` checks the
// record's kind against T and steps to the next one, and vprintf & co. read
// the records from ap on. The object ends when the call returns, so a va_list
// kept past it is a dangling pointer, reported as such.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "interp/node.hpp"
#include "lang/types.hpp"
#include "stdlib/format.hpp"

namespace brook::interp {

struct Machine;

inline constexpr uint64_t kVarArgRecordSize = 16;

// The kind a value of type `t` travels as through '...' (after promotion).
stdlib::FormatArg::Kind vararg_kind(const Type* t);
// The value `s` of type `t` as it travels through '...' (printf's and va_arg's).
stdlib::FormatArg vararg_value(const Type* t, Scalar s);

// One argument past the named parameters (the node belongs to the call).
struct VarArg {
  Node* e;
  const Type* type;
};

// Evaluates `extras` (in the caller's frame) into a new records object and
// returns its pointer. The caller kills the object when the call returns.
uint64_t store_varargs(Machine& m, std::span<const VarArg> extras, SourceLoc loc);

// The records from `ap` on, up to the terminating one.
std::vector<stdlib::FormatArg> load_varargs(Machine& m, uint64_t ap, SourceLoc loc);

// va_arg(*ap_slot, T) where `want` is T: checks the next record's kind,
// advances the va_list at `ap_slot` and returns the pointer to the value.
uint64_t next_vararg(Machine& m, uint64_t ap_slot, const Type* want, SourceLoc loc);

// The records object of one call, ended on every way out of the call.
class VarArgsScope {
 public:
  VarArgsScope(Machine& m) : m_(m) {}
  VarArgsScope(const VarArgsScope&) = delete;
  VarArgsScope& operator=(const VarArgsScope&) = delete;
  ~VarArgsScope();
  void hold(uint64_t pointer) { pointer_ = pointer; }

 private:
  Machine& m_;
  uint64_t pointer_ = 0;
};

}  // namespace brook::interp
