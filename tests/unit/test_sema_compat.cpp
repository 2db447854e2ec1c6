// The BrookGPU / Brook+ forms of the kernel language (LANGUAGE.md §12) as sema
// types them: spellings, narrowing (and its warning), scalar swizzles,
// vector indexing, vector conditions, stream parameters of host functions.
#include <doctest/doctest.h>

#include <string>

#include "lang/ast.hpp"
#include "lang/frontend.hpp"
#include "tests/unit/sema_checked.hpp"

using namespace brook;

namespace {

using test::Checked;

// The type of the last expression statement of kernel `k`'s body.
std::string kernel_type_of(const std::string& params, const std::string& body) {
  Checked c("kernel void k(" + params + ", out float o_<>) { " + body + "; }\n");
  if (!c.ok()) return "ERROR: " + c.messages();
  auto* ds = c.fe.programs().back()->items.back()->as<ast::DeclStmt>();
  auto* f = ds ? ds->decls.back()->as<ast::FuncDecl>() : nullptr;
  if (!f || !f->body || f->body->body.empty()) return "?";
  auto* es = f->body->body.back()->as<ast::ExprStmt>();
  if (!es || !es->expr || !es->expr->type) return "?";
  return es->expr->type->name();
}

}  // namespace

TEST_CASE("compat: BrookGPU and Brook+ type spellings") {
  CHECK(kernel_type_of("half a<>", "a") == "float");
  CHECK(kernel_type_of("fixed3 a<>", "a") == "float3");
  CHECK(kernel_type_of("shortfixed4 a<>", "a") == "float4");
  CHECK(kernel_type_of("unsigned int2 a<>", "a") == "uint2");
  CHECK(kernel_type_of("unsigned char4 a<>", "a") == "uchar4");
  CHECK(kernel_type_of("unsigned short3 a<>", "a") == "ushort3");
  CHECK(kernel_type_of("short2 a<>", "a") == "short2");
  // `half` stays usable as a variable name in host code.
  Checked c("int main() { int half = 3; return half - 3; }\n");
  CHECK(c.ok());
}

TEST_CASE("compat: fixed is a byte on the host and a float in kernels and streams") {
  CHECK(kernel_type_of("fixed a<>, fixed2 k", "k") == "float2");
  CHECK(kernel_type_of("fixed a<>", "(fixed4)a") == "float4");
  // On the host: the byte, with unsigned char's conversions; a stream of
  // fixed holds floats, so a kernel taking float accepts it.
  Checked host(
      "kernel void k(float a<>, out float b<>) { b = a; }\n"
      "int main() { fixed h[2] = {1, 2}; fixed2 v; fixed s<2>, t<2>; unsigned char c = h[1];\n"
      "  v.y = c; streamRead(s, h); k(s, t); return v.y - 2; }\n");
  CHECK(host.messages() == "");
  Checked named("int main() { fixed3 v; float f = v; return 0; }\n");
  CHECK(named.messages() == "cannot convert 'fixed3' to 'float' in initialisation");
}

TEST_CASE("compat: narrowing, with a warning only when implicit") {
  Checked w("kernel void k(float4 v<>, out float2 o<>) { o = v; }\n");
  CHECK(w.ok());
  CHECK(w.messages() == "implicit conversion from 'float4' to 'float2' drops its last 2 components");
  Checked c("kernel void k(float4 v<>, out float3 o<>) { o = (float3)v; }\n");
  CHECK(c.ok());
  CHECK(c.messages().empty());
  CHECK(kernel_type_of("float4 v<>", "(float)v") == "float");
  CHECK(kernel_type_of("float2 v<>", "(float4)v").rfind("ERROR: cannot cast", 0) == 0);
  // To a scalar, its first component: implicit in kernels (as Cg), an error on the host.
  Checked s("kernel void k(float4 v<>, out float o<>) { o = v; }\n");
  CHECK(s.ok());
  CHECK(s.messages() ==
        "implicit conversion from 'float4' to 'float' keeps only its first component");
  Checked b("kernel void k(float4 v<>, out float o<>) { bool t = v; o = 1.0f; }\n");
  CHECK_FALSE(b.ok());
  Checked h("int main() { float4 v; float f = v; return 0; }\n");
  CHECK(h.messages() == "cannot convert 'float4' to 'float' in initialisation");
}

TEST_CASE("compat: scalar swizzles and vector indexing") {
  CHECK(kernel_type_of("float a<>", "a.x") == "float");
  CHECK(kernel_type_of("float a<>", "a.xxx") == "float3");
  CHECK(kernel_type_of("float a<>", "a.y").rfind("ERROR", 0) == 0);
  CHECK(kernel_type_of("float4 v<>", "v[3]") == "float");
  CHECK(kernel_type_of("int4 v<>", "v[1]") == "int");
  CHECK(kernel_type_of("float4 v<>, int i", "v[i]") == "float");
  CHECK(kernel_type_of("float4 v<>", "v[4]") ==
        "ERROR: component index 4 is outside 'float4' (0 to 3)");
}

TEST_CASE("compat: a vector condition selects per component") {
  CHECK(kernel_type_of("float4 a<>", "a > 1.0f ? a : 0.0f") == "float4");
  CHECK(kernel_type_of("float4 a<>", "a > 1.0f ? 1 : 2") == "int4");
  CHECK(kernel_type_of("float4 a<>, float2 b", "a > 1.0f ? a : b").rfind("ERROR", 0) == 0);
}

TEST_CASE("compat: host functions taking streams and pointers to streams") {
  Checked ok(
      "kernel void c(float a<>, out float b<>) { b = a; }\n"
      "void f(float s<4,3>, float (*o)<4,3>) { c(s, *o); streamSwap(s, *o); }\n"
      "int main() { float a<4,3>; float b<4,3>; f(a, &b); return 0; }\n");
  CHECK(ok.messages() == "");
  Checked bad(
      "void f(float (*o)<4>) { streamPrint(*o); }\n"
      "int main() { float a<4>; f(a); return 0; }\n");
  CHECK(bad.messages() ==
        "argument 1 of function 'f' must be a pointer to a stream of 'float' (pass '&s' for a "
        "stream s), not 'float<>'");
  Checked kern("kernel void k(float (*o)<>, out float b<>) { b = 1.0f; }\n");
  CHECK(kern.messages() == "pointers are not allowed in kernels");
}

TEST_CASE("compat: word order and reduce parameters without <>") {
  Checked c(
      "void kernel k(float a<>, out float b<>) { b = a; }\n"
      "reduce void sum(float a<>, reduce float r) { r += a; }\n");
  CHECK(c.ok());
  CHECK(c.messages().empty());
}
