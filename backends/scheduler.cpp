#include "backends/scheduler.hpp"

#include "backends/instance.hpp"
#include "lang/scalar_visit.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace brook {

namespace {

[[noreturn]] void fail(SourceLoc loc, std::string message) {
  throw PlanError{loc, std::move(message)};
}

// Number of leading extents of 1 that canonical form drops.
size_t leading_ones(const Extents& e) {
  size_t k = 0;
  while (k + 1 < e.size() && e[k] == 1) ++k;
  return k;
}

// Start/end as the user wrote them: "2" for 1-D, "(2, 1)" otherwise.
std::string point_text(std::span<const int64_t> p) {
  if (p.size() == 1) return std::to_string(p[0]);
  std::string s = "(";
  for (size_t i = 0; i < p.size(); ++i) s += (i ? ", " : "") + std::to_string(p[i]);
  return s + ")";
}

// Maps each dimension of a stream view onto the domain: leading extents of 1
// are pinned, the rest are aligned with the domain from the first dimension.
std::vector<DimMap> align(const Extents& view_extents, const Extents& domain, bool resample) {
  std::vector<DimMap> map(view_extents.size());
  size_t k = leading_ones(view_extents);
  for (size_t d = 0; d < view_extents.size(); ++d) {
    if (d < k) continue;  // out_dim -1: always 0
    size_t c = d - k;
    if (c >= domain.size()) continue;  // extra trailing input dimension: pinned to 0
    map[d].out_dim = static_cast<int>(c);
    map[d].num = resample ? view_extents[d] : 1;
    map[d].den = resample ? domain[c] : 1;
  }
  return map;
}

const char* role_name(ArgRole r) {
  switch (r) {
    case ArgRole::Input: return "input";
    case ArgRole::Iter: return "iterator";
    case ArgRole::Output: return "output";
    case ArgRole::Constant: return "constant";
    case ArgRole::Gather: return "gather";
  }
  return "?";
}

std::string view_text(const StreamView& v) {
  std::string s = (v.storage ? "stream #" + std::to_string(v.storage) : std::string("scratch")) + " " +
                  shape_text(v.stream_extents);
  if (!v.is_whole()) {
    s += " view offset (";
    for (size_t i = 0; i < v.offset.size(); ++i) s += (i ? ", " : "") + std::to_string(v.offset[i]);
    s += ") extents " + shape_text(v.extents);
  }
  if (v.elem) s += " of " + v.elem->name();
  return s;
}

std::string map_text(const std::vector<DimMap>& map) {
  std::string s = "[";
  for (size_t d = 0; d < map.size(); ++d) {
    if (d) s += ", ";
    const DimMap& m = map[d];
    if (m.out_dim < 0) {
      s += "0";
    } else if (m.num == m.den) {
      s += "o" + std::to_string(m.out_dim);
    } else {
      s += "o" + std::to_string(m.out_dim) + "*" + std::to_string(m.num) + "/" +
           std::to_string(m.den);
    }
  }
  return s + "]";
}

std::string param_name(const ast::FuncDecl* f, int i) {
  if (!f || i < 0 || static_cast<size_t>(i) >= f->params.size()) return "?";
  return f->params[static_cast<size_t>(i)]->name;
}

// A constant argument's value for plan dumps: scalars and vectors decoded,
// anything else by size.
std::string value_text(const ast::FuncDecl* f, int i, const std::vector<std::byte>& bytes) {
  const Type* t = nullptr;
  if (f && i >= 0 && static_cast<size_t>(i) < f->params.size()) t = f->params[static_cast<size_t>(i)]->type;
  if (!t || !t->is_arithmetic() || bytes.size() < t->size) {
    return "(" + std::to_string(bytes.size()) + " bytes)";
  }
  const Type* c = t->scalar_of();
  std::string out = t->name() + " ";
  if (t->is_vector()) out += "(";
  for (uint32_t k = 0; k < t->width(); ++k) {
    const std::byte* p = bytes.data() + k * c->size;
    const std::string v = visit_scalar(c->kind, [&](auto zero) {
                            using T = decltype(zero);
                            if constexpr (std::is_floating_point_v<T>) {
                              char buf[64];
                              std::snprintf(buf, sizeof buf, "%g", static_cast<double>(load_scalar<T>(p)));
                              return std::string(buf);
                            } else {
                              return std::to_string(load_scalar<T>(p));
                            }
                          }).value_or("?");
    out += (k ? ", " : "") + v;
  }
  if (t->is_vector()) out += ")";
  return out;
}

// ---------------------------------------------------------------------------
// Aliasing. LANGUAGE.md §5: "A stream may be both an input and an output of
// one call: every invocation sees the inputs as they were before the call."
//
// Invocation p writes element w(p) of each output view and reads element r(p)
// of each input view (after resampling) or any element of a gather's view.
// Every backend reads an invocation's inputs before it stores that
// invocation's outputs, so an invocation that reads and writes the SAME
// element already sees it "as before the call". A copy is needed only when an
// element that one invocation writes may be read by ANOTHER one (then the
// result would depend on the order of invocations, which §5 leaves open).
// Without a copy where the scheduler can prove there is no such element:
//  - disjoint rectangles: the argument's view and every output view of the
//    same storage share no element (sgm_path reads column x-1, writes x);
//  - identical index maps: an input (not a gather) whose view starts where the
//    output's does, with the output's aligned dimensions and no resampling, so
//    r(p) = w(p) for every p (the in-place `saxpy(a, x, y, y)`).
// Otherwise the argument reads a copy of its own view only (the rectangle it
// can read, not the whole stream), made before the launch into scratch memory
// (plan.hpp's AliasCopy). A gather can read any element of its view, so only
// disjointness spares it the copy.

// True when views `a` and `b` cannot share an element.
bool disjoint(const StreamView& a, const StreamView& b) {
  if (a.storage != b.storage) return true;
  const size_t n = a.stream_extents.size();
  if (a.stream_extents != b.stream_extents || a.offset.size() != n || b.offset.size() != n ||
      a.extents.size() != n || b.extents.size() != n) {
    return false;  // not two views of one layout: assume they overlap
  }
  for (size_t d = 0; d < n; ++d) {
    if (a.offset[d] + a.extents[d] <= b.offset[d] || b.offset[d] + b.extents[d] <= a.offset[d]) return true;
  }
  return false;
}

// True when input `in` reads, at every domain position, exactly the element
// output `out` writes there.
bool same_elements(const PlanArg& in, const PlanArg& out) {
  const StreamView& a = in.view;
  const StreamView& b = out.view;
  if (a.storage != b.storage || a.stream_extents != b.stream_extents || a.offset != b.offset ||
      in.map.size() != out.map.size() || in.map.size() != a.offset.size()) {
    return false;
  }
  for (size_t d = 0; d < in.map.size(); ++d) {
    const DimMap& x = in.map[d];
    const DimMap& y = out.map[d];
    if (x.out_dim != y.out_dim) return false;
    if (x.out_dim >= 0 && (x.num != x.den || y.num != y.den)) return false;
  }
  return true;
}

bool same_view(const StreamView& a, const StreamView& b) {
  return a.storage == b.storage && a.offset == b.offset && a.extents == b.extents &&
         a.stream_extents == b.stream_extents;
}

// The index in `copies` of the copy of `from` (one per distinct view).
int copy_of(std::vector<AliasCopy>& copies, const StreamView& from) {
  for (size_t k = 0; k < copies.size(); ++k) {
    if (same_view(copies[k].from, from)) return static_cast<int>(k);
  }
  AliasCopy c;
  c.from = from;
  c.to.storage = 0;
  c.to.elem = from.elem;
  c.to.stream_extents = from.extents;
  c.to.offset.assign(from.extents.size(), 0);
  c.to.extents = from.extents;
  c.to.is_iter = from.is_iter;
  copies.push_back(std::move(c));
  return static_cast<int>(copies.size() - 1);
}

bool reads_stream(const PlanArg& a) {
  return a.role == ArgRole::Input || a.role == ArgRole::Iter ||
         (a.role == ArgRole::Gather && !a.gather_from_host);
}

// A Brook+ scatter output (§12): a gather argument the kernel writes, anywhere.
bool is_scatter(const MapPlan& plan, const PlanArg& a) {
  return a.role == ArgRole::Gather && plan.kernel && a.param >= 0 &&
         static_cast<size_t>(a.param) < plan.kernel->params.size() &&
         plan.kernel->params[static_cast<size_t>(a.param)]->scatter;
}

void plan_alias_copies(MapPlan& plan) {
  for (PlanArg& a : plan.args) {
    if (!reads_stream(a) || is_scatter(plan, a)) continue;
    bool needed = false;
    for (const PlanArg& o : plan.args) {
      if (is_scatter(plan, o) && !disjoint(a.view, o.view))
        needed = true;  // any element may change
      if (o.role != ArgRole::Output || disjoint(a.view, o.view)) continue;
      if (a.role != ArgRole::Gather && same_elements(a, o)) continue;
      needed = true;
    }
    if (!needed) continue;
    a.copy = copy_of(plan.copies, a.view);
    a.view = plan.copies[static_cast<size_t>(a.copy)].to;
  }
}

// A reduction to a stream writes output element o after folding its block, in
// an order §7 leaves open: an input or gather that shares an element with the
// output reads a copy (the same rule as above, without the in-place case).
void plan_alias_copies(ReducePlan& plan) {
  if (!plan.to_stream) return;  // nothing is written
  if (!disjoint(plan.input, plan.output)) {
    plan.input_copy = copy_of(plan.copies, plan.input);
    plan.input = plan.copies[static_cast<size_t>(plan.input_copy)].to;
  }
  for (PlanArg& a : plan.extra) {
    if (!reads_stream(a) || disjoint(a.view, plan.output)) continue;
    a.copy = copy_of(plan.copies, a.view);
    a.view = plan.copies[static_cast<size_t>(a.copy)].to;
  }
}

// The copies a plan makes before it runs, for plan dumps.
std::string copies_text(const std::vector<AliasCopy>& copies) {
  std::string s;
  for (size_t k = 0; k < copies.size(); ++k) {
    s += "  copy " + std::to_string(k) + ": " + view_text(copies[k].from) + " to scratch " +
         shape_text(copies[k].to.extents) + " (the call writes this stream)\n";
  }
  return s;
}

std::string loc_text(SourceLoc loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

// Pads a view with leading extents of 1 up to `rank` (storage unchanged).
void pad_view(StreamView& v, size_t rank) {
  while (v.extents.size() < rank) {
    v.extents.insert(v.extents.begin(), 1);
    v.offset.insert(v.offset.begin(), 0);
    v.stream_extents.insert(v.stream_extents.begin(), 1);
  }
}

// §7 blocks of a reduction to a stream. Equal declared ranks match dimension
// by dimension (<4,6> into <1,2>: two 4x3 blocks); different ranks drop
// leading 1s first, an all-1 target takes the whole fold, and the ranks must
// then agree. Input and output views come out padded to one rank, with
// output.extents[d] * block[d] == input.extents[d] in every dimension.
void plan_reduce_blocks(ReducePlan& plan, SourceLoc loc) {
  Extents in = canonical_extents(plan.input.extents);
  Extents out = canonical_extents(plan.output.extents);
  std::string what = "cannot reduce a " + shape_text(in) + " stream to " + shape_text(out);
  bool all_ones = std::all_of(out.begin(), out.end(), [](int64_t e) { return e == 1; });
  size_t r = std::max(plan.input.extents.size(), plan.output.extents.size());
  if (plan.input.rank() == plan.output.rank()) {
    r = std::max(r, plan.input.rank());
  } else if (!all_ones && in.size() != out.size()) {
    fail(loc, what + ": the ranks differ");
  }
  pad_view(plan.input, r);
  pad_view(plan.output, r);
  // Trailing alignment: the leading dimensions the padding added are 1s.
  plan.block.assign(r, 1);
  for (size_t d = 0; d < r; ++d) {
    int64_t i = plan.input.extents[d], o = plan.output.extents[d];
    if (o <= 0 || i % o != 0) {
      fail(loc, what + ": " + std::to_string(i) + " is not a multiple of " + std::to_string(o));
    }
    plan.block[d] = i / o;
  }
}

}  // namespace

Extents canonical_extents(const Extents& e) {
  size_t k = leading_ones(e);
  return Extents(e.begin() + static_cast<std::ptrdiff_t>(k), e.end());
}

int64_t element_count(const Extents& e) {
  int64_t n = 1;
  for (int64_t x : e) n *= x;
  return n;
}

std::string shape_text(const Extents& e) {
  std::string s = "<";
  for (size_t i = 0; i < e.size(); ++i) s += (i ? ", " : "") + std::to_string(e[i]);
  return s + ">";
}

Extents StreamView::declared_extents() const {
  Extents e(rank() > extents.size() ? rank() - extents.size() : 0, 1);
  e.insert(e.end(), extents.begin(), extents.end());
  return e;
}

bool StreamView::is_whole() const {
  for (size_t d = 0; d < extents.size(); ++d) {
    if (offset[d] != 0 || extents[d] != stream_extents[d]) return false;
  }
  return true;
}

int64_t StreamView::storage_index(const int64_t* pos) const {
  int64_t index = 0;
  for (size_t d = 0; d < stream_extents.size(); ++d) {
    index = index * stream_extents[d] + offset[d] + pos[d];
  }
  return index;
}

StreamView Scheduler::whole(StorageId storage, const Type* elem, const Extents& extents,
                            bool is_iter) {
  StreamView v;
  v.storage = storage;
  v.elem = elem;
  v.stream_extents = canonical_extents(extents);
  v.offset.assign(v.stream_extents.size(), 0);
  v.extents = v.stream_extents;
  v.is_iter = is_iter;
  v.declared_rank = static_cast<uint8_t>(extents.size());
  return v;
}

bool Scheduler::empty_domain(const StreamView& base, std::span<const int64_t> start,
                             std::span<const int64_t> end) {
  const size_t rank = base.extents.size();
  if (start.size() != end.size() || start.size() < rank) return false;
  bool empty = false;
  for (size_t j = 0; j < start.size(); ++j) {
    const int64_t s = start[j], e = end[j];
    if (j >= rank) {
      if (s != 0 || e != 1) return false;
      continue;
    }
    if (s < 0 || e > base.extents[rank - 1 - j] || s > e) return false;
    empty = empty || s == e;
  }
  return empty;
}

StreamView Scheduler::domain(const StreamView& base, std::span<const int64_t> start,
                             std::span<const int64_t> end, SourceLoc loc) {
  const size_t rank = base.extents.size();
  auto described = [&] {
    return "domain " + point_text(start) + " to " + point_text(end);
  };
  if (start.size() != end.size() || start.empty()) {
    fail(loc, "domain start and end must have the same number of components");
  }
  StreamView v = base;
  // Component j of start/end addresses dimension rank-1-j (x is the last
  // dimension). Components beyond the stream's rank address extents of 1.
  for (size_t j = 0; j < start.size(); ++j) {
    int64_t s = start[j], e = end[j];
    if (j >= rank) {
      if (s != 0 || e != 1) fail(loc, described() + " is outside the stream " + shape_text(base.extents));
      continue;
    }
    size_t d = rank - 1 - j;
    if (s < 0 || e > base.extents[d] || s > e) {
      fail(loc, described() + " is outside the stream " + shape_text(base.extents));
    }
    if (s == e) fail(loc, described() + " is empty");
    v.offset[d] = base.offset[d] + s;
    v.extents[d] = e - s;
  }
  if (start.size() < rank) {
    fail(loc, "the domain of a " + std::to_string(rank) + "-D stream needs " +
                  std::to_string(rank) + " components in its start and end, not " +
                  std::to_string(start.size()));
  }
  return v;
}

std::vector<DimMap> Scheduler::resample(const Extents& input, const Extents& domain) {
  return align(input, domain, true);
}

std::vector<DimMap> Scheduler::resample(const StreamView& input, const Extents& domain,
                                        size_t domain_rank) {
  if (input.rank() != domain_rank) return align(input.extents, domain, true);
  // Equal ranks: dimension by dimension. View dimension d is declared
  // dimension d + lead_in; the domain (canonical) covers the last
  // domain.size() declared dimensions, the others have extent 1 (so 0 is read).
  const size_t r = domain_rank;
  const size_t lead_in = r - std::min(r, input.extents.size());
  const size_t lead_out = r - std::min(r, domain.size());
  std::vector<DimMap> map(input.extents.size());
  for (size_t d = 0; d < input.extents.size(); ++d) {
    size_t declared = d + lead_in;
    if (declared < lead_out) continue;  // the domain's extent is 1 there: always 0
    size_t c = declared - lead_out;
    map[d].out_dim = static_cast<int>(c);
    map[d].num = input.extents[d];
    map[d].den = domain[c];
  }
  return map;
}

MapPlan Scheduler::plan_map(const ast::FuncDecl& kernel, std::span<const CallArg> args,
                            SourceLoc loc) {
  MapPlan plan;
  plan.kernel = &kernel;
  plan.loc = loc;
  if (args.size() != kernel.params.size()) {
    fail(loc, "kernel '" + kernel.name + "' takes " + std::to_string(kernel.params.size()) +
                  " arguments, not " + std::to_string(args.size()));
  }
  // The domain is the shape of the first output; every output must match it.
  const ast::ParamDecl* first_out = nullptr;
  size_t domain_rank = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *kernel.params[i];
    if (p.pkind != ast::ParamKind::Out) continue;
    if (args[i].kind != CallArg::Kind::Stream) {
      fail(loc, "output '" + p.name + "' of kernel '" + kernel.name + "' needs a stream");
    }
    Extents shape = canonical_extents(args[i].stream.extents);
    if (!first_out) {
      first_out = &p;
      plan.domain = shape;
      domain_rank = args[i].stream.rank();
    } else if (shape != plan.domain) {
      std::string name = args[i].name.empty() ? p.name : args[i].name;
      fail(loc, "output '" + name + "' has shape " + shape_text(shape) +
                    " but the call's domain is " + shape_text(plan.domain));
    }
  }
  // A call whose only outputs are scatter arrays runs over the first one's
  // shape (Brook+'s default, §12).
  for (size_t i = 0; i < args.size() && !first_out; ++i) {
    const ast::ParamDecl& p = *kernel.params[i];
    if (!p.scatter || args[i].kind != CallArg::Kind::Stream) continue;
    first_out = &p;
    plan.domain = canonical_extents(args[i].stream.extents);
    domain_rank = args[i].stream.rank();
  }
  if (!first_out) fail(loc, "kernel '" + kernel.name + "' has no output stream to run over");

  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *kernel.params[i];
    const CallArg& a = args[i];
    PlanArg pa;
    pa.param = static_cast<int>(i);
    switch (p.pkind) {
      case ast::ParamKind::Input:
      case ast::ParamKind::Iter:
      case ast::ParamKind::Reduce:
        if (a.kind != CallArg::Kind::Stream) {
          fail(loc, "argument '" + p.name + "' of kernel '" + kernel.name + "' needs a stream");
        }
        pa.role = p.pkind == ast::ParamKind::Iter ? ArgRole::Iter : ArgRole::Input;
        pa.view = a.stream;
        // An empty stream (a vout nobody pushed to, §12) has no element to
        // resample; a call over an empty domain reads nothing.
        if (element_count(a.stream.extents) == 0 && element_count(plan.domain) > 0) {
          fail(loc, "input '" + p.name + "' of kernel '" + kernel.name + "' is an empty stream " +
                        shape_text(a.stream.extents) + "; the call's domain is " + shape_text(plan.domain));
        }
        pa.map = resample(a.stream, plan.domain, domain_rank);
        break;
      case ast::ParamKind::Out:
        pa.role = ArgRole::Output;
        pa.view = a.stream;
        pa.vout_bound = p.vout_bound;
        pa.map = align(a.stream.extents, plan.domain, false);
        break;
      case ast::ParamKind::Gather:
        pa.role = ArgRole::Gather;
        if (a.kind == CallArg::Kind::HostArray) {
          pa.gather_from_host = true;
          pa.host = a.host;
        } else if (a.kind == CallArg::Kind::Stream) {
          pa.view = a.stream;
          if (element_count(a.stream.extents) == 0 && element_count(plan.domain) > 0) {
            fail(loc, std::string(p.scatter ? "scatter output '" : "gather argument '") + p.name +
                          "' of kernel '" + kernel.name + "' is an empty stream " +
                          shape_text(a.stream.extents) + ": no element to gather");
          }
        } else {
          fail(loc, "gather argument '" + p.name + "' needs a stream or an array");
        }
        if (p.scatter && a.kind != CallArg::Kind::Stream) {
          fail(loc,
               "scatter output '" + p.name + "' of kernel '" + kernel.name + "' needs a stream");
        }
        break;
      case ast::ParamKind::Const:
      case ast::ParamKind::Value:
        pa.role = ArgRole::Constant;
        pa.value = a.value;
        break;
    }
    plan.args.push_back(std::move(pa));
  }
  plan_alias_copies(plan);
  return plan;
}

