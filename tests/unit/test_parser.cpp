// The parser and the AST dump: tree shapes, locations, errors and recovery.
#include <doctest/doctest.h>

#include <string>

#include "lang/ast_dump.hpp"
#include "lang/lexer.hpp"
#include "lang/parser.hpp"

namespace {

using namespace brook;

struct Parsed {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  TypeContext types;
  ParserState state;
  ParseResult result;

  explicit Parsed(const std::string& text) { parse_more(text); }
  // Parses another entry with the same state, like a REPL line.
  void parse_more(const std::string& text) {
    uint32_t file = sources.add_file("t.br", text);
    auto tokens = lex_file(sources, file, diags);
    result = parse(tokens, types, diags, state);
  }
  std::string dump() const { return dump_ast(result.program); }
  // "line:col: message" for every diagnostic.
  std::string errors() const {
    std::string out;
    for (const Diagnostic& d : diags.diagnostics())
      out += std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message + "\n";
    return out;
  }
  const ast::Stmt& item(size_t i) const { return *result.program.items.at(i); }
  const ast::Decl& decl(size_t item_index, size_t decl_index = 0) const {
    return *item(item_index).as<ast::DeclStmt>()->decls.at(decl_index);
  }
};

// The dump of the expression statement `text;`.
std::string expr_dump(const std::string& text) {
  Parsed p(text + ";");
  REQUIRE(p.errors() == "");
  REQUIRE(p.result.program.items.size() == 1);
  const auto* s = p.item(0).as<ast::ExprStmt>();
  REQUIRE(s != nullptr);
  return dump_expr(*s->expr);
}

}  // namespace

TEST_CASE("parser: multiplication binds tighter than addition") {
  CHECK(expr_dump("a + b * c") ==
        "Binary + @1:3\n"
        "  Name a @1:1\n"
        "  Binary * @1:7\n"
        "    Name b @1:5\n"
        "    Name c @1:9\n");
}

TEST_CASE("parser: binary operators are left-associative") {
  CHECK(expr_dump("a - b - c") ==
        "Binary - @1:7\n"
        "  Binary - @1:3\n"
        "    Name a @1:1\n"
        "    Name b @1:5\n"
        "  Name c @1:9\n");
}

TEST_CASE("parser: assignment is right-associative, compound ops too") {
  CHECK(expr_dump("a = b += c") ==
        "Assign = @1:3\n"
        "  Name a @1:1\n"
        "  Assign += @1:7\n"
        "    Name b @1:5\n"
        "    Name c @1:10\n");
}

TEST_CASE("parser: C precedence ladder") {
  // || < && < | < ^ < & < == < < < << < +
  CHECK(expr_dump("a || b && c | d ^ e & f == g < h << i + j") ==
        "Binary || @1:3\n"
        "  Name a @1:1\n"
        "  Binary && @1:8\n"
        "    Name b @1:6\n"
        "    Binary | @1:13\n"
        "      Name c @1:11\n"
        "      Binary ^ @1:17\n"
        "        Name d @1:15\n"
        "        Binary & @1:21\n"
        "          Name e @1:19\n"
        "          Binary == @1:25\n"
        "            Name f @1:23\n"
        "            Binary < @1:30\n"
        "              Name g @1:28\n"
        "              Binary << @1:34\n"
        "                Name h @1:32\n"
        "                Binary + @1:39\n"
        "                  Name i @1:37\n"
        "                  Name j @1:41\n");
}

TEST_CASE("parser: conditional is right-associative and below ||") {
  CHECK(expr_dump("a ? b : c ? d : e") ==
        "Conditional @1:3\n"
        "  Name a @1:1\n"
        "  Name b @1:5\n"
        "  Conditional @1:11\n"
        "    Name c @1:9\n"
        "    Name d @1:13\n"
        "    Name e @1:17\n");
}

TEST_CASE("parser: comma has the lowest precedence") {
  CHECK(expr_dump("a = 1, b") ==
        "Comma @1:6\n"
        "  Assign = @1:3\n"
        "    Name a @1:1\n"
        "    IntLit 1 @1:5\n"
        "  Name b @1:8\n");
}

