// The sema driver: scopes, the global scope that outlives one check(), and the
// whole-program rules (kernel recursion).
#include "lang/sema.hpp"

#include <functional>
#include <set>

#include "lang/sema_impl.hpp"

namespace brook {

std::string quoted(const Type* t) {
  return "'" + (t ? t->name() : std::string("<error>")) + "'";
}

Sema::Impl::Impl(TypeContext& t, DiagnosticEngine& d, SemaOptions o)
    : types(t), diags(d), options(o) {
  scopes.emplace_back();
  // The C library's globals the engine gives values to. getopt's yield to a
  // program's own declaration of the name (it need not include <unistd.h>).
  auto predeclare = [&](const char* name, const Type* type, bool yielding) {
    auto v = std::make_unique<ast::VarDecl>(SourceLoc{});
    v->name = name;
    v->type = type;
    v->is_global = true;
    scopes.front().names[name] = v.get();
    if (yielding) yielding_globals.push_back(v.get());
    predeclared.push_back(std::move(v));
  };
  for (const char* name : {"stdout", "stderr", "stdin"})
    predeclare(name, types.pointer(types.void_type()), false);
  predeclare("optarg", types.pointer(types.char_type()), true);
  for (const char* name : {"optind", "opterr", "optopt"}) predeclare(name, types.int_type(), true);
}

ast::Decl* Sema::Impl::lookup(std::string_view name) const {
  std::string key(name);
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto found = it->names.find(key);
    if (found != it->names.end()) return found->second;
  }
  return nullptr;
}

ast::Decl* Sema::Impl::lookup_tag(std::string_view name) const {
  std::string key(name);
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto found = it->tags.find(key);
    if (found != it->tags.end()) return found->second;
  }
  return nullptr;
}

bool Sema::Impl::declare(ast::Decl& d) {
  if (d.name.empty()) return true;
  auto& names = scopes.back().names;
  auto it = names.find(d.name);
  if (it != names.end() && it->second != &d) {
    if (at_global_scope() && reread(it->second->loc, d.loc)) return true;  // keeps the first
    bool replace = at_global_scope() && (options.allow_redefinition || yields(it->second));
    if (!replace) {
      error(d.loc, "redefinition of '" + d.name + "'");
      return false;
    }
  }
  names[d.name] = &d;
  return true;
}

std::string Sema::Impl::func_desc() const {
  if (!func) return "top-level code";
  switch (func->fkind) {
    case ast::FuncKind::Kernel:
      return "kernel '" + func->name + "'";
    case ast::FuncKind::Reduce:
      return "reduce function '" + func->name + "'";
    case ast::FuncKind::Host:
      break;
  }
  return "function '" + func->name + "'";
}

void Sema::Impl::check_recursion() {
  // A kernel may reach itself only through prototypes or a direct self call;
  // both show up as a cycle among the recorded calls.
  auto target = [](ast::FuncDecl* f) { return &f->defined(); };
  std::map<ast::FuncDecl*, std::vector<ast::FuncDecl*>> edges;
  for (const KernelCall& c : kernel_calls) edges[target(c.caller)].push_back(target(c.callee));
  std::set<ast::FuncDecl*> reported;
  for (const KernelCall& c : kernel_calls) {
    ast::FuncDecl* start = target(c.caller);
    if (reported.count(start) || reported.count(target(c.callee))) continue;
    std::set<ast::FuncDecl*> seen;
    std::vector<ast::FuncDecl*> todo{target(c.callee)};
    bool cycle = false;
    while (!todo.empty() && !cycle) {
      ast::FuncDecl* f = todo.back();
      todo.pop_back();
      if (f == start) cycle = true;
      if (!seen.insert(f).second) continue;
      for (ast::FuncDecl* next : edges[f]) todo.push_back(next);
    }
    if (!cycle) continue;
    reported.insert(start);
    reported.insert(target(c.callee));
    if (target(c.callee) == start)
      error(c.loc, "kernel '" + start->name + "' cannot call itself: kernels cannot be recursive");
    else
      error(c.loc, "kernels cannot be recursive: '" + start->name + "' calls '" + c.callee->name +
                       "', which leads back to '" + start->name + "'");
  }
  kernel_calls.clear();
}

void Sema::set_stream_echo(bool on) { impl_->stream_echo = on; }

Sema::Sema(TypeContext& types, DiagnosticEngine& diags, SemaOptions options)
    : impl_(std::make_unique<Impl>(types, diags, options)) {}

Sema::~Sema() = default;

bool Sema::check(ast::Program& program) {
  size_t errors_before = impl_->diags.error_count();
  impl_->later_functions.clear();
  for (ast::StmtPtr& item : program.items) {
    auto* ds = item ? item->as<ast::DeclStmt>() : nullptr;
    if (!ds) continue;
    for (ast::DeclPtr& d : ds->decls)
      if (auto* f = d->as<ast::FuncDecl>(); f && f->fkind == ast::FuncKind::Host)
        impl_->later_functions.emplace(f->name, f);
  }
  for (ast::StmtPtr& item : program.items) {
    if (!item) continue;
    impl_->func = nullptr;
    impl_->check_stmt(*item);
  }
  impl_->check_recursion();
  return impl_->diags.error_count() == errors_before;
}

void Sema::end_translation_unit() {
  auto& names = impl_->scopes.front().names;
  for (auto it = names.begin(); it != names.end();) {
    const ast::Decl* d = it->second;
    const auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
    const auto* v = d ? d->as<ast::VarDecl>() : nullptr;
    if ((f && f->is_static) || (v && v->is_static)) {
      if (f) impl_->function_decls.erase(it->first);
      it = names.erase(it);
    } else {
      ++it;
    }
  }
}

ast::Decl* Sema::lookup_global(std::string_view name) const {
  const auto& names = impl_->scopes.front().names;
  auto it = names.find(std::string(name));
  return it == names.end() ? nullptr : it->second;
}

std::optional<int64_t> Sema::fold_int(const ast::Expr& e) const {
  return impl_->fold(e);
}

}  // namespace brook
