// Calls of the builtin table (stdlib/builtins.hpp): math and vector functions
// typed by their Sig, the host C library typed by its prototype (with printf
// formats checked at compile time when literal), and the stream operations.
#include <cctype>

#include "lang/sema_impl.hpp"
#include "stdlib/format.hpp"

namespace brook {

using namespace ast;
using stdlib::Builtin;
using stdlib::Sig;

namespace {

SourceLoc callee_loc(const CallExpr& c) {
  return c.callee_loc.valid() ? c.callee_loc : c.loc;
}

std::string nth(size_t i) {
  return "argument " + std::to_string(i + 1);
}

std::optional<stdlib::FormatArg::Kind> format_kind(const Type* t) {
  using K = stdlib::FormatArg::Kind;
  if (t->is_pointer() || t->is_array()) return K::Pointer;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Char:
    case TypeKind::UChar:
    case TypeKind::Short:
    case TypeKind::UShort:
    case TypeKind::Int:
      return K::Int;
    case TypeKind::UInt:
      return K::UInt;
    case TypeKind::Long:
      return K::Long;
    case TypeKind::ULong:
      return K::ULong;
    case TypeKind::Float:
    case TypeKind::Double:
      return K::Double;
    default:
      return std::nullopt;
  }
}

int arity_of(Sig sig) {
  switch (sig) {
    case Sig::FloatBinary:
    case Sig::AnyBinary:
    case Sig::Dot:
    case Sig::Cross:
    case Sig::Distance:
    case Sig::Reflect:
      return 2;
    case Sig::FloatTernary:
    case Sig::Lerp:
    case Sig::AnyTernary:
      return 3;
    case Sig::Instance:
    case Sig::SyncGroup:
      return 0;
    default:
      return 1;
  }
}

}  // namespace

const Type* Sema::Impl::float_of(const Type* t, bool force_float) const {
  const Type* comp = t->scalar_of();
  const Type* f = comp;
  if (force_float)
    f = types.float_type();
  else if (!comp->is_floating())
    f = in_kernel() ? types.float_type() : types.double_type();
  if (f == comp) return t;
  return t->is_vector() ? types.vector(f, t->count) : f;
}

const Type* Sema::Impl::check_builtin(CallExpr& c, const stdlib::BuiltinName& b) {
  const stdlib::BuiltinInfo& info = stdlib::builtin_info(b.id);
  c.target = CallTarget::Builtin;
  c.builtin = static_cast<uint16_t>(b.id);
  if (info.where == stdlib::Where::host && in_kernel()) {
    error(callee_loc(c), "'" + c.callee + "' cannot be called in a kernel");
    return err();
  }
  if (info.where == stdlib::Where::kernel && !in_kernel()) {
    check_args_only(c);
    error(callee_loc(c), "'" + c.callee + "' can only be called in a kernel");
    return err();
  }
  switch (info.sig) {
    case Sig::Prototype:
      return check_prototype_builtin(c, info);
    case Sig::Stream:
      return check_stream_builtin(c, info);
    case Sig::Instance:
      if (!check_arity(c, 0, false, "'" + c.callee + "'")) return err();
      return types.vector(types.int_type(), 4);
    case Sig::SyncGroup:
      if (!check_arity(c, 0, false, "'" + c.callee + "'")) return err();
      return types.void_type();
    case Sig::Pack4ubyte:
    case Sig::Unpack4ubyte: {
      // pack_4ubyte(float4) -> float, unpack_4ubyte(float) -> float4 (§12).
      if (!check_arity(c, 1, false, "'" + c.callee + "'")) return err();
      const bool pack = info.sig == Sig::Pack4ubyte;
      const Type* want = pack ? types.vector(types.float_type(), 4) : types.float_type();
      const Type* t = check_value(c.args[0]);
      if (t->is_error()) return err();
      if (!t->is_arithmetic() || (pack && t->is_vector() && t->count != 4) ||
          (!pack && t->is_vector())) {
        error(c.args[0]->loc,
              "the argument of '" + c.callee + "' must be " + quoted(want) + ", not " + quoted(t));
        return err();
      }
      if (!convert(c.args[0], want, "for the argument of '" + c.callee + "'")) return err();
      return pack ? types.float_type() : types.vector(types.float_type(), 4);
    }
    case Sig::Push: {
      // push(e): e must name a `vout` parameter of the kernel (§12).
      if (!check_arity(c, 1, false, "'" + c.callee + "'")) return err();
      const Type* t = check_expr(c.args[0]);
      if (t->is_error()) return err();
      auto* n = c.args[0]->as<NameExpr>();
      auto* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
      if (!p || p->vout_bound < 0) {
        error(c.args[0]->loc, "'push' needs a 'vout' parameter of the kernel");
        return err();
      }
      return types.void_type();
    }
    default:
      return check_math_builtin(c, info, b.force_float);
  }
}