TEST_CASE("parser: unary, postfix, casts and sizeof") {
  CHECK(expr_dump("-*p++") ==
        "Unary - @1:1\n"
        "  Unary * @1:2\n"
        "    Unary post++ @1:4\n"
        "      Name p @1:3\n");
  CHECK(expr_dump("(float)x + 1") ==
        "Binary + @1:10\n"
        "  Cast (float) @1:1\n"
        "    Name x @1:8\n"
        "  IntLit 1 @1:12\n");
  CHECK(expr_dump("sizeof(unsigned int*)") == "Sizeof (unsigned int*) @1:1\n");
  CHECK(expr_dump("sizeof x") == "Sizeof @1:1\n  Name x @1:8\n");
  CHECK(expr_dump("!~++a") ==
        "Unary ! @1:1\n  Unary ~ @1:2\n    Unary pre++ @1:3\n      Name a @1:5\n");
}

TEST_CASE("parser: calls, indexing, members and domain") {
  CHECK(expr_dump("f(a, b)[2].x->y") ==
        "Member ->y @1:13\n"
        "  Member .x @1:11\n"
        "    Index @1:8\n"
        "      Call f @1:1\n"
        "        Name a @1:3\n"
        "        Name b @1:6\n"
        "      IntLit 2 @1:9\n");
  CHECK(expr_dump("s.domain(int2(0, 0), e)") ==
        "Domain @1:2\n"
        "  Name s @1:1\n"
        "  Construct int2 @1:10\n"
        "    IntLit 0 @1:15\n"
        "    IntLit 0 @1:18\n"
        "  Name e @1:22\n");
}

TEST_CASE("parser: calls through function pointers and their types") {
  CHECK(expr_dump("(*f)(x)") ==
        "Call @1:2\n"
        "  Unary * @1:2\n"
        "    Name f @1:3\n"
        "  Name x @1:6\n");
  CHECK(expr_dump("ops[i](a)") ==
        "Call @1:4\n"
        "  Index @1:4\n"
        "    Name ops @1:1\n"
        "    Name i @1:5\n"
        "  Name a @1:8\n");
  CHECK(expr_dump("(int (*)(int, char*))g") ==
        "Cast (int (*)(int, char*)) @1:1\n"
        "  Name g @1:22\n");
  CHECK(expr_dump("sizeof(float (*)[4])") == "Sizeof (float (*)[4]) @1:1\n");
}

TEST_CASE("parser: literals and constructors") {
  CHECK(expr_dump("'a'") == "IntLit 97 char @1:1\n");
  CHECK(expr_dump("10ul") == "IntLit 10 u l @1:1\n");
  CHECK(expr_dump("1.5f") == "FloatLit 1.5f @1:1\n");
  CHECK(expr_dump("true") == "BoolLit true @1:1\n");
  CHECK(expr_dump("\"ab\" \"cd\"") == "StringLit \"abcd\" @1:1\n");
  CHECK(expr_dump("float4(1, v.xy, 2)") ==
        "Construct float4 @1:1\n"
        "  IntLit 1 @1:8\n"
        "  Member .xy @1:12\n"
        "    Name v @1:11\n"
        "  IntLit 2 @1:17\n");
  CHECK(expr_dump("int(x)") == "Construct int @1:1\n  Name x @1:5\n");
  CHECK(expr_dump("(float4(1, 2, 3, 4))") ==
        "Construct float4 @1:2\n  IntLit 1 @1:9\n  IntLit 2 @1:12\n  IntLit 3 @1:15\n"
        "  IntLit 4 @1:18\n");
}

TEST_CASE("parser: indexof with and without parentheses") {
  CHECK(expr_dump("indexof a") == "Indexof @1:1\n  Name a @1:9\n");
  // With parentheses it reads like a call: `indexof(a).xy` is a swizzle of the result.
  CHECK(expr_dump("indexof(a).x") == "Member .x @1:11\n  Indexof @1:1\n    Name a @1:9\n");
}

