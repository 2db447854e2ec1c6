// The scheduler's shape rules (LANGUAGE.md §4–§7), checked on plain data.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

#include "backends/instance.hpp"
#include "backends/scheduler.hpp"

using namespace brook;

namespace {

// Indices an input of `in` extents reads, in order, over a 1-D domain.
std::vector<int64_t> reads_1d(int64_t in, int64_t out) {
  std::vector<DimMap> map = Scheduler::resample({in}, {out});
  std::vector<int64_t> r;
  for (int64_t o = 0; o < out; ++o) r.push_back(map[0].apply(&o));
  return r;
}

std::unique_ptr<ast::FuncDecl> kernel(std::vector<std::pair<ast::ParamKind, std::string>> ps) {
  auto f = std::make_unique<ast::FuncDecl>(SourceLoc{});
  f->name = "k";
  f->fkind = ast::FuncKind::Kernel;
  for (auto& [kind, name] : ps) {
    auto p = std::make_unique<ast::ParamDecl>(SourceLoc{});
    p->pkind = kind;
    p->name = name;
    p->index = static_cast<int>(f->params.size());
    f->params.push_back(std::move(p));
  }
  return f;
}

CallArg stream_arg(Extents e, StorageId id = 1) {
  CallArg a;
  a.kind = CallArg::Kind::Stream;
  a.stream = Scheduler::whole(id, nullptr, e);
  return a;
}

std::string plan_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const PlanError& e) {
    return e.message;
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("canonical extents drop leading ones only") {
  CHECK(canonical_extents({1, 1, 100}) == Extents{100});
  CHECK(canonical_extents({1, 100}) == Extents{100});
  CHECK(canonical_extents({4, 1, 8}) == Extents{4, 1, 8});
  CHECK(canonical_extents({1}) == Extents{1});
  CHECK(shape_text({4, 8}) == "<4, 8>");
}

TEST_CASE("resampling: strided, repeated and non-integer ratios") {
  CHECK(reads_1d(20, 10) == std::vector<int64_t>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18});
  CHECK(reads_1d(2, 6) == std::vector<int64_t>{0, 0, 0, 1, 1, 1});
  CHECK(reads_1d(4, 6) == std::vector<int64_t>{0, 0, 1, 2, 2, 3});
  CHECK(reads_1d(6, 4) == std::vector<int64_t>{0, 1, 3, 4});
  CHECK(reads_1d(4, 7) == std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3});
}

TEST_CASE("rank alignment follows the first dimension") {
  // A <8> input feeding a <4,8> domain follows the domain's rows.
  std::vector<DimMap> m = Scheduler::resample({8}, {4, 8});
  REQUIRE(m.size() == 1);
  CHECK(m[0].out_dim == 0);
  int64_t pos[2] = {3, 5};
  CHECK(m[0].apply(pos) == 6);  // floor(3 * 8 / 4)
  // A <4,8> input feeding <4>: the trailing dimension is pinned to 0.
  m = Scheduler::resample({4, 8}, {4});
  CHECK(m[0].out_dim == 0);
  CHECK(m[1].out_dim == -1);
  // Leading ones of the input are pinned, not aligned.
  m = Scheduler::resample({1, 10}, {5});
  CHECK(m[0].out_dim == -1);
  CHECK(m[1].out_dim == 0);
}

TEST_CASE("equal ranks resample dimension by dimension, leading ones included") {
  // A <1,2> view of a <3,4> stream feeding <4,6>: row pinned, columns 3x each.
  StreamView s = Scheduler::whole(7, nullptr, {3, 4});
  int64_t start[2] = {1, 1}, end[2] = {3, 2};
  StreamView v = Scheduler::domain(s, start, end, {});
  std::vector<DimMap> m = Scheduler::resample(v, {4, 6}, 2);
  REQUIRE(m.size() == 2);
  CHECK(m[0].out_dim == 0);
  int64_t pos[2] = {3, 4};
  CHECK(m[0].apply(pos) == 0);  // floor(3 * 1 / 4)
  CHECK(m[1].apply(pos) == 1);  // floor(4 * 2 / 6)
  // A declared <1,8> stream (canonical storage <8>) feeding <4,8> keeps its
  // row pinned and follows the columns; a declared <8> follows the rows.
  StreamView row = Scheduler::whole(8, nullptr, {1, 8});
  REQUIRE(row.extents == Extents{8});
  m = Scheduler::resample(row, {4, 8}, 2);
  CHECK(m[0].out_dim == 1);
  m = Scheduler::resample(Scheduler::whole(9, nullptr, {8}), {4, 8}, 2);
  CHECK(m[0].out_dim == 0);
  // A <4,8> input feeding a <1,8> output (canonical domain <8>): row 0 only.
  m = Scheduler::resample(Scheduler::whole(9, nullptr, {4, 8}), {8}, 2);
  CHECK(m[0].out_dim == -1);
  CHECK(m[1].out_dim == 0);
}

TEST_CASE("domains are views with offsets and clamp to the stream") {
  StreamView s = Scheduler::whole(7, nullptr, {4, 8});
  int64_t start[2] = {2, 1}, end[2] = {6, 3};  // (column, row)
  StreamView v = Scheduler::domain(s, start, end, {});
  CHECK(v.offset == Extents{1, 2});
  CHECK(v.extents == Extents{2, 4});
  int64_t origin[2] = {0, 0};
  CHECK(v.storage_index(origin) == 1 * 8 + 2);
  // Nested: offsets relative to the view.
  int64_t s2[2] = {1, 1}, e2[2] = {3, 2};
  StreamView w = Scheduler::domain(v, s2, e2, {});
  CHECK(w.offset == Extents{2, 3});
  CHECK(w.extents == Extents{1, 2});
  int64_t bad_end[2] = {12, 3};
  CHECK(plan_error([&] { Scheduler::domain(s, start, bad_end, {}); }) ==
        "domain (2, 1) to (12, 3) is outside the stream <4, 8>");
  StreamView one = Scheduler::whole(1, nullptr, {10});
  int64_t a = 2, b = 12;
  CHECK(plan_error([&] { Scheduler::domain(one, {&a, 1}, {&b, 1}, {}); }) ==
        "domain 2 to 12 is outside the stream <10>");
}

