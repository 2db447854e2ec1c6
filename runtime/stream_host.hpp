// Streams as the host interpreter sees them (LANGUAGE.md §4–§8): the one
// interface through which host code declares streams, moves data in and out,
// and launches kernels and reductions. The default implementation reports
// "streams are not supported yet"; the stream runtime overrides it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "interp/machine.hpp"
#include "lang/ast.hpp"
#include "stdlib/builtins.hpp"

namespace brook {

// One evaluated argument of a stream operation or launch.
struct StreamArg {
  const ast::Expr* expr = nullptr;  // as written (type, location)
  const Type* type = nullptr;
  interp::Scalar scalar{};   // scalars and pointers; a stream's handle in .u
  interp::Vec vec{};         // vectors
  std::vector<uint8_t> bytes;  // structs and arrays passed by value
  // Host arrays, and a reduction's host target: the object's host address,
  // so the operation can write it back.
  uint8_t* place = nullptr;
};

class StreamHost {
 public:
  virtual ~StreamHost() = default;
  // `T name<extents>` (and `= iter(lo, hi)`: init holds lo and hi). Returns a
  // nonzero handle stored in the variable.
  virtual uint64_t create(interp::Machine& m, const ast::VarDecl& decl,
                          std::span<const int64_t> extents, std::span<const StreamArg> init);
  // The end of the variable's scope.
  virtual void release(interp::Machine& m, uint64_t handle);
  // streamRead, streamWrite, streamSwap, streamPrint, streamSize,
  // streamGatherOp, streamScatterOp. The result is the call's value (int4
  // for streamSize in `vec`).
  virtual StreamArg builtin(interp::Machine& m, stdlib::Builtin id, const ast::CallExpr& call,
                            std::span<const StreamArg> args);
  // A kernel or reduce call from host code.
  virtual void launch(interp::Machine& m, const ast::CallExpr& call, std::span<StreamArg> args);
  // A host function's stream parameter `p` declared with `extents` receives
  // the stream `handle`: a runtime error naming both shapes unless they agree.
  virtual void check_extents(interp::Machine& m, uint64_t handle, std::span<const int64_t> extents,
                             const ast::ParamDecl& p, SourceLoc loc);
  // s.domain(start, end): a handle to the view.
  virtual uint64_t domain(interp::Machine& m, const ast::DomainExpr& e, const StreamArg& stream,
                          const StreamArg& start, const StreamArg& end);
};

}  // namespace brook
