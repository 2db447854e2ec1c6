// Sema::Impl::suggestion: the candidates "did you mean" chooses among, by what
// the misspelt name was used as.
#include <algorithm>
#include <vector>

#include "lang/sema_impl.hpp"
#include "lang/suggest.hpp"
#include "stdlib/builtins.hpp"

namespace brook {

std::string Sema::Impl::suggestion(std::string_view name, NameKind kind) const {
  std::vector<std::string_view> candidates;
  for (const Scope& scope : scopes) {
    for (const auto& [spelling, decl] : scope.names) {
      const bool is_type = decl->as<ast::TypedefDecl>() != nullptr;
      const bool is_function = decl->as<ast::FuncDecl>() != nullptr;
      if (kind == NameKind::type ? is_type : kind == NameKind::function ? is_function : !is_type) {
        candidates.push_back(spelling);
      }
    }
  }
  if (kind == NameKind::type) {
    for (std::string_view t : builtin_type_spellings()) candidates.push_back(t);
  } else {
    for (const stdlib::BuiltinName& b : stdlib::all_builtin_names()) candidates.push_back(b.name);
  }
  // Scopes are hash maps: sort, so equally near candidates always resolve alike.
  std::sort(candidates.begin(), candidates.end());
  return did_you_mean(name, candidates);
}

}  // namespace brook
