#include "backends/interp/kernel_hooks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "interp/builders.hpp"
#include "backends/scheduler.hpp"
#include "interp/stmt_nodes.hpp"
#include "stdlib/builtins.hpp"
#include "stdlib/format.hpp"

namespace brook::interp {

namespace {

// The parameter of the running kernel an expression names, if it is one.
const ast::ParamDecl* param_named(const ast::Expr& e) {
  auto* n = e.as<ast::NameExpr>();
  return n && n->decl ? n->decl->as<ast::ParamDecl>() : nullptr;
}

bool is_stream_param(const ast::ParamDecl& p) {
  return p.pkind == ast::ParamKind::Input || p.pkind == ast::ParamKind::Iter ||
         p.pkind == ast::ParamKind::Out || p.pkind == ast::ParamKind::Reduce ||
         p.pkind == ast::ParamKind::Gather;
}

const BoundStream* bound_at(const KernelContext& ctx, int param) {
  if (param < 0 || static_cast<size_t>(param) >= ctx.bound_count) return nullptr;
  const BoundStream* b = ctx.bound + param;
  return b->arg ? b : nullptr;
}

// g[i], g[i][j], g[v]: the element address after index conversion and clamping.
struct GatherNode : Node {
  KernelContext* ctx;
  int param;
  const Type* elem;
  std::vector<NodePtr> indices;
  std::vector<const Type*> index_types;
  size_t vector_components = 2;  // ast::gather_vector_components

