// The host interpreter end to end: programs through FrontEnd + Engine, with
// output captured through the Engine's output layer.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/engine.hpp"

using namespace brook;

namespace {
struct Result {
  int status = -1;
  std::string out, err;
};

Result run(const std::string& source, std::vector<std::string> args = {}) {
  Engine engine;
  Result r;
  engine.set_output(
      [&](int stream, std::string_view text) { (stream == 2 ? r.err : r.out).append(text); });
  if (!engine.compile_source("t.br", source)) {
    r.status = -2;
    return r;
  }
  std::vector<std::string> argv{"t.br"};
  argv.insert(argv.end(), args.begin(), args.end());
  r.status = engine.run(argv);
  return r;
}
}  // namespace

TEST_CASE("runtime: printf, loops and main's status") {
  Result r =
      run("int main() { int s = 0; for (int i = 1; i <= 10; i++) s += i;\n"
          "printf(\"%d\\n\", s); return 3; }");
  CHECK(r.out == "55\n");
  CHECK(r.status == 3);
  CHECK(r.err.empty());
}

TEST_CASE("runtime: top-level statements run before main, in order") {
  Result r =
      run("int x = 4;\nprintf(\"top %d\\n\", x);\nx = 9;\n"
          "int main() { printf(\"main %d\\n\", x); }");
  CHECK(r.out == "top 4\nmain 9\n");
  CHECK(r.status == 0);
}

TEST_CASE("runtime: recursion") {
  Result r =
      run("int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
          "int main() { printf(\"%d\\n\", fib(20)); return 0; }");
  CHECK(r.out == "6765\n");
}

TEST_CASE("runtime: integer promotions, wrapping and masked shifts") {
  Result r =
      run("int main() { unsigned char c = 250; c += 10; int big = 2147483647; big++;\n"
          "int one = 1; printf(\"%d %d %d %u\\n\", c, big, one << 33, (unsigned)-1);"
          " return 0; }");
  CHECK(r.out == "4 -2147483648 2 4294967295\n");
}

TEST_CASE("runtime: C division and remainder truncate") {
  Result r = run("int main() { printf(\"%d %d %d\\n\", -7 / 2, -7 % 2, 7 / -2); return 0; }");
  CHECK(r.out == "-3 -1 -3\n");
}

TEST_CASE("runtime: structs by value, arrays of structs, pointers to members") {
  Result r =
      run("struct P { int x; float y; };\n"
          "struct P make(int x) { struct P p; p.x = x; p.y = x * 0.5f; return p; }\n"
          "int bump(struct P p) { p.x += 100; return p.x; }\n"
          "int main() { struct P a = make(3); struct P arr[2] = {{1, 2.0f}, {5, 6.0f}};\n"
          "struct P* q = &arr[1]; q->x = 42;\n"
          "printf(\"%d %.1f %d %d %d %lu\\n\", a.x, a.y, bump(a), a.x, arr[1].x, sizeof(struct P));"
          " return 0; }");
  CHECK(r.out == "3 1.5 103 3 42 8\n");
}

TEST_CASE("runtime: multi-dimensional arrays with brace elision") {
  Result r =
      run("int main() { int m[2][3] = {1, 2, 3, 4, 5, 6}; int z[2][2] = {{1}, {2}};\n"
          "printf(\"%d %d %d %d\\n\", m[1][0], m[0][2], z[0][1], z[1][0]); return 0; }");
  CHECK(r.out == "4 3 0 2\n");
}

TEST_CASE("runtime: vectors, constructors and swizzles") {
  Result r =
      run("int main() { float4 d[2] = {float4(1, 2, 3, 4), float4(0)};\n"
          "float2 v = {2, 0}; v += float2(1, 1); v *= 2.0f;\n"
          "int4 iv = int4(1, 2, 3, 4); iv.wz = iv.xy;\n"
          "printf(\"%g %g %g %g %d%d%d%d %g\\n\", d[0].z, d[1].w, v.x, v.y,"
          " iv.x, iv.y, iv.z, iv.w, dot(d[0], d[0])); return 0; }");
  CHECK(r.out == "3 0 6 2 1221 30\n");
}

