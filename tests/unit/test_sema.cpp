// Sema through the whole front end: typing of operators, conversions, vectors,
// swizzles, struct layout, initialisers, and the kernel / reduction / iterator
// rules of LANGUAGE.md §5–§7.
#include <doctest/doctest.h>

#include <string>

#include "lang/ast.hpp"
#include "lang/frontend.hpp"
#include "tests/unit/sema_checked.hpp"

using namespace brook;

namespace {

using test::Checked;

// The type of `expr` evaluated after the declarations in `decls`, at top level.
std::string type_of(const std::string& decls, const std::string& expr) {
  Checked c(decls + "\n" + expr + ";\n");
  if (!c.ok()) return "ERROR: " + c.messages();
  const auto& items = c.program().items;
  auto* es = items.back()->as<ast::ExprStmt>();
  if (!es || !es->expr || !es->expr->type) return "?";
  return es->expr->type->name();
}

// The type of `expr` inside a kernel with the given parameters.
std::string kernel_type_of(const std::string& params, const std::string& expr) {
  Checked c("kernel void k(" + params + ", out float o_<>) { " + expr + "; }\n");
  if (!c.ok()) return "ERROR: " + c.messages();
  const auto& items = c.program().items;
  auto* ds = items.back()->as<ast::DeclStmt>();
  auto* f = ds ? ds->decls.back()->as<ast::FuncDecl>() : nullptr;
  if (!f || !f->body || f->body->body.empty()) return "?";
  auto* es = f->body->body.back()->as<ast::ExprStmt>();
  if (!es || !es->expr || !es->expr->type) return "?";
  return es->expr->type->name();
}

std::string error_of(const std::string& src) {
  Checked c(src);
  if (c.ok()) return "OK";
  return c.messages();
}

const ast::VarDecl* find_var(const ast::Program& p, const std::string& name) {
  for (const auto& item : p.items)
    if (auto* ds = item->as<ast::DeclStmt>())
      for (const auto& d : ds->decls)
        if (auto* v = d->as<ast::VarDecl>(); v && v->name == name) return v;
  return nullptr;
}

}  // namespace

TEST_CASE("sema: literals follow C typing") {
  CHECK(type_of("", "1") == "int");
  CHECK(type_of("", "1u") == "unsigned int");
  CHECK(type_of("", "1l") == "long");
  CHECK(type_of("", "3000000000") == "long");
  CHECK(type_of("", "0xFFFFFFFF") == "unsigned int");
  CHECK(type_of("", "'a'") == "int");
  CHECK(type_of("", "1.5") == "double");
  CHECK(type_of("", "1.5f") == "float");
  CHECK(type_of("", "\"hi\"") == "char[3]");
}

TEST_CASE("sema: integer promotions and usual arithmetic conversions") {
  CHECK(type_of("char a; char b;", "a + b") == "int");
  CHECK(type_of("short a; unsigned char b;", "a * b") == "int");
  CHECK(type_of("int a; unsigned int b;", "a + b") == "unsigned int");
  CHECK(type_of("long a; unsigned int b;", "a + b") == "long");
  CHECK(type_of("long a; unsigned long b;", "a + b") == "unsigned long");
  CHECK(type_of("int a; float b;", "a + b") == "float");
  CHECK(type_of("float a; double b;", "a + b") == "double");
  CHECK(type_of("int a; double b;", "a < b") == "int");
  CHECK(type_of("char c;", "-c") == "int");
  CHECK(type_of("char c;", "~c") == "int");
  CHECK(type_of("float f;", "!f") == "int");
  CHECK(type_of("char c; long n;", "c << n") == "int");
  CHECK(type_of("int a; int b;", "a && b") == "int");
  CHECK(type_of("int a; float b;", "a ? a : b") == "float");
}

TEST_CASE("sema: bad operands are reported in the user's words") {
  CHECK(error_of("float f; int i; f % i;") == "invalid operands to binary '%': 'float' and 'int'");
  CHECK(error_of("float3 a; float4 b; a + b;") ==
        "invalid operands to binary '+': 'float3' and 'float4'");
  CHECK(error_of("float f; f << 1;") == "invalid operands to binary '<<': 'float' and 'int'");
}

