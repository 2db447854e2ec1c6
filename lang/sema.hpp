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

  // The global declaration visible under `name` (newest first), or nullptr.
  ast::Decl* lookup_global(std::string_view name) const;

  // Folds an integer constant expression that sema has already checked.
  std::optional<int64_t> fold_int(const ast::Expr& e) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace brook