TEST_CASE("parser: kernels with every parameter kind") {
  Parsed p(
      "kernel void k(float a<>, out float b<>, iter float2 it<>, float c, float g[],\n"
      "              float h[][], float m[10][10]) { b = a; }\n");
  REQUIRE(p.errors() == "");
  const auto* fn = p.decl(0).as<ast::FuncDecl>();
  REQUIRE(fn);
  CHECK(fn->fkind == ast::FuncKind::Kernel);
  REQUIRE(fn->params.size() == 7);
  using ast::ParamKind;
  ParamKind kinds[] = {ParamKind::Input,  ParamKind::Out,    ParamKind::Iter,  ParamKind::Const,
                       ParamKind::Gather, ParamKind::Gather, ParamKind::Gather};
  int ranks[] = {0, 0, 0, 0, 1, 2, 2};
  for (int i = 0; i < 7; ++i) {
    CHECK(fn->params[i]->pkind == kinds[i]);
    CHECK(fn->params[i]->gather_rank == ranks[i]);
    CHECK(fn->params[i]->index == i);
  }
  CHECK(fn->params[2]->name == "it");
  CHECK(fn->params[2]->loc == SourceLoc{0, 1, 53});
  CHECK(p.dump().find("  FuncDecl kernel k -> void @1:13\n    Param in a : float @1:21\n") !=
        std::string::npos);
}

TEST_CASE("parser: reduce functions and kernels returning values") {
  Parsed p(
      "reduce void sum(float a<>, reduce float r<>) { r = r + a; }\n"
      "kernel float4 f(float4 v) { return v * 2.0f; }\n");
  REQUIRE(p.errors() == "");
  const auto* r = p.decl(0).as<ast::FuncDecl>();
  REQUIRE(r);
  CHECK(r->fkind == ast::FuncKind::Reduce);
  CHECK(r->params[0]->pkind == ast::ParamKind::Input);
  CHECK(r->params[1]->pkind == ast::ParamKind::Reduce);
  const auto* f = p.decl(1).as<ast::FuncDecl>();
  REQUIRE(f);
  CHECK(f->params[0]->pkind == ast::ParamKind::Const);
  CHECK(p.dump().find("FuncDecl kernel f -> float4 @2:15") != std::string::npos);
}

TEST_CASE("parser: host functions, prototypes, variadics and array params") {
  Parsed p("int f(int a, float b[]);\nint printf2(const char* fmt, ...);\nvoid g(void) {}\n");
  REQUIRE(p.errors() == "");
  const auto* f = p.decl(0).as<ast::FuncDecl>();
  REQUIRE(f);
  CHECK(f->body == nullptr);
  CHECK(f->params[1]->pkind == ast::ParamKind::Value);
  CHECK(f->params[1]->type_syntax.array_dims.size() == 1);
  const auto* v = p.decl(1).as<ast::FuncDecl>();
  REQUIRE(v);
  CHECK(v->is_variadic);
  CHECK(v->params[0]->type_syntax.is_const);
  CHECK(v->params[0]->type_syntax.pointer_depth == 1);
  const auto* g = p.decl(2).as<ast::FuncDecl>();
  REQUIRE(g);
  CHECK(g->params.empty());
  CHECK(g->body != nullptr);
}

TEST_CASE("parser: streams with extents, several per declaration") {
  Parsed p("float a<10>, b<n, m * 2>;\n");
  REQUIRE(p.errors() == "");
  CHECK(p.dump() ==
        "DeclStmt @1:7\n"
        "  VarDecl global stream a : float @1:7\n"
        "    Extents\n"
        "      IntLit 10 @1:9\n"
        "  VarDecl global stream b : float @1:14\n"
        "    Extents\n"
        "      Name n @1:16\n"
        "      Binary * @1:21\n"
        "        Name m @1:19\n"
        "        IntLit 2 @1:23\n");
}

