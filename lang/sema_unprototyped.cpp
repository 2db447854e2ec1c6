// Calls without a prototype in scope (C89 6.3.2.2, kept by C99 6.5.2.2p6):
// the implicit `int f()` of a call before any declaration, a K&R declaration
// `int f();`, and a K&R definition `int f(a, b) int a; float b; { … }`.
//
// The arguments get the default promotions (char/short/bool to int, float to
// double). C leaves the call undefined when the promoted arguments do not match
// the definition's (promoted) parameters, or when an implicit `int f()` meets a
// definition of another type; here those are errors naming both places:
//   - an implicit declaration is compatible with a later declaration that
//     returns int (or void, when every such call discards the value: gcc only
//     warns there), is not variadic, and has no parameter that the default
//     promotions change (a prototype's `float x` cannot receive a double);
//   - every call passes as many arguments as the definition has parameters,
//     each, after promotion, of the parameter's promoted type. Allowed as
//     well: another signedness of the integer (C allows it for values both
//     represent), void* against another pointer, and a wider integer for a
//     narrower one (`f(sizeof buf)` for an `unsigned n`), which old code does
//     and every x86-64 compiler passes in a register the callee reads the low
//     bits of; the value is converted, as the callee would see it.
// A compatible implicit declaration is a warning, as in gcc 12.
#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

SourceLoc callee_loc(const CallExpr& c) {
  return c.callee_loc.valid() ? c.callee_loc : c.loc;
}

std::string at_line(SourceLoc at, SourceLoc from) {
  return at.file == from.file ? " at line " + std::to_string(at.line) : "";
}

// Whether an argument of type `a` may be received as type `p` (both promoted).
bool passes_as(const Type* a, const Type* p) {
  if (a == p || a->is_error() || p->is_error()) return true;
  if (a->is_integer() && p->is_integer()) return a->size >= p->size;
  if (a->is_pointer() && p->is_pointer())
    return a->elem == p->elem || a->elem->is_void() || p->elem->is_void() ||
           functions_compatible(a->elem, p->elem);
  return false;
}

}  // namespace

const Type* Sema::Impl::default_promoted(const Type* t) const {
  if (!t->is_scalar()) return t;
  return t->kind == TypeKind::Float ? types.double_type() : promote(t);
}

const Type* Sema::Impl::check_unprototyped_call(CallExpr& c, FuncDecl& f, bool implicit) {
  c.target = CallTarget::Function;
  c.func = &f;
  for (ExprPtr& a : c.args) {
    const Type* t = check_value(a, "passed to function '" + c.callee + "'");
    if (t->is_error()) continue;
    if (t->is_scalar())
      arith_convert(a, default_promoted(t));
    else if (!t->is_pointer() && !t->is_struct() && !t->is_vector())
      error(a->loc, "cannot pass " + quoted(t) + " to function '" + c.callee +
                        "', which has no prototype here");
  }
  bool discarded = discarded_expr == &c;
  FuncDecl* def = &f.defined();
  if (implicit || !f.return_type) {
    pending_calls[f.name].push_back({&c, implicit, discarded});
    return types.int_type();
  }
  // A K&R definition (or a declaration linked to one) is already known.
  if (def->old_style || !def->no_prototype)
    check_unprototyped_args(c, *def);
  else
    pending_calls[f.name].push_back({&c, false, discarded});
  return f.return_type;
}

void Sema::Impl::check_unprototyped_args(CallExpr& c, const FuncDecl& f) {
  SourceLoc at = callee_loc(c);
  std::string def = "its definition" + at_line(f.loc, at);
  if (f.params.size() != c.args.size() || f.is_variadic) {
    size_t n = c.args.size(), want = f.params.size();
    error(at, "function '" + f.name + "' is called with " + std::to_string(n) +
                  (n == 1 ? " argument" : " arguments") + " but " + def + " takes " +
                  (f.is_variadic ? "at least " : "") + std::to_string(want) +
                  "; no prototype is in scope to check the call");
    return;
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Type* a = c.args[i]->type;
    const Type* p = f.params[i]->type;
    // A K&R definition converts the promoted argument on entry; a prototype does not.
    const Type* want = f.old_style ? default_promoted(p) : p;
    if (!a || !p || passes_as(a, want)) continue;
    std::string passed = want != p ? " (passed as " + quoted(want) + ")" : "";
    error(c.args[i]->loc, "argument " + std::to_string(i + 1) + " of '" + f.name + "' has type " +
                              quoted(a) + " after the default promotions, but " + def + " takes " +
                              quoted(p) + passed +
                              "; declare the function with a prototype before this call");
  }
}

void Sema::Impl::resolve_pending_calls(FuncDecl& f) {
  auto it = pending_calls.find(f.name);
  if (it == pending_calls.end() || f.fkind != FuncKind::Host) return;
  // A further K&R declaration `int f();` says nothing new: wait for one with parameters.
  if (f.no_prototype && !f.old_style && !f.body) return;
  std::vector<UnprototypedCall> calls = std::move(it->second);
  pending_calls.erase(it);
  const Type* rt = f.return_type;
  if (!rt || rt->is_error()) return;
  for (const auto& p : f.params)
    if (!p->type || p->type->is_error()) return;
  const UnprototypedCall* first_implicit = nullptr;
  bool all_discarded = true;
  for (const UnprototypedCall& u : calls) {
    if (!u.implicit) continue;
    if (!first_implicit) first_implicit = &u;
    all_discarded &= u.discarded;
  }
  if (first_implicit) {
    SourceLoc call_at = callee_loc(*first_implicit->call);
    std::string because;
    if (rt != types.int_type() && !(rt->is_void() && all_discarded)) {
      because = "it returns " + quoted(rt) + ", not 'int'";
    } else if (f.is_variadic) {
      because = "a variadic function needs a prototype before its calls";
    } else if (!f.old_style) {
      for (const auto& p : f.params)
        if (default_promoted(p->type) != p->type) {
          because = "parameter " +
                    (p->name.empty() ? std::to_string(p->index + 1) : "'" + p->name + "'") +
                    " has type " + quoted(p->type) +
                    ", which a call without a prototype passes as " +
                    quoted(default_promoted(p->type));
          break;
        }
    }
    if (!because.empty()) {
      error(f.loc, "conflicting types for '" + f.name + "': " + because + ", but the call" +
                       at_line(call_at, f.loc) + " declared it implicitly as 'int " + f.name +
                       "()'");
      diags.note(call_at, "implicit declaration of '" + f.name + "' here");
      return;
    }
    if (rt->is_void()) {
      // Every call discards the value, so the program is well defined; gcc warns.
      diags.warning(f.loc, "conflicting types for '" + f.name +
                               "': it returns 'void', but the call" + at_line(call_at, f.loc) +
                               " declared it implicitly as 'int " + f.name + "()'");
      diags.note(call_at, "implicit declaration of '" + f.name + "' here");
    }
  }
  for (const UnprototypedCall& u : calls) {
    u.call->func = &f;
    if (rt->is_void() && u.implicit) u.call->type = rt;  // a discarded call of a void function
    check_unprototyped_args(*u.call, f);
  }
}

}  // namespace brook