TEST_CASE("sema: vectors operate per component and broadcast scalars") {
  CHECK(type_of("float4 v; float s;", "v * s") == "float4");
  CHECK(type_of("float4 v;", "v * 2.0") == "float4");
  CHECK(type_of("float4 v;", "2 * v") == "float4");
  CHECK(type_of("int2 v;", "v + 1") == "int2");
  CHECK(type_of("int2 v;", "v * 0.5f") == "float2");
  CHECK(type_of("float3 a; float3 b;", "a < b") == "int3");
  CHECK(type_of("float2 a;", "!a") == "int2");
  CHECK(type_of("float2 a; float b;", "a == b") == "int2");
  CHECK(type_of("int4 a;", "a & 3") == "int4");
}

TEST_CASE("sema: scalar broadcast is an explicit Broadcast cast") {
  Checked c("float4 v; float s; v + s;");
  REQUIRE(c.ok());
  auto* es = c.program().items.back()->as<ast::ExprStmt>();
  auto* b = es->expr->as<ast::BinaryExpr>();
  REQUIRE(b);
  auto* cast = b->rhs->as<ast::CastExpr>();
  REQUIRE(cast);
  CHECK(cast->cast == ast::CastKind::Broadcast);
  CHECK(cast->implicit);
  CHECK(cast->type->name() == "float4");
  CHECK(cast->operand->type->name() == "float");
}

TEST_CASE("sema: swizzles") {
  CHECK(type_of("float4 v;", "v.x") == "float");
  CHECK(type_of("float4 v;", "v.xy") == "float2");
  CHECK(type_of("float4 v;", "v.wzyx") == "float4");
  CHECK(type_of("float2 v;", "v.xxxx") == "float4");
  CHECK(type_of("int3 v;", "v.rgb") == "int3");
  CHECK(type_of("float4 v; float2 w;", "v.yx = w") == "float2");
  CHECK(error_of("float2 v; v.xq;") == "invalid swizzle '.xq': 'q' is not a component of 'float2'");
  CHECK(error_of("float2 v; v.z;") == "invalid swizzle '.z': 'z' is not a component of 'float2'");
  CHECK(error_of("float4 v; v.xg;") == "invalid swizzle '.xg': it mixes xyzw and rgba");
  CHECK(error_of("float4 v; v.xx = float2(1, 2);") ==
        "cannot assign to swizzle '.xx': it repeats a component");
  Checked c("float4 v; v.zy;");
  REQUIRE(c.ok());
  auto* sw = c.program().items.back()->as<ast::ExprStmt>()->expr->as<ast::SwizzleExpr>();
  REQUIRE(sw);
  CHECK(sw->count == 2);
  CHECK(sw->comps[0] == 2);
  CHECK(sw->comps[1] == 1);
  CHECK(sw->is_lvalue);
}

TEST_CASE("sema: constructors") {
  CHECK(type_of("float2 v;", "float4(v, 0, 1)") == "float4");
  CHECK(type_of("", "float3(0)") == "float3");
  CHECK(type_of("double d;", "int(d)") == "int");
  CHECK(error_of("float4(1, 2, 3);") == "'float4' needs 4 components, but 3 were given");
  CHECK(error_of("float2 v; float4(v, v, 1);") == "'float4' needs 4 components, but 5 were given");
}

TEST_CASE("sema: implicit conversions") {
  CHECK(error_of("float3 a; float4 b; b = a;") ==
        "cannot convert 'float3' to 'float4' in assignment");
  CHECK(error_of("int* p; float f; p = f;") == "cannot convert 'float' to 'int*' in assignment");
  CHECK(error_of("int* p; p = 0;") == "OK");
  CHECK(error_of("float4 v; v = 1;") == "OK");
  CHECK(error_of("float f; f = 1;") == "OK");
  Checked c("float f; f = 1;");
  auto* a = c.program().items.back()->as<ast::ExprStmt>()->expr->as<ast::AssignExpr>();
  REQUIRE(a);
  auto* cast = a->rhs->as<ast::CastExpr>();
  REQUIRE(cast);
  CHECK(cast->implicit);
  CHECK(cast->cast == ast::CastKind::Convert);
  CHECK(cast->type->name() == "float");
}