const Type* Sema::Impl::check_math_builtin(CallExpr& c, const stdlib::BuiltinInfo& info,
                                           bool force_float) {
  std::string name = "'" + c.callee + "'";
  if (!check_arity(c, static_cast<size_t>(arity_of(info.sig)), false, name)) return err();
  bool ok = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Type* t = check_value(c.args[i], "passed to " + name + " on the host; use a kernel");
    if (t->is_error()) {
      ok = false;
    } else if (!t->is_arithmetic()) {
      error(c.args[i]->loc,
            nth(i) + " of " + name + " must be a number or vector, not " + quoted(t));
      ok = false;
    }
  }
  if (!ok) return err();
  const Type* ct = c.args[0]->type;
  for (size_t i = 1; i < c.args.size() && ct; ++i) {
    const Type* next = common_arith(ct, c.args[i]->type);
    if (!next) {
      error(c.args[i]->loc, "the arguments of " + name + " have different widths: " + quoted(ct) +
                                " and " + quoted(c.args[i]->type));
      return err();
    }
    ct = next;
  }
  auto convert_all = [&](const Type* to) {
    for (ExprPtr& a : c.args) arith_convert(a, to);
  };
  switch (info.sig) {
    case Sig::FloatUnary:
    case Sig::FloatBinary:
    case Sig::FloatTernary:
    case Sig::Lerp:
    case Sig::Normalize:
    case Sig::Reflect: {
      const Type* t = float_of(ct, force_float);
      convert_all(t);
      return t;
    }
    case Sig::AnyUnary:
    case Sig::AnyBinary:
    case Sig::AnyTernary: {
      const Type* t = promote(ct);
      if (force_float) t = float_of(t, true);
      convert_all(t);
      return t;
    }
    case Sig::Classify: {
      const Type* t = float_of(ct, force_float);
      convert_all(t);
      return int_vector(t->width());
    }
    case Sig::Dot: {
      const Type* t = promote(ct);
      convert_all(t);
      return t->scalar_of();
    }
    case Sig::Cross: {
      if (ct->width() != 3) {
        error(c.loc, name + " needs 3-component vectors, not " + quoted(ct));
        return err();
      }
      const Type* t = float_of(ct, force_float);
      convert_all(t);
      return t;
    }
    case Sig::Length:
    case Sig::Distance: {
      const Type* t = float_of(ct, force_float);
      convert_all(t);
      return t->scalar_of();
    }
    case Sig::AnyAll:
      return types.int_type();
    case Sig::IntUnary: {
      if (!ct->scalar_of()->is_integer()) {
        error(c.args[0]->loc, nth(0) + " of " + name + " must be an integer, not " + quoted(ct));
        return err();
      }
      const Type* t = promote(ct);
      convert_all(t);
      return t;
    }
    default:
      break;
  }
  return err();
}