TEST_CASE("parser: iterator streams") {
  Parsed p("iter float2 it<10,10> = iter(float2(0,0), float2(1,1));\n");
  REQUIRE(p.errors() == "");
  const auto* v = p.decl(0).as<ast::VarDecl>();
  REQUIRE(v);
  CHECK(v->is_stream);
  CHECK(v->is_iter);
  CHECK(v->extents.size() == 2);
  REQUIRE(v->init);
  CHECK(v->init->kind == ast::ExprKind::IterInit);
}

TEST_CASE("parser: arrays, pointers and initialiser lists") {
  Parsed p("void f() { int *p, a[2][3] = {{1, 2, 3}, {4}}; float2 ind = {2, 0}; }\n");
  REQUIRE(p.errors() == "");
  const auto* fn = p.decl(0).as<ast::FuncDecl>();
  REQUIRE(fn);
  const auto* ds = fn->body->body.at(0)->as<ast::DeclStmt>();
  REQUIRE(ds);
  REQUIRE(ds->decls.size() == 2);
  const auto* ptr = ds->decls[0]->as<ast::VarDecl>();
  const auto* arr = ds->decls[1]->as<ast::VarDecl>();
  REQUIRE((ptr && arr));
  CHECK(ptr->type_syntax.pointer_depth == 1);
  CHECK(arr->type_syntax.pointer_depth == 0);
  CHECK(arr->type_syntax.array_dims.size() == 2);
  CHECK(!arr->is_global);
  const auto* list = arr->init->as<ast::InitListExpr>();
  REQUIRE(list);
  CHECK(list->elems.size() == 2);
  CHECK(list->elems[1]->as<ast::InitListExpr>()->elems.size() == 1);
}

TEST_CASE("parser: C keyword type combinations") {
  Parsed p("unsigned a; long long b; unsigned char c; short d; signed char e; unsigned long f;\n"
           "const double g = 1; bool h; uchar i; uint j;\n");
  REQUIRE(p.errors() == "");
  TypeKind expected[] = {TypeKind::UInt,  TypeKind::Long,   TypeKind::UChar, TypeKind::Short,
                         TypeKind::Char,  TypeKind::ULong,  TypeKind::Double, TypeKind::Bool,
                         TypeKind::UChar, TypeKind::UInt};
  for (size_t i = 0; i < 10; ++i) {
    const auto* v = p.decl(i).as<ast::VarDecl>();
    REQUIRE(v);
    CHECK(v->type_syntax.builtin == p.types.scalar(expected[i]));
  }
  CHECK(p.decl(6).as<ast::VarDecl>()->type_syntax.is_const);
}

TEST_CASE("parser: typedef names make `T * x;` a declaration") {
  Parsed p("typedef float T;\nT * x;\ny * x;\n");
  REQUIRE(p.errors() == "");
  const auto* v = p.decl(1).as<ast::VarDecl>();
  REQUIRE(v);
  CHECK(v->type_syntax.base == ast::TypeSyntax::Base::Named);
  CHECK(v->type_syntax.pointer_depth == 1);
  CHECK(p.item(2).kind == ast::StmtKind::Expr);  // y is not a type: a multiplication
}

TEST_CASE("parser: block-scoped typedefs end with the block; REPL state persists") {
  Parsed p("void f() { typedef int L; L a; }\nL * b;\ntypedef int G;\n");
  CHECK(p.item(1).kind == ast::StmtKind::Expr);
  CHECK(p.state.typedef_names.count("L") == 0);
  CHECK(p.state.typedef_names.count("G") == 1);
  p.parse_more("G * c;\n");
  REQUIRE(p.errors() == "");
  CHECK(p.item(0).kind == ast::StmtKind::Decl);
}