TEST_CASE("sema: compound assignment records its operation type") {
  Checked c("char ch; ch += 1.5;");
  REQUIRE(c.ok());
  auto* a = c.program().items.back()->as<ast::ExprStmt>()->expr->as<ast::AssignExpr>();
  REQUIRE(a);
  REQUIRE(a->op_type);
  CHECK(a->op_type->name() == "double");
  CHECK(a->type->name() == "char");
  CHECK(error_of("float f; float4 v; f += v;") ==
        "cannot convert 'float4' to 'float' in assignment");
}

TEST_CASE("sema: lvalues") {
  CHECK(error_of("int a; a + 1 = 2;") ==
        "cannot assign to this expression: it is not a variable, element or field");
  CHECK(error_of("const int c = 1; c = 2;") == "cannot assign to const variable 'c'");
  CHECK(error_of("int a[3]; int b[3]; a = b;") == "cannot assign to an array; assign its elements");
  CHECK(error_of("int x; x++; ++x; x--;") == "OK");
}

TEST_CASE("sema: pointers and arrays on the host") {
  CHECK(type_of("int a[4];", "a[1]") == "int");
  CHECK(type_of("int a[4];", "a + 1") == "int*");
  CHECK(type_of("int* p; int* q;", "p - q") == "long");
  CHECK(type_of("int x;", "&x") == "int*");
  CHECK(type_of("int* p;", "*p") == "int");
  CHECK(type_of("float m[3][4];", "m[1]") == "float[4]");
  CHECK(type_of("char* s;", "s[0]") == "char");
  CHECK(error_of("float f; f[0];") == "cannot index a value of type 'float'");
  CHECK(error_of("int a[3]; float f; a[f];") == "array index must be an integer, not 'float'");
}

TEST_CASE("sema: sizeof and struct layout") {
  CHECK(error_of("struct S { char c; double d; }; int a[sizeof(struct S) == 16 ? 1 : -1];") ==
        "OK");
  CHECK(error_of("struct S { char c; float3 v; }; int a[sizeof(struct S) == 16 ? 1 : -1];") ==
        "OK");
  CHECK(error_of("struct S { char a; short b; char c; }; int a[sizeof(struct S) == 6 ? 1 : -1];") ==
        "OK");
  CHECK(error_of("int a[sizeof(float4) == 16 ? 1 : -1];") == "OK");
  CHECK(error_of("int a[sizeof(double3) == 24 ? 1 : -1];") == "OK");
  Checked c("struct P { char tag; int n; float2 pos; };");
  REQUIRE(c.ok());
  auto* ds = c.program().items[0]->as<ast::DeclStmt>();
  auto* sd = ds->decls[0]->as<ast::StructDecl>();
  REQUIRE(sd);
  REQUIRE(sd->type);
  CHECK(sd->type->size == 16);
  CHECK(sd->type->align == 4);
  CHECK(sd->fields[1].offset == 4);
  CHECK(sd->fields[2].offset == 8);
}

TEST_CASE("sema: struct members") {
  CHECK(type_of("struct P { int n; float2 pos; }; struct P p;", "p.pos") == "float2");
  CHECK(type_of("struct P { int n; float2 pos; }; struct P p;", "p.pos.y") == "float");
  CHECK(type_of("typedef struct { int n; } T; T t; T* q;", "q->n") == "int");
  CHECK(error_of("struct P { int n; }; struct P p; p.m;") == "'struct P' has no member named 'm'");
  CHECK(error_of("struct P { int n; int n; };") == "duplicate member 'n'");
}

TEST_CASE("sema: enums fold to int constants") {
  Checked c("enum Color { RED, GREEN = 5, BLUE }; int a[BLUE];");
  REQUIRE(c.ok());
  const ast::VarDecl* a = find_var(c.program(), "a");
  REQUIRE(a);
  CHECK(a->type->name() == "int[6]");
  CHECK(c.fe.sema().fold_int(*a->type_syntax.array_dims[0]) == 6);
}

TEST_CASE("sema: constant folding") {
  Checked c("int a[(1 << 3) + 2 * 3 - 10 / 3 % 2];");
  REQUIRE(c.ok());
  CHECK(find_var(c.program(), "a")->type->name() == "int[13]");
  CHECK(error_of("int n = 3; int a[n];") ==
        "array size must be an integer constant: variable-length arrays (C99 VLAs) are not "
        "supported; allocate with malloc");
  CHECK(error_of("int a[0];") == "array size must be positive, not 0");
}

