// Composed builtins (stdlib/recipe.hpp) in OpenCL C: one static helper per
// builtin and argument types, printed from the recipe as one statement per
// step. Each step is its own statement (and FP_CONTRACT is off), so OpenCL
// rounds after every operation exactly as the other backends do.
#include <cmath>
#include <cstdio>

#include "backends/opencl/cl_printer.hpp"
#include "stdlib/brook_math.hpp"
#include "stdlib/recipe_eval.hpp"

namespace brook::opencl {

using stdlib::StepOp;

namespace {

// The recipe's operations as C statements on component type S; a value is
// the name of a temporary (or an argument's component, or a constant).
struct ClLowering {
  using Value = std::string;
  ClModule& m;
  const Type* s;
  std::string S;  // s's OpenCL spelling
  std::string body;
  int temps = 0;

  Value let(const std::string& type, const std::string& e) {
    std::string name = "t" + std::to_string(temps++);
    body += "  " + type + " " + name + " = " + e + ";\n";
    return name;
  }
  Value constant(double v) {
    char text[64];
    if (std::nearbyint(v) == v && std::fabs(v) < 1e15)
      std::snprintf(text, sizeof text, "%.0f", v);
    else  // exact in hexadecimal; a float constant must not be a double literal
      std::snprintf(text, sizeof text, s->kind == TypeKind::Float ? "%af" : "%a", v);
    return "(" + S + ")" + text;
  }
  Value neg(const Value& x) { return let(S, "-" + x); }
  Value binary(StepOp op, const Value& x, const Value& y) {
    static constexpr std::pair<StepOp, const char*> kOps[] = {
        {StepOp::add, "+"}, {StepOp::sub, "-"}, {StepOp::mul, "*"}, {StepOp::div, "/"},
        {StepOp::lt, "<"},  {StepOp::le, "<="}, {StepOp::gt, ">"},  {StepOp::ge, ">="},
        {StepOp::eq, "=="}, {StepOp::ne, "!="}};
    for (auto [o, text] : kOps) {
      if (o != op) continue;
      const bool flag = op >= StepOp::lt && op <= StepOp::ne;  // a scalar comparison is int
      return let(flag ? "int" : S, x + " " + text + " " + y);
    }
    return "0";
  }
  Value select(const Value& c, const Value& x, const Value& y) {
    return let(S, c + " ? " + x + " : " + y);
  }
  Value either(const Value& f, const Value& g) { return let("int", f + " || " + g); }
  Value both(const Value& f, const Value& g) { return let("int", f + " && " + g); }
  // A primitive builtin as a direct call of it prints: brook_math.h's own
  // function for a float transcendental, else OpenCL's builtin.
  Value call(stdlib::Builtin fn, std::span<const Value> xs) {
    std::string name(stdlib::builtin_info(fn).opencl_name);
    std::string_view own = stdlib::brook_math_opencl_name(fn);
    if (!own.empty() && s->kind == TypeKind::Float) {
      m.use_brook_math(false);
      name = own;
    }
    std::string_view own_d = stdlib::brook_math_opencl_name_f64(fn);
    if (!own_d.empty() && s->kind == TypeKind::Double) {
      m.use_brook_math(true);
      name = own_d;
    }
    std::string e = name + "(";
    for (size_t i = 0; i < xs.size(); ++i) e += (i ? ", " : "") + xs[i];
    return let(S, e + ")");
  }
};

const char* const kParams[] = {"a", "b", "c", "d"};

}  // namespace

std::string ClPrinter::recipe_call(const stdlib::Recipe& r, const ast::CallExpr& e,
                                   const std::vector<const Type*>& types) {
  const std::string fname(stdlib::builtin_info(r.id).name);
  const Type* s = types.at(0)->scalar_of();
  for (const Type* t : types)
    if (t->is_vector()) s = t->scalar_of();
  if (s->kind == TypeKind::Double) m_.uses_double = true;
  // The helper's body over `width` components of each parameter.
  auto body = [&](uint32_t width, auto component) {
    ClLowering low{m_, s, m_.type_name(s), {}, 0};
    std::vector<stdlib::Comps<std::string>> in(types.size());
    for (size_t i = 0; i < types.size(); ++i) {
      in[i].n = static_cast<uint8_t>(std::min(width, types[i]->width()));
      for (uint32_t k = 0; k < in[i].n; ++k) in[i].c[k] = component(i, k);
    }
    stdlib::Comps<std::string> out =
        stdlib::evaluate(r, low, std::span<const stdlib::Comps<std::string>>(in));
    return std::make_pair(low.body, out);
  };
  std::string name;
  if (r.per_component && types.size() <= 3) {
    // The scalar helper, and a vector one calling it per component.
    auto [text, out] = body(1, [](size_t i, uint32_t) { return std::string(kParams[i]); });
    name = componentwise(fname, e.type, types, "\n" + text + "  return " + out.c[0] + ";\n");
  } else {
    name = "brook_" + fname;
    for (const Type* t : types) name += "_" + m_.tag(t);
    m_.helper(name, [&] {
      auto [text, out] = body(4, [&](size_t i, uint32_t k) {
        return types[i]->is_vector() ? std::string(kParams[i]) + ".s" + std::to_string(k)
                                     : std::string(kParams[i]);
      });
      std::string R = m_.type_name(e.type);
      std::string result = out.c[0];
      if (e.type->is_vector()) {
        result = "(" + R + ")(";
        for (uint32_t k = 0; k < e.type->count; ++k) result += (k ? ", " : "") + out[k];
        result += ")";
      }
      std::string h = "static " + R + " " + name + "(";
      for (size_t i = 0; i < types.size(); ++i)
        h += (i ? ", " : "") + m_.type_name(types[i]) + " " + kParams[i];
      return h + ") {\n" + text + "  return " + result + ";\n}\n";
    });
  }
  return name;
}

}  // namespace brook::opencl
