// Expressions. Every subexpression is parenthesised, so C precedence never
// has to be reconstructed; OpenCL's differences from Brook are spelled out:
// vector comparisons give -1 (Brook: 1), integer division by zero is
// undefined (Brook kernels: 0), vector literals are (T)(…), conversions
// between vector types go through convert_T.
#include "backends/opencl/cl_printer.hpp"

#include <functional>
#include <optional>

namespace brook::opencl {

using namespace ast;

namespace {

bool is_compare(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le || op == BinaryOp::Ge ||
         op == BinaryOp::Eq || op == BinaryOp::Ne;
}

std::string unsigned_of(const Type* s) {
  switch (s->kind) {
    case TypeKind::Char: return "uchar";
    case TypeKind::Short: return "ushort";
    case TypeKind::Int: return "uint";
    case TypeKind::Long: return "ulong";
    default: return scalar_name(s);
  }
}

// Brook's 1-for-true from OpenCL's -1-for-true vector results.
std::string vector_truth(const std::string& cmp, uint32_t width) {
  return "(-convert_int" + std::to_string(width) + "(" + cmp + "))";
}

}  // namespace

std::string ClPrinter::convert(const std::string& text, const Type* from, const Type* to) {
  if (from == to) return text;
  if (to->is_void()) return "((void)(" + text + "))";
  if (to->kind == TypeKind::Bool) return "((uchar)((" + text + ") != 0))";
  std::string T = m_.type_name(to);
  if (to->is_vector()) {
    if (from->is_vector()) {
      if (from->elem == to->elem) return text;
      return "convert_" + T + "(" + text + ")";
    }
    return "((" + T + ")((" + scalar_name(to->elem) + ")(" + text + ")))";
  }
  return "((" + T + ")(" + text + "))";
}

const ParamDecl* ClPrinter::stream_param(const Expr& e) const {
  auto* n = e.as<NameExpr>();
  if (!n || !n->decl) return nullptr;
  return n->decl->as<ParamDecl>();
}

std::string ClPrinter::name_ref(const NameExpr& e) {
  if (!e.decl) throw Unsupported{e.loc, "'" + e.name + "' is not resolved"};
  if (auto* p = e.decl->as<ParamDecl>()) {
    if (p->pkind == ParamKind::Out || p->pkind == ParamKind::Reduce) return "(*" + safe_name(p->name) + ")";
    if (p->pkind == ParamKind::Gather)
      throw Unsupported{e.loc, "gather array '" + e.name + "' can only be indexed here"};
    return safe_name(p->name);
  }
  if (auto* c = e.decl->as<EnumConstDecl>()) return "(" + std::to_string(c->value) + ")";
  if (auto* v = e.decl->as<VarDecl>()) {
    if (v->is_global) throw Unsupported{e.loc, "kernels cannot use the host global '" + e.name + "'"};
    return safe_name(v->name);
  }
  throw Unsupported{e.loc, "'" + e.name + "' cannot be used inside a kernel"};
}

std::string ClPrinter::arith(BinaryOp op, const std::string& l, const std::string& r, const Type* t) {
  const Type* s = t->scalar_of();
  if ((op == BinaryOp::Div || op == BinaryOp::Mod) && s->is_integer()) {
    // Integer division or remainder by zero yields 0 in kernels; so does
    // MIN / -1's remainder, and the quotient wraps instead of trapping.
    std::string S = scalar_name(s);
    std::string U = unsigned_of(s);
    bool div = op == BinaryOp::Div;
    std::string sname = std::string(div ? "brook_div_" : "brook_mod_") + S;
    m_.helper(sname, [&] {
      std::string body;
      if (s->is_signed()) {
        body = div ? "b == 0 ? (" + S + ")0 : (b == (" + S + ")-1 ? (" + S + ")(0 - (" + U +
                         ")a) : (" + S + ")(a / b))"
                   : "(b == 0 || b == (" + S + ")-1) ? (" + S + ")0 : (" + S + ")(a % b)";
      } else {
        body = "b == 0 ? (" + S + ")0 : (" + S + ")(a " + (div ? "/" : "%") + " b)";
      }
      return "static " + S + " " + sname + "(" + S + " a, " + S + " b) { return " + body + "; }\n";
    });
    if (!t->is_vector()) return sname + "(" + l + ", " + r + ")";
    std::string T = m_.type_name(t);
    std::string vname = std::string(div ? "brook_div_" : "brook_mod_") + T;
    m_.helper(vname, [&] {
      std::string b = "static " + T + " " + vname + "(" + T + " a, " + T + " b) {\n  " + T + " r;\n";
      for (uint32_t k = 0; k < t->count; ++k) {
        std::string c = ".s" + std::to_string(k);
        b += "  r" + c + " = " + sname + "(a" + c + ", b" + c + ");\n";
      }
      return b + "  return r;\n}\n";
    });
    return vname + "(" + l + ", " + r + ")";
  }
  std::string text = "(" + l + " " + ast::spelling(op) + " " + r + ")";
  if (is_compare(op) && t->is_vector()) return vector_truth(text, t->count);
  return text;
}

// `c ? a : b` with a vector condition, per component: OpenCL's select() takes
// a mask of signed integers as wide as the result's components (true = -1).
std::string ClPrinter::vector_select(const ConditionalExpr& c) {
  const Type* ct = c.cond->type;
  uint64_t size = c.type->elem->size;
  const char* mask = size == 1 ? "char" : size == 2 ? "short" : size == 4 ? "int" : "long";
  std::string n = std::to_string(ct->count);
  std::string test = "(" + expr(*c.cond) + " != (" + m_.type_name(ct) + ")0)";
  return "select(" + expr(*c.else_expr) + ", " + expr(*c.then_expr) + ", convert_" + mask + n +
         test + ")";
}

std::string ClPrinter::unary(const UnaryExpr& e) {
  std::string x = expr(*e.operand);
  switch (e.op) {
    case UnaryOp::Plus: return "(+" + x + ")";
    case UnaryOp::Neg: return "(-" + x + ")";
    case UnaryOp::BitNot: return "(~" + x + ")";
    case UnaryOp::Not:
      if (e.operand->type->is_vector()) return vector_truth("(!" + x + ")", e.operand->type->count);
      return "(!" + x + ")";
    case UnaryOp::PreInc: return "(++" + x + ")";
    case UnaryOp::PreDec: return "(--" + x + ")";
    case UnaryOp::PostInc: return "(" + x + "++)";
    case UnaryOp::PostDec: return "(" + x + "--)";
    case UnaryOp::Deref:
    case UnaryOp::AddrOf: break;
  }
  throw Unsupported{e.loc, "pointers are not available inside kernels"};
}

// `(a < b).z`: the component of a vector comparison is compared alone
// (`(a).z < (b).z`, and a swizzle of several components compares the
// swizzled operands). Same value, as a comparison has no side effects and
// each operand is still evaluated once; and PoCL's LLVM 15 aborts ("Cannot
// select: X86ISD::VBROADCAST") on AVX-512 masks when one component of a
// three-wide int comparison is taken and broadcast (fuzz seed 55427).
std::optional<std::string> ClPrinter::swizzled_compare(const SwizzleExpr& sw, const std::string& comps) {
  auto* b = sw.base->as<BinaryExpr>();
  if (!b || !is_compare(b->op) || !b->lhs->type->is_vector() || !b->rhs->type->is_vector())
    return std::nullopt;
  std::string text = "((";
  text.append(expr(*b->lhs)).append(").").append(comps);
  text.append(" ").append(ast::spelling(b->op)).append(" (");
  text.append(expr(*b->rhs)).append(").").append(comps).append(")");
  if (sw.count == 1) return "((int)" + text + ")";  // a scalar comparison is 1 or 0 already
  return vector_truth(text, sw.count);
}

std::string ClPrinter::binary(const BinaryExpr& e) {
  if (is_compare(e.op))
    if (auto exact = exact_compare(e)) return *exact;
  std::string l = expr(*e.lhs), r = expr(*e.rhs);
  if (e.op == BinaryOp::LogAnd || e.op == BinaryOp::LogOr) return arith(e.op, l, r, e.type);
  return arith(e.op, l, r, e.lhs->type);
}

std::string ClPrinter::assign(const AssignExpr& e) {
  if (auto* g = e.lhs->as<GatherExpr>(); g && !e.op) {
    // `a[i] = v` on a scatter output (§12): a store whose value is v's.
    const Type* t = e.lhs->type;
    std::string name = "brook_sc_" + m_.tag(t);
    std::string st = m_.store_fn(t);
    m_.helper(name, [&] {
      return "static " + m_.type_name(t) + " " + name + "(__global uchar* p, " + m_.type_name(t) +
             " v) { " + st + "(p, v); return v; }\n";
    });
    std::string addr = gather_addr(*g);
    return name + "(" + addr + ", " + expr(*e.rhs) + ")";
  }
  std::string l = expr(*e.lhs), r = expr(*e.rhs);
  if (!e.op) return "(" + l + " = " + r + ")";
  const Type* lt = e.lhs->type;
  const Type* ot = e.op_type ? e.op_type : lt;
  bool int_div = (*e.op == BinaryOp::Div || *e.op == BinaryOp::Mod) && ot->scalar_of()->is_integer();
  if (ot == lt && !int_div) return "(" + l + " " + ast::spelling(*e.op) + "= " + r + ")";
  return "(" + l + " = " + convert(arith(*e.op, convert(l, lt, ot), r, ot), ot, lt) + ")";
}

std::string ClPrinter::cast(const CastExpr& e) {
  if (auto exact = exact_int_cast(e)) return *exact;
  std::string x = expr(*e.operand);
  const Type* from = e.operand->type;
  switch (e.cast) {
    case CastKind::Convert:
    case CastKind::Broadcast: return convert(x, from, e.type);
    case CastKind::ToBool: return "((uchar)((" + x + ") != 0))";
    case CastKind::ToVoid: return "((void)(" + x + "))";
    case CastKind::ArrayDecay:
    case CastKind::PointerCast: break;
  }
  throw Unsupported{e.loc, "pointers are not available inside kernels"};
}

std::string ClPrinter::index_of(const IndexofExpr& e) {
  const ParamDecl* p = e.operand ? stream_param(*e.operand) : nullptr;
  if (!p) throw Unsupported{e.loc, "indexof needs a stream parameter"};
  if (p->pkind == ParamKind::Gather) return "((float4)(0.0f))";
  return "brook_ix_" + safe_name(p->name);
}

std::string ClPrinter::gather_index_helper(const Type* t) {
  std::string S = scalar_name(t);
  return m_.helper("brook_gi_" + S, [&] {
    std::string head = "static brook_i brook_gi_" + S + "(" + S + " f, brook_i n) { ";
    if (t->kind == TypeKind::Int) return head + "return clamp((brook_i)f, (brook_i)0, n - 1); }\n";
    // Unsigned long: at or above 2^63 a huge index, not a negative one.
    if (t->kind == TypeKind::ULong)
      return head + "return (brook_i)(f >= (ulong)n ? (ulong)(n - 1) : f); }\n";
    if (!t->is_floating()) {
      return head + "long i = (long)f; return (brook_i)(i < 0 ? 0 : (i >= n ? n - 1 : i)); }\n";
    }
    // floor(f + 0.25) then clamp: raising to 0 first makes floor a truncation
    // (no libm floor, which PoCL does not vectorise) and sends NaN to 0 as the
    // interpreter does; capping at n keeps huge values out of the conversion.
    return head + S + " t = f + (" + S + ")0.25; t = t > (" + S + ")0 ? t : (" + S + ")0; t = t < (" + S +
           ")n ? t : (" + S + ")n; return min((brook_i)t, n - 1); }\n";
  });
}

std::string ClPrinter::gather(const GatherExpr& e) {
  return m_.load_fn(e.type) + "(" + gather_addr(e) + ")";
}

std::string ClPrinter::gather_addr(const GatherExpr& e) {
  const ParamDecl* p = stream_param(*e.param);
  if (!p || p->pkind != ParamKind::Gather) throw Unsupported{e.loc, "not a gather array"};
  std::string g = safe_name(p->name);
  int rank = p->gather_rank > 0 ? p->gather_rank : 1;
  // The index expressions, slowest dimension first.
  std::vector<std::pair<std::string, const Type*>> idx;
  // An index known to be an exact integer clamps as one (cl_exact.cpp), in
  // int where its value is known to be small: the clamp of component `comp`
  // of `ix` to the extent `n`.
  auto exact = [&](const Expr& ix, int comp,
                   int dim) -> std::optional<std::function<std::string(const std::string&)>> {
    auto text = exact_index(ix, comp);
    if (!text) return std::nullopt;
    // Proven inside the array at this launch (cl_bounds.hpp): no clamp.
    if (m_.unclamped.count({static_cast<const Expr*>(&e), dim}))
      return [t = *text](const std::string&) { return "(brook_i)(" + t + ")"; };
    if (narrow_exact(ix, comp)) {
      m_.helper("brook_gn", [] {
        return "static brook_i brook_gn(int i, brook_i n) { return clamp(i, (brook_i)0, n - 1); "
               "}\n";
      });
      return [t = *text](const std::string& n) { return "brook_gn((int)" + t + ", " + n + ")"; };
    }
    m_.helper("brook_gl", [] {
      return "static brook_i brook_gl(long i, brook_i n) { return (brook_i)clamp(i, (long)0, (long)n - 1); }\n";
    });
    return [t = *text](const std::string& n) { return "brook_gl(" + t + ", " + n + ")"; };
  };
  if (e.indices.size() == 1 && e.indices[0]->type->is_vector()) {
    const Type* v = e.indices[0]->type;
    auto col = rank <= 2 ? exact(*e.indices[0], 0, rank - 1) : std::nullopt;
    auto row = rank == 1 ? col : rank == 2 ? exact(*e.indices[0], 1, 0) : std::nullopt;
    if (col && row) {
      std::string off = rank == 1 ? (*col)("brook_ge_" + g + ".s0")
                                  : (*row)("brook_ge_" + g + ".s0") + " * brook_gs_" + g +
                                        ".s0 + " + (*col)("brook_ge_" + g + ".s1");
      return g + " + (" + off + ") * " + std::to_string(e.type->size);
    }
    std::string V = m_.type_name(v);
    std::string name = "brook_gv_" + V + "_r" + std::to_string(rank);
    std::string gi = gather_index_helper(v->elem);
    m_.helper(name, [&] {
      std::string b = "static brook_i " + name + "(" + V + " v, brook_i4 e, brook_i4 s) {\n  return ";
      // The last dimension is contiguous (stride 1): written so the
      // vectoriser sees neighbouring invocations read neighbouring elements.
      if (rank == 1) {
        b += gi + "(v.x, e.s0)";
      } else {
        // Dimension d (slowest first) is addressed by component rank-1-d.
        for (int d = 0; d < rank; ++d) {
          const std::string dim = std::to_string(d);
          b +=
              std::string(d ? " + " : "") + gi + "(v." + "xyzw"[rank - 1 - d] + ", e.s" + dim + ")";
          if (d + 1 < rank) b += " * s.s" + dim;
        }
      }
      return b + ";\n}\n";
    });
    std::string off = name + "(" + expr(*e.indices[0]) + ", brook_ge_" + g + ", brook_gs_" + g + ")";
    return g + " + " + off + " * " + std::to_string(e.type->size);
  }
  std::string off;
  for (size_t k = 0; k < e.indices.size() && k < 4; ++k) {
    const Type* t = e.indices[k]->type;
    std::string c = ".s" + std::to_string(k);
    if (m_.unclamped.count({static_cast<const Expr*>(&e), static_cast<int>(k)})) {
      off += std::string(k ? " + " : "") + "(brook_i)(" + expr(*e.indices[k]) + ")";
    } else if (auto x = exact(*e.indices[k], 0, static_cast<int>(k))) {
      off += (k ? " + " : "") + (*x)("brook_ge_" + g + c);
    } else {
      off += (k ? " + " : "") + gather_index_helper(t) + "(" + expr(*e.indices[k]) + ", brook_ge_" + g + c + ")";
    }
    if (k + 1 != static_cast<size_t>(rank)) off += " * brook_gs_" + g + c;
  }
  return g + " + (" + off + ") * " + std::to_string(e.type->size);
}

// A vector built from vector parts (float3(float2(x), y)). OpenCL C allows
// vector literals with vector parts, but PoCL's clang 15 segfaults on some
// ((float3)((float2)(x), (convert_float3(a)).z)), so the printer emits only
// what every driver digests: a helper that assigns scalar components. Its
// parameters evaluate each part once, as the literal would.
std::string ClPrinter::construct_from_parts(const ConstructExpr& c) {
  const Type* t = c.type;
  std::string T = m_.type_name(t);
  if (c.args.size() == 1 && c.args[0]->type == t) return expr(*c.args[0]);
  std::string name = "brook_mk_" + T;
  for (const auto& a : c.args) name += "_" + m_.type_name(a->type);
  m_.helper(name, [&] {
    std::string b = "static " + T + " " + name + "(";
    for (size_t i = 0; i < c.args.size(); ++i)
      b += (i ? ", " : "") + m_.type_name(c.args[i]->type) + " p" + std::to_string(i);
    b += ") {\n  " + T + " r;\n";
    uint32_t k = 0;
    const std::string S = scalar_name(t->elem);
    for (size_t i = 0; i < c.args.size() && k < t->count; ++i) {
      const Type* at = c.args[i]->type;
      const uint32_t n = at->is_vector() ? at->count : 1;
      for (uint32_t j = 0; j < n && k < t->count; ++j, ++k) {
        std::string part = "p" + std::to_string(i) + (at->is_vector() ? ".s" + std::to_string(j) : "");
        b += "  r.s" + std::to_string(k) + " = (" + S + ")(" + part + ");\n";
      }
    }
    return b + "  return r;\n}\n";
  });
  std::string s = name + "(";
  for (size_t i = 0; i < c.args.size(); ++i) s += (i ? ", " : "") + expr(*c.args[i]);
  return s + ")";
}

std::string ClPrinter::kernel_call(const CallExpr& e) {
  if (!e.func) throw Unsupported{e.loc, "call to '" + e.callee + "' is not resolved"};
  const FuncDecl& callee = e.func->defined();
  if (callee.fkind != FuncKind::Kernel)
    throw Unsupported{e.loc, "'" + e.callee + "' cannot be called inside a kernel"};
  std::string name = function(callee);
  std::string s = name + "(brook_pos, brook_pbuf, brook_stop";
  std::string pos_index = "convert_float4(brook_pos)";
  for (size_t i = 0; i < callee.params.size() && i < e.args.size(); ++i) {
    const ParamDecl& p = *callee.params[i];
    const Expr& a = *e.args[i];
    const ParamDecl* ap = stream_param(a);
    bool caller_stream = ap && (ap->pkind == ParamKind::Input || ap->pkind == ParamKind::Iter ||
                                ap->pkind == ParamKind::Out || ap->pkind == ParamKind::Reduce);
    std::string ix = caller_stream ? "brook_ix_" + safe_name(ap->name) : pos_index;
    ix += caller_stream ? ", brook_jx_" + safe_name(ap->name) : std::string(", brook_pos");
    switch (p.pkind) {
      case ParamKind::Input:
      case ParamKind::Iter:
        s += ", " + expr(a) + ", " + ix;
        break;
      case ParamKind::Out:
      case ParamKind::Reduce:
        if (ap && (ap->pkind == ParamKind::Out || ap->pkind == ParamKind::Reduce)) {
          s += ", " + safe_name(ap->name) + ", " + ix;
        } else if (a.kind == ExprKind::Swizzle) {
          throw Unsupported{a.loc, "an output argument cannot be a swizzle on the OpenCL backend"};
        } else {
          s += ", &" + expr(a) + ", " + ix;
        }
        break;
      case ParamKind::Gather:
        if (!ap || ap->pkind != ParamKind::Gather)
          throw Unsupported{a.loc, "gather parameter '" + p.name + "' needs a gather array"};
        s += ", " + safe_name(ap->name) + ", brook_ge_" + safe_name(ap->name) + ", brook_gs_" +
             safe_name(ap->name);
        break;
      case ParamKind::Const:
      case ParamKind::Value:
        s += ", " + expr(a);
        break;
    }
  }
  return s + ")";
}

std::string ClPrinter::expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLit: {
      auto* i = e.as<IntLit>();
      std::string v = std::to_string(i->value);
      switch (e.type->kind) {
        case TypeKind::UInt: return v + "u";
        case TypeKind::Long: return v + "L";
        case TypeKind::ULong: return v + "UL";
        default: return v;
      }
    }
    case ExprKind::FloatLit:
      return float_literal(e.as<FloatLit>()->value, e.type->kind == TypeKind::Float);
    case ExprKind::BoolLit: return e.as<BoolLit>()->value ? "((uchar)1)" : "((uchar)0)";
    case ExprKind::Name: return name_ref(*e.as<NameExpr>());
    case ExprKind::Unary: return with_shadow(e, unary(*e.as<UnaryExpr>()));
    case ExprKind::Binary: return binary(*e.as<BinaryExpr>());
    case ExprKind::Assign: return with_shadow(e, assign(*e.as<AssignExpr>()));
    case ExprKind::Conditional: {
      auto* c = e.as<ConditionalExpr>();
      const Type* ct = c->cond->type;
      if (ct->is_vector()) return vector_select(*c);
      std::string cond = expr(*c->cond);
      // OpenCL C takes no floating-point `?:` condition.
      if (ct->is_floating()) cond = "((" + cond + ") != 0)";
      return "(" + cond + " ? " + expr(*c->then_expr) + " : " + expr(*c->else_expr) + ")";
    }
    case ExprKind::Comma: {
      auto* c = e.as<CommaExpr>();
      return "(" + expr(*c->lhs) + ", " + expr(*c->rhs) + ")";
    }
    case ExprKind::Call: {
      auto* c = e.as<CallExpr>();
      if (c->target == CallTarget::Builtin) {
        if (auto exact = exact_builtin(*c)) return *exact;
        return builtin(*c);
      }
      if (c->target == CallTarget::Kernel) return kernel_call(*c);
      throw Unsupported{e.loc, "'" + c->callee + "' cannot be called inside a kernel"};
    }
    case ExprKind::Construct: {
      auto* c = e.as<ConstructExpr>();
      std::string T = m_.type_name(e.type);
      if (!e.type->is_vector()) {
        return c->args.empty() ? "((" + T + ")0)" : convert(expr(*c->args[0]), c->args[0]->type, e.type);
      }
      bool parts = false;
      for (const auto& a : c->args) parts = parts || a->type->is_vector();
      if (parts) return construct_from_parts(*c);
      std::string s = "((" + T + ")(";
      for (size_t i = 0; i < c->args.size(); ++i) s += (i ? ", " : "") + expr(*c->args[i]);
      return s + "))";
    }
    case ExprKind::Cast: return cast(*e.as<CastExpr>());
    case ExprKind::Index: {
      auto* ix = e.as<IndexExpr>();
      const Type* bt = ix->base->type;
      if (!bt->is_array()) throw Unsupported{e.loc, "pointers are not available inside kernels"};
      // An index outside a local array clamps instead of corrupting memory;
      // one proven inside at this launch (cl_bounds.hpp) needs no clamp.
      if (m_.unclamped.count({static_cast<const Expr*>(&e), 0}))
        return expr(*ix->base) + "[" + expr(*ix->index) + "]";
      m_.helper("brook_ai", [] {
        return "static long brook_ai(long i, long n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }\n";
      });
      return expr(*ix->base) + "[brook_ai(" + expr(*ix->index) + ", " +
             std::to_string(bt->count ? bt->count : 1) + ")]";
    }
    case ExprKind::Gather: return gather(*e.as<GatherExpr>());
    case ExprKind::Member: {
      auto* mb = e.as<MemberExpr>();
      if (mb->arrow) throw Unsupported{e.loc, "pointers are not available inside kernels"};
      return expr(*mb->base) + "." + safe_name(mb->field);
    }
    case ExprKind::Swizzle: {
      auto* sw = e.as<SwizzleExpr>();
      if (!sw->base->type->is_vector()) {
        std::string base = expr(*sw->base);
        return sw->count == 1 ? base : "((" + m_.type_name(e.type) + ")(" + base + "))";
      }
      std::string comps;
      for (uint8_t i = 0; i < sw->count; ++i) comps += "xyzw"[sw->comps[i] & 3];
      if (auto picked = swizzled_compare(*sw, comps)) return *picked;
      return "(" + expr(*sw->base) + ")." + comps;
    }
    case ExprKind::Sizeof: return "((ulong)" + std::to_string(e.as<SizeofExpr>()->value) + ")";
    case ExprKind::Indexof: return index_of(*e.as<IndexofExpr>());
    case ExprKind::InitList: return init_list(e, e.type);
    case ExprKind::StringLit:
    case ExprKind::Domain:
    case ExprKind::IterInit:
    case ExprKind::CompoundLit:
    case ExprKind::StmtExpr:
      break;  // sema rejects compound literals and statement expressions in a kernel
  }
  throw Unsupported{e.loc, "this expression is not available inside a kernel"};
}

}  // namespace brook::opencl
