// Builtins (LANGUAGE.md §9) in OpenCL C. The stdlib table's opencl_name is
// used where OpenCL's builtin means the same as stdlib/reference.hpp; the
// rest are expanded into helpers that follow the reference definitions
// exactly (HLSL min/max with NaN, 1-for-true classification, unfused dot).
#include <algorithm>

#include "backends/opencl/cl_printer.hpp"
#include "stdlib/brook_math.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;
using stdlib::Builtin;

namespace {

std::string comp(const Type* t, const std::string& v, uint32_t k) {
  return t->is_vector() ? v + ".s" + std::to_string(k) : v;
}

// Bit width of an integer scalar.
int bits_of(const Type* s) { return static_cast<int>(s->size * 8); }

}  // namespace

std::string ClPrinter::componentwise(const std::string& fname, const Type* result,
                                     const std::vector<const Type*>& args,
                                     const std::string& scalar_body) {
  // The scalar version over component types; arguments are a, b, c.
  static const char* names[] = {"a", "b", "c"};
  std::string sname = "brook_" + fname;
  for (const Type* t : args) sname += "_" + m_.tag(t->scalar_of());
  m_.helper(sname, [&] {
    std::string s = "static " + m_.type_name(result->scalar_of()) + " " + sname + "(";
    for (size_t i = 0; i < args.size(); ++i)
      s += (i ? ", " : "") + m_.type_name(args[i]->scalar_of()) + " " + names[i];
    return s + ") { " + scalar_body + " }\n";
  });
  uint32_t width = result->width();
  for (const Type* t : args) width = std::max(width, t->width());
  if (width == 1) return sname;
  std::string vname = "brook_" + fname;
  for (const Type* t : args) vname += "_" + m_.tag(t);
  m_.helper(vname, [&] {
    std::string R = m_.type_name(result);
    std::string s = "static " + R + " " + vname + "(";
    for (size_t i = 0; i < args.size(); ++i)
      s += (i ? ", " : "") + m_.type_name(args[i]) + " " + names[i];
    s += ") {\n  " + R + " r;\n";
    for (uint32_t k = 0; k < width; ++k) {
      s += "  r.s" + std::to_string(k) + " = " + sname + "(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + comp(args[i], names[i], k);
      s += ");\n";
    }
    return s + "  return r;\n}\n";
  });
  return vname;
}

void reserve_helper(ClModule& m);
std::string push_record(ClModule& m, const CallExpr& e, const std::string& place);