const Type* Sema::Impl::parse_c_type(std::string_view text) {
  int stars = 0;
  bool is_unsigned = false;
  TypeKind kind = TypeKind::Int;
  bool saw_base = false;
  std::string word;
  auto flush = [&]() {
    if (word == "unsigned")
      is_unsigned = true;
    else if (word == "void")
      kind = TypeKind::Void, saw_base = true;
    else if (word == "char")
      kind = TypeKind::Char, saw_base = true;
    else if (word == "short")
      kind = TypeKind::Short, saw_base = true;
    else if (word == "int") {
      if (!saw_base) kind = TypeKind::Int;
      saw_base = true;
    } else if (word == "long")
      kind = TypeKind::Long, saw_base = true;
    else if (word == "float")
      kind = TypeKind::Float, saw_base = true;
    else if (word == "double")
      kind = TypeKind::Double, saw_base = true;
    else if (word == "bool")
      kind = TypeKind::Bool, saw_base = true;
    word.clear();  // anything else is a parameter name or `const`
  };
  // <time.h>'s broken-down time, <stdlib.h>'s div_t and ldiv_t.
  for (std::string_view tag : {"tm", "__brook_div_t", "__brook_ldiv_t"}) {
    if (text.find("struct " + std::string(tag)) == std::string_view::npos) continue;
    const Type* st = library_struct_type(std::string(tag), {});
    return text.find('*') != std::string_view::npos ? types.pointer(st) : st;
  }
  // atexit's handler: void (*)(void).
  if (text.find("__atexit_fn_t") != std::string_view::npos)
    return types.pointer(types.function(types.void_type(), {}, false, false));
  // <signal.h>'s handler: void (*)(int).
  if (text.find("__sighandler_t") != std::string_view::npos)
    return types.pointer(types.function(types.void_type(), {types.int_type()}, false, false));
  // glibc's name for qsort's and bsearch's comparison function type.
  if (text.find("__compar_fn_t") != std::string_view::npos) {
    const Type* vp = types.pointer(types.void_type());
    return types.pointer(types.function(types.int_type(), {vp, vp}, false, false));
  }
  for (char ch : text) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
      word += ch;
    } else {
      flush();
      if (ch == '*') ++stars;
    }
  }
  flush();
  if (is_unsigned) {
    switch (kind) {
      case TypeKind::Char:
        kind = TypeKind::UChar;
        break;
      case TypeKind::Short:
        kind = TypeKind::UShort;
        break;
      case TypeKind::Long:
        kind = TypeKind::ULong;
        break;
      default:
        kind = TypeKind::UInt;
        break;
    }
  }
  const Type* t = types.scalar(kind);
  for (int i = 0; i < stars; ++i) t = types.pointer(t);
  return t;
}

const Sema::Impl::Prototype& Sema::Impl::prototype_of(const stdlib::BuiltinInfo& info) {
  auto it = prototypes.find(info.id);
  if (it != prototypes.end()) return it->second;
  Prototype p;
  std::string_view text = info.prototype;
  size_t open = text.find('(');
  size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    p.result = types.int_type();
    p.variadic = true;
    return prototypes[info.id] = p;
  }
  // "int printf(char* format, ...)": the result type is what precedes the name.
  std::string_view head = text.substr(0, open);
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  size_t name_start = head.find_last_of(" *");
  p.result =
      parse_c_type(name_start == std::string_view::npos ? head : head.substr(0, name_start + 1));
  std::string_view params = text.substr(open + 1, close - open - 1);
  while (!params.empty()) {
    size_t comma = params.find(',');
    std::string_view one = params.substr(0, comma);
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 1);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    while (!one.empty() && one.back() == ' ') one.remove_suffix(1);
    if (one == "...")
      p.variadic = true;
    else if (!one.empty() && one != "void")
      p.params.push_back(parse_c_type(one));
  }
  return prototypes[info.id] = p;
}

const Type* Sema::Impl::check_prototype_builtin(CallExpr& c, const stdlib::BuiltinInfo& info) {
  const Prototype& proto = prototype_of(info);
  std::string name = "'" + c.callee + "'";
  if (!check_arity(c, proto.params.size(), proto.variadic, name)) return proto.result;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Type* t = check_value(c.args[i], "passed to " + name);
    if (t->is_error()) continue;
    if (info.id == Builtin::assert_ &&
        (t->is_pointer() || (t->is_scalar() && t != types.int_type()))) {
      // C's assert tests `e != 0` for any scalar or pointer: 0.5 holds.
      cast_to(c.args[i], types.bool_type(), CastKind::ToBool);
      arith_convert(c.args[i], types.int_type());
    } else if (i < proto.params.size()) {
      convert(c.args[i], proto.params[i], "for " + nth(i) + " of " + name);
    } else if (t->is_scalar()) {
      // C's default argument promotions.
      arith_convert(c.args[i], t->is_floating() ? types.double_type() : promote(t));
    } else if (!t->is_pointer()) {
      error(c.args[i]->loc, "cannot pass " + quoted(t) + " to " + name + " through '...'");
      c.args[i]->type = err();
    }
  }
  switch (info.id) {
    case Builtin::printf:
      check_format(c, 0);
      break;
    case Builtin::fprintf:
    case Builtin::sprintf:
      check_format(c, 1);
      break;
    case Builtin::snprintf:
      check_format(c, 2);
      break;
    case Builtin::brook_va_start:
      if (!func || !func->is_variadic)
        error(c.loc, std::string("'va_start' used ") +
                         (func ? "in function '" + func->name + "', which has no '...'"
                               : "outside a function"));
      break;
    case Builtin::brook_va_arg:
      check_va_arg_type(c);
      break;
    default:
      break;
  }
  return proto.result;
}