TEST_CASE("sema: initialisers") {
  {
    Checked c("int a[] = {1, 2, 3};");
    REQUIRE(c.ok());
    CHECK(find_var(c.program(), "a")->type->name() == "int[3]");
  }
  {
    Checked c("char s[] = \"hi\";");
    REQUIRE(c.ok());
    CHECK(find_var(c.program(), "s")->type->name() == "char[3]");
  }
  {
    Checked c("int m[][2] = {1, 2, 3, 4, 5};");
    REQUIRE(c.ok());
    const ast::VarDecl* m = find_var(c.program(), "m");
    CHECK(m->type->name() == "int[3][2]");
    auto* list = m->init->as<ast::InitListExpr>();
    REQUIRE(list);
    CHECK(list->elems.size() == 3);  // fully braced after sema
    CHECK(list->elems[0]->as<ast::InitListExpr>() != nullptr);
  }
  CHECK(error_of("float2 v = {1, 2};") == "OK");
  CHECK(error_of("float2 v = {1, 2, 3};") == "too many initialisers for 'float2'");
  CHECK(error_of("struct P { int a; float b; }; struct P p = {1, 2.5};") == "OK");
  CHECK(error_of("struct P { int a; float2 b; }; struct P ps[2] = {1, 2, 3, 4, 5, 6};") == "OK");
  CHECK(error_of("int a[2] = {1, 2, 3};") == "too many initialisers for 'int[2]'");
  CHECK(error_of("char s[2] = \"long\";") == "initialiser string is too long for 'char[2]'");
  CHECK(error_of("int x = {1, 2};") == "a 'int' needs a single initialiser, not a list");
}

TEST_CASE("sema: statements") {
  CHECK(error_of("break;") == "'break' statement not in a loop or switch");
  CHECK(error_of("continue;") == "'continue' statement not in a loop");
  CHECK(error_of("int x; switch (x) { case 1: break; case 1: break; }") ==
        "duplicate case value '1'");
  CHECK(error_of("int x; switch (x) { default: break; default: break; }") ==
        "multiple 'default' labels in one switch");
  CHECK(error_of("int f() { return; }") == "non-void function 'f' must return a value");
  CHECK(error_of("void f() { return 1; }") == "void function 'f' cannot return a value");
  CHECK(error_of("int x; switch (x) { case 1: for (;;) { continue; } break; }") == "OK");
  CHECK(error_of("float2 v; if (v) {}") ==
        "the condition of 'if' must be a scalar, not 'float2'; use any() or all()");
}

TEST_CASE("sema: functions, prototypes and calls") {
  CHECK(error_of("int f(int a); int g() { return f(1); } int f(int a) { return a; }") == "OK");
  CHECK(error_of("int f(int a) { return a; } int f(int a) { return a; }") == "redefinition of 'f'");
  CHECK(error_of("int f(int a); float f(int a);") == "conflicting types for 'f'");
  CHECK(error_of("int f(int a, int b) { return a; } f(1);") ==
        "function 'f' takes 2 arguments, but 1 was given");
  CHECK(error_of("nosuch(1);") == "unknown function 'nosuch'");
  CHECK(error_of("x = 1;") == "unknown name 'x'");
  CHECK(error_of("void main() {}") == "'main' must return 'int'");
  CHECK(error_of("int main(int argc, char** argv) { return 0; }") == "OK");
  CHECK(error_of("int main(int argc, char* argv[]) { return 0; }") == "OK");
  CHECK(error_of("int main(float x) { return 0; }") ==
        "'main' takes no parameters or (int argc, char** argv)");
  Checked c("int f(int); int f(int a) { return a; } int y = f(2);");
  REQUIRE(c.ok());
  auto* proto = c.program().items[0]->as<ast::DeclStmt>()->decls[0]->as<ast::FuncDecl>();
  auto* def = c.program().items[1]->as<ast::DeclStmt>()->decls[0]->as<ast::FuncDecl>();
  CHECK(proto->definition == def);
  CHECK(def->definition == def);
}

