// Calls of user functions: host functions, kernel launches from the host,
// kernel-to-kernel calls, and reductions. Builtins are in sema_builtins.cpp.
#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

// An `out` vector parameter bound to a stream of the same component type with
// fewer components (`out float2 o<>` and a `float` stream): §12's narrowing.
bool narrows_output(const Type* param, const Type* stream_elem) {
  if (!param->is_vector() || !stream_elem) return false;
  if (stream_elem->is_vector())
    return stream_elem->elem == param->elem && stream_elem->count < param->count;
  return stream_elem == param->elem;
}

SourceLoc callee_loc(const CallExpr& c) {
  return c.callee_loc.valid() ? c.callee_loc : c.loc;
}

std::string arg_desc(size_t i, const std::string& what) {
  return "argument " + std::to_string(i + 1) + " of " + what;
}

std::string kind_desc(const FuncDecl& f) {
  switch (f.fkind) {
    case FuncKind::Kernel:
      return "kernel '" + f.name + "'";
    case FuncKind::Reduce:
      return "reduce function '" + f.name + "'";
    case FuncKind::Host:
      break;
  }
  return "function '" + f.name + "'";
}

}  // namespace

void Sema::Impl::check_args_only(CallExpr& c) {
  for (ExprPtr& a : c.args) {
    if (kernel_param(*a)) continue;  // a gather name is fine as an argument
    check_expr(a);
  }
}

bool Sema::Impl::check_arity(CallExpr& c, size_t expected, bool variadic, std::string_view what) {
  size_t n = c.args.size();
  if (variadic ? n >= expected : n == expected) return true;
  std::string msg = std::string(what) + " takes " + (variadic ? "at least " : "") +
                    std::to_string(expected) + (expected == 1 ? " argument" : " arguments") +
                    ", but " + std::to_string(n) + (n == 1 ? " was" : " were") + " given";
  error(callee_loc(c), msg);
  check_args_only(c);
  return false;
}

const Type* Sema::Impl::stream_arg(ExprPtr& arg, std::string_view what) {
  const Type* t = check_expr(arg);
  if (t->is_error()) return nullptr;
  if (!t->is_stream()) {
    error(arg->loc, std::string(what) + " must be a stream, not " + quoted(t));
    return nullptr;
  }
  return t;
}

const Type* Sema::Impl::check_call(CallExpr& c) {
  if (c.callee_expr) return check_pointer_call(c);
  Decl* d = lookup(c.callee);
  if (d && (d->kind == DeclKind::Var || d->kind == DeclKind::Param)) {
    // `f(x)` where f holds a function pointer. Other variables keep the
    // messages below (and builtins stay reachable where C would shadow them).
    const Type* t = d->kind == DeclKind::Var ? d->as<VarDecl>()->type : d->as<ParamDecl>()->type;
    if (t && t->is_pointer() && t->elem->is_function()) {
      auto n = std::make_unique<NameExpr>(callee_loc(c));
      n->name = c.callee;
      c.callee_expr = std::move(n);
      return check_pointer_call(c);
    }
  }
  if (auto* f = d ? d->as<FuncDecl>() : nullptr) {
    c.func = f;
    switch (f->fkind) {
      case FuncKind::Host:
        c.target = CallTarget::Function;
        if (in_kernel()) {
          error(callee_loc(c), func_desc() + " cannot call host function '" + f->name + "'");
          return err();
        }
        // K&R `f();` declares no parameters: the definition's are checked,
        // against a prototyped one as if it were in scope.
        if (f->no_prototype && f->definition && !f->definition->old_style)
          return check_host_call(c, *(c.func = f->definition));
        if (f->no_prototype) return check_unprototyped_call(c, *f, false);
        return check_host_call(c, *c.func);
      case FuncKind::Kernel:
        c.target = CallTarget::Kernel;
        return in_kernel() ? check_kernel_subcall(c, *f) : check_kernel_launch(c, *f);
      case FuncKind::Reduce:
        c.target = CallTarget::Reduce;
        if (in_kernel()) {
          check_args_only(c);
          error(callee_loc(c), func_desc() + " cannot call reduce function '" + f->name +
                                   "'; reductions run from the host");
          return err();
        }
        return check_reduce_call(c, *f);
    }
  }
  if (const stdlib::BuiltinName* b = stdlib::find_builtin(c.callee)) return check_builtin(c, *b);
  auto later = later_functions.find(c.callee);
  if (!d && !in_kernel() && later != later_functions.end()) {
    // C89's implicit `int f()`; gcc 12 accepts it with this warning. The later
    // declaration decides whether the call was right (sema_unprototyped.cpp).
    if (implicit_reported.insert(c.callee).second)
      diags.warning(callee_loc(c), "implicit declaration of function '" + c.callee + "'");
    return check_unprototyped_call(c, *later->second, true);
  }
  check_args_only(c);
  if (d) {
    error(callee_loc(c), "'" + c.callee + "' is not a function");
  } else
    error(callee_loc(c), "unknown function '" + c.callee + "'" + suggestion(c.callee, NameKind::function));
  return err();
}