TEST_CASE("runtime: switch fallthrough, do-while, break and continue") {
  Result r =
      run("int main() { int k = 0; do { k += 2; } while (k < 7);\n"
          "for (int i = 0; i < 10; i++) { if (i % 2) continue; if (i > 6) break; k += i; }\n"
          "switch (3) { case 1: k = 0; case 3: k += 100; case 4: k += 1000; break;"
          " default: k = -1; }\n"
          "printf(\"%d\\n\", k); return 0; }");
  CHECK(r.out == "1120\n");
}

TEST_CASE("runtime: static locals, enums and globals") {
  Result r =
      run("enum C { RED, GREEN = 5, BLUE }; int g = 7;\n"
          "int next() { static int n = 10; return n++; }\n"
          "int main() { int a = next(); int b = next(); printf(\"%d %d %d %d %d\\n\","
          " a, b, GREEN, BLUE, g); return 0; }");
  CHECK(r.out == "10 11 5 6 7\n");
}

TEST_CASE("runtime: heap, pointer arithmetic and string functions") {
  Result r =
      run("int main() { int* h = (int*)malloc(10 * sizeof(int));\n"
          "for (int i = 0; i < 10; i++) h[i] = i; int* q = h + 5; q[1] = 99;\n"
          "char buf[16]; sprintf(buf, \"%03d|%s\", 7, \"ab\");\n"
          "printf(\"%d %ld %s %lu %d\\n\", h[6], q - h, buf, strlen(buf), strcmp(\"a\", \"b\"));\n"
          "free(h); return 0; }");
  CHECK(r.out == "99 5 007|ab 6 -1\n");
}

TEST_CASE("runtime: argc and argv") {
  Result r =
      run("int main(int argc, char** argv) { printf(\"%d %s %s\\n\", argc, argv[0], argv[1]);"
          " return argv[2] == 0; }",
          {"hello"});
  CHECK(r.out == "2 t.br hello\n");
  CHECK(r.status == 1);
}

TEST_CASE("runtime: rand follows glibc") {
  Result r = run(
      "int main() { srand(1); int a = rand(); int b = rand(); printf(\"%d %d\\n\", a, b); return 0; }");
  CHECK(r.out == "1804289383 846930886\n");
}

TEST_CASE("runtime: exit unwinds with its status; stdout flushed first") {
  Result r =
      run("void f() { printf(\"a\"); exit(7); } int main() { f(); printf(\"b\"); return 0; }");
  CHECK(r.out == "a");
  CHECK(r.status == 7);
}

TEST_CASE("runtime: fprintf to stderr") {
  Result r =
      run("int main() { fprintf(stderr, \"e%d\\n\", 1); fprintf(stdout, \"o\\n\"); return 0; }");
  CHECK(r.out == "o\n");
  CHECK(r.err == "e1\n");
}

TEST_CASE("runtime error: array index out of range") {
  Result r = run("int main() {\n  int a[10];\n  int i = 10;\n  a[i] = 1;\n  return 0;\n}");
  CHECK(r.status == 1);
  CHECK(r.err ==
        "t.br:4:4: runtime error: index 10 is out of bounds for type 'int[10]'\n"
        "  a[i] = 1;\n   ^\n");
}

TEST_CASE("runtime error: out of bounds through a pointer") {
  Result r = run("int main() { int a[10]; int* p = a; p[10] = 1; return 0; }");
  CHECK(r.status == 1);
  CHECK(r.err.find("runtime error: out-of-bounds access: 4 bytes at offset 40 of 'a' (40 bytes)") !=
        std::string::npos);
}

TEST_CASE("runtime error: the call stack, innermost first, recursion folded") {
  Result r =
      run("int get(int* a, int i) { return a[i]; }\n"
          "int twice(int* a, int i) { return get(a, i) + get(a, i); }\n"
          "int deep(int* a, int n) { return n == 0 ? twice(a, 4) : deep(a, n - 1); }\n"
          "int main() { int data[4] = {1, 2, 3, 4}; return deep(data, 3); }\n");
  CHECK(r.status == 1);
  CHECK(r.err.find("of 'data' (16 bytes)") != std::string::npos);
  CHECK(
      r.err.find("  in get(), called from twice() at t.br:2:35, called from deep() at t.br:3:43, "
                 "called from deep() at t.br:3:57 (3 times), called from main() at t.br:4:49\n") !=
      std::string::npos);
}

