// Sema::Impl::suggestion: the candidates "did you mean" chooses among, by what
// the misspelt name was used as.
#include <algorithm>
#include <vector>

#include "lang/sema_impl.hpp"
#include "lang/suggest.hpp"
#include "stdlib/builtins.hpp"

namespace brook {

namespace {
// Names of BrookGPU's runtime that its programs use and this implementation
// does not provide: the message names the form instead of a near spelling.
std::string_view brookgpu_only(std::string_view name) {
  if (name == "kprintf") return "BrookGPU's kernel debug print, not supported; use printf";
  if (name == "linearindexof")
    return "BrookGPU's linear position of an output, not supported; compute it from indexof";
  if (name == "streamRealloc1D" || name == "streamRealloc2D")
    return "BrookGPU's stream reallocation, not supported; declare a stream of the new size";
  return {};
}
}  // namespace

std::string Sema::Impl::suggestion(std::string_view name, NameKind kind) const {
  if (std::string_view what = brookgpu_only(name); !what.empty() && kind != NameKind::type)
    return " ('" + std::string(name) + "' is " + std::string(what) + ")";
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