TEST_CASE("map plans: the first output sets the domain, outputs must agree") {
  auto k = kernel({{ast::ParamKind::Input, "a"}, {ast::ParamKind::Out, "b"},
                   {ast::ParamKind::Out, "c"}});
  std::vector<CallArg> args{stream_arg({20}), stream_arg({1, 10}), stream_arg({10})};
  MapPlan plan = Scheduler::plan_map(*k, args, {});
  CHECK(plan.domain == Extents{10});
  CHECK(plan.args[0].map[0].num == 20);
  CHECK(plan.args[0].map[0].den == 10);
  args[2] = stream_arg({4, 4});
  args[2].name = "c";
  CHECK(plan_error([&] { Scheduler::plan_map(*k, args, {}); }) ==
        "output 'c' has shape <4, 4> but the call's domain is <10>");
}

TEST_CASE("reduction plans: blocks, ranks and divisibility") {
  auto r = kernel({{ast::ParamKind::Input, "a"}, {ast::ParamKind::Reduce, "r"}});
  std::vector<CallArg> args{stream_arg({6, 8}), stream_arg({3, 2})};
  ReducePlan plan = Scheduler::plan_reduce(*r, args, {});
  CHECK(plan.to_stream);
  CHECK(plan.block == Extents{2, 4});
  args[1] = stream_arg({3});
  CHECK(plan_error([&] { Scheduler::plan_reduce(*r, args, {}); }) ==
        "cannot reduce a <6, 8> stream to <3>: the ranks differ");
  args[0] = stream_arg({10});
  CHECK(plan_error([&] { Scheduler::plan_reduce(*r, args, {}); }) ==
        "cannot reduce a <10> stream to <3>: 10 is not a multiple of 3");
  CallArg host;
  host.kind = CallArg::Kind::Value;
  args[1] = host;
  CHECK_FALSE(Scheduler::plan_reduce(*r, args, {}).to_stream);
}

TEST_CASE("reductions into targets with leading extents of 1") {
  auto r = kernel({{ast::ParamKind::Input, "a"}, {ast::ParamKind::Reduce, "r"}});
  // Equal ranks: <4,6> into <1,2> folds two 4x3 blocks.
  std::vector<CallArg> args{stream_arg({4, 6}), stream_arg({1, 2})};
  ReducePlan plan = Scheduler::plan_reduce(*r, args, {});
  CHECK(plan.block == Extents{4, 3});
  CHECK(plan.output.extents == Extents{1, 2});
  // An all-1 target of another rank receives the whole fold.
  args[0] = stream_arg({2, 2});
  args[1] = stream_arg({1});
  plan = Scheduler::plan_reduce(*r, args, {});
  CHECK(plan.block == Extents{2, 2});
  CHECK(plan.output.extents == Extents{1, 1});
  args[0] = stream_arg({6});
  args[1] = stream_arg({1, 1, 1});
  CHECK(Scheduler::plan_reduce(*r, args, {}).block == Extents{6});
  // Different ranks that agree once leading 1s are dropped.
  args[0] = stream_arg({1, 8});
  args[1] = stream_arg({4});
  CHECK(Scheduler::plan_reduce(*r, args, {}).block == Extents{2});
  // Equal ranks, not multiples: named per dimension.
  args[0] = stream_arg({4, 6});
  args[1] = stream_arg({1, 4});
  CHECK(plan_error([&] { Scheduler::plan_reduce(*r, args, {}); }) ==
        "cannot reduce a <4, 6> stream to <4>: 6 is not a multiple of 4");
}

TEST_CASE("vout arguments are outputs with their bound; instance() offsets follow the first output") {
  auto k = kernel({{ast::ParamKind::Input, "a"}, {ast::ParamKind::Out, "o"}});
  k->params[1]->vout_bound = 3;
  StreamView s = Scheduler::whole(2, nullptr, {4, 8});
  int64_t start[2] = {2, 1}, end[2] = {6, 3};  // (column, row)
  std::vector<CallArg> args{stream_arg({8}), stream_arg({4, 8}, 2)};
  args[1].stream = Scheduler::domain(s, start, end, {});
  MapPlan plan = Scheduler::plan_map(*k, args, {});
  CHECK(plan.domain == Extents{2, 4});
  CHECK(plan.args[1].role == ArgRole::Output);
  CHECK(plan.args[1].vout_bound == 3);
  CHECK(plan.args[0].vout_bound == -1);
  CHECK(instance_offset(plan) == std::array<int32_t, 4>{2, 1, 0, 0});
  args[1] = stream_arg({4, 8}, 2);
  CHECK(instance_offset(Scheduler::plan_map(*k, args, {})) == std::array<int32_t, 4>{0, 0, 0, 0});
}

TEST_CASE("iterators use BrookGPU's lerp with its 1e-6 nudge") {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%3.2f", Scheduler::iterator_lerp(1, 100, 0.0f, 1.0f));
  CHECK(std::string(buf) == "0.01");
  std::snprintf(buf, sizeof buf, "%3.2f", Scheduler::iterator_lerp(99, 100, 0.0f, 1.0f));
  CHECK(std::string(buf) == "0.99");
  CHECK(Scheduler::iterator_lerp(0, 10, 2.0f, 4.0f) == doctest::Approx(2.0f + 1e-6f));
}