// va_arg(ap, T) reads an argument as it travelled through '...': T must be
// a promoted type (C99 7.15.1.1; gcc's code traps on the others).
void Sema::Impl::check_va_arg_type(CallExpr& c) {
  if (c.args.size() != 2 || c.args[1]->type->is_error()) return;
  const Type* t = c.args[1]->type->is_pointer() ? c.args[1]->type->elem : nullptr;
  if (!t) return;
  std::string promoted;
  if (t->kind == TypeKind::Float)
    promoted = "double";
  else if (t->is_scalar() && !t->is_floating() && t->size < 4)
    promoted = "int";
  if (!promoted.empty()) {
    error(c.loc, "va_arg of " + quoted(t) + ": it is passed through '...' as '" + promoted +
                     "'; read it as '" + promoted + "'");
  } else if (!t->is_scalar() && !t->is_pointer()) {
    error(c.loc, "va_arg of " + quoted(t) + ": only scalars and pointers pass through '...'");
  }
}

void Sema::Impl::check_format(CallExpr& c, size_t format_index) {
  if (format_index >= c.args.size()) return;
  const Expr* fe = c.args[format_index].get();
  while (auto* cast = fe->as<CastExpr>()) {
    if (!cast->implicit) break;
    fe = cast->operand.get();
  }
  auto* lit = fe->as<StringLit>();
  if (!lit) return;  // checked when it runs
  std::string problem;
  std::vector<stdlib::FormatSpec> specs = stdlib::parse_format(lit->value, problem);
  if (!problem.empty()) {
    error(fe->loc, problem);
    return;
  }
  size_t arg = format_index + 1;
  auto check_star = [&](const stdlib::FormatSpec& spec, const char* what) {
    if (arg >= c.args.size()) {
      error(fe->loc, "format '" + std::string(spec.text) + "' expects a " + what +
                         " argument of type 'int'");
      return false;
    }
    const Type* t = c.args[arg]->type;
    auto k = format_kind(t);
    if (!t->is_error() &&
        (!k || (*k != stdlib::FormatArg::Kind::Int && *k != stdlib::FormatArg::Kind::UInt)))
      error(c.args[arg]->loc, "format '" + std::string(spec.text) + "' expects a " + what +
                                  " of type 'int', but " + nth(arg) + " has type " + quoted(t));
    ++arg;
    return true;
  };
  for (const stdlib::FormatSpec& spec : specs) {
    if (spec.verbatim) {
      // gcc's -Wformat wording; glibc then prints it as written.
      std::string what(spec.text);
      for (size_t i = 0; i < what.size(); ++i)
        if (what[i] == '\n') what.replace(i, 1, "\\n");
      diags.warning(fe->loc,
                    !spec.conversion ? "'%' at the end of the format prints nothing"
                    : spec.conversion == '%'
                        ? "'" + what + "' in format prints '%' (write '%%')"
                        : "unknown conversion '" + what + "' in format: it is printed as written");
      continue;
    }
    if (spec.width_from_arg && !check_star(spec, "field width")) return;
    if (spec.precision_from_arg && !check_star(spec, "precision")) return;
    if (arg >= c.args.size()) {
      error(fe->loc, "format '" + std::string(spec.text) + "' expects a matching " + "'" +
                         std::string(spec.expected) + "' argument");
      return;
    }
    const Type* t = c.args[arg]->type;
    auto k = format_kind(t);
    if (!t->is_error() && k && !spec.accepts.contains(*k))
      error(c.args[arg]->loc, "format '" + std::string(spec.text) +
                                  "' expects an argument of type '" + std::string(spec.expected) +
                                  "', but " + nth(arg) + " has type " + quoted(t));
    ++arg;
  }
}