  const uint8_t* locate(Machine& m) {
    const BoundStream* b = bound_at(*ctx, param);
    if (!b) throw RuntimeError{loc, "gather array is not bound"};
    const PlanArg& a = *b->arg;
    const Extents& ext = a.gather_extents();
    const size_t rank = ext.size();
    int64_t pos[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (indices.size() == 1 && index_types[0]->is_vector()) {
      // (column, row, …): component j addresses dimension rank-1-j.
      Vec v;
      indices[0]->eval_vec(m, v);
      TypeKind k = index_types[0]->elem->kind;
      size_t n = std::min<size_t>(rank, vector_components);
      for (size_t j = 0; j < n; ++j) pos[rank - 1 - j] = gather_component(k, v.c[j]);
    } else {
      // Scalars, slowest first; extra leading indices address extents of 1.
      size_t k = indices.size();
      for (size_t j = 0; j < k; ++j) {
        int64_t value = gather_component(scalar_kind(index_types[j]), indices[j]->eval(m));
        if (j + rank >= k) pos[j + rank - k] = value;
      }
    }
    for (size_t d = 0; d < rank; ++d) pos[d] = std::clamp<int64_t>(pos[d], 0, ext[d] - 1);
    int64_t index;
    if (a.gather_from_host) {
      index = 0;
      for (size_t d = 0; d < rank; ++d) index = index * ext[d] + pos[d];
    } else {
      index = a.view.storage_index(pos);
    }
    return reinterpret_cast<const uint8_t*>(b->data) + index * static_cast<int64_t>(elem->size);
  }
  Scalar eval(Machine& m) override { return load_fn(elem)(locate(m)); }
  void eval_vec(Machine& m, Vec& out) override { load_vec(elem, locate(m), out); }
  uint8_t* raw(Machine& m, bool) override { return const_cast<uint8_t*>(locate(m)); }
};

// indexof x: (column, row, slice, 0) of the element x designates, as float4.
struct IndexofNode : Node {
  KernelContext* ctx;
  int param;
  void eval_vec(Machine&, Vec& out) override {
    for (auto& c : out.c) c = put<float>(0.0f);
    const BoundStream* b = bound_at(*ctx, param);
    int64_t pos[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t rank = ctx->rank;
    if (b && b->arg->role == ArgRole::Gather) {
      rank = 0;  // a gather (or scatter) array has no position of its own: 0, as on the JIT and OpenCL
    } else if (b && (b->arg->role == ArgRole::Input || b->arg->role == ArgRole::Iter)) {
      rank = b->arg->map.size();
      for (size_t d = 0; d < rank && d < 8; ++d) pos[d] = b->arg->map[d].apply(ctx->pos);
    } else if (ctx->pos) {
      for (size_t d = 0; d < rank && d < 8; ++d) pos[d] = ctx->pos[d];
    } else {
      rank = 0;
    }
    for (size_t j = 0; j < rank && j < 4; ++j) out.c[j] = put<float>(static_cast<float>(pos[rank - 1 - j]));
  }
};

// instance(): the invocation's position as int4, x = the last dimension.
struct InstanceNode : Node {
  KernelContext* ctx;
  void eval_vec(Machine&, Vec& out) override {
    for (auto& c : out.c) c = put<int32_t>(0);
    for (size_t j = 0; j < ctx->rank && j < 4; ++j) {
      out.c[j] = put<int32_t>(static_cast<int32_t>(ctx->pos[ctx->rank - 1 - j]));
    }
    for (size_t j = 0; j < 4; ++j) {
      out.c[j] = put<int32_t>(static_cast<int32_t>(out.c[j].i + ctx->instance_offset[j]));
    }
  }
};

// instanceInGroup() (§12): the group backend sets it per invocation.
struct InGroupNode : Node {
  KernelContext* ctx;
  void eval_vec(Machine&, Vec& out) override {
    for (size_t j = 0; j < 4; ++j) out.c[j] = put<int32_t>(ctx->in_group[j]);
  }
};

}  // namespace

Scalar SyncGroupNode::eval(Machine&) {
  if (ctx->sync) ctx->sync((static_cast<uint64_t>(loc.line) << 32) | loc.col);
  return Scalar{};
}

namespace {

// pack_4ubyte / unpack_4ubyte (§12, Cg's PK4UB / UP4UB): four bytes
// round(255 * clamp(c, 0, 1)) (NaN as 0), x in the low byte, held in a
// float's bits; unpacking divides each byte by 255.
struct Pack4Node : Node {
  NodePtr arg;
  Scalar eval(Machine& m) override {
    Vec v;
    arg->eval_vec(m, v);
    uint32_t bits = 0;
    for (int j = 0; j < 4; ++j) {
      float c = v.c[j].f;
      c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f;
      bits |= static_cast<uint32_t>(std::round(255.0f * c)) << (8 * j);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return put<float>(f);
  }
};

struct Unpack4Node : Node {
  NodePtr arg;
  void eval_vec(Machine& m, Vec& out) override {
    float f = arg->eval(m).f;
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    for (int j = 0; j < 4; ++j)
      out.c[j] = put<float>(static_cast<float>((bits >> (8 * j)) & 255u) / 255.0f);
  }
};

// push(e) (§12): appends e's current value to its vout's sink.
struct PushNode : Node {
  KernelContext* ctx;
  int param = 0;
  std::string name;
  uint64_t size = 0;
  NodePtr place;
  Scalar eval(Machine& m) override {
    if (!ctx->vouts || static_cast<size_t>(param) >= ctx->vouts->size()) {
      throw RuntimeError{loc, "'push' can only run in a kernel launched from the host"};
    }
    VoutSink& s = (*ctx->vouts)[static_cast<size_t>(param)];
    if (s.invocation != ctx->invocation) {
      s.invocation = ctx->invocation;
      s.count = 0;
    }
    if (s.bound > 0 && s.count >= s.bound) {
      throw PlanError{ctx->call_loc, "kernel '" + (ctx->kernel ? ctx->kernel->name : std::string("?")) +
                                         "' pushed more values to '" + name + "' in one invocation than 'vout [" +
                                         std::to_string(s.bound) + "]' allows"};
    }
    ++s.count;
    const uint8_t* p = place->raw(m, false);
    const auto* b = reinterpret_cast<const std::byte*>(p);
    s.bytes.insert(s.bytes.end(), b, b + size);
    return Scalar{};
  }
};

// A kernel calling a kernel: values by value, out parameters copied in and
// back (by reference in effect), gathers and indexof passed through.
struct KernelCallNode : Node {
  KernelContext* ctx;
  CompiledFunction* fn;
  struct Arg {
    ast::ParamKind kind;
    NodePtr node;       // value (inputs, constants) or place (outputs); null for gathers
    uint32_t offset = 0;
    const Type* type = nullptr;
    int from_param = -1;  // the caller's parameter passed through, for indexof/gathers
  };
  std::vector<Arg> args;
  uint32_t result_temp = 0;

