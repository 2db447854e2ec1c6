// Semantic analysis: name resolution, types, implicit conversions, constant
// folding, and the rules of LANGUAGE.md §5 (kernels), §6 (iterators), §7
// (reductions), §8 (gather/scatter operators). After a successful check every
// Expr has a type and every conversion is an explicit CastExpr (see ast.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include "lang/ast.hpp"
#include "lang/source.hpp"
#include "lang/types.hpp"

namespace brook {

// Shapes of the typed tree that ast.hpp leaves open, which backends may rely on:
// - A gather parameter's NameExpr (GatherExpr::param, a gather argument of a
//   kernel-to-kernel call, an indexof operand) has the element type.
// - Vector && and || convert both sides to a common vector type; result intN.
// - A braced initialiser is fully braced after sema: each InitListExpr has the
//   type of the object it initialises (unsized arrays completed) and at most
//   one element per member, each converted to exactly the member's type
//   (nested InitListExprs for aggregate members); missing members are zero.
//   `char s[] = "hi"` keeps the StringLit, typed char[3].
// - IterInitExpr has the iterator's stream type; lo/hi converted to its element.
// - The `op` argument of streamGatherOp/streamScatterOp, when it names a reduce
//   function, is a NameExpr with decl = that FuncDecl and type void.
// - Plain kernel parameters the parser marked Value become ParamKind::Const,
//   and kernel array parameters become Gather.
// - Kernel launch / reduction arguments for stream parameters are left as
//   stream-typed expressions (names, DomainExpr), uncast.
// - assert(e) on a pointer or a non-int scalar converts e through ToBool, then to int.
// - stdout and stderr are predeclared host globals of type void*.
struct SemaOptions {
  // REPL: a later definition of a function, kernel or global replaces the
  // earlier one instead of being a redefinition error.
  bool allow_redefinition = false;
};

class Sema {
 public:
  Sema(TypeContext& types, DiagnosticEngine& diags, SemaOptions options = {});
  ~Sema();
  Sema(const Sema&) = delete;
  Sema& operator=(const Sema&) = delete;

  // Checks a program. May be called repeatedly (REPL entries, included
  // modules): global declarations from earlier calls stay visible. Returns
  // false when errors were reported.
  bool check(ast::Program& program);

  // The end of a translation unit of a program built from several (`brook
  // run a.br b.c`): its file-scope `static` functions and variables stop
  // being visible, so the next unit may declare its own of the same names.
  // Code already checked keeps referring to them.
  void end_translation_unit();

  // The REPL's echo of a stream-valued entry (`p.domain(2, 9)` typed alone):
  // while on, an expression statement that is only a stream name is no error.
  void set_stream_echo(bool on);

  // The global declaration visible under `name` (newest first), or nullptr.
  ast::Decl* lookup_global(std::string_view name) const;

  // Folds an integer constant expression that sema has already checked.
  std::optional<int64_t> fold_int(const ast::Expr& e) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace brook