std::string ClPrinter::builtin(const CallExpr& e) {
  auto id = static_cast<Builtin>(e.builtin);
  const stdlib::BuiltinInfo& info = stdlib::builtin_info(id);
  if (id == Builtin::printf) return printf_call(e);
  if (id == Builtin::push) return push_record(m_, e, expr(*e.args.at(0)));
  std::vector<const Type*> types;
  std::vector<std::string> args;
  for (const ExprPtr& a : e.args) {
    types.push_back(a->type);
    args.push_back(expr(*a));
  }
  auto call = [&](const std::string& fn) {
    std::string s = fn + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    return s + ")";
  };
  const Type* r = e.type;
  const Type* s0 = types.empty() ? r : types[0]->scalar_of();
  std::string S = m_.type_name(s0);
  // A composed builtin: a helper printed from its recipe.
  if (const stdlib::Recipe* recipe = stdlib::recipe_of(id))
    return call(recipe_call(*recipe, e, types));
  switch (id) {
    case Builtin::pack_4ubyte:
      // §12 (Cg's PK4UB): bytes round(255 * clamp(c, 0, 1)), NaN as 0, x low.
      return m_.helper(
                 "brook_pack_4ubyte",
                 [] {
                   return "static float brook_pack_4ubyte(float4 v) {\n"
                          "  float4 c = select((float4)(0.0f), select((float4)(1.0f), v, v < "
                          "(float4)(1.0f)), v > (float4)(0.0f));\n"
                          "  uint4 b = convert_uint4(round((float4)(255.0f) * c));\n"
                          "  return as_float(b.x | (b.y << 8) | (b.z << 16) | (b.w << 24));\n}\n";
                 }) +
             "(" + args.at(0) + ")";
    case Builtin::unpack_4ubyte:
      return m_.helper("brook_unpack_4ubyte",
                       [] {
                         return "static float4 brook_unpack_4ubyte(float f) {\n"
                                "  uint u = as_uint(f);\n"
                                "  return convert_float4((uint4)(u & 255u, (u >> 8) & 255u, (u >> "
                                "16) & 255u, u >> 24)) / (float4)(255.0f);\n}\n";
                       }) +
             "(" + args.at(0) + ")";
    case Builtin::instanceInGroup:
      // Work-groups are the NDRange's (cl_groups.cpp): x, y, z local ids.
      return "((int4)((int)get_local_id(0), (int)get_local_id(1), (int)get_local_id(2), 0))";
    case Builtin::syncGroup:
      return "barrier(CLK_LOCAL_MEM_FENCE)";
    case Builtin::instance:
      // Plus the first output's view offset (§5); map_source defines it first.
      m_.helper("brook_ioff_default", [] { return "#ifndef BROOK_IOFF\n#define BROOK_IOFF ((int4)(0))\n#endif\n"; });
      return "(brook_pos + BROOK_IOFF)";
    case Builtin::abs:
      if (s0->is_floating()) return call("fabs");
      if (!s0->is_signed()) return args[0];
      return call(componentwise("abs", r, types,
                                "return a < 0 ? (" + S + ")(0 - (u" + S + ")a) : a;"));
    case Builtin::isnan: return call(componentwise("isnan", r, types, "return isnan(a) ? 1 : 0;"));
    case Builtin::isinf: return call(componentwise("isinf", r, types, "return isinf(a) ? 1 : 0;"));
    case Builtin::isfinite:
      return call(componentwise("isfinite", r, types, "return isfinite(a) ? 1 : 0;"));
    case Builtin::ctz: {
      std::string U = s0->is_signed() ? "u" + S : S;
      return call(componentwise("ctz", r, types,
                                U + " u = (" + U + ")a; return u == 0 ? (" + S + ")" +
                                    std::to_string(bits_of(s0)) + " : (" + S +
                                    ")popcount((u & (0 - u)) - 1);"));
    }
    default: break;
  }
  // floor, ceil and trunc of float: exact in every implementation, but PoCL's
  // library computes them with branches and integer bit tests per call
  // (winograd's pad and merge spent most of their time there); clang's
  // builtins become one rounding instruction (roundss) where the CPU has one.
  if ((id == Builtin::floor || id == Builtin::ceil || id == Builtin::trunc) &&
      s0->kind == TypeKind::Float && args.size() == 1) {
    m_.helper("brook_round_f", [] {
      return "#if defined(__clang__)\n#define BROOK_FLOORF __builtin_floorf\n#define BROOK_CEILF "
             "__builtin_ceilf\n#define BROOK_TRUNCF __builtin_truncf\n#else\n#define BROOK_FLOORF "
             "floor\n#define BROOK_CEILF ceil\n#define BROOK_TRUNCF trunc\n#endif\n";
    });
    const char* f = id == Builtin::floor ? "BROOK_FLOORF" : id == Builtin::ceil ? "BROOK_CEILF" : "BROOK_TRUNCF";
    return call(componentwise(std::string(info.name), r, types, std::string("return ") + f + "(a);"));
  }
  // Float transcendentals: the project's own definitions (stdlib/brook_math.h,
  // pasted in whole), not the device library, so every backend prints the
  // same bits. They compute in double: the program enables cl_khr_fp64.
  std::string_view own = stdlib::brook_math_opencl_name(id);
  if (!own.empty() && s0->kind == TypeKind::Float && args.size() <= 2) {
    m_.use_brook_math(false);
    const char* operands = args.size() == 1 ? "(a);" : "(a, b);";
    return call(
        componentwise(std::string(info.name), r, types, "return " + std::string(own) + operands));
  }
  // Double ones likewise (brook_math_double.h, pasted with brook_math.h).
  std::string_view own_d = stdlib::brook_math_opencl_name_f64(id);
  if (!own_d.empty() && s0->kind == TypeKind::Double && args.size() <= 2) {
    m_.use_brook_math(true);
    const char* operands = args.size() == 1 ? "(a);" : "(a, b);";
    return call(
        componentwise(std::string(info.name), r, types, "return " + std::string(own_d) + operands));
  }
  if (!info.opencl_name.empty() && info.where != stdlib::Where::host) {
    if (s0->kind == TypeKind::Double) m_.uses_double = true;
    return call(std::string(info.opencl_name));
  }
  throw Unsupported{e.loc, "'" + e.callee + "' is not available inside kernels"};
}

// brook_reserve: n words of brook_pbuf for one record, or ~0 when full.
void reserve_helper(ClModule& m) {
  m.helper("brook_reserve", [] {
    return "static uint brook_reserve(__global uint* b, uint n) {\n"
           "  uint at = atomic_add(b, n);\n"
           "  return (at + n + 1 <= BROOK_PBUF_WORDS) ? at + 1 : 0xffffffffu;\n}\n";
  });
}