  void call(Machine& m, uint8_t* dest) {
    if (!fn->body) throw RuntimeError{loc, "kernel '" + fn->name + "' is declared but never defined"};
    if (m.depth >= kMaxCallDepth) {
      throw RuntimeError{loc, "stack overflow: more than " + std::to_string(kMaxCallDepth) +
                                  " nested calls"};
    }
    std::vector<BoundStream> bound(fn->param_offsets.size());
    std::vector<uint8_t*> out_places(args.size(), nullptr);
    StackArena::Mark mark = m.stack.mark();
    uint8_t* frame = m.stack.push(fn->frame_size);
    for (size_t i = 0; i < args.size(); ++i) {
      Arg& a = args[i];
      if (a.from_param >= 0) {
        if (const BoundStream* b = bound_at(*ctx, a.from_param)) bound[i] = *b;
      }
      if (!a.node) continue;
      uint8_t* slot = frame + a.offset;
      if (a.kind == ast::ParamKind::Out) {
        out_places[i] = a.node->raw(m, true);
        std::memcpy(slot, out_places[i], a.type->size);
      } else if (a.type->is_scalar()) {
        store_fn(a.type)(slot, a.node->eval(m));
      } else if (a.type->is_vector()) {
        Vec v;
        a.node->eval_vec(m, v);
        store_vec(a.type, slot, v);
      } else {
        std::memcpy(slot, a.node->raw(m, false), a.type->size);
      }
    }
    store_as<uint8_t*>(frame, dest);
    uint8_t* saved_fp = m.fp;
    const BoundStream* saved_bound = ctx->bound;
    size_t saved_count = ctx->bound_count;
    m.fp = frame;
    ++m.depth;
    ctx->bound = bound.data();
    ctx->bound_count = bound.size();
    if (!fn->escaping.empty()) enter_frame(m, *fn);
    m.ret.u = 0;
    fn->body->exec(m);
    if (!fn->escaping.empty()) leave_frame(m, *fn);
    ctx->bound = saved_bound;
    ctx->bound_count = saved_count;
    --m.depth;
    m.fp = saved_fp;
    for (size_t i = 0; i < args.size(); ++i) {
      if (out_places[i]) std::memcpy(out_places[i], frame + args[i].offset, args[i].type->size);
    }
    m.stack.release(mark);
  }
  Scalar eval(Machine& m) override {
    call(m, nullptr);
    return m.ret;
  }
  void eval_vec(Machine& m, Vec& out) override {
    call(m, nullptr);
    out = m.retv;
  }
  uint8_t* raw(Machine& m, bool) override {
    uint8_t* dest = m.fp + result_temp;
    call(m, dest);
    return dest;
  }
};

stdlib::FormatArg::Kind format_kind(const Type* t) {
  using K = stdlib::FormatArg::Kind;
  switch (t->kind) {
    case TypeKind::Float:
    case TypeKind::Double: return K::Double;
    case TypeKind::UInt: return K::UInt;
    case TypeKind::Long: return K::Long;
    case TypeKind::ULong: return K::ULong;
    case TypeKind::Pointer: return K::Pointer;
    default: return K::Int;
  }
}

struct KernelPrintf : Node {
  std::vector<NodePtr> args;
  std::vector<const Type*> types;
  Scalar eval(Machine& m) override {
    using K = stdlib::FormatArg::Kind;
    std::vector<stdlib::FormatArg> values;
    for (size_t i = 1; i < args.size(); ++i) {
      const Type* t = types[i];
      if (!t->is_scalar() && !t->is_pointer()) {
        throw RuntimeError{loc, "argument " + std::to_string(i + 1) + " of 'printf' cannot be a '" +
                                    t->name() + "'"};
      }
      stdlib::FormatArg a;
      a.kind = format_kind(t);
      Scalar s = args[i]->eval(m);
      switch (a.kind) {
        case K::Int: a.i = static_cast<int32_t>(s.i); break;
        case K::Long: a.i = s.i; break;
        case K::UInt: a.u = static_cast<uint32_t>(s.u); break;
        case K::ULong:
        case K::Pointer: a.u = s.u; break;
        case K::Double: a.d = t->kind == TypeKind::Float ? double(s.f) : s.d; break;
      }
      values.push_back(a);
    }
    std::string fmt = m.memory.read_string(args[0]->eval(m).u, loc);
    auto read = [&m, this](uint64_t p, std::string& error) -> std::optional<std::string> {
      try {
        return m.memory.read_string(p, loc);
      } catch (const RuntimeError& e) {
        error = e.message;
        return std::nullopt;
      }
    };
    stdlib::FormatResult r = stdlib::format_printf(fmt, values, read, 2);
    if (!r.ok()) throw RuntimeError{loc, r.error};
    if (m.out) m.out->write(1, r.text);
    return put<int32_t>(static_cast<int32_t>(r.text.size()));
  }
};

}  // namespace

int64_t gather_component(TypeKind k, Scalar s) {
  switch (k) {
    case TypeKind::Float: {
      float f = std::floor(s.f + 0.25f);
      if (!(f > -9.0e18f && f < 9.0e18f)) return f > 0 ? INT64_MAX / 2 : INT64_MIN / 2;
      return static_cast<int64_t>(f);
    }
    case TypeKind::Double: {
      double d = std::floor(s.d + 0.25);
      if (!(d > -9.0e18 && d < 9.0e18)) return d > 0 ? INT64_MAX / 2 : INT64_MIN / 2;
      return static_cast<int64_t>(d);
    }
    case TypeKind::ULong: return s.u > uint64_t(INT64_MAX / 2) ? INT64_MAX / 2 : static_cast<int64_t>(s.u);
    default: return s.i;
  }
}

NodePtr KernelNodes::gather(const ast::GatherExpr& e, Compiler& c) {
  const ast::ParamDecl* p = param_named(*e.param);
  if (!p) return make_fail(e.loc, "gather from something that is not a gather array");
  auto n = std::make_unique<GatherNode>();
  n->loc = e.loc;
  n->ctx = ctx_;
  n->param = p->index;
  n->elem = e.type;
  n->vector_components = ast::gather_vector_components(e);
  for (auto& i : e.indices) {
    n->indices.push_back(c.value(*i));
    n->index_types.push_back(i->type);
  }
  return n;
}

NodePtr KernelNodes::indexof(const ast::IndexofExpr& e, Compiler&) {
  const ast::ParamDecl* p = param_named(*e.operand);
  if (!p || !is_stream_param(*p)) return make_fail(e.loc, "indexof needs a stream parameter");
  auto n = std::make_unique<IndexofNode>();
  n->loc = e.loc;
  n->ctx = ctx_;
  n->param = p->index;
  return n;
}

NodePtr KernelNodes::kernel_builtin(const ast::CallExpr& e, Compiler& c) {
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::push && e.args.size() == 1) {
    const ast::ParamDecl* p = param_named(*e.args[0]);
    if (!p || p->vout_bound < 0) return make_fail(e.loc, "'push' needs a 'vout' parameter of the kernel");
    auto n = std::make_unique<PushNode>();
    n->loc = e.loc;
    n->ctx = ctx_;
    n->param = p->index;
    n->name = p->name;
    n->size = e.args[0]->type->size;
    n->place = c.place(*e.args[0]);
    return n;
  }
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::pack_4ubyte &&
      e.args.size() == 1) {
    auto n = std::make_unique<Pack4Node>();
    n->loc = e.loc;
    n->arg = c.value(*e.args[0]);
    return n;
  }
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::unpack_4ubyte &&
      e.args.size() == 1) {
    auto n = std::make_unique<Unpack4Node>();
    n->loc = e.loc;
    n->arg = c.value(*e.args[0]);
    return n;
  }
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::instanceInGroup) {
    auto n = std::make_unique<InGroupNode>();
    n->loc = e.loc;
    n->ctx = ctx_;
    return n;
  }
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::syncGroup) {
    auto n = std::make_unique<SyncGroupNode>();
    n->loc = e.loc;
    n->ctx = ctx_;
    return n;
  }
  if (static_cast<stdlib::Builtin>(e.builtin) == stdlib::Builtin::instance) {
    auto n = std::make_unique<InstanceNode>();
    n->loc = e.loc;
    n->ctx = ctx_;
    return n;
  }
  return make_fail(e.loc, "'" + e.callee + "' is not available in kernels");
}

