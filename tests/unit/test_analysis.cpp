// lang/analysis: which float locals are counters (the float idiom), the rule
// the JIT and OpenCL backends index gathers by.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "lang/analysis.hpp"
#include "lang/ast.hpp"
#include "lang/frontend.hpp"

using namespace brook;

namespace {

// The counters of the last kernel in `src`, as "name:direction" in name order.
std::string counters_of(const std::string& src) {
  FrontEnd fe;
  FrontEnd::Unit unit = fe.load_source("t.br", src);
  if (unit.status != FrontEnd::Status::ok) return "ERROR";
  const ast::FuncDecl* k = nullptr;
  for (const auto& item : fe.programs().back()->items)
    if (const auto* ds = item->as<ast::DeclStmt>())
      for (const auto& d : ds->decls)
        if (const auto* f = d->as<ast::FuncDecl>(); f && f->fkind == ast::FuncKind::Kernel) k = f;
  if (!k) return "NO KERNEL";
  analysis::FloatCounters c(*k);
  std::string out;
  std::function<void(const ast::Stmt&)> visit = [&](const ast::Stmt& s) {
    if (const auto* b = s.as<ast::CompoundStmt>())
      for (const auto& x : b->body) visit(*x);
    if (const auto* d = s.as<ast::DeclStmt>())
      for (const auto& x : d->decls)
        if (const auto* v = x->as<ast::VarDecl>(); v && c.find(v))
          out += (out.empty() ? "" : " ") + v->name + ":" + std::to_string(c.find(v)->direction);
    if (const auto* f = s.as<ast::ForStmt>()) {
      if (f->init) visit(*f->init);
      visit(*f->body);
    }
  };
  visit(*k->body);
  return out;
}

std::string in_kernel(const std::string& body) {
  return "kernel void k(float a[], float x<>, out float o<>) {\n" + body + "\n}\n";
}

}  // namespace

TEST_CASE("float counters: integral literal starts and steps of one sign") {
  CHECK(counters_of(in_kernel("float k; for (k = 0.0f; k < 4.0f; k += 1.0f) o += a[k];")) == "k:1");
  CHECK(counters_of(in_kernel("for (float k = 9.0f; k > 0.0f; k -= 3.0f) o += a[k];")) == "k:-1");
  CHECK(counters_of(in_kernel("float j = -2.0f; while (j < 5.0f) { o += a[j]; j++; }")) == "j:1");
  CHECK(counters_of(in_kernel("float r = 0.0f; if (x > 1.0f) r = 2.0f; o = a[r];")) == "r:0");
  CHECK(counters_of(in_kernel("float k = 0.0f; k += 1; o = a[k];")) == "k:1");
}

TEST_CASE("float counters: any other write, or a value the shadow cannot follow, disqualifies") {
  CHECK(counters_of(in_kernel("float k = 0.5f; k += 1.0f; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = 0.0f; k += 0.5f; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = 0.0f; k += 1.0f; k -= 2.0f; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = 0.0f; k *= 2.0f; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = 0.0f; k = x; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = x; k += 1.0f; o = a[k];")).empty());
  CHECK(counters_of(in_kernel("float k = 33554432.0f; k += 1.0f; o = a[k];")).empty());
  CHECK(counters_of("kernel void set(float v, out float r<>) { r = v; }\n" +
                    in_kernel("float k = 0.0f; set(2.0f, k); k += 1.0f; o = a[k];"))
            .empty());
}