TEST_CASE("sema: builtins") {
  CHECK(type_of("", "sqrt(2)") == "double");
  CHECK(type_of("", "sqrtf(2)") == "float");
  CHECK(type_of("float f;", "sqrt(f)") == "float");
  CHECK(type_of("float3 v;", "length(v)") == "float");
  CHECK(type_of("float3 a; float3 b;", "dot(a, b)") == "float");
  CHECK(type_of("float3 a; float3 b;", "cross(a, b)") == "float3");
  CHECK(type_of("int a; int b;", "min(a, b)") == "int");
  CHECK(type_of("float4 v;", "clamp(v, 0.0f, 1.0f)") == "float4");
  CHECK(type_of("float4 v;", "isnan(v)") == "int4");
  CHECK(type_of("", "printf(\"%d\\n\", 1)") == "int");
  CHECK(type_of("", "malloc(10)") == "void*");
  CHECK(error_of("sqrt(1, 2);") == "'sqrt' takes 1 argument, but 2 were given");
  CHECK(error_of("printf(\"%d\\n\", 1.5);") ==
        "format '%d' expects an argument of type 'int', but argument 2 has type 'double'");
  CHECK(error_of("float f; printf(\"%f %s\\n\", f, f);") ==
        "format '%s' expects an argument of type 'char*', but argument 3 has type 'double'");
  CHECK(error_of("int n; printf(\"%n\", &n);") != "OK");
  CHECK(error_of("fprintf(stderr, \"%d\\n\", 3);") == "OK");
  CHECK(error_of("instance();") == "'instance' can only be called in a kernel");
}

TEST_CASE("sema: streams on the host") {
  CHECK(
      error_of("float a<10>; float h[10]; streamRead(a, h); streamWrite(a, h); streamPrint(a);") ==
      "OK");
  CHECK(type_of("float a<4, 4>;", "streamSize(a)") == "int4");
  CHECK(error_of("float a<10>; a[0];") ==
        "streams cannot be indexed on the host; use streamRead/streamWrite");
  // BrookGPU's stream assignment copies (LANGUAGE.md §12); shapes are checked at run time.
  CHECK(error_of("float a<10>; float b<10>; a = b;") == "OK");
  CHECK(error_of("float a<10>; int b<10>; a = b;") == "a stream of 'float' cannot be assigned a stream of 'int'");
  CHECK(error_of("float a<10>; float b<10>; a += b;") ==
        "a stream takes no compound assignment: '=' copies a whole stream; compute with a kernel");
  CHECK(error_of("float a<10>; a + 1;") ==
        "streams cannot be used in arithmetic on the host; use a kernel");
  CHECK(error_of("float a<10>; float2 b<10>; streamSwap(a, b);") ==
        "'streamSwap' needs two streams of the same type, not 'float<>' and 'float2<>'");
  CHECK(error_of("float a<10> = 1;") == "streams cannot be initialised; use streamRead");
  CHECK(error_of("float a<1,2,3,4,5>;") == "a stream has 1 to 4 dimensions, 'a' has 5");
  CHECK(error_of("float a<2.5>;") == "stream extent must be an integer, not 'double'");
  // A view is a stream too: assigning from one copies its elements (§12).
  CHECK(error_of("float a<10, 10>; float b<5, 5>; b = a.domain(int2(0, 0), int2(5, 5));") == "OK");
  CHECK(error_of("void f(float x) {} float a<10>; f(a);") ==
        "streams cannot be passed to host function 'f'");
}

