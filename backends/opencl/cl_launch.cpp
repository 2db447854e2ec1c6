#include "backends/opencl/cl_launch.hpp"

#include "backends/opencl/cl_args.hpp"
#include "backends/opencl/cl_groups.hpp"

#include <cstdio>

#include "backends/instance.hpp"
#include "backends/opencl/cl_printer.hpp"
#include "stdlib/builtins.hpp"

namespace brook::opencl {

using namespace ast;

namespace {

std::string ptr_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

const Type* element_of(const Type* t) {
  while (t && t->is_array()) t = t->elem;
  return t;
}

std::string sz(const Type* t) { return std::to_string(t->size); }

// `T name = zero;` for any value type.
std::string zero_decl(ClModule& m, const Type* t, const std::string& name) {
  std::string T = m.type_name(t);
  if (t->is_scalar() || t->is_vector()) return "  " + T + " " + name + " = (" + T + ")(0);\n";
  m.helper("brook_zero", [] {
    return "static void brook_zero(__private uchar* p, ulong n) {\n"
           "  for (ulong i = 0; i < n; ++i) p[i] = 0;\n}\n";
  });
  return "  " + T + " " + name + ";\n  brook_zero((__private uchar*)&" + name + ", sizeof(" + name + "));\n";
}

// Preparation and call arguments for a constant or gather (its parameters
// are cl_args.cpp's extra_args).
struct Extra {
  std::string prep, call;
};

Extra extra_arg(const PlanArg& a, const ParamDecl& p, ClModule& m, const std::string& n) {
  Extra x;
  if (a.role == ArgRole::Gather) {
    const Type* e = a.gather_from_host ? a.host.elem : a.view.elem;
    if (!e) e = element_of(p.type);
    // A scatter output (§12) is a gather the kernel stores through.
    const std::string ptr = p.scatter ? "__global uchar* " : "__global const uchar* ";
    x.prep = "  " + ptr + n + "_g = " + n + " + " + n + "_base * " + sz(e) + ";\n";
    x.call = ", " + n + "_g, BROOK_I4(" + n + "_ext), BROOK_I4(" + n + "_str)";
    return x;
  }
  if (p.type->is_array()) throw Unsupported{p.loc, "array constants are not supported by the OpenCL backend"};
  if (p.type->is_scalar()) {
    x.call = ", " + n;
  } else {
    x.prep = "  " + m.type_name(p.type) + " " + n + "_v = " + m.load_fn(p.type) + "(" + n + ");\n";
    x.call = ", " + n + "_v";
  }
  return x;
}

std::string vec4(const std::vector<std::string>& c) {
  std::string s = "(float4)(";
  for (size_t i = 0; i < 4; ++i) s += (i ? ", " : "") + (i < c.size() ? "(float)" + c[i] : std::string("0.0f"));
  return s + ")";
}

std::string ivec4(const std::vector<std::string>& c) {
  std::string s = "(int4)(";
  for (size_t i = 0; i < 4; ++i) s += (i ? ", " : "") + (i < c.size() ? "(int)" + c[i] : std::string("0"));
  return s + ")";
}

// Unravels linear `k` over right-aligned 4-D extents into n0..n3 and returns the storage index.
std::string view_index_helper(ClModule& m) {
  return m.helper("brook_view_index", [] {
    return "static long brook_view_index(long k, long4 e, long4 s, long base) {\n"
           "  long i3 = k % e.s3; k /= e.s3;\n  long i2 = k % e.s2; k /= e.s2;\n"
           "  long i1 = k % e.s1; long i0 = k / e.s1;\n"
           "  return base + i0 * s.s0 + i1 * s.s1 + i2 * s.s2 + i3 * s.s3;\n}\n";
  });
}

}  // namespace

std::string map_key(const MapPlan& plan, KernelFacts& facts) {
  std::string k = "map " + ptr_text(&plan.kernel->defined()) + " r" +
                  std::to_string(plan.domain.size()) + (narrow_ok(plan) ? "n" : "w") +
                  (exact_ok(plan) ? "x" + std::to_string(position_limit(plan)) : "f") +
                  (flat_ok(plan, facts) ? "l" : "") + (map_padded(plan, facts) ? "p" : "");
  k += " u";
  for (const auto& [access, inside] : unclamped_accesses(plan, facts)) k += inside ? "1" : "0";
  for (int p : small_integral_constants(plan)) k += " ic" + std::to_string(p);
  const std::array<int32_t, 4> ioff = variant_instance_offset(plan, facts);
  if (ioff != std::array<int32_t, 4>{0, 0, 0, 0}) {
    k += " io";
    for (int32_t o : ioff) k += " " + std::to_string(o);
  }
  for (const PlanArg& a : plan.args) {
    k += " " + std::to_string(static_cast<int>(a.role));
    const Type* e = a.role == ArgRole::Gather && a.gather_from_host ? a.host.elem : a.view.elem;
    k += ":" + ptr_text(e);
    for (const DimMap& d : a.map) k += std::string(1, map_kind(d, plan.domain)) + std::to_string(d.out_dim);
  }
  return k;
}

namespace {

std::string map_source_impl(const MapPlan& plan, ClModule& m, KernelFacts& facts,
                            const ClArgs* shape);

}  // namespace

std::string map_source(const MapPlan& plan, ClModule& m, KernelFacts& facts) {
  return map_source_impl(plan, m, facts, nullptr);
}

std::string map_source_for_shape(const MapPlan& plan, const ClArgs& args, ClModule& m,
                                 KernelFacts& facts) {
  return map_source_impl(plan, m, facts, &args);
}

std::string map_shape(const ClArgs& args) {
  std::string k;
  for (const ClArg& a : args) {
    if (!a.shape) continue;
    k += ' ';
    const size_t n = a.kind == ClArg::Kind::Long4 ? 4 : 1;
    for (size_t c = 0; c < n; ++c) {
      if (c) k += ',';
      k += std::to_string(a.v[c]);
    }
  }
  return k;
}

namespace {

// `const long4 a0_str = (long4)(66L, 1L, 0L, 0L);` for each shape argument:
// declared in a block around the body, they shadow the parameters.
std::string shape_constants(const ClArgs& args) {
  std::string s;
  for (const ClArg& a : args) {
    if (!a.shape) continue;
    if (a.kind == ClArg::Kind::Long4) {
      s += "  const long4 " + a.name + " = (long4)(";
      for (size_t c = 0; c < 4; ++c) {
        if (c) s += ", ";
        s += std::to_string(a.v[c]);
        s += 'L';
      }
      s += ");\n";
    } else {
      s += "  const long " + a.name + " = ";
      s += std::to_string(a.v[0]);
      s += "L;\n";
    }
  }
  return s;
}

std::string map_source_impl(const MapPlan& plan, ClModule& m, KernelFacts& facts,
                            const ClArgs* shape) {
  m.narrow_index = narrow_ok(plan);
  m.exact_positions = exact_ok(plan);
  m.position_limit = position_limit(plan);
  for (const auto& [access, inside] : unclamped_accesses(plan, facts))
    if (inside) m.unclamped.insert({access.gather, access.index});
  for (int p : small_integral_constants(plan))
    m.integral_params.insert(plan.kernel->defined().params.at(static_cast<size_t>(p)).get());
  const std::array<int32_t, 4> ioff = variant_instance_offset(plan, facts);
  if (ioff != std::array<int32_t, 4>{0, 0, 0, 0}) {
    m.helper("brook_ioff", [&] {
      return "#define BROOK_IOFF ((int4)(" + std::to_string(ioff[0]) + ", " + std::to_string(ioff[1]) + ", " +
             std::to_string(ioff[2]) + ", " + std::to_string(ioff[3]) + "))\n";
    });
  }
  ClPrinter pr(m);
  const FuncDecl& k = plan.kernel->defined();
  std::string fn = pr.function(k);
  const size_t R = plan.domain.size();
  if (R < 1 || R > 4) throw Unsupported{plan.loc, "streams of more than 4 dimensions are not supported"};
  const bool group = analysis::is_group_kernel(k);
  m.shape_baked = shape && !group;
  ClArgs listed = map_args(plan);
  if (m.shape_baked) std::erase_if(listed, [](const ClArg& a) { return a.shape; });
  std::string params = parameter_list(listed, m);
  const GroupLaunch gl = group ? group_launch(k, m) : GroupLaunch{};
  std::string body = gl.prologue;
  auto p = [](size_t d) { return "p" + std::to_string(d); };
  const bool flat = flat_ok(plan, facts) && !group;  // work-groups need the NDRange's dimensions
  if (flat) {
    // One linear range: every stream is laid out like the domain.
    body += "  long brook_g = get_global_id(0), brook_r = brook_g;\n";
    for (size_t d = R; d-- > 1;)
      body += "  brook_i " + p(d) + " = (brook_i)(brook_r % brook_d" + std::to_string(d) + "); brook_r /= brook_d" +
              std::to_string(d) + ";\n";
    body += "  brook_i p0 = (brook_i)brook_r;\n";
  } else if (R <= 3) {
    for (size_t i = 0; i < R; ++i)
      body += "  brook_i " + p(R - 1 - i) + " = (brook_i)get_global_id(" + std::to_string(i) + ");\n";
  } else {
    body += "  brook_i p3 = (brook_i)get_global_id(0), p2 = (brook_i)get_global_id(1);\n"
            "  long brook_g = get_global_id(2);\n"
            "  brook_i p0 = (brook_i)(brook_g / brook_d1), p1 = (brook_i)(brook_g % brook_d1);\n";
  }
  if (map_padded(plan, facts)) {
    // The launch's first dimension is padded to whole work-groups
    // (padded_extent): the extra work-items end here.
    std::string total = "brook_d0";
    for (size_t d = 1; d < R; ++d) total += " * brook_d" + std::to_string(d);
    body += flat ? "  if (brook_g >= " + total + ") return;\n"
                 : "  if (" + p(R - 1) + " >= brook_d" + std::to_string(R - 1) + ") return;\n";
  }
  std::vector<std::string> pos_comps;
  for (size_t i = 0; i < R; ++i) pos_comps.push_back(p(R - 1 - i));
  body += "  int4 brook_pos = (int4)(";
  for (size_t i = 0; i < 4; ++i) body += (i ? ", " : "") + (i < R ? "(int)" + pos_comps[i] : std::string("0"));
  body += ");\n  float4 brook_fpos = convert_float4(brook_pos);\n";
  std::string call = fn + "(brook_pos, brook_pbuf, brook_stop";
  std::string stores;
  for (const PlanArg& a : plan.args) {
    const ParamDecl& prm = *k.params.at(static_cast<size_t>(a.param));
    std::string n = "a" + std::to_string(a.param);
    if (a.role == ArgRole::Constant || a.role == ArgRole::Gather) {
      Extra x = extra_arg(a, prm, m, n);
      body += x.prep;
      call += x.call;
      continue;
    }
    const Type* t = prm.type;
    const size_t V = a.map.size();
    bool out = a.role == ArgRole::Output;
    std::string sidx = "(brook_i)" + n + "_base";
    std::vector<std::string> ix;
    for (size_t d = 0; d < V; ++d) {
      const DimMap& dm = a.map[d];
      std::string i = n + "_i" + std::to_string(d);
      std::string c = ".s" + std::to_string(d);
      std::string v = "0";
      const char kind = map_kind(dm, plan.domain);
      if (kind != 'p' && static_cast<size_t>(dm.out_dim) < R) {
        v = p(static_cast<size_t>(dm.out_dim));
        if (kind == 's') v = "(brook_i)(((long)" + v + " * " + n + "_num" + c + ") / " + n + "_den" + c + ")";
        if (kind == 'n') v = "(brook_i)(((int)" + v + " * (int)" + n + "_num" + c + ") / (int)" + n + "_den" + c + ")";
      }
      body += "  brook_i " + i + " = " + v + ";\n";
      // The last dimension is contiguous: its stride is 1.
      sidx += d + 1 == V ? " + " + i : " + " + i + " * (brook_i)" + n + "_str" + c;
    }
    if (flat) sidx = "(brook_i)" + n + "_base + (brook_i)brook_g";
    for (size_t d = V; d-- > 0;) ix.push_back(n + "_i" + std::to_string(d));
    std::string addr = n + " + (" + sidx + ") * " + sz(t);
    if (out) {
      body += "  __global uchar* " + n + "_p = " + addr + ";\n";
      if (ClPrinter::reads_before_write(k, prm)) {
        body += "  " + m.type_name(t) + " " + n + "_v = " + m.load_fn(t) + "(" + n + "_p);\n";
      } else {
        body += zero_decl(m, t, n + "_v");
      }
      call += ", &" + n + "_v, brook_fpos, brook_pos";
      stores += "  " + m.store_fn(t) + "(" + n + "_p, " + n + "_v);\n";
    } else {
      body += "  " + m.type_name(t) + " " + n + "_v = " + m.load_fn(t) + "(" + addr + ");\n";
      call += ", " + n + "_v, " + vec4(ix) + ", " + ivec4(ix);
    }
  }
  body += "  " + call + gl.call_args + ");\n" + stores;
  // Work-groups' __local arrays must stay in the kernel's outermost scope:
  // group kernels are not specialised.
  if (m.shape_baked) body = "  {\n" + shape_constants(*shape) + body + "  }\n";
  // After cl_args.hpp's list: opencl_backend.cpp sets it after the others.
  if (m.group_votes) params += ", __global int* brook_diverged";
  m.add_function("__kernel " + (group ? gl.attribute + " " : std::string()) + "void brook_map(" +
                 params + ") {\n" + body + "}\n");
  return m.source();
}

}  // namespace

namespace {

// Whether each block a reduction folds is one contiguous run of storage: the
// dimensions after the first one the block spans more than 1 of are whole
// rows of the stream (block == view == stream extent), the ones before it 1.
// `sum(x, t)` over a whole <4096, 4096> stream and sgm_path's per-row
// minimum of a <480, 64> view are; the kernel then walks each block with one
// pointer instead of unravelling every element's position (the same elements
// in the same order, so the same result).
bool contiguous_blocks(const ReducePlan& plan) {
  const StreamView& in = plan.input;
  const size_t V = in.extents.size();
  if (in.stream_extents.size() != V) return false;
  std::vector<int64_t> block = plan.to_stream ? plan.block : in.extents;
  block.resize(V, 1);
  size_t first = V;
  for (size_t d = 0; d < V && first == V; ++d)
    if (block[d] > 1) first = d;
  for (size_t d = first + 1; d < V; ++d)
    if (block[d] != in.extents[d] || in.extents[d] != in.stream_extents[d]) return false;
  return true;
}

}  // namespace

std::string reduce_key(const ReducePlan& plan) {
  std::string k = "reduce " + ptr_text(&plan.reducer->defined()) + " " + ptr_text(plan.input.elem) +
                  (canonical_extents(plan.input.extents).size() == 1 ? " r1"
                                                                     : (contiguous_blocks(plan) ? " rc" : " rn"));
  if (plan.to_stream) k += " to-stream";  // its program also has brook_reduce_direct
  for (const PlanArg& a : plan.extra) k += " " + std::to_string(static_cast<int>(a.role));
  return k;
}

std::string reduce_source(const ReducePlan& plan, ClModule& m) {
  ClPrinter pr(m);
  const FuncDecl& f = plan.reducer->defined();
  std::string fn = pr.function(f);
  const Type* t = f.params.at(static_cast<size_t>(plan.input_param))->type;
  std::string T = m.type_name(t), S = sz(t), ld = m.load_fn(t), st = m.store_fn(t);
  std::string xprep;
  std::vector<std::string> call_args(f.params.size());
  call_args[static_cast<size_t>(plan.input_param)] = ", x, (float4)(0.0f), (int4)(0)";
  call_args[static_cast<size_t>(plan.reduce_param)] = ", &acc, (float4)(0.0f), (int4)(0)";
  for (const PlanArg& a : plan.extra) {
    std::string n = "a" + std::to_string(a.param);
    Extra x = extra_arg(a, *f.params.at(static_cast<size_t>(a.param)), m, n);
    xprep += x.prep;
    call_args.at(static_cast<size_t>(a.param)) = x.call;
  }
  std::string call = "    " + fn + "(brook_pos, brook_pbuf, brook_stop";
  for (const std::string& c : call_args) call += c;
  call += ");\n";
  bool one_d = canonical_extents(plan.input.extents).size() == 1;
  // The fold of one chunk of one output's block into acc; brook_reduce_first
  // stores it among the partials, brook_reduce_direct (one chunk per output)
  // into the output view.
  std::string first = " {\n  long j = get_global_id(0), o = get_global_id(1);\n" + xprep +
                      "  int4 brook_pos = (int4)(0);\n  long k = j * G, kend = min(k + G, B);\n"
                      "  if (k >= B) return;  // the launch is padded to whole work-groups\n";
  if (one_d) {
    first += "  __global const uchar* s = src + (base + o * B * str.s3) * " + S + ";\n"
             "  " + T + " acc = " + ld + "(s + k * str.s3 * " + S + ");\n"
             "  for (++k; k < kend; ++k) {\n    " + T + " x = " + ld + "(s + k * str.s3 * " + S + ");\n" +
             call + "  }\n";
  } else if (contiguous_blocks(plan)) {
    first += "  long q = o;\n  long o3 = q % oext.s3; q /= oext.s3;\n  long o2 = q % oext.s2; q /= oext.s2;\n"
             "  long o1 = q % oext.s1; long o0 = q / oext.s1;\n"
             "  __global const uchar* s = src + (base + o0 * blk.s0 * str.s0 + o1 * blk.s1 * str.s1 + "
             "o2 * blk.s2 * str.s2 + o3 * blk.s3 * str.s3) * " + S + ";\n"
             "  " + T + " acc = " + ld + "(s + k * " + S + ");\n"
             "  for (++k; k < kend; ++k) {\n    " + T + " x = " + ld + "(s + k * " + S + ");\n" + call + "  }\n";
  } else {
    std::string sidx = "base + (o0 * blk.s0 + b0) * str.s0 + (o1 * blk.s1 + b1) * str.s1 + "
                       "(o2 * blk.s2 + b2) * str.s2 + (o3 * blk.s3 + b3) * str.s3";
    first += "  long q = o;\n  long o3 = q % oext.s3; q /= oext.s3;\n  long o2 = q % oext.s2; q /= oext.s2;\n"
             "  long o1 = q % oext.s1; long o0 = q / oext.s1;\n"
             "  long r = k;\n  long b3 = r % blk.s3; r /= blk.s3;\n  long b2 = r % blk.s2; r /= blk.s2;\n"
             "  long b1 = r % blk.s1; long b0 = r / blk.s1;\n"
             "  " + T + " acc = " + ld + "(src + (" + sidx + ") * " + S + ");\n"
             "  for (++k; k < kend; ++k) {\n"
             "    if (++b3 == blk.s3) { b3 = 0; if (++b2 == blk.s2) { b2 = 0; if (++b1 == blk.s1) { b1 = 0; ++b0; } } }\n"
             "    " + T + " x = " + ld + "(src + (" + sidx + ") * " + S + ");\n" + call + "  }\n";
  }
  std::string vi = view_index_helper(m);
  if (plan.to_stream) {
    m.add_function("__kernel void brook_reduce_direct(" +
                   parameter_list(reduce_direct_args(plan, 0), m) + ")" + first + "  " + st +
                   "(vo + " + vi + "(o, vo_ext, vo_str, vo_base) * " + S + ", acc);\n}\n");
  }
  m.add_function("__kernel void brook_reduce_first(" +
                 parameter_list(reduce_first_args(plan, 0, 0, 0), m) + ")" + first + "  " + st +
                 "(dst + (o * nchunks + j) * " + S + ", acc);\n}\n");
  m.add_function("__kernel void brook_reduce_next(" +
                 parameter_list(reduce_next_args(plan, 0, 0, 0), m) +
                 ") {\n"
                 "  long j = get_global_id(0), o = get_global_id(1);\n" +
                 xprep +
                 "  int4 brook_pos = (int4)(0);\n  long k = j * G, kend = min(k + G, n);\n"
                 "  if (k >= n) return;  // the launch is padded to whole work-groups\n"
                 "  " +
                 T + " acc = " + ld + "(src + (o * n + k) * " + S +
                 ");\n"
                 "  for (++k; k < kend; ++k) {\n    " +
                 T + " x = " + ld + "(src + (o * n + k) * " + S + ");\n" + call + "  }\n  " + st +
                 "(dst + (o * nchunks + j) * " + S + ", acc);\n}\n");
  m.add_function("__kernel void brook_reduce_store(" + parameter_list(reduce_store_args(plan), m) + ") {\n  long o = get_global_id(0);\n  " + st + "(out + " + vi +
                 "(o, ext, str, base) * " + S + ", " + ld + "(src + o * " + S + "));\n}\n");
  return m.source();
}

std::string gs_key(const GatherScatterPlan& plan) {
  return std::string(plan.is_scatter ? "scatter " : "gather ") + ptr_text(plan.values.elem) + " " +
         ptr_text(plan.index.elem) + " " + ptr_text(plan.array.elem) + " " +
         std::to_string(canonical_extents(plan.array.extents).size()) + " " +
         std::to_string(plan.builtin_op) + " " + ptr_text(plan.op ? &plan.op->defined() : nullptr);
}

std::string gs_source(const GatherScatterPlan& plan, ClModule& m) {
  const Type* t = plan.array.elem;
  const Type* it = plan.index.elem;
  if (!t || !it) throw Unsupported{plan.loc, "streams without an element type"};
  std::string T = m.type_name(t), S = sz(t), ld = m.load_fn(t), st = m.store_fn(t);
  std::string vi = view_index_helper(m);
  size_t A = canonical_extents(plan.array.extents).size();
  if (A > 4) A = 4;
  std::string b =
      "  int4 brook_pos = (int4)(0);\n"
      "  for (int pass = 0; pass < 2; ++pass) {\n    for (long k = 0; k < n; ++k) {\n"
      "      long vs = " + vi + "(k, vext, vstr, vbase);\n      long is = " + vi + "(k, iext, istr, ibase);\n"
      "      " + m.type_name(it) + " iv = " + m.load_fn(it) + "(idx + is * " + sz(it) + ");\n";
  std::string as = "abase";
  std::string check;
  for (size_t j = 0; j < A; ++j) {
    std::string c = "c" + std::to_string(j);
    std::string comp = it->is_vector() ? (j < it->count ? std::string("iv.s") + std::to_string(j) : "0") : (j == 0 ? "iv" : "0");
    std::string conv = it->scalar_of()->is_floating() ? "(long)(int)(" + comp + " + 0.5f)" : "(long)(" + comp + ")";
    b += "      long " + c + " = " + conv + ";\n";
    std::string d = ".s" + std::to_string(3 - j);
    check += std::string(j ? " || " : "") + c + " < 0 || " + c + " >= aext" + d;
    as += " + " + c + " * astr" + d;
  }
  b += "      if (pass == 0) {\n        if (" + check + ") { err[0] = k; return; }\n        continue;\n      }\n"
       "      __global uchar* ap = arr + (" + as + ") * " + S + ";\n"
       "      __global uchar* vp = vals + vs * " + S + ";\n";
  if (plan.op) {
    ClPrinter pr(m);
    const FuncDecl& f = plan.op->defined();
    std::string fn = pr.function(f);
    std::vector<const ParamDecl*> streams;
    for (const auto& p : f.params)
      if (p->pkind == ParamKind::Input || p->pkind == ParamKind::Reduce) streams.push_back(p.get());
      else throw Unsupported{plan.loc, "'" + f.name + "' takes arguments a gather or scatter operator cannot pass"};
    if (streams.size() != 2) throw Unsupported{plan.loc, "'" + f.name + "' needs two stream parameters"};
    std::string call = fn + "(brook_pos, brook_pbuf, brook_stop";
    for (size_t i = 0; i < 2; ++i) {
      std::string v = "v" + std::to_string(i);
      call += streams[i]->pkind == ParamKind::Reduce ? ", &" + v + ", (float4)(0.0f), (int4)(0)"
                                                    : ", " + v + ", (float4)(0.0f), (int4)(0)";
    }
    call += ");\n";
    int red = streams[0]->pkind == ParamKind::Reduce ? 0 : 1;
    if (!plan.is_scatter) {
      b += "      " + T + " v0 = " + ld + "(ap), v1 = v0;\n      " + st + "(vp, v0);\n      " + call +
           "      " + st + "(ap, v" + std::to_string(red) + ");\n";
    } else {
      b += "      " + T + " v0 = " + ld + "(ap), v1 = " + ld + "(vp);\n      " + call + "      " + st +
           (red == 0 ? "(ap, v0);\n" : "(vp, v1);\n");
    }
  } else if (!plan.is_scatter) {
    b += "      " + T + " old = " + ld + "(ap);\n      " + st + "(vp, old);\n";
    if (plan.builtin_op == stdlib::STREAM_GATHER_INC) b += "      " + st + "(ap, old + (" + T + ")(1));\n";
  } else {
    switch (plan.builtin_op) {
      case stdlib::STREAM_SCATTER_ADD: b += "      " + st + "(ap, " + ld + "(ap) + " + ld + "(vp));\n"; break;
      case stdlib::STREAM_SCATTER_MUL: b += "      " + st + "(ap, " + ld + "(ap) * " + ld + "(vp));\n"; break;
      default: b += "      " + st + "(ap, " + ld + "(vp));\n"; break;
    }
  }
  b += "    }\n  }\n";
  m.add_function("__kernel void brook_gs(" + parameter_list(gs_args(plan), m) + ") {\n" +
                 b + "}\n");
  return m.source();
}

}  // namespace brook::opencl