TEST_CASE("parser: struct and enum definitions, typedef struct") {
  Parsed p("struct P { float x, y; int tag[4]; } a, b;\n"
           "typedef struct { float4 c; } Color;\n"
           "enum Mode { A, B = 3, C };\n"
           "Color k;\n");
  REQUIRE(p.errors() == "");
  const auto& ds = *p.item(0).as<ast::DeclStmt>();
  REQUIRE(ds.decls.size() == 3);
  const auto* sd = ds.decls[0]->as<ast::StructDecl>();
  REQUIRE(sd);
  CHECK(sd->name == "P");
  CHECK(sd->is_definition);
  CHECK(sd->fields.size() == 3);
  CHECK(sd->field_index("tag") == 2);
  const auto* a = ds.decls[1]->as<ast::VarDecl>();
  REQUIRE(a);
  CHECK(a->type_syntax.base == ast::TypeSyntax::Base::Struct);
  CHECK(a->type_syntax.struct_def == sd);
  const auto* anon = p.decl(1, 0).as<ast::StructDecl>();
  const auto* td = p.decl(1, 1).as<ast::TypedefDecl>();
  REQUIRE((anon && td));
  CHECK(anon->name.empty());
  CHECK(td->name == "Color");
  const auto* en = p.decl(2).as<ast::EnumDecl>();
  REQUIRE(en);
  REQUIRE(en->constants.size() == 3);
  CHECK(en->constants[1]->value_expr != nullptr);
  CHECK(p.decl(3).as<ast::VarDecl>() != nullptr);
}

TEST_CASE("parser: if/else, while, do, for with declaration") {
  Parsed p("void f() {\n"
           "  if (a) b; else { c; }\n"
           "  while (x) x--;\n"
           "  do x++; while (x < 3);\n"
           "  for (int i = 0; i < 10; i++) ;\n"
           "  for (;;) break;\n"
           "}\n");
  REQUIRE(p.errors() == "");
  const auto& body = p.decl(0).as<ast::FuncDecl>()->body->body;
  REQUIRE(body.size() == 5);
  CHECK(body[0]->as<ast::IfStmt>()->else_stmt != nullptr);
  CHECK(body[1]->kind == ast::StmtKind::While);
  CHECK(body[2]->kind == ast::StmtKind::Do);
  const auto* f1 = body[3]->as<ast::ForStmt>();
  REQUIRE(f1);
  CHECK(f1->init->kind == ast::StmtKind::Decl);
  CHECK(f1->body->kind == ast::StmtKind::Empty);
  const auto* f2 = body[4]->as<ast::ForStmt>();
  REQUIRE(f2);
  CHECK((f2->init == nullptr && f2->cond == nullptr && f2->step == nullptr));
  CHECK(f2->body->kind == ast::StmtKind::Break);
}

TEST_CASE("parser: switch bodies hold case and default labels") {
  Parsed p("switch (x) { case 1: case 2: y = 1; break; default: continue; }\nreturn 3;\n");
  REQUIRE(p.errors() == "");
  CHECK(p.dump() ==
        "Switch @1:1\n"
        "  Name x @1:9\n"
        "  Compound @1:12\n"
        "    Case @1:14\n"
        "      IntLit 1 @1:19\n"
        "    Case @1:22\n"
        "      IntLit 2 @1:27\n"
        "    ExprStmt @1:30\n"
        "      Assign = @1:32\n"
        "        Name y @1:30\n"
        "        IntLit 1 @1:34\n"
        "    Break @1:37\n"
        "    Default @1:44\n"
        "    Continue @1:53\n"
        "Return @2:1\n"
        "  IntLit 3 @2:8\n");
}

TEST_CASE("parser: top-level statements mix with declarations") {
  Parsed p("int x;\nx = 3;\nprintf(\"%d\\n\", x);\nfor (x = 0; x < 2; x++) {}\n");
  REQUIRE(p.errors() == "");
  REQUIRE(p.result.program.items.size() == 4);
  CHECK(p.item(0).kind == ast::StmtKind::Decl);
  CHECK(p.decl(0).as<ast::VarDecl>()->is_global);
  CHECK(p.item(1).kind == ast::StmtKind::Expr);
  CHECK(p.item(2).kind == ast::StmtKind::Expr);
  CHECK(p.item(3).kind == ast::StmtKind::For);
}

TEST_CASE("parser: missing ';' points just after the previous token") {
  Parsed p("int main() {\n  x = 1\n  y = 2;\n}\n");
  CHECK(p.errors() == "2:8: expected ';' after expression\n");
  CHECK_FALSE(p.result.incomplete);
}

