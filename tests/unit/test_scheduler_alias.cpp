// The scheduler's aliasing decision (scheduler.cpp, LANGUAGE.md §5: "every
// invocation sees the inputs as they were before the call"): which arguments
// that share storage with an output read a copy, and of which rectangle.
#include <doctest/doctest.h>

#include "backends/scheduler.hpp"

using namespace brook;

namespace {

std::unique_ptr<ast::FuncDecl> make_kernel(std::vector<ast::ParamKind> kinds) {
  auto f = std::make_unique<ast::FuncDecl>(SourceLoc{});
  f->name = "k";
  f->fkind = ast::FuncKind::Kernel;
  for (ast::ParamKind kind : kinds) {
    auto p = std::make_unique<ast::ParamDecl>(SourceLoc{});
    p->pkind = kind;
    p->name = "p" + std::to_string(f->params.size());
    p->index = static_cast<int>(f->params.size());
    f->params.push_back(std::move(p));
  }
  return f;
}

CallArg arg(const StreamView& v) {
  CallArg a;
  a.kind = CallArg::Kind::Stream;
  a.stream = v;
  return a;
}

StreamView view(const StreamView& s, std::vector<int64_t> start, std::vector<int64_t> end) {
  return Scheduler::domain(s, start, end, {});
}

using K = ast::ParamKind;

}  // namespace

TEST_CASE("aliasing: in place with the same elements needs no copy") {
  auto k = make_kernel({K::Value, K::Input, K::Input, K::Out});  // saxpy(a, x, y, y)
  StreamView x = Scheduler::whole(1, nullptr, {1 << 10});
  StreamView y = Scheduler::whole(2, nullptr, {1 << 10});
  CallArg a;
  a.kind = CallArg::Kind::Value;
  MapPlan p = Scheduler::plan_map(*k, std::vector{a, arg(x), arg(y), arg(y)}, {});
  CHECK(p.copies.empty());
  CHECK(p.args[2].copy == -1);
  CHECK(p.args[2].view.storage == 2);

  // The same view of a 2-D stream, in and out.
  auto twice = make_kernel({K::Input, K::Out});
  StreamView m = Scheduler::whole(3, nullptr, {3, 3});
  StreamView inner = view(m, {1, 1}, {3, 3});
  CHECK(Scheduler::plan_map(*twice, std::vector{arg(inner), arg(inner)}, {}).copies.empty());
}

TEST_CASE("aliasing: disjoint rectangles of one stream need no copy") {
  auto k = make_kernel({K::Input, K::Gather, K::Out});
  StreamView s = Scheduler::whole(1, nullptr, {480, 640});
  // Column x - 1 read (as an input and as a gather), column x written.
  StreamView left = view(s, {9, 0}, {10, 480});
  StreamView here = view(s, {10, 0}, {11, 480});
  MapPlan p = Scheduler::plan_map(*k, std::vector{arg(left), arg(left), arg(here)}, {});
  CHECK(p.copies.empty());
  // A reduction from columns 0-9 into column 10.
  auto r = make_kernel({K::Input, K::Reduce});
  StreamView block = view(s, {0, 0}, {10, 480});
  ReducePlan rp = Scheduler::plan_reduce(*r, std::vector{arg(block), arg(here)}, {});
  CHECK(rp.copies.empty());
  CHECK(rp.input_copy == -1);
}

TEST_CASE("aliasing: a shifted read copies only its own rectangle") {
  auto k = make_kernel({K::Input, K::Out});
  StreamView s = Scheduler::whole(7, nullptr, {6});
  MapPlan p = Scheduler::plan_map(*k, std::vector{arg(view(s, {0}, {5})), arg(view(s, {1}, {6}))}, {});
  REQUIRE(p.copies.size() == 1);
  CHECK(p.copies[0].from.storage == 7);
  CHECK(p.copies[0].from.offset == Extents{0});
  CHECK(p.copies[0].from.extents == Extents{5});
  CHECK(p.copies[0].to.extents == Extents{5});
  CHECK(p.copies[0].to.stream_extents == Extents{5});
  CHECK(p.args[0].copy == 0);
  CHECK(p.args[0].view.storage == 0);  // the backend's scratch
  CHECK(p.args[0].view.offset == Extents{0});
  CHECK(p.args[1].copy == -1);
  CHECK(p.args[1].view.storage == 7);

  // A 2x2 block read, the block one row down and one column right written:
  // the copy is of the 2x2 block, not of the 100x100 stream.
  StreamView m = Scheduler::whole(8, nullptr, {100, 100});
  MapPlan q = Scheduler::plan_map(*k, std::vector{arg(view(m, {0, 0}, {2, 2})), arg(view(m, {1, 1}, {3, 3}))}, {});
  REQUIRE(q.copies.size() == 1);
  CHECK(q.copies[0].from.extents == Extents{2, 2});
  CHECK(q.copies[0].to.stream_extents == Extents{2, 2});
}

TEST_CASE("aliasing: a resampled read of the output is copied") {
  auto k = make_kernel({K::Input, K::Out});
  StreamView s = Scheduler::whole(1, nullptr, {6});
  // <3> repeated into <6>: invocation 1 reads element 0, which invocation 0 writes.
  MapPlan p = Scheduler::plan_map(*k, std::vector{arg(view(s, {0}, {3})), arg(s)}, {});
  REQUIRE(p.copies.size() == 1);
  CHECK(p.args[0].map[0].num == 3);
  CHECK(p.args[0].map[0].den == 6);
  // <6> strided into <3>.
  CHECK(Scheduler::plan_map(*k, std::vector{arg(s), arg(view(s, {0}, {3}))}, {}).copies.size() == 1);
}

TEST_CASE("aliasing: a gather of the output is copied, once per view") {
  auto k = make_kernel({K::Input, K::Gather, K::Gather, K::Out});
  StreamView s = Scheduler::whole(4, nullptr, {16});
  StreamView other = Scheduler::whole(5, nullptr, {16});
  MapPlan p = Scheduler::plan_map(*k, std::vector{arg(s), arg(s), arg(other), arg(s)}, {});
  REQUIRE(p.copies.size() == 1);
  CHECK(p.args[0].copy == -1);  // the input is in place
  CHECK(p.args[1].copy == 0);   // the gather reads the copy
  CHECK(p.args[2].copy == -1);  // another stream
  // Two gathers of the same view share one copy.
  auto k2 = make_kernel({K::Gather, K::Gather, K::Out});
  MapPlan q = Scheduler::plan_map(*k2, std::vector{arg(s), arg(s), arg(view(s, {8}, {16}))}, {});
  REQUIRE(q.copies.size() == 1);
  CHECK(q.args[0].copy == 0);
  CHECK(q.args[1].copy == 0);
}

TEST_CASE("aliasing: an overlapping reduction to a stream copies its input") {
  auto r = make_kernel({K::Input, K::Reduce});
  StreamView m = Scheduler::whole(2, nullptr, {3, 4});
  ReducePlan p = Scheduler::plan_reduce(*r, std::vector{arg(m), arg(view(m, {0, 0}, {1, 3}))}, {});
  REQUIRE(p.copies.size() == 1);
  CHECK(p.input_copy == 0);
  CHECK(p.input.storage == 0);
  CHECK(p.copies[0].from.storage == 2);
  // To a host value nothing is written: no copy.
  auto r2 = make_kernel({K::Input, K::Reduce});
  CallArg host;
  host.kind = CallArg::Kind::Value;
  CHECK(Scheduler::plan_reduce(*r2, std::vector{arg(m), host}, {}).copies.empty());
}