TEST_CASE("sema: kernels") {
  const char* ok = R"(
kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
float x<10>, y<10>, r<10>;
saxpy(2.0, x, y, r);
)";
  CHECK(error_of(ok) == "OK");
  CHECK(error_of("kernel void k(float a<>, out float b<>) { a = 1; }") ==
        "cannot assign to input stream 'a'");
  CHECK(error_of("kernel void k(float c, out float b<>) { c = 1; }") ==
        "cannot assign to constant parameter 'c'");
  CHECK(error_of("kernel void k(float g[], out float b<>) { g[0] = 1; }") ==
        "cannot assign to gather array 'g'");
  CHECK(error_of("kernel void k(float a<>, out float b<>) { a++; }") ==
        "cannot increment input stream 'a'");
  CHECK(error_of("float x; kernel void k(out float b<>) { b = x; }") ==
        "kernel 'k' cannot use global variable 'x'");
  CHECK(error_of("kernel void k(out float b<>) { float* p; }") ==
        "pointers are not allowed in kernels");
  CHECK(error_of("kernel void k(out float b<>) { malloc(4); }") ==
        "'malloc' cannot be called in a kernel");
  CHECK(error_of("float f(float x) { return x; } kernel void k(out float b<>) { b = f(1); }") ==
        "kernel 'k' cannot call host function 'f'");
  CHECK(error_of("kernel void k(out float b<>) { b = instance().x; }") == "OK");
  CHECK(error_of("kernel void k(out float b<>) { printf(\"%f\\n\", b); }") == "OK");
  CHECK(error_of("kernel void k(out float b<>) { k(b); }") ==
        "kernel 'k' cannot call itself: kernels cannot be recursive");
  CHECK(error_of("kernel float f(float a<>);\n"
                 "kernel float g(float a<>) { return f(a); }\n"
                 "kernel float f(float a<>) { return g(a); }") ==
        "kernels cannot be recursive: 'g' calls 'f', which leads back to 'g'");
  CHECK(error_of("kernel void k(float c, out float b<>) { b = indexof(c).x; }") ==
        "indexof needs a stream parameter, 'c' is a constant");
  CHECK(kernel_type_of("float a<>", "indexof a") == "float4");
  CHECK(kernel_type_of("float a<>", "indexof(a)") == "float4");
}

TEST_CASE("sema: gathers") {
  CHECK(kernel_type_of("float g[]", "g[1]") == "float");
  CHECK(kernel_type_of("float4 g[][]", "g[1][2]") == "float4");
  CHECK(kernel_type_of("float g[][]", "g[float2(1, 2)]") == "float");
  CHECK(kernel_type_of("float g[]", "g[float3(1, 2, 3)]") == "float");
  CHECK(kernel_type_of("float g[]", "g[1][2]") ==
        "ERROR: gather array 'g' has 1 dimension, but 2 indices were given");
  CHECK(kernel_type_of("float g[][]", "g[1]") ==
        "ERROR: gather array 'g' has 2 dimensions: index it as g[row][column] or with a float2 "
        "(column, row)");
  CHECK(kernel_type_of("float g[]", "g[\"x\"]") ==
        "ERROR: gather index must be a scalar or vector number, not 'char*'");
  Checked c("kernel void k(float g[][], out float o<>) { o = g[1][2]; }");
  REQUIRE(c.ok());
  auto* f = c.program().items[0]->as<ast::DeclStmt>()->decls[0]->as<ast::FuncDecl>();
  auto* a = f->body->body[0]->as<ast::ExprStmt>()->expr->as<ast::AssignExpr>();
  auto* g = a->rhs->as<ast::GatherExpr>();
  REQUIRE(g);
  CHECK(g->indices.size() == 2);
  CHECK(g->param->as<ast::NameExpr>()->name == "g");
}

TEST_CASE("sema: kernel launches from the host") {
  const char* k =
      "kernel void k(float a<>, float c, float g[], out float o<>) { o = a + c + g[0]; }\n";
  CHECK(error_of(std::string(k) + "float a<4>, o<4>; float h[4]; k(a, 1, h, o);") == "OK");
  CHECK(error_of(std::string(k) + "float a<4>, o<4>; float h[4]; k(a, 1, a, o);") == "OK");
  CHECK(error_of(std::string(k) + "float a<4>, o<4>; k(a, 1, a);") ==
        "kernel 'k' takes 4 arguments, but 3 were given");
  CHECK(error_of(std::string(k) + "float a<4>, o<4>; float x; k(x, 1, a, o);") ==
        "argument 1 of kernel 'k' must be a stream, not 'float'");
  CHECK(error_of(std::string(k) + "float a<4>, o<4>; k(a, a, a, o);") ==
        "argument 2 of kernel 'k' is the constant parameter 'c': pass a value, not a stream");
  CHECK(error_of(std::string(k) + "float2 a<4>; float o<4>; k(a, 1, o, o);") ==
        "argument 1 of kernel 'k' must be a stream of 'float', not 'float2<>'");
  CHECK(error_of("kernel void k(float a<>, float b<>) { } float a<4>; k(a, a);") ==
        "kernel 'k' has no 'out' stream, so it cannot be launched from the host");
  CHECK(error_of("kernel float f(float a<>) { return a; } float a<4>; f(a);") ==
        "kernel 'f' returns a value, so only other kernels can call it");
}