// push(e) (§12): a record like printf's ([site, words, pos.w..pos.x]) whose
// payload is e's bytes; the host orders records by position (row-major) and,
// within one invocation, by the order its pushes reserved them.
std::string push_record(ClModule& m, const CallExpr& e, const std::string& place) {
  const auto* n = e.args.at(0)->as<NameExpr>();
  const auto* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
  if (!p || p->vout_bound < 0) throw Unsupported{e.loc, "'push' needs a 'vout' parameter of the kernel"};
  ClModule::PrintfSite site;
  site.loc = e.loc;
  site.vout_param = p->index;
  site.vout_size = static_cast<uint32_t>(e.args[0]->type->size);
  const size_t id = m.printf_sites.size();
  m.printf_sites.push_back(site);
  m.uses_printf = true;
  reserve_helper(m);
  std::string w = std::to_string(6 + (site.vout_size + 3) / 4);
  return "({ uint brook_at = brook_reserve(brook_pbuf, " + w + "u);\n"
         "  if (brook_at != 0xffffffffu) {\n"
         "    brook_pbuf[brook_at] = " + std::to_string(id) + "u; brook_pbuf[brook_at + 1] = " + w + "u;\n"
         "    brook_pbuf[brook_at + 2] = (uint)brook_pos.w; brook_pbuf[brook_at + 3] = (uint)brook_pos.z;\n"
         "    brook_pbuf[brook_at + 4] = (uint)brook_pos.y; brook_pbuf[brook_at + 5] = (uint)brook_pos.x;\n"
         "    __private const uchar* brook_src = (__private const uchar*)&" + place + ";\n"
         "    __global uchar* brook_dst = (__global uchar*)(brook_pbuf + brook_at + 6);\n"
         "    for (uint brook_k = 0; brook_k < " + std::to_string(site.vout_size) + "u; ++brook_k) brook_dst[brook_k] = brook_src[brook_k];\n"
         "  }\n  0; })";
}

std::string ClPrinter::printf_call(const CallExpr& e) {
  // Each call appends a record to brook_pbuf: [site, words, pos.w, pos.z,
  // pos.y, pos.x, then two words per argument]; the host formats it.
  if (e.args.empty()) throw Unsupported{e.loc, "printf needs a format"};
  const Expr* fmt = e.args[0].get();
  while (auto* c = fmt->as<CastExpr>()) fmt = c->operand.get();
  auto* lit = fmt->as<StringLit>();
  if (!lit) throw Unsupported{e.loc, "printf in a kernel needs a string literal format"};
  ClModule::PrintfSite site;
  site.loc = e.loc;
  site.format = lit->value;
  std::string stores;
  size_t words = 6 + 2 * (e.args.size() - 1);
  for (size_t i = 1; i < e.args.size(); ++i) {
    const Expr* a = e.args[i].get();
    const Expr* inner = a;
    while (auto* c = inner->as<CastExpr>()) {
      if (c->cast != CastKind::ArrayDecay && c->cast != CastKind::PointerCast) break;
      inner = c->operand.get();
    }
    std::string at = "brook_pbuf[brook_at + " + std::to_string(6 + 2 * (i - 1)) + "]";
    std::string at2 = "brook_pbuf[brook_at + " + std::to_string(7 + 2 * (i - 1)) + "]";
    if (auto* s = inner->as<StringLit>()) {
      site.kinds.push_back('s');
      site.strings.push_back(s->value);
      stores += "    " + at + " = " + std::to_string(site.strings.size() - 1) + "u;\n";
      continue;
    }
    // A float promoted to double travels as a float: no fp64 needed for it.
    auto* promo = a->as<CastExpr>();
    if (a->type->kind == TypeKind::Double && promo && promo->operand->type->kind == TypeKind::Float) {
      site.kinds.push_back('f');
      stores += "    " + at + " = as_uint(" + expr(*promo->operand) + ");\n";
      continue;
    }
    char k = 'i';
    switch (a->type->kind) {
      case TypeKind::UInt: k = 'u'; break;
      case TypeKind::Long: k = 'l'; break;
      case TypeKind::ULong: k = 'L'; break;
      case TypeKind::Float: k = 'f'; break;
      case TypeKind::Double: k = 'd'; break;
      default:
        if (!a->type->is_scalar()) throw Unsupported{a->loc, "printf in a kernel takes scalars and string literals"};
        break;
    }
    site.kinds.push_back(k);
    if (k == 'f') {
      stores += "    " + at + " = as_uint(" + expr(*a) + ");\n";
    } else {
      std::string v = k == 'd' ? "as_ulong(" + expr(*a) + ")" : "(ulong)(long)(" + expr(*a) + ")";
      if (k == 'd') m_.uses_double = true;
      stores += "    { ulong brook_v = " + v + "; " + at + " = (uint)brook_v; " + at2 +
                " = (uint)(brook_v >> 32); }\n";
    }
  }
  size_t id = m_.printf_sites.size();
  m_.printf_sites.push_back(site);
  m_.uses_printf = true;
  // The record is written inline (a statement expression, which PoCL's clang
  // accepts), so arguments keep their types and evaluation order.
  reserve_helper(m_);
  std::string w = std::to_string(words);
  std::string code = "({ uint brook_at = brook_reserve(brook_pbuf, " + w + "u);\n"
                     "  if (brook_at != 0xffffffffu) {\n"
                     "    brook_pbuf[brook_at] = " + std::to_string(id) + "u; brook_pbuf[brook_at + 1] = " + w + "u;\n"
                     "    brook_pbuf[brook_at + 2] = (uint)brook_pos.w; brook_pbuf[brook_at + 3] = (uint)brook_pos.z;\n"
                     "    brook_pbuf[brook_at + 4] = (uint)brook_pos.y; brook_pbuf[brook_at + 5] = (uint)brook_pos.x;\n" +
                     stores + "  }\n  0; })";
  return code;
}

}  // namespace brook::opencl