const Type* Sema::Impl::check_pointer_call(CallExpr& c) {
  const Type* t = check_value(c.callee_expr, "called");
  if (t->is_error()) {
    check_args_only(c);
    return err();
  }
  if (!t->is_pointer() || !t->elem->is_function()) {
    error(callee_loc(c),
          "called object of type " + quoted(t) + " is not a function or function pointer");
    check_args_only(c);
    return err();
  }
  if (in_kernel()) {
    error(callee_loc(c), func_desc() + " cannot call through a function pointer");
    check_args_only(c);
    return err();
  }
  const Type* ft = t->elem;
  c.target = CallTarget::Pointer;
  std::string what = c.callee.empty() ? "a function of type " + quoted(ft) : "'" + c.callee + "'";
  if (!ft->no_prototype && !check_arity(c, ft->params.size(), ft->variadic, what)) return ft->elem;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Type* at = check_value(c.args[i], "passed through a function pointer");
    if (at->is_error()) continue;
    if (!ft->no_prototype && i < ft->params.size()) {
      convert(c.args[i], ft->params[i], "for " + arg_desc(i, what));
    } else if (at->is_scalar()) {
      // No prototype, or past '...': C's default argument promotions.
      arith_convert(c.args[i], at->is_floating() ? types.double_type() : promote(at));
    } else if (!at->is_pointer() && !(ft->no_prototype && at->is_struct())) {
      error(c.args[i]->loc, "cannot pass " + quoted(at) + " through '...'");
    }
  }
  return ft->elem;
}

const Type* Sema::Impl::check_host_call(CallExpr& c, FuncDecl& f) {
  std::string what = "function '" + f.name + "'";
  if (!check_arity(c, f.params.size(), f.is_variadic, what)) return f.return_type;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i < f.params.size() && f.params[i]->type && stream_param_arg(c, i, *f.params[i])) continue;
    const Type* t = check_value(c.args[i], "passed to host function '" + f.name + "'");
    if (t->is_error()) continue;
    if (i < f.params.size()) {
      convert(c.args[i], f.params[i]->type, "for " + arg_desc(i, what));
    } else if (t->is_scalar()) {
      arith_convert(c.args[i], t->is_floating() ? types.double_type() : promote(t));
    } else if (!t->is_pointer()) {
      error(c.args[i]->loc, "cannot pass " + quoted(t) + " through '...'");
    }
  }
  return f.return_type ? f.return_type : err();
}

// A host function's stream parameter takes a stream (or view) of its element
// type, a pointer-to-stream parameter `&s` or another such pointer; the
// extents are checked when the call runs. False when `p` is no stream parameter.
bool Sema::Impl::stream_param_arg(CallExpr& c, size_t i, ParamDecl& p) {
  const Type* pt = p.type;
  const Type* want = pt->is_pointer() ? pt->elem : pt;
  if (!want->is_stream()) return false;
  ExprPtr& arg = c.args[i];
  const Type* t = check_expr(arg);
  if (t->is_error() || pt->is_error()) return true;
  std::string desc = arg_desc(i, "function '" + c.callee + "'");
  const Type* got = pt->is_pointer() ? (t->is_pointer() ? t->elem : nullptr) : t;
  if (!got || !got->is_stream() || got->elem != want->elem || got->is_iter) {
    std::string hint = pt->is_pointer() ? " (pass '&s' for a stream s)" : "";
    error(arg->loc, desc + " must be " + (pt->is_pointer() ? "a pointer to a stream of " : "a stream of ") +
                        quoted(want->elem) + hint + ", not " + quoted(t));
  }
  return true;
}