TEST_CASE("sema: kernels calling kernels") {
  const char* src = R"(
kernel float4 twice(float4 v<>) { return v * 2.0f; }
kernel void fill(out float4 o<>, float g[]) { o = float4(g[0]); }
kernel void k(float4 a<>, float g[], out float4 b<>) {
  float4 t;
  b = twice(a) + twice(float4(1));
  fill(t, g);
  fill(b, g);
}
)";
  CHECK(error_of(src) == "OK");
  CHECK(error_of("kernel void s(out float o<>) { o = 1; }\n"
                 "kernel void k(float a<>, out float b<>) { s(a); }") ==
        "cannot write to input stream 'a'");
}

TEST_CASE("sema: iterators") {
  CHECK(error_of("iter float s<100> = iter(0.0f, 1.0f);") == "OK");
  CHECK(error_of("iter float2 s<10, 10> = iter(float2(0, 0), float2(1, 1));") == "OK");
  CHECK(error_of("iter float3 s<10, 10> = iter(float3(0), float3(1));") ==
        "a 2-D iterator must have type float2, not 'float3'");
  CHECK(error_of("iter float s<100>;") == "iterator 's' needs an initialiser 'iter(lo, hi)'");
  CHECK(error_of("iter int s<100> = iter(0, 10);") ==
        "a 1-D iterator must have type float, float2, float3 or float4, not 'int'");
  CHECK(error_of("iter float3 s<2, 2, 2> = iter(float3(0, 0, 0), float3(1, 1, 1));") == "OK");
  CHECK(error_of("iter float4 s<2, 3, 2, 2> = iter(float4(0), float4(1));") == "OK");
  CHECK(error_of("iter float2 s<2, 2, 2> = iter(float2(0, 0), float2(1, 1));") ==
        "a 3-D iterator must have type float3, not 'float2'");
  CHECK(error_of("kernel void k(out float o<>) { o = 1; }\n"
                 "iter float s<10> = iter(0.0f, 1.0f); k(s);") ==
        "argument 1 of kernel 'k' is the 'out' parameter 'o'; an iterator cannot be an output");
}

TEST_CASE("sema: reductions") {
  const char* sum = "reduce void sum(float a<>, reduce float r<>) { r = r + a; }\n";
  CHECK(error_of(std::string(sum) + "float s<10>; float t; sum(s, t);") == "OK");
  CHECK(error_of(std::string(sum) + "float s<10>; float t<2>; sum(s, t);") == "OK");
  CHECK(error_of(std::string(sum) + "float s<10>; int t; sum(s, t);") ==
        "argument 2 of reduce function 'sum' receives the result and must be a variable of type "
        "'float' or a stream of it, not 'int'");
  CHECK(error_of("reduce void sum(float a<>, float b<>, reduce float r<>) { r = r + a; }") ==
        "a reduction must have exactly one input stream, 'sum' has 2");
  CHECK(error_of("reduce void sum(float a<>) { }") ==
        "a reduction must have exactly one 'reduce' parameter, 'sum' has 0");
  CHECK(error_of("reduce void sum(float a<>, reduce float2 r<>) { }") ==
        "the input and 'reduce' parameters of 'sum' must have the same type, not 'float' and "
        "'float2'");
  CHECK(error_of("reduce void sum(float a<>, reduce float r<>) { a = r; }") ==
        "cannot assign to input stream 'a'");
}

TEST_CASE("sema: stream gather/scatter operators") {
  const char* src = R"(
reduce void add(reduce float acc<>, float x<>) { acc = acc + x; }
float t<4>, idx<4>, a<8>;
streamGatherOp(t, idx, a, STREAM_GATHER_FETCH);
streamScatterOp(t, idx, a, add);
)";
  CHECK(error_of(src) == "OK");
  Checked c(src);
  auto* es = c.program().items.back()->as<ast::ExprStmt>();
  auto* call = es->expr->as<ast::CallExpr>();
  REQUIRE(call);
  auto* op = call->args[3]->as<ast::NameExpr>();
  REQUIRE(op);
  REQUIRE(op->decl);
  CHECK(op->decl->kind == ast::DeclKind::Func);
  CHECK(error_of("float t<4>, idx<4>, a<8>; streamGatherOp(t, idx, a, 7);") ==
        "the operation of 'streamGatherOp' must be STREAM_GATHER_FETCH, STREAM_GATHER_INC or a "
        "reduce function");
}

