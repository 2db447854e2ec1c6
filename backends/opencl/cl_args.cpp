#include "backends/opencl/cl_args.hpp"

#include <algorithm>
#include <optional>

#include "backends/opencl/cl_module.hpp"
#include "backends/opencl/cl_variant.hpp"
#include "backends/view_layout.hpp"

namespace brook::opencl {

namespace {

using Kind = ClArg::Kind;

// "a3": parameter 3's name in the generated source (cl_launch.cpp uses the same).
std::string param_name(int param) {
  std::string n = "a";  // appended, not "a" + ...: GCC 12's -Wrestrict misfires on that
  n += std::to_string(param);
  return n;
}

ClArg make(Kind kind, std::string name) {
  ClArg a;
  a.kind = kind;
  a.name = std::move(name);
  return a;
}

// Left-aligned: entry i of v in component i, the rest `fill`.
std::array<int64_t, 4> left4(const std::vector<int64_t>& v, int64_t fill) {
  std::array<int64_t, 4> r;
  for (size_t i = 0; i < 4; ++i) r[i] = i < v.size() ? v[i] : fill;
  return r;
}

// Right-aligned: the last entry of v in component 3.
std::array<int64_t, 4> right4(const std::vector<int64_t>& v, int64_t fill) {
  std::array<int64_t, 4> r;
  r.fill(fill);
  const size_t n = std::min<size_t>(v.size(), 4);
  for (size_t i = 0; i < n; ++i) r[4 - n + i] = v[v.size() - n + i];
  return r;
}

ClArg stream(std::string name, const StreamView& view, int copy, bool writes) {
  ClArg a = make(Kind::Stream, std::move(name));
  a.view = &view;
  a.copy = copy;
  a.writes = writes;
  return a;
}

ClArg number(std::string name, int64_t v) {
  ClArg a = make(Kind::Long, std::move(name));
  a.v[0] = v;
  return a;
}

ClArg number4(std::string name, std::array<int64_t, 4> v) {
  ClArg a = make(Kind::Long4, std::move(name));
  a.v = v;
  return a;
}

ClArg shape_value(ClArg a) {
  a.shape = true;
  return a;
}

ClArg scratch(std::string name, int slot, bool writes) {
  ClArg a = make(Kind::Scratch, std::move(name));
  a.slot = slot;
  a.writes = writes;
  return a;
}

void prefix(ClArgs& args) {
  args.push_back(make(Kind::PrintBuffer, "brook_pbuf"));
  args.push_back(make(Kind::StopFlag, "brook_stop"));
}

// A view with right-aligned extents and strides (reductions, gather/scatter operators).
void view_args(ClArgs& args, const std::string& buf, const std::string& base,
               const std::string& ext, const std::string& str, const StreamView& v, int copy,
               bool writes) {
  args.push_back(stream(buf, v, copy, writes));
  args.push_back(number(base, view_origin(v)));
  args.push_back(number4(ext, right4(v.extents, 1)));
  args.push_back(number4(str, right4(row_major_strides(v.stream_extents), 0)));
}

// A constant or gather argument named `n`: gathers are a buffer, its base
// and the extents and strides of its logical dimensions (cl_variant.hpp's
// gather_shape); constants a scalar by value or their bytes.
void extra_args(ClArgs& args, const PlanArg& a, const ast::ParamDecl& p) {
  const std::string n = param_name(a.param);
  if (a.role == ArgRole::Gather) {
    std::optional<GatherShape> g;
    if (a.gather_from_host) {
      ClArg b = make(Kind::HostBytes, n);
      b.bytes = &a.host.bytes;
      args.push_back(b);
      g = gather_shape(a.host.extents, a.host.extents, Extents(a.host.extents.size(), 0),
                       p.gather_rank);
    } else {
      // A scatter output (§12) is a gather the kernel stores through.
      args.push_back(stream(n, a.view, a.copy, p.scatter));
      g = gather_shape(a.view.extents, a.view.stream_extents, a.view.offset, p.gather_rank);
    }
    const Extents& shown = a.gather_from_host ? a.host.extents : a.view.extents;
    args.push_back(number(n + "_base", g ? g->base : 0));
    args.push_back(shape_value(
        number4(n + "_ext", g ? left4(g->ext, 1) : std::array<int64_t, 4>{1, 1, 1, 1})));
    args.push_back(
        shape_value(number4(n + "_str", g ? left4(g->str, 0) : std::array<int64_t, 4>{})));
    if (!g) {
      args.back().error = "a " + std::to_string(std::max(p.gather_rank, 1)) + "-D gather of this " +
                          std::to_string(canonical_extents(shown).size()) +
                          "-D view is not supported by the OpenCL backend";
    }
    return;
  }
  ClArg c = make(p.type->is_scalar() ? Kind::Value : Kind::HostBytes, n);
  c.bytes = &a.value;
  c.type = p.type;
  if (c.kind == Kind::Value && a.value.size() < p.type->size)
    c.error = "constant '" + p.name + "' has no value";
  args.push_back(c);
}

void reduce_extras(ClArgs& args, const ReducePlan& plan) {
  const ast::FuncDecl& f = plan.reducer->defined();
  for (const PlanArg& a : plan.extra)
    extra_args(args, a, *f.params.at(static_cast<size_t>(a.param)));
}

}  // namespace

std::string parameter_list(const ClArgs& args, ClModule& m) {
  std::string s;
  for (const ClArg& a : args) {
    if (!s.empty()) s += ", ";
    switch (a.kind) {
      case Kind::PrintBuffer:
        s += "__global uint* ";
        break;
      case Kind::StopFlag:
        s += "volatile __global int* ";
        break;
      case Kind::Stream:
        s += a.writes ? "__global uchar* " : "__global const uchar* ";
        break;
      case Kind::HostBytes:
        s += "__global const uchar* ";
        break;
      case Kind::Scratch:
        s += a.writes ? "__global uchar* " : "__global const uchar* ";
        break;
      case Kind::ErrorWord:
        s += "__global long* ";
        break;
      case Kind::Long:
        s += "long ";
        break;
      case Kind::Long4:
        s += "long4 ";
        break;
      case Kind::Value:
        s += m.type_name(a.type) + " ";
        break;
    }
    s += a.name;
  }
  return s;
}

ClArgs map_args(const MapPlan& plan) {
  const ast::FuncDecl& k = plan.kernel->defined();
  ClArgs args;
  args.reserve(6 + 5 * plan.args.size());  // built per launch: no regrowth
  prefix(args);
  for (size_t i = 0; i < 4; ++i)
    args.push_back(shape_value(number(std::string("brook_d").append(std::to_string(i)),
                                      i < plan.domain.size() ? plan.domain[i] : 1)));
  for (const PlanArg& a : plan.args) {
    const ast::ParamDecl& p = *k.params.at(static_cast<size_t>(a.param));
    if (a.role == ArgRole::Constant || a.role == ArgRole::Gather) {
      extra_args(args, a, p);
      continue;
    }
    const std::string n = param_name(a.param);
    const bool out = a.role == ArgRole::Output;
    args.push_back(stream(n, a.view, out ? -1 : a.copy, out));
    args.push_back(number(n + "_base", view_origin(a.view)));
    args.push_back(
        shape_value(number4(n + "_str", left4(row_major_strides(a.view.stream_extents), 0))));
    if (!out) {
      std::vector<int64_t> num, den;
      for (const DimMap& d : a.map) {
        num.push_back(d.num);
        den.push_back(d.den ? d.den : 1);
      }
      args.push_back(shape_value(number4(n + "_num", left4(num, 1))));
      args.push_back(shape_value(number4(n + "_den", left4(den, 1))));
    }
  }
  return args;
}

ReduceBlocks reduce_blocks(const ReducePlan& plan) {
  const Extents& ext = plan.input.extents;
  ReduceBlocks r;
  r.block = plan.to_stream ? plan.block : ext;
  r.block.resize(ext.size(), 1);
  r.outputs.resize(ext.size());
  for (size_t d = 0; d < ext.size(); ++d) r.outputs[d] = r.block[d] ? ext[d] / r.block[d] : 1;
  return r;
}

ClArgs reduce_first_args(const ReducePlan& plan, int64_t G, int64_t chunks, int64_t B) {
  const ReduceBlocks rb = reduce_blocks(plan);
  ClArgs args;
  prefix(args);
  view_args(args, "src", "base", "ext", "str", plan.input, plan.input_copy, false);
  args.push_back(number4("oext", right4(rb.outputs, 1)));
  args.push_back(number4("blk", right4(rb.block, 1)));
  args.push_back(number("G", G));
  args.push_back(number("nchunks", chunks));
  args.push_back(number("B", B));
  args.push_back(scratch("dst", 1, true));
  reduce_extras(args, plan);
  return args;
}

ClArgs reduce_next_args(const ReducePlan& plan, int64_t n, int64_t G, int64_t chunks) {
  ClArgs args;
  prefix(args);
  args.push_back(scratch("src", 0, false));
  args.push_back(number("n", n));
  args.push_back(number("G", G));
  args.push_back(number("nchunks", chunks));
  args.push_back(scratch("dst", 1, true));
  reduce_extras(args, plan);
  return args;
}

ClArgs reduce_direct_args(const ReducePlan& plan, int64_t B) {
  ClArgs args = reduce_first_args(plan, B, 1, B);
  auto dst = std::find_if(args.begin(), args.end(), [](const ClArg& a) { return a.name == "dst"; });
  ClArgs view;
  view_args(view, "vo", "vo_base", "vo_ext", "vo_str", plan.output, -1, true);
  const auto at = args.erase(dst);
  args.insert(at, view.begin(), view.end());
  return args;
}

ClArgs reduce_store_args(const ReducePlan& plan) {
  ClArgs args;
  args.push_back(scratch("src", 0, false));
  view_args(args, "out", "base", "ext", "str", plan.output, -1, true);
  return args;
}

ClArgs gs_args(const GatherScatterPlan& plan) {
  ClArgs args;
  prefix(args);
  view_args(args, "vals", "vbase", "vext", "vstr", plan.values, -1, true);
  view_args(args, "idx", "ibase", "iext", "istr", plan.index, -1, false);
  // The array by its canonical dimensions, right-aligned.
  const StreamView& arr = plan.array;
  const Extents canon = canonical_extents(arr.extents);
  std::vector<int64_t> str = row_major_strides(arr.stream_extents);
  str.erase(str.begin(), str.begin() + static_cast<std::ptrdiff_t>(str.size() - canon.size()));
  args.push_back(stream("arr", arr, -1, true));
  args.push_back(number("abase", view_origin(arr)));
  args.push_back(number4("aext", right4(canon, 1)));
  args.push_back(number4("astr", right4(str, 0)));
  args.push_back(number("n", element_count(plan.index.extents)));
  ClArg err = make(Kind::ErrorWord, "err");
  args.push_back(err);
  return args;
}

}  // namespace brook::opencl