TEST_CASE("parser: expected expression and expected ')'") {
  Parsed p("x = (1 + ;\n");
  CHECK(p.errors() == "1:10: expected expression\n");
  Parsed q("f(1, 2;\n");
  CHECK(q.errors() == "1:7: expected ')'\n");
}

TEST_CASE("parser: goto and labels") {
  Parsed p("void f() { goto done; done: ; again: }\n");
  CHECK(p.errors() == "");
  Parsed q("void f() { goto ; }\n");
  CHECK(q.errors() == "1:17: expected a label name after 'goto'\n");
}

TEST_CASE("parser: recovery reports independent errors without cascades") {
  Parsed p("void f() {\n  a = ;\n  b = 1;\n  c = (2;\n}\nint g() { return 1 }\nint ok;\n");
  CHECK(p.errors() ==
        "2:7: expected expression\n"
        "4:9: expected ')'\n"
        "6:19: expected ';' after return statement\n");
  // What parsed is kept: f, g and ok.
  CHECK(p.result.program.items.size() == 3);
  CHECK(p.decl(2).name == "ok");
}

TEST_CASE("parser: stray tokens at the top level do not hang") {
  Parsed p("} int x; ]\n");
  CHECK(p.errors() == "1:1: expected expression\n1:10: expected expression\n");
  bool found = false;
  for (const auto& item : p.result.program.items)
    if (auto* ds = item->as<ast::DeclStmt>(); ds && ds->decls.at(0)->name == "x") found = true;
  CHECK(found);
}

TEST_CASE("parser: unfinished input is incomplete") {
  for (const char* text : {"kernel void f(", "{ int x = 1;", "x = 3", "if (a) {", "float a<10"}) {
    CAPTURE(text);
    Parsed p(text);
    CHECK(p.result.incomplete);
    CHECK(p.diags.has_errors());
  }
  Parsed done("x = 3; )");
  CHECK_FALSE(done.result.incomplete);
}

TEST_CASE("parser: deep nesting is an error, not a stack overflow") {
  std::string deep = "x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + ";";
  Parsed p(deep);
  CHECK(p.errors().find("nesting too deep") != std::string::npos);
  std::string blocks = std::string(10000, '{') + std::string(10000, '}');
  Parsed q(blocks);
  CHECK(q.errors().find("nesting too deep") != std::string::npos);
  std::string unary = "x = " + std::string(10000, '-') + "1;";
  Parsed r(unary);
  CHECK(r.diags.error_count() == 1);
}

TEST_CASE("parser: every prefix of a program parses without crashing") {
  const std::string program =
      "typedef struct { float x; } S;\n"
      "kernel void k(float a<>, out float b<>, float g[][]) { b = a + g[1][2]; }\n"
      "reduce void r(float a<>, reduce float s<>) { s += a; }\n"
      "int main() { float a<10>; iter float it<10> = iter(0.0f, 1.0f);\n"
      "  k(a.domain(0, 5), a, a); switch (1) { case 1: break; } return (int)sizeof(S); }\n";
  for (size_t n = 0; n <= program.size(); ++n) {
    Parsed p(program.substr(0, n));
    if (n == program.size()) CHECK(p.errors() == "");
  }
}

TEST_CASE("parser: declarations and names carry their source locations") {
  Parsed p("float4 v = float4(0);\nint  k;\n");
  REQUIRE(p.errors() == "");
  CHECK(p.decl(0).loc == SourceLoc{0, 1, 8});
  CHECK(p.decl(1).loc == SourceLoc{0, 2, 6});
  const auto* init = p.decl(0).as<ast::VarDecl>()->init->as<ast::ConstructExpr>();
  REQUIRE(init);
  CHECK(init->loc == SourceLoc{0, 1, 12});
}

TEST_CASE("ast dump: declarations show their type syntax") {
  Parsed p("static const int *tab[3];\ntypedef float R;\nint f(int n, ...);\n");
  REQUIRE(p.errors() == "");
  CHECK(p.dump() ==
        "DeclStmt @1:19\n"
        "  VarDecl global static tab : const int*[3] @1:19\n"
        "DeclStmt @2:15\n"
        "  TypedefDecl R : float @2:15\n"
        "DeclStmt @3:5\n"
        "  FuncDecl f -> int variadic prototype @3:5\n"
        "    Param value n : int @3:11\n");
}