TEST_CASE("sema: no cascades, several independent errors") {
  Checked c("int x = nosuch + 1; float y = x * undefined2; int z = x;");
  CHECK(c.errors() == 2);
  CHECK(c.messages() == "unknown name 'nosuch'\nunknown name 'undefined2'");
}

TEST_CASE("sema: the global scope persists across check() calls") {
  FrontEnd fe;
  auto u1 = fe.load_source("<1>", "int counter = 1; int bump(int n) { return n + 1; }");
  REQUIRE(u1.status == FrontEnd::Status::ok);
  auto u2 = fe.load_source("<2>", "counter = bump(counter);");
  CHECK(u2.status == FrontEnd::Status::ok);
  CHECK(fe.sema().lookup_global("counter") != nullptr);
  CHECK(fe.sema().lookup_global("bump")->kind == ast::DeclKind::Func);
  CHECK(fe.sema().lookup_global("nothing") == nullptr);
}

TEST_CASE("sema: REPL redefinition replaces") {
  FrontEndOptions opts;
  opts.sema.allow_redefinition = true;
  FrontEnd fe(opts);
  REQUIRE(fe.load_source("<1>", "int f() { return 1; }").status == FrontEnd::Status::ok);
  CHECK(fe.load_source("<2>", "int f() { return 2; }").status == FrontEnd::Status::ok);
  CHECK(fe.load_source("<3>", "int x = 1; int x = 2;").status == FrontEnd::Status::ok);
}

TEST_CASE("sema: C corners") {
  CHECK(type_of("int a[4];", "2[a]") == "int");
  CHECK(error_of("int* p = 0; assert(p);") == "OK");
  {
    // assert(0.5) must hold: the argument is tested against zero, not truncated.
    Checked c("double d = 0.5; assert(d);");
    REQUIRE(c.ok());
    auto* call = c.program().items.back()->as<ast::ExprStmt>()->expr->as<ast::CallExpr>();
    REQUIRE(call);
    auto* to_int = call->args[0]->as<ast::CastExpr>();
    REQUIRE(to_int);
    auto* to_bool = to_int->operand->as<ast::CastExpr>();
    REQUIRE(to_bool);
    CHECK(to_bool->cast == ast::CastKind::ToBool);
  }
  CHECK(error_of("struct S { struct S inner; };") ==
        "member 'inner' has incomplete type 'struct S'");
  CHECK(error_of("struct N { struct N* next; int v; }; struct N n; int v = n.next->v;") == "OK");
  CHECK(error_of("char big[2147483647][2147483647][4];") == "array is too large");
  CHECK(error_of("struct F; struct F* p; struct F { int x; }; int y = p->x;") == "OK");
  CHECK(error_of("enum E { A, B }; enum E e = B; int x = e + A;") == "OK");
  CHECK(error_of("typedef float real; real r = 1; real* pr = &r;") == "OK");
  CHECK(type_of("", "sizeof(int) + 1") == "unsigned long");
  CHECK(type_of("int x;", "(float)x") == "float");
  CHECK(type_of("float f;", "(float4)f") == "float4");
  // Narrowing casts are allowed (LANGUAGE.md §12); widening ones are not.
  CHECK(error_of("float2 v; (float4)v;") == "cannot cast 'float2' to 'float4'");
}

TEST_CASE("sema: deep expressions are rejected, not a stack overflow") {
  std::string chain = "int x = 1";
  for (int i = 0; i < 50000; ++i) chain += "+1";
  chain += ";";
  CHECK(error_of(chain) == "expression is too deeply nested");
  std::string fine = "int x = 1";
  for (int i = 0; i < 500; ++i) fine += "+1";
  Checked c(fine + ";");
  CHECK(c.ok());
}