const Type* Sema::Impl::check_kernel_launch(CallExpr& c, FuncDecl& f) {
  std::string what = kind_desc(f);
  if (!check_arity(c, f.params.size(), false, what)) return types.void_type();
  bool has_out = false;
  for (size_t i = 0; i < c.args.size(); ++i) {
    ParamDecl& p = *f.params[i];
    ExprPtr& arg = c.args[i];
    std::string desc = arg_desc(i, what);
    switch (p.pkind) {
      case ParamKind::Input:
      case ParamKind::Iter:
      case ParamKind::Out: {
        if (p.pkind == ParamKind::Out) has_out = true;
        const Type* t = stream_arg(arg, desc);
        if (!t || p.type->is_error()) break;
        if (t->elem != p.type && p.pkind == ParamKind::Out && p.vout_bound < 0 && !t->is_iter &&
            narrows_output(p.type, t->elem)) {
          // BrookGPU wrote a float2 output into a float stream (a GPU keeps
          // the first channels): the stream gets each element's first
          // components, as the implicit narrowing conversion does (§12).
          const uint32_t dropped = p.type->count - (t->elem->is_vector() ? t->elem->count : 1);
          diags.warning(arg->loc, desc + " is a stream of " + quoted(t->elem) +
                                      " for the output '" + p.name + "' of type " + quoted(p.type) +
                                      ": its last " + std::to_string(dropped) +
                                      (dropped == 1 ? " component is" : " components are") +
                                      " dropped");
        } else if (t->elem != p.type)
          error(arg->loc, desc + " must be a stream of " + quoted(p.type) + ", not " + quoted(t));
        else if (p.pkind == ParamKind::Out && t->is_iter)
          error(arg->loc,
                desc + " is the 'out' parameter '" + p.name + "'; an iterator cannot be an output");
        else if (p.pkind == ParamKind::Iter && !t->is_iter)
          error(arg->loc, desc + " is the iterator parameter '" + p.name +
                              "': pass an iterator stream declared 'iter " + p.type->name() +
                              " s<...> = iter(lo, hi)'");
        break;
      }
      case ParamKind::Gather: {
        const Type* t = check_expr(arg);
        if (p.scatter) has_out = true;
        if (t->is_error() || p.type->is_error()) break;
        if (p.scatter) {
          // A scatter output (§12) writes a stream; host arrays are snapshots.
          if (!t->is_stream() || t->elem != p.type)
            error(arg->loc, desc + " is the scatter output '" + p.name +
                                "' and must be a stream of " + quoted(p.type) + ", not " +
                                quoted(t));
          else if (t->is_iter)
            error(arg->loc, desc + " is the scatter output '" + p.name +
                                "'; an iterator cannot be an output");
          break;
        }
        const Type* elem = t->is_stream() ? t->elem : nullptr;
        if (t->is_array()) {
          elem = t;
          while (elem->is_array()) elem = elem->elem;
        }
        if (!elem)
          error(arg->loc, desc + " is the gather array '" + p.name +
                              "': pass a stream or an array, not " + quoted(t));
        else if (elem != p.type)
          error(arg->loc, desc + " is the gather array '" + p.name + "' of " + quoted(p.type) +
                              ", not " + quoted(t));
        break;
      }
      case ParamKind::Const:
      case ParamKind::Value:
      case ParamKind::Reduce: {
        const Type* t = check_expr(arg);
        if (t->is_stream()) {
          error(arg->loc,
                desc + " is the constant parameter '" + p.name + "': pass a value, not a stream");
          break;
        }
        t = check_value(arg);
        if (!t->is_error() && !p.type->is_error()) convert(arg, p.type, "for " + desc);
        break;
      }
    }
  }
  if (f.return_type && !f.return_type->is_void() && !f.return_type->is_error()) {
    error(callee_loc(c),
          "kernel '" + f.name + "' returns a value, so only other kernels can call it");
  } else if (!has_out) {
    error(callee_loc(c),
          "kernel '" + f.name + "' has no 'out' stream, so it cannot be launched from the host");
  }
  return types.void_type();
}