TEST_CASE("parser: random token soup always terminates without crashing") {
  const char* vocab[] = {"int", "float4", "x", "(", ")", "{", "}", "[", "]", ";", ",", "<", ">",
                         "=", "+", "*", "kernel", "out", "iter", "struct", "typedef", "T", "if",
                         "else", "for", "while", "do", "switch", "case", "default", ":", "?", "1",
                         "2.0f", "\"s\"", "'c'", ".", "->", "domain", "sizeof", "indexof", "return",
                         "break", "goto", "enum", "reduce", "void", "...", "&&", "++", "-", "vout",
                         "unsigned", "long", "const", "static", "union", "S"};
  const size_t n_vocab = sizeof vocab / sizeof vocab[0];
  uint64_t seed = 12345;
  auto next = [&seed]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>(seed >> 33);
  };
  for (int round = 0; round < 1500; ++round) {
    std::string text = round % 2 ? "typedef int T; " : "";
    size_t len = 1 + next() % 80;
    for (size_t i = 0; i < len; ++i) {
      text += vocab[next() % n_vocab];
      text += ' ';
    }
    Parsed p(text);
    CHECK(dump_ast(p.result.program).size() < 1000000);
  }
}

TEST_CASE("parser: Brook keywords are plain names where no type follows") {
  Parsed p("void set(int* out, int v) { *out = v; }\n"
           "int out = 0;\nset(&out, 99);\nint iter = out + 1;\n"
           "kernel void k(out float b<>, iter float2 it<>) { b = it.x; }\n");
  REQUIRE(p.errors() == "");
  const auto* set = p.decl(0).as<ast::FuncDecl>();
  REQUIRE(set);
  CHECK(set->params[0]->name == "out");
  CHECK(set->params[0]->pkind == ast::ParamKind::Value);
  CHECK(p.decl(1).name == "out");
  CHECK(p.item(2).kind == ast::StmtKind::Expr);
  CHECK(p.decl(3).name == "iter");
  const auto* k = p.decl(4).as<ast::FuncDecl>();
  REQUIRE(k);
  CHECK(k->params[0]->pkind == ast::ParamKind::Out);
  CHECK(k->params[1]->pkind == ast::ParamKind::Iter);
}

TEST_CASE("parser: errors inside braces of a declaration do not cascade") {
  Parsed p("enum E { A B };\nstruct S { int x y; float z; } s;\nint a[] = {1, 2 3};\nint ok;\n");
  CHECK(p.errors() ==
        "1:12: expected ',' or '}' after enumerator\n"
        "2:17: expected ';' after struct field\n"
        "3:17: expected '}'\n");
  REQUIRE(!p.result.program.items.empty());
  CHECK(p.result.program.items.back()->as<ast::DeclStmt>()->decls.at(0)->name == "ok");
}

TEST_CASE("parser: nested struct definitions precede their enclosing struct") {
  Parsed p("struct A { struct B { int x; } b; float y; } a;\n");
  REQUIRE(p.errors() == "");
  const auto& ds = *p.item(0).as<ast::DeclStmt>();
  REQUIRE(ds.decls.size() == 3);
  CHECK(ds.decls[0]->name == "B");
  CHECK(ds.decls[1]->name == "A");
  CHECK(ds.decls[1]->as<ast::StructDecl>()->fields.at(0).type_syntax.struct_def ==
        ds.decls[0]->as<ast::StructDecl>());
  CHECK(ds.decls[2]->name == "a");
}

TEST_CASE("parser: two names in a row report an unknown type name") {
  Parsed p("void f() { Foo x; int y = 1 }\nPoint p;\n");
  CHECK(p.errors() ==
        "1:12: unknown type name 'Foo'\n"
        "1:28: expected ';' after declaration\n"
        "2:1: unknown type name 'Point'\n");
}