const Type* Sema::Impl::check_stream_builtin(CallExpr& c, const stdlib::BuiltinInfo& info) {
  std::string name = "'" + c.callee + "'";
  auto first = [&](size_t i) { return nth(i) + " of " + name; };
  switch (info.id) {
    case Builtin::streamRead:
    case Builtin::streamWrite: {
      if (!check_arity(c, 2, false, name)) return types.void_type();
      const Type* s = stream_arg(c.args[0], first(0));
      const Type* p = check_value(c.args[1], "copied with " + name + "; pass a host array");
      if (!p->is_error() && !p->is_pointer())
        error(c.args[1]->loc, first(1) + " must be an array or pointer, not " + quoted(p));
      if (s && s->is_iter && info.id == Builtin::streamRead)
        error(c.args[0]->loc, "'streamRead' cannot write into an iterator stream");
      return types.void_type();
    }
    case Builtin::streamAssign: {
      const Type* a = stream_arg(c.args[0], "the left side of '='");
      const Type* b = stream_arg(c.args[1], "the right side of '='");
      if (a && b && a->elem != b->elem)
        error(c.loc, "a stream of " + quoted(a->elem) + " cannot be assigned a stream of " + quoted(b->elem));
      if (a && a->is_iter) error(c.args[0]->loc, "an iterator stream cannot be assigned");
      return types.void_type();
    }
    case Builtin::streamSwap: {
      if (!check_arity(c, 2, false, name)) return types.void_type();
      const Type* a = stream_arg(c.args[0], first(0));
      const Type* b = stream_arg(c.args[1], first(1));
      if (a && b && a != b)
        error(c.loc, "'streamSwap' needs two streams of the same type, not " + quoted(a) + " and " +
                         quoted(b));
      return types.void_type();
    }
    case Builtin::streamReadImage:
    case Builtin::streamWriteImage:
    case Builtin::streamReadFile:
    case Builtin::streamWriteFile:
    case Builtin::streamReadNpy:
    case Builtin::streamWriteNpy: {
      if (!check_arity(c, 2, false, name)) return types.void_type();
      const Type* s = stream_arg(c.args[0], first(0));
      const Type* p = check_value(c.args[1], "used as a file name");
      if (!p->is_error() && !(p->is_pointer() && p->elem->kind == TypeKind::Char))
        error(c.args[1]->loc, first(1) + " must be a file name (a string), not " + quoted(p));
      bool reads = info.id == Builtin::streamReadImage || info.id == Builtin::streamReadFile ||
                   info.id == Builtin::streamReadNpy;
      if (s && s->is_iter && reads) error(c.args[0]->loc, name + " cannot write into an iterator stream");
      return types.void_type();
    }
    case Builtin::streamPrint:
    case Builtin::streamSize: {
      if (!check_arity(c, 1, false, name)) return err();
      stream_arg(c.args[0], first(0));
      return info.id == Builtin::streamSize ? types.vector(types.int_type(), 4) : types.void_type();
    }
    case Builtin::streamGatherOp:
    case Builtin::streamScatterOp: {
      if (!check_arity(c, 4, false, name)) return types.void_type();
      stream_arg(c.args[0], first(0));
      stream_arg(c.args[1], first(1));
      const Type* a = check_expr(c.args[2]);
      if (!a->is_error() && !a->is_stream() && !a->is_array())
        error(c.args[2]->loc, first(2) + " must be a stream or an array, not " + quoted(a));
      ExprPtr& op = c.args[3];
      if (auto* call = op->as<CallExpr>(); call && call->callee_expr == nullptr) {
        Decl* cd = lookup(call->callee);
        if (auto* f = cd ? cd->as<FuncDecl>() : nullptr; f && f->fkind == FuncKind::Reduce) {
          // BrookGPU's `streamScatterOp(s, i, a, f(1))` binds the reduce
          // function's constant parameters; no backend runs such an op yet.
          error(op->loc, "'" + f->name + "(...)' as the operation of " + name +
                             " (binding a reduce function's constant arguments, BrookGPU) "
                             "is not supported; pass the reduce function by name");
          return types.void_type();
        }
      }
      auto* n = op->as<NameExpr>();
      Decl* d = n ? lookup(n->name) : nullptr;
      if (auto* f = d ? d->as<FuncDecl>() : nullptr) {
        n->decl = f;
        n->type = types.void_type();
        if (f->fkind != FuncKind::Reduce)
          error(op->loc, "'" + f->name + "' is not a reduce function");
        return types.void_type();
      }
      const Type* t = check_value(op);
      if (t->is_error()) return types.void_type();
      bool gather = info.id == Builtin::streamGatherOp;
      std::optional<int64_t> v = t->is_integer() ? fold(*op) : std::nullopt;
      int64_t limit = gather ? 1 : 2;
      if (!v || *v < 0 || *v > limit)
        error(op->loc, gather ? "the operation of 'streamGatherOp' must be STREAM_GATHER_FETCH, "
                                "STREAM_GATHER_INC or a reduce function"
                              : "the operation of 'streamScatterOp' must be STREAM_SCATTER_ASSIGN, "
                                "STREAM_SCATTER_ADD, STREAM_SCATTER_MUL or a reduce function");
      return types.void_type();
    }
    default:
      break;
  }
  check_args_only(c);
  return err();
}

}  // namespace brook