TEST_CASE("runtime error: null, freed and dangling pointers") {
  CHECK(run("int main() { int* p = 0; return *p; }").err.find("null pointer dereference") !=
        std::string::npos);
  CHECK(run("int main() { int* p = (int*)malloc(4); free(p); return *p; }")
            .err.find("use of memory after free") != std::string::npos);
  CHECK(run("int* f() { int x = 1; return &x; } int main() { return *f(); }")
            .err.find("use of a pointer to a variable that no longer exists") != std::string::npos);
}

TEST_CASE("runtime error: double free and free of a non-heap pointer") {
  CHECK(run("int main() { int* p = (int*)malloc(4); free(p); free(p); return 0; }")
            .err.find("double free") != std::string::npos);
  CHECK(run("int main() { int x; free(&x); return 0; }")
            .err.find("free() of a pointer that malloc did not return") != std::string::npos);
}

TEST_CASE("runtime error: integer division and remainder by zero; output before it is kept") {
  Result r = run("int main() { int z = 0; printf(\"hi\\n\"); return 5 / z; }");
  CHECK(r.out == "hi\n");
  CHECK(r.status == 1);
  CHECK(r.err.find("t.br:1:50: runtime error: integer division by zero") == 0);
  CHECK(run("int main() { int z = 0; return 5 % z; }").err.find("integer remainder by zero") !=
        std::string::npos);
}

TEST_CASE("runtime error: deep recursion is a stack overflow, not a crash") {
  Result r = run("int f(int n) { return f(n + 1) + 1; } int main() { return f(0); }");
  CHECK(r.status == 1);
  CHECK(r.err.find("stack overflow: more than 10000 nested calls") != std::string::npos);
}

TEST_CASE("runtime: 9000 nested calls are fine") {
  Result r =
      run("int f(int n) { return n == 0 ? 0 : f(n - 1) + 1; }"
          " int main() { printf(\"%d\\n\", f(9000)); return 0; }");
  CHECK(r.out == "9000\n");
}

TEST_CASE("runtime error: assert and abort") {
  Result r = run("int main() { int x = 3; assert(x == 4); return 0; }");
  CHECK(r.err.find("runtime error: assertion failed: x == 4") != std::string::npos);
  CHECK(run("int main() { abort(); return 0; }").err.find("abort() called") != std::string::npos);
}

TEST_CASE("runtime error: printf format checked against arguments at run time") {
  Result r = run("int main() { char* f = \"%d\\n\"; printf(f, 2.0); return 0; }");
  CHECK(r.status == 1);
  CHECK(r.err.find("runtime error: format '%d'") != std::string::npos);
}

TEST_CASE("runtime error: huge malloc and unterminated strings") {
  CHECK(run("int main() { void* p = malloc(2000000000); return 0; }")
            .err.find("out of memory: cannot allocate 2000000000 bytes") != std::string::npos);
  CHECK(run("int main() { char b[2]; b[0] = 'a'; b[1] = 'b'; return (int)strlen(b); }")
            .err.find("string is not NUL-terminated within its object") != std::string::npos);
}

TEST_CASE("runtime: compound assignment through scattered swizzles evaluates the place once") {
  Result r = run(
      "int main() { float4 v = float4(1, 2, 3, 4); v.zx += float2(10, 20); v.wy *= 2.0f;\n"
      "int4 a[2]; a[1] = int4(1, 2, 3, 4); int i = 0; a[++i].wx -= int2(1, 1);\n"
      "printf(\"%g %g %g %g %d %d %d\\n\", v.x, v.y, v.z, v.w, a[1].x, a[1].w, i); return 0; }");
  CHECK(r.out == "21 4 13 8 0 3 1\n");
}

TEST_CASE("runtime: strings and char arrays") {
  Result r =
      run("int main() { char s[] = \"Hello\"; char d[8]; strcpy(d, s); d[0] = 'J';\n"
          "int n = 0; for (char* c = s; *c; c++) n++;\n"
          "printf(\"%s %s %d %lu %d\\n\", s, d, n, sizeof(s), atoi(\"-12x\")); return 0; }");
  CHECK(r.out == "Hello Jello 5 6 -12\n");
}