NodePtr KernelNodes::kernel_call(const ast::CallExpr& e, Compiler& c) {
  SourceLoc loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
  if (!e.func) return make_fail(loc, "call to '" + e.callee + "' cannot be run");
  const ast::FuncDecl* def = &e.func->defined();
  if (!def->body) return make_fail(loc, "kernel '" + def->name + "' is declared but never defined");
  auto n = std::make_unique<KernelCallNode>();
  n->loc = loc;
  n->ctx = ctx_;
  n->fn = c.compile_body(def);
  for (size_t i = 0; i < e.args.size() && i < def->params.size() && i < n->fn->param_offsets.size(); ++i) {
    const ast::ParamDecl& p = *def->params[i];
    const ast::Expr& arg = *e.args[i];
    KernelCallNode::Arg a;
    a.kind = p.pkind;
    a.offset = n->fn->param_offsets[i];
    a.type = n->fn->param_types[i];
    if (const ast::ParamDecl* mine = param_named(arg); mine && is_stream_param(*mine)) {
      a.from_param = mine->index;
    }
    if (p.pkind == ast::ParamKind::Gather) {
      // Nothing in the frame: the binding carries the caller's array.
    } else if (p.pkind == ast::ParamKind::Out) {
      a.node = c.place(arg);
    } else {
      a.node = c.value(arg);
    }
    n->args.push_back(std::move(a));
  }
  const Type* rt = def->return_type;
  if (rt && (rt->is_struct() || rt->is_array())) n->result_temp = c.frame_slot(rt->size, 16);
  return n;
}

