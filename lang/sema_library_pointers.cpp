// C library functions used as values (`double (*f)(double) = sin;`,
// `qsort(a, n, sizeof *a, strcmp_like)`, `{sin, cos, sqrt}`): each becomes a
// host function of the C prototype whose body calls the builtin, made once
// per name, so a pointer to it is an ordinary function pointer to every
// backend (a kernel never sees one). The C type follows <math.h>/<stdlib.h>:
// `sin` is double(double), `sinf` float(float), `abs` int(int); a prototype
// builtin keeps its prototype. Variadic functions (printf) have no such
// wrapper: a call through a pointer cannot forward `...`, so taking their
// address is an error that says so; so is taking the address of a Brook
// builtin (lerp, dot) or of a C macro (assert, isnan).
#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

// Arity of a generic math builtin's C form.
int math_arity(stdlib::Sig sig) {
  switch (sig) {
    case stdlib::Sig::FloatUnary:
    case stdlib::Sig::AnyUnary:
      return 1;
    case stdlib::Sig::FloatBinary:
    case stdlib::Sig::AnyBinary:
      return 2;
    case stdlib::Sig::FloatTernary:
    case stdlib::Sig::AnyTernary:
      return 3;
    default:
      return 0;
  }
}

}  // namespace

FuncDecl* Sema::Impl::library_function(const std::string& name, SourceLoc loc) {
  auto found = library_wrappers.find(name);
  if (found != library_wrappers.end()) return found->second.get();
  const stdlib::BuiltinName* b = stdlib::find_builtin(name);
  if (!b) return nullptr;
  const stdlib::BuiltinInfo& info = stdlib::builtin_info(b->id);
  const Type* result = nullptr;
  std::vector<const Type*> params;
  if (info.sig == stdlib::Sig::Prototype && info.where != stdlib::Where::kernel &&
      b->id != stdlib::Builtin::assert_) {
    const Prototype& p = prototype_of(info);
    if (p.variadic) {
      error(loc, "'" + name +
                     "' takes a variable argument list ('...'), which a call through a "
                     "function pointer cannot pass on; wrap the call in a function of your own "
                     "with fixed parameters and take that one's address");
      return nullptr;
    }
    result = p.result;
    params = p.params;
  } else if (int n = math_arity(info.sig);
             n > 0 && (name == info.c_double_name || b->force_float || name == "abs")) {
    const Type* t = name == "abs"    ? types.int_type()
                    : b->force_float ? types.float_type()
                                     : types.double_type();
    result = t;
    params.assign(static_cast<size_t>(n), t);
  } else {
    std::string why = info.sig == stdlib::Sig::Stream ? "a stream operation"
                      : info.where == stdlib::Where::kernel || info.c_double_name.empty()
                          ? "a Brook builtin or a C macro, not a C library function"
                          : "generic over its argument types in Brook";
    error(loc, "'" + name + "' is " + why +
                   ", so it has no address; call it from a function of your own and take "
                   "that one's address");
    return nullptr;
  }
  if (!result || result->is_error()) return nullptr;

  // The wrapper: `R name(P0 a0, …) { return name(a0, …); }`.
  auto f = std::make_unique<FuncDecl>(loc);
  f->name = name;
  f->fkind = FuncKind::Host;
  f->return_type = result;
  f->definition = f.get();
  f->type = types.function(result, params, false, false);
  auto call = std::make_unique<CallExpr>(loc);
  call->callee = name;
  call->callee_loc = loc;
  for (size_t i = 0; i < params.size(); ++i) {
    auto p = std::make_unique<ParamDecl>(loc);
    p->name = "a" + std::to_string(i);
    p->type = params[i];
    p->index = static_cast<int>(i);
    auto arg = std::make_unique<NameExpr>(loc);
    arg->name = p->name;
    call->args.push_back(std::move(arg));
    f->params.push_back(std::move(p));
  }
  f->body = std::make_unique<CompoundStmt>(loc);
  if (result->is_void()) {
    auto s = std::make_unique<ExprStmt>(loc);
    s->expr = std::move(call);
    f->body->body.push_back(std::move(s));
  } else {
    auto s = std::make_unique<ReturnStmt>(loc);
    s->value = std::move(call);
    f->body->body.push_back(std::move(s));
  }
  // Checked like a definition at top level, in a scope of its own (user
  // names cannot capture the parameters or the callee: the callee is looked
  // up as a builtin only because no user function of that name exists).
  FuncDecl* saved_func = func;
  auto saved_scopes = std::move(scopes);
  scopes.clear();
  scopes.emplace_back();
  push_scope();
  func = f.get();
  for (auto& p : f->params) declare(*p);
  check_compound(*f->body, false);
  scopes = std::move(saved_scopes);
  func = saved_func;
  FuncDecl* out = f.get();
  library_wrappers[name] = std::move(f);
  return out;
}

}  // namespace brook
