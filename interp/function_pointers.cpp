// Function pointers: resolving a pointer to the function it names, with the
// type check C leaves undefined (see function_pointers.hpp).
#include "interp/function_pointers.hpp"

#include <cstring>

#include "interp/varargs.hpp"

namespace brook::interp {

namespace {

// Types that agree at a call: equal, or both pointers (one representation,
// as in `int cmp(const int*, const int*)` passed to qsort after a cast).
bool agree(const Type* a, const Type* b) {
  return a == b || (a->is_pointer() && b->is_pointer());
}

bool callable_as(const Type* actual, const Type* fn_type,
                 const std::vector<const Type*>& arg_types) {
  if (actual == fn_type) return true;
  if (!actual || !agree(actual->elem, fn_type->elem)) return false;
  if (fn_type->no_prototype) {
    // The arguments, after C's default promotions, must suit the parameters.
    if (actual->no_prototype) return true;
    if (arg_types.size() < actual->params.size() ||
        (!actual->variadic && arg_types.size() != actual->params.size()))
      return false;
    for (size_t i = 0; i < actual->params.size(); ++i)
      if (!agree(arg_types[i], actual->params[i])) return false;
    return true;
  }
  if (actual->no_prototype)
    return actual->params.size() == fn_type->params.size() || actual->params.empty();
  if (actual->variadic != fn_type->variadic || actual->params.size() != fn_type->params.size())
    return false;
  for (size_t i = 0; i < actual->params.size(); ++i)
    if (!agree(actual->params[i], fn_type->params[i])) return false;
  return true;
}

}  // namespace

CompiledFunction& function_at(Machine& m, uint64_t p, const Type* fn_type,
                              const std::vector<const Type*>& arg_types, SourceLoc loc) {
  if (p == 0) throw RuntimeError{loc, "call through a null function pointer"};
  auto it = pointer_offset(p) == 0 ? m.functions.find(pointer_id(p)) : m.functions.end();
  if (it == m.functions.end())
    throw RuntimeError{loc, "call through a pointer that does not point to a function"};
  CompiledFunction& f = *it->second;
  const Type* actual = f.decl ? f.decl->type : nullptr;
  if (!actual || !callable_as(actual, fn_type, arg_types)) {
    throw RuntimeError{loc, "function '" + f.name + "' has type '" +
                                (actual ? actual->name() : "?") + "' but is called as '" +
                                fn_type->name() + "'"};
  }
  return f;
}

void PointerCallNode::call(Machine& m, uint8_t* dest) {
  uint64_t p = callee->eval(m).u;
  // A function object's id is never reused, so a pointer checked once stays good.
  CompiledFunction* f = checked;
  if (p != checked_ptr || !f) {
    f = &function_at(m, p, fn_type, arg_types, loc);
    checked = f;
    checked_ptr = p;
  }
  VarArgsScope varargs(m);
  invoke(m, *f, loc, dest, [&](uint8_t* frame) {
    if (f->va_offset >= 0) {
      std::vector<VarArg> extras;
      for (size_t i = f->param_offsets.size(); i < args.size(); ++i)
        extras.push_back({args[i].e.get(), args[i].type});
      uint64_t block = store_varargs(m, extras, loc);
      varargs.hold(block);
      store_as<uint64_t>(frame + f->va_offset, block);
    }
    for (size_t i = args.size(); i-- > 0;) {  // last first, as CallNode::store_args
      Arg& a = args[i];
      if (i >= f->param_offsets.size()) {
        // Extra arguments to a no-prototype function: evaluated for effects.
        if (a.store && f->va_offset < 0) a.e->eval(m);
        continue;
      }
      uint8_t* at = frame + f->param_offsets[i];
      if (a.store) {
        a.store(at, a.e->eval(m));
      } else if (a.type->is_vector()) {
        Vec v;
        a.e->eval_vec(m, v);
        store_vec(a.type, at, v);
      } else {
        std::memcpy(at, a.e->raw(m, false), a.type->size);
      }
    }
  });
}

}  // namespace brook::interp