NodePtr KernelHostHooks::builtin_call(const ast::CallExpr& e, Compiler& c) {
  SourceLoc loc = e.callee_loc.valid() ? e.callee_loc : e.loc;
  if (static_cast<stdlib::Builtin>(e.builtin) != stdlib::Builtin::printf || e.args.empty()) {
    return make_fail(loc, "'" + e.callee + "' is not available in kernels");
  }
  auto n = std::make_unique<KernelPrintf>();
  n->loc = loc;
  for (auto& a : e.args) {
    n->args.push_back(c.value(*a));
    n->types.push_back(a->type);
  }
  return n;
}

NodePtr KernelHostHooks::launch(const ast::CallExpr& e, Compiler&) {
  return make_fail(e.loc, "kernels cannot launch kernels");
}

NodePtr KernelHostHooks::domain(const ast::DomainExpr& e, Compiler&) {
  return make_fail(e.loc, "streams are not available in kernels");
}

StmtNodePtr KernelHostHooks::stream_decl(const ast::VarDecl& v, NodePtr, Compiler&) {
  auto n = std::make_unique<FailStmt>();
  n->n = make_fail(v.loc, "streams cannot be declared in kernels");
  return n;
}

StmtNodePtr KernelHostHooks::stream_release(NodePtr, Compiler&) { return std::make_unique<EmptyNode>(); }

}  // namespace brook::interp
