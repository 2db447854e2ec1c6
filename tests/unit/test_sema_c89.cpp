// Sema for the C89/C99 forms of old host code: implicit declarations, K&R
// definitions, unions, designated initialisers, library functions as values.
#include <doctest/doctest.h>

#include <string>

#include "lang/ast.hpp"
#include "lang/frontend.hpp"
#include "tests/unit/sema_checked.hpp"

using namespace brook;

namespace {

using test::Checked;

const ast::VarDecl* find_var(const ast::Program& p, const std::string& name) {
  for (const auto& item : p.items)
    if (auto* ds = item->as<ast::DeclStmt>())
      for (const auto& d : ds->decls)
        if (auto* v = d->as<ast::VarDecl>(); v && v->name == name) return v;
  return nullptr;
}

const ast::FuncDecl* find_func(const ast::Program& p, const std::string& name) {
  for (const auto& item : p.items)
    if (auto* ds = item->as<ast::DeclStmt>())
      for (const auto& d : ds->decls)
        if (auto* f = d->as<ast::FuncDecl>(); f && f->name == name) return f;
  return nullptr;
}

}  // namespace

TEST_CASE("sema: an implicit declaration is a warning when the definition agrees") {
  Checked c("int main() { return twice(3) + twice(4); }\nint twice(int x) { return 2 * x; }\n");
  CHECK(c.ok());
  CHECK(c.labelled_messages() == "warning: implicit declaration of function 'twice'");
}

TEST_CASE("sema: an implicit declaration conflicts with a definition of another type") {
  Checked c("int main() { return (int)halve(2.0); }\ndouble halve(double x) { return x / 2; }\n");
  CHECK(!c.ok());
  CHECK(c.labelled_messages() ==
        "warning: implicit declaration of function 'halve'\n"
        "error: conflicting types for 'halve': it returns 'double', not 'int', but the call at "
        "line 1 declared it implicitly as 'int halve()'\n"
        "note: implicit declaration of 'halve' here");
}

TEST_CASE("sema: implicit calls pass promoted arguments, checked against the definition") {
  Checked ok("int main() { return f('a', 1.5f); }\nint f(int c, double d) { return c; }\n");
  CHECK(ok.ok());
  Checked bad("int main() { return f(1); }\nint f(double d) { return 0; }\n");
  CHECK(!bad.ok());
  CHECK(
      bad.labelled_messages().find("argument 1 of 'f' has type 'int' after the default promotions, but its "
                          "definition at line 2 takes 'double'") != std::string::npos);
  Checked narrow("int main() { return f(1.5f); }\nint f(float x) { return 0; }\n");
  CHECK(narrow.labelled_messages().find("parameter 'x' has type 'float', which a call without a prototype "
                               "passes as 'double'") != std::string::npos);
}

TEST_CASE("sema: K&R definitions declare their parameters after the list") {
  Checked c("float scale(x, n) float x; { return x * n; }\nfloat y = scale(2.0f, 3);\n");
  CHECK(c.ok());
  CHECK(c.labelled_messages() == "warning: type of 'n' defaults to 'int'");
  const ast::FuncDecl* f = find_func(c.program(), "scale");
  REQUIRE(f);
  CHECK(f->old_style);
  CHECK(f->params[0]->type->name() == "float");
  CHECK(f->params[1]->type->name() == "int");
  Checked bad("float scale(x) float x; { return x; }\nfloat y = scale(2);\n");
  CHECK(bad.labelled_messages().find("takes 'float' (passed as 'double')") != std::string::npos);
}

TEST_CASE("sema: union layout puts every member at offset 0") {
  Checked c("union U { char c; double d; int a[3]; };\nunion U u;\n");
  REQUIRE(c.ok());
  const ast::VarDecl* u = find_var(c.program(), "u");
  REQUIRE(u);
  CHECK(u->type->name() == "union U");
  CHECK(u->type->size == 16);
  CHECK(u->type->align == 8);
  for (const auto& f : u->type->decl->fields) CHECK(f.offset == 0);
  CHECK(Checked("union U { int i; }; struct U* p;").labelled_messages() ==
        "error: 'U' is a union, not a struct");
}

TEST_CASE("sema: designated initialisers become positional, fully braced lists") {
  Checked c(
      "struct P { int x, y; };\nstruct P ps[3] = {[2].y = 5, [0] = {.y = 1}};\n"
      "union V { int i; float f; };\nunion V v = {.f = 1.5f};\n");
  REQUIRE(c.ok());
  const ast::VarDecl* ps = find_var(c.program(), "ps");
  REQUIRE(ps);
  auto* list = ps->init->as<ast::InitListExpr>();
  REQUIRE(list);
  CHECK(list->designators.empty());
  REQUIRE(list->elems.size() == 3);
  CHECK(list->elems[1]->as<ast::InitListExpr>()->elems.empty());  // zero
  CHECK(list->elems[2]->as<ast::InitListExpr>()->elems.size() == 2);
  const ast::VarDecl* v = find_var(c.program(), "v");
  REQUIRE(v);
  CHECK(v->init->as<ast::InitListExpr>()->union_member == 1);
}

TEST_CASE("sema: library functions have addresses of their C types") {
  Checked c(
      "double (*f)(double) = sin;\nfloat (*g)(float) = sqrtf;\nint (*a)(int) = abs;\n"
      "unsigned long (*n)(const char*) = strlen;\n");
  CHECK(c.ok());
  CHECK(Checked("int (*p)(const char*, ...) = printf;").labelled_messages().find("variable argument list") !=
        std::string::npos);
}