const Type* Sema::Impl::check_kernel_subcall(CallExpr& c, FuncDecl& f) {
  kernel_calls.push_back({func, &f, callee_loc(c)});
  std::string what = kind_desc(f);
  const Type* result = f.return_type ? f.return_type : err();
  if (!check_arity(c, f.params.size(), false, what)) return result;
  for (const auto& p : f.params) {
    if (p->pkind != ParamKind::Out || p->vout_bound < 0) continue;
    // Pushes are ordered by the launched kernel's invocations (§12); a callee
    // has none of its own. The caller can write an 'out' and push it.
    error(callee_loc(c),
          "kernel '" + f.name + "' has the vout parameter '" + p->name +
              "', so only the host can launch it (push from a kernel called by a kernel "
              "is not supported; pass an 'out' parameter and push in the caller)");
    return result;
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    ParamDecl& p = *f.params[i];
    ExprPtr& arg = c.args[i];
    std::string desc = arg_desc(i, what);
    switch (p.pkind) {
      case ParamKind::Gather: {
        ParamDecl* mine = kernel_param(*arg);
        if (!mine || mine->pkind != ParamKind::Gather) {
          const Type* t = mine ? mine->type : check_expr(arg);
          if (t && !t->is_error())
            error(arg->loc, desc + " is the gather array '" + p.name +
                                "': pass a gather array of " + func_desc());
          break;
        }
        auto* n = arg->as<NameExpr>();
        n->decl = mine;
        n->type = mine->type;
        if (mine->scatter != p.scatter) {
          error(arg->loc, desc +
                              (p.scatter ? " is the scatter output '" : " is the gather array '") +
                              p.name + "'; '" + mine->name +
                              (mine->scatter ? "' is a scatter output" : "' is a gather array"));
          break;
        }
        if (mine->type != p.type || mine->gather_rank != p.gather_rank)
          error(arg->loc, desc + " is the gather array '" + p.name + "' of " + quoted(p.type) +
                              " with " + std::to_string(p.gather_rank) +
                              (p.gather_rank == 1 ? " dimension" : " dimensions") + "; '" +
                              mine->name + "' does not match");
        break;
      }
      case ParamKind::Out: {
        const Type* t = check_expr(arg);
        if (t->is_error() || p.type->is_error()) break;
        if (!check_modifiable(*arg, "write to")) break;
        if (t != p.type)
          error(arg->loc, desc + " binds to 'out' parameter '" + p.name +
                              "' and must be a variable of type " + quoted(p.type) + ", not " +
                              quoted(t));
        break;
      }
      default: {
        const Type* t = check_value(arg);
        if (!t->is_error() && !p.type->is_error()) convert(arg, p.type, "for " + desc);
        break;
      }
    }
  }
  return result;
}

const Type* Sema::Impl::check_reduce_call(CallExpr& c, FuncDecl& f) {
  std::string what = kind_desc(f);
  if (!check_arity(c, f.params.size(), false, what)) return types.void_type();
  for (size_t i = 0; i < c.args.size(); ++i) {
    ParamDecl& p = *f.params[i];
    ExprPtr& arg = c.args[i];
    std::string desc = arg_desc(i, what);
    switch (p.pkind) {
      case ParamKind::Input:
      case ParamKind::Iter: {
        const Type* t = stream_arg(arg, desc);
        if (t && !p.type->is_error() && t->elem != p.type)
          error(arg->loc, desc + " must be a stream of " + quoted(p.type) + ", not " + quoted(t));
        break;
      }
      case ParamKind::Reduce: {
        const Type* t = check_expr(arg);
        if (t->is_error() || p.type->is_error()) break;
        if (t->is_stream()) {
          if (t->elem != p.type || t->is_iter)
            error(arg->loc, desc + " receives the result and must be a stream of " +
                                quoted(p.type) + ", not " + quoted(t));
          break;
        }
        if (t != p.type) {
          error(arg->loc, desc + " receives the result and must be a variable of type " +
                              quoted(p.type) + " or a stream of it, not " + quoted(t));
          break;
        }
        check_modifiable(*arg, "store a reduction in");
        break;
      }
      case ParamKind::Gather: {
        const Type* t = check_expr(arg);
        if (t->is_error() || p.type->is_error()) break;
        const Type* elem = t->is_stream() ? t->elem : nullptr;
        if (t->is_array()) {
          elem = t;
          while (elem->is_array()) elem = elem->elem;
        }
        if (elem != p.type)
          error(arg->loc, desc + " is the gather array '" + p.name + "' of " + quoted(p.type) +
                              ", not " + quoted(t));
        break;
      }
      default: {
        const Type* t = check_expr(arg);
        if (t->is_stream()) {
          error(arg->loc,
                desc + " is the constant parameter '" + p.name + "': pass a value, not a stream");
          break;
        }
        t = check_value(arg);
        if (!t->is_error() && !p.type->is_error()) convert(arg, p.type, "for " + desc);
        break;
      }
    }
  }
  return types.void_type();
}

}  // namespace brook