ReducePlan Scheduler::plan_reduce(const ast::FuncDecl& reducer, std::span<const CallArg> args,
                                  SourceLoc loc) {
  ReducePlan plan;
  plan.reducer = &reducer;
  plan.loc = loc;
  plan.input_param = plan.reduce_param = -1;
  if (args.size() != reducer.params.size()) {
    fail(loc, "reduction '" + reducer.name + "' takes " + std::to_string(reducer.params.size()) +
                  " arguments, not " + std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ast::ParamDecl& p = *reducer.params[i];
    const CallArg& a = args[i];
    if (p.pkind == ast::ParamKind::Input) {
      if (a.kind != CallArg::Kind::Stream) fail(loc, "the input of '" + reducer.name + "' needs a stream");
      plan.input_param = static_cast<int>(i);
      plan.input = a.stream;
      // §7's fold starts from the first element: an empty stream has none.
      if (element_count(a.stream.extents) == 0) {
        fail(loc, "cannot reduce an empty stream " + shape_text(a.stream.extents) + " with '" + reducer.name + "'");
      }
    } else if (p.pkind == ast::ParamKind::Reduce) {
      plan.reduce_param = static_cast<int>(i);
      if (a.kind == CallArg::Kind::Stream) {
        plan.to_stream = true;
        plan.output = a.stream;
      }
    } else {
      PlanArg pa;
      pa.param = static_cast<int>(i);
      if (p.pkind == ast::ParamKind::Gather) {
        pa.role = ArgRole::Gather;
        pa.gather_from_host = a.kind == CallArg::Kind::HostArray;
        if (pa.gather_from_host) pa.host = a.host; else pa.view = a.stream;
      } else {
        pa.role = ArgRole::Constant;
        pa.value = a.value;
      }
      plan.extra.push_back(std::move(pa));
    }
  }
  if (plan.input_param < 0 || plan.reduce_param < 0) {
    fail(loc, "'" + reducer.name + "' is not a reduction with one input and one reduce parameter");
  }
  if (plan.to_stream) plan_reduce_blocks(plan, loc);
  plan_alias_copies(plan);
  return plan;
}

GatherScatterPlan Scheduler::plan_gather_scatter(bool is_scatter, const StreamView& values,
                                                 const StreamView& index,
                                                 const StreamView& array, int builtin_op,
                                                 const ast::FuncDecl* op, SourceLoc loc) {
  Extents v = canonical_extents(values.extents);
  Extents i = canonical_extents(index.extents);
  if (v != i) {
    fail(loc, "the index stream " + shape_text(i) + " and the " +
                  std::string(is_scatter ? "source" : "target") + " stream " + shape_text(v) +
                  " must have the same shape");
  }
  GatherScatterPlan plan;
  plan.loc = loc;
  plan.is_scatter = is_scatter;
  plan.values = values;
  plan.index = index;
  plan.array = array;
  plan.builtin_op = builtin_op;
  plan.op = op;
  return plan;
}

std::array<int32_t, 4> instance_offset(const MapPlan& plan) {
  std::array<int32_t, 4> off{0, 0, 0, 0};
  for (const PlanArg& a : plan.args) {
    if (a.role != ArgRole::Output) continue;
    const size_t r = a.view.offset.size();
    for (size_t j = 0; j < r && j < 4; ++j) off[j] = static_cast<int32_t>(a.view.offset[r - 1 - j]);
    break;
  }
  return off;
}

uint64_t Scheduler::host_bytes(const StreamView& view) {
  return static_cast<uint64_t>(element_count(view.extents)) * (view.elem ? view.elem->size : 0);
}

float Scheduler::iterator_lerp(int64_t i, int64_t n, float lo, float hi) {
  // BrookGPU's formula, all in float, including its 1e-6 nudge (§6).
  float f = static_cast<float>(i) / static_cast<float>(n);
  float a = (1.0f - f) * lo;
  float b = f * hi;
  return a + b + 1e-6f;
}

std::string describe(const MapPlan& plan) {
  std::ostringstream out;
  out << "plan map " << (plan.kernel ? plan.kernel->name : "?") << " @" << loc_text(plan.loc)
      << "\n  domain " << shape_text(plan.domain) << "\n";
  out << copies_text(plan.copies);
  for (const PlanArg& a : plan.args) {
    out << "  " << param_name(plan.kernel, a.param) << ": " << role_name(a.role);
    if (a.copy >= 0) out << " copy " << a.copy;
    switch (a.role) {
      case ArgRole::Input:
      case ArgRole::Iter:
      case ArgRole::Output:
        out << " " << view_text(a.view) << " index " << map_text(a.map);
        if (a.vout_bound == 0) out << " vout []";
        if (a.vout_bound > 0) out << " vout [" << a.vout_bound << "]";
        break;
      case ArgRole::Gather:
        if (a.gather_from_host) {
          out << " host array " << shape_text(a.host.extents);
        } else {
          out << " " << view_text(a.view);
        }
        break;
      case ArgRole::Constant:
        out << " " << value_text(plan.kernel, a.param, a.value);
        break;
    }
    out << "\n";
  }
  return out.str();
}

std::string describe(const ReducePlan& plan) {
  std::ostringstream out;
  out << "plan reduce " << (plan.reducer ? plan.reducer->name : "?") << " @"
      << loc_text(plan.loc) << "\n";
  out << copies_text(plan.copies);
  out << "  input " << (plan.input_copy >= 0 ? "copy " + std::to_string(plan.input_copy) + " " : "")
      << view_text(plan.input) << "\n";
  if (plan.to_stream) {
    out << "  output " << view_text(plan.output) << "\n  block " << shape_text(plan.block)
        << " (left fold, row-major)\n";
  } else {
    out << "  output a host value (left fold of all " << element_count(plan.input.extents)
        << " elements, row-major)\n";
  }
  return out.str();
}

std::string describe(const GatherScatterPlan& plan) {
  std::ostringstream out;
  out << "plan " << (plan.is_scatter ? "scatter" : "gather") << " @" << loc_text(plan.loc)
      << "\n  " << (plan.is_scatter ? "source " : "target ") << view_text(plan.values)
      << "\n  index " << view_text(plan.index) << "\n  array " << view_text(plan.array)
      << "\n  op " << (plan.op ? plan.op->name : std::to_string(plan.builtin_op)) << "\n";
  return out.str();
}

}  // namespace brook
