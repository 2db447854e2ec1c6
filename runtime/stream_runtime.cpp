#include "runtime/stream_runtime.hpp"

#include <algorithm>
#include "runtime/stream_display.hpp"
#include "runtime/stream_narrow.hpp"
#include "stdlib/stream_print.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "interp/node.hpp"
#include "runtime/stream_files.hpp"

namespace brook {

using interp::RuntimeError;

namespace {

// Largest stream, and most stream storage alive at once: beyond these a
// declaration is "out of memory" (never a crash of the process).
constexpr uint64_t kMaxStreamBytes = uint64_t{1} << 30;
constexpr uint64_t kMaxLiveStreamBytes = uint64_t{4} << 30;

// Sema checks the arity of stream operations; this keeps a mismatch harmless.
const StreamArg& nth(std::span<const StreamArg> args, size_t i) {
  if (i >= args.size()) throw RuntimeError{{}, "internal error: missing argument of a stream operation"};
  return args[i];
}

SourceLoc callee_loc(const ast::CallExpr& call) {
  return call.callee_loc.valid() ? call.callee_loc : call.loc;
}

RuntimeError runtime_error(const PlanError& e, SourceLoc fallback) {
  return RuntimeError{e.loc.valid() ? e.loc : fallback, e.message};
}

// The argument as the user wrote it, for messages: `b` for b and b.domain(…).
std::string written_name(const ast::Expr* e) {
  while (e) {
    if (auto* n = e->as<ast::NameExpr>()) return n->name;
    if (auto* d = e->as<ast::DomainExpr>()) {
      e = d->stream.get();
    } else if (auto* c = e->as<ast::CastExpr>()) {
      e = c->operand.get();
    } else {
      break;
    }
  }
  return "";
}

// Every scalar of an element, in memory order (struct fields flattened).
void flatten(const Type* t, const uint8_t* p, std::vector<double>& out) {
  if (t->is_struct()) {
    if (!t->decl) return;
    for (const auto& f : t->decl->fields) flatten(f.type, p + f.offset, out);
  } else if (t->is_array() || t->is_vector()) {
    for (uint32_t i = 0; i < t->count; ++i) flatten(t->elem, p + i * t->elem->size, out);
  } else if (t->is_scalar()) {
    interp::with_scalar(t->kind, [&](auto tag) {
      using T = typename decltype(tag)::type;
      out.push_back(static_cast<double>(interp::load_scalar<T>(p)));
    });
  }
}

// A value argument in C layout of `t`.
std::vector<std::byte> value_bytes(const StreamArg& a, const Type* t) {
  std::vector<std::byte> bytes(t->size);
  auto* p = reinterpret_cast<uint8_t*>(bytes.data());
  if (t->is_scalar() || t->is_pointer()) {
    interp::store_fn(t)(p, a.scalar);
  } else if (t->is_vector()) {
    interp::store_vec(t, p, a.vec);
  } else if (!a.bytes.empty()) {
    std::memcpy(p, a.bytes.data(), std::min<size_t>(a.bytes.size(), bytes.size()));
  }
  return bytes;
}

// A host array (T h[R][C]) as a gather argument.
HostArray host_array(const StreamArg& a) {
  HostArray h;
  const Type* t = a.type;
  while (t && t->is_array()) {
    h.extents.push_back(t->count);
    t = t->elem;
  }
  h.elem = t;
  h.bytes.resize(a.bytes.size());
  if (!a.bytes.empty()) std::memcpy(h.bytes.data(), a.bytes.data(), a.bytes.size());
  return h;
}

}  // namespace

StreamRuntime::StreamRuntime(std::unique_ptr<Backend> backend) : backend_(std::move(backend)) {}

StreamRuntime::~StreamRuntime() = default;

uint64_t StreamRuntime::add(Record r) {
  uint64_t h = next_handle_++;
  records_.emplace(h, std::move(r));
  return h;
}

const StreamRuntime::Record& StreamRuntime::record(uint64_t handle, SourceLoc loc) const {
  auto it = records_.find(handle);
  if (it == records_.end()) throw RuntimeError{loc, "stream used before its declaration ran"};
  if (!it->second.unusable.empty()) throw RuntimeError{loc, it->second.unusable};
  return it->second;
}

StreamRuntime::Record& StreamRuntime::record(uint64_t handle, SourceLoc loc) {
  auto it = records_.find(handle);
  if (it == records_.end()) throw RuntimeError{loc, "stream used before its declaration ran"};
  if (!it->second.unusable.empty()) throw RuntimeError{loc, it->second.unusable};
  return it->second;
}

void StreamRuntime::check_extents(interp::Machine&, uint64_t handle,
                                  std::span<const int64_t> extents, const ast::ParamDecl& p,
                                  SourceLoc loc) {
  const Extents& have = record(handle, loc).view.extents;
  if (Extents(extents.begin(), extents.end()) == have) return;
  auto shape = [](std::span<const int64_t> e) {
    std::string s = "<";
    for (size_t i = 0; i < e.size(); ++i) s += (i ? ", " : "") + std::to_string(e[i]);
    return s + ">";
  };
  throw interp::RuntimeError{loc, "parameter '" + p.name + "' is declared " + shape(extents) +
                                      ", but the stream passed has extents " + shape(have)};
}

const StreamView& StreamRuntime::view_of(uint64_t handle, SourceLoc loc) const {
  return record(handle, loc).view;
}

void StreamRuntime::drop_views(std::span<const StreamArg> args) {
  for (const StreamArg& a : args) {
    if (!a.type || !a.type->is_stream()) continue;
    auto it = records_.find(a.scalar.u);
    if (it != records_.end() && !it->second.owner) records_.erase(it);
  }
}

void StreamRuntime::show(const std::string& text) {
  if (plan_output_) plan_output_(text);
}

uint64_t StreamRuntime::create(interp::Machine&, const ast::VarDecl& decl,
                               std::span<const int64_t> extents, std::span<const StreamArg> init) {
  const Type* st = decl.type;
  const Type* elem = st && st->is_stream() ? st->elem : st;
  if (!elem || elem->size == 0) throw RuntimeError{decl.loc, "stream '" + decl.name + "' has no element type"};
  Extents ext(extents.begin(), extents.end());
  uint64_t count = 1;
  const bool empty = std::none_of(ext.begin(), ext.end(), [](int64_t e) { return e < 0; }) &&
                     std::any_of(ext.begin(), ext.end(), [](int64_t e) { return e == 0; });
  if (empty) {
    // Declaring it is fine (nothing is allocated); using it is the error.
    Record r;
    r.view.elem = elem;
    r.view.extents = r.view.stream_extents = ext;
    r.unusable = "stream '" + decl.name + "' " + shape_text(ext) + " (line " +
                 std::to_string(decl.loc.line) + ") has an extent of 0: it cannot be used";
    return add(std::move(r));
  }
  for (int64_t e : ext) {
    if (e <= 0) {
      throw RuntimeError{decl.loc, "stream '" + decl.name + "' has extent " + std::to_string(e) +
                                       "; extents must be positive"};
    }
    if (count > kMaxStreamBytes / static_cast<uint64_t>(e)) count = kMaxStreamBytes + 1;
    else count *= static_cast<uint64_t>(e);
  }
  if (count > kMaxStreamBytes / elem->size || live_bytes_ + count * elem->size > kMaxLiveStreamBytes) {
    throw RuntimeError{decl.loc, "out of memory: stream '" + decl.name + "' " + shape_text(ext) + " is too large"};
  }
  const uint64_t need = count * elem->size;
  if (!budget_->charge(need)) {
    throw RuntimeError{decl.loc, "out of memory: " + budget_->exceeded("stream '" + decl.name + "' " + shape_text(ext), need)};
  }
  Record r;
  r.owner = true;
  try {
    ProfileTimer timer(profile_ ? &profile_->alloc_ms : nullptr);
    if (profile_) {
      ++profile_->allocations;
      profile_->alloc_bytes += count * elem->size;
    }
    r.view = Scheduler::whole(backend_->allocate(count * elem->size), elem, ext, decl.is_iter);
    r.bytes = count * elem->size;
    live_bytes_ += r.bytes;
  } catch (const std::bad_alloc&) {
    budget_->release(need);
    throw RuntimeError{decl.loc, "out of memory: stream '" + decl.name + "' " + shape_text(ext) + " is too large"};
  }
  if (decl.is_iter && init.size() == 2) {
    // Iterators are materialised once (§6): 1-D per component; N-D floatN
    // with x from the columns, y from the rows, z and w from the slower
    // dimensions.
    const Extents& c = r.view.stream_extents;
    uint32_t width = elem->width();
    auto component = [&](const StreamArg& a, uint32_t j) {
      return elem->is_vector() ? a.vec.c[j].f : a.scalar.f;
    };
    // An N-D iterator's component j follows one dimension: its values along
    // it are computed once (mandelbrot's 1024x1024 points took 26 ms of
    // divisions per element before), then the elements are filled in order.
    const size_t rank = c.size();
    std::vector<std::vector<float>> along(width);
    for (uint32_t j = 0; j < width; ++j) {
      if (rank < 2 || j >= rank) continue;
      const size_t d = rank - 1 - j;  // component j follows dimension rank-1-j
      along[j].resize(static_cast<size_t>(c[d]));
      for (int64_t i = 0; i < c[d]; ++i)
        along[j][static_cast<size_t>(i)] =
            Scheduler::iterator_lerp(i, c[d], component(init[0], j), component(init[1], j));
    }
    std::vector<float> values(count * width);
    std::vector<int64_t> pos(rank, 0);
    for (uint64_t k = 0; k < count; ++k) {
      for (uint32_t j = 0; j < width; ++j) {
        values[k * width + j] =
            along[j].empty()
                ? Scheduler::iterator_lerp(static_cast<int64_t>(k), static_cast<int64_t>(count),
                                           component(init[0], j), component(init[1], j))
                : along[j][static_cast<size_t>(pos[rank - 1 - j])];
      }
      for (size_t d = rank; d-- > 0;) {  // the next position, row-major
        if (++pos[d] < c[d]) break;
        pos[d] = 0;
      }
    }
    if (elem->scalar_of()->kind == TypeKind::Float) {
      ProfileTimer timer(transfer_timer(values.size() * sizeof(float)));
      backend_->write_view(r.view, std::as_bytes(std::span<const float>(values)));
    }
  }
  return add(std::move(r));
}

size_t StreamRuntime::move_to(std::unique_ptr<Backend> backend) {
  // Old storage → new storage. Only declared streams own storage; a view may
  // share it (and streamSwap may have exchanged two owners' storage).
  std::unordered_map<StorageId, StorageId> moved;
  struct Undo {
    Backend* target;
    std::unordered_map<StorageId, StorageId>* moved;
    bool done = false;
    ~Undo() {
      if (done) return;
      try {
        for (const auto& [from, to] : *moved) target->release(to);
      } catch (...) {
        // The new backend is dropped anyway, and its storage with it.
      }
    }
  } undo{backend.get(), &moved};
  std::vector<std::byte> bytes;
  for (const auto& [handle, r] : records_) {
    if (!r.owner || moved.count(r.view.storage)) continue;
    bytes.assign(Scheduler::host_bytes(r.view), std::byte{0});
    backend_->read_view(r.view, bytes);
    StorageId fresh = backend->allocate(r.bytes);
    moved.emplace(r.view.storage, fresh);
    StreamView target = r.view;
    target.storage = fresh;
    backend->write_view(target, bytes);
  }
  // Nothing can fail from here on.
  undo.done = true;
  size_t streams = 0;
  for (auto it = records_.begin(); it != records_.end();) {
    auto found = moved.find(it->second.view.storage);
    if (found == moved.end()) {
      // A view whose stream is gone cannot be moved (nor used any more).
      it = records_.erase(it);
      continue;
    }
    it->second.view.storage = found->second;
    streams += it->second.owner ? 1 : 0;
    ++it;
  }
  try {
    for (const auto& [from, to] : moved) backend_->release(from);
  } catch (...) {
    // The old backend is dropped next, and its storage with it.
  }
  backend_ = std::move(backend);
  return streams;
}

void StreamRuntime::release(interp::Machine&, uint64_t handle) {
  auto it = records_.find(handle);
  if (it == records_.end()) return;
  if (it->second.owner) {
    ProfileTimer timer(profile_ ? &profile_->alloc_ms : nullptr);
    backend_->release(it->second.view.storage);
    live_bytes_ -= it->second.bytes;
    budget_->release(it->second.bytes);
  }
  records_.erase(it);
}

namespace {
// Whether a host object of type `host` holds BrookGPU fixed values for a
// float stream `elem`: then a transfer converts each byte b to b / 255 and
// back (Type::is_fixed).
bool fixed_transfer(const Type* host, const Type* elem) {
  while (host && (host->is_pointer() || host->is_array())) host = host->elem;
  return host && elem && host->scalar_of()->is_fixed && host->width() == elem->width() &&
         elem->scalar_of()->kind == TypeKind::Float;
}

// A float as a fixed byte: clamped to [0, 1], to the nearest of 256 steps;
// NaN is 0.
uint8_t fixed_byte(float v) {
  if (!(v > 0.0f)) return 0;
  if (v >= 1.0f) return 255;
  return static_cast<uint8_t>(std::nearbyint(v * 255.0f));
}
}  // namespace

void StreamRuntime::read_write(interp::Machine& m, bool read, const StreamView& view,
                               const Type* host_type, uint64_t pointer, SourceLoc loc) {
  const bool fixed = fixed_transfer(host_type, view.elem);
  const uint64_t stream_bytes = Scheduler::host_bytes(view);
  uint64_t need = fixed ? stream_bytes / sizeof(float) : stream_bytes;
  uint64_t have = m.memory.bytes_after(pointer);
  if (have < need) {
    throw RuntimeError{loc, std::string(read ? "streamRead" : "streamWrite") + " needs " +
                                std::to_string(need) + " bytes but the host object has " +
                                std::to_string(have)};
  }
  if (need == 0) return;
  uint8_t* p = m.memory.at(pointer, need, loc, !read);
  auto* bytes = reinterpret_cast<std::byte*>(p);
  ProfileTimer timer(transfer_timer(need));
  if (fixed) {
    std::vector<float> values(need);
    if (read) {
      for (uint64_t i = 0; i < need; ++i) values[i] = static_cast<float>(p[i]) / 255.0f;
      backend_->write_view(view, std::as_bytes(std::span<const float>(values)));
    } else {
      backend_->read_view(view, std::as_writable_bytes(std::span<float>(values)));
      for (uint64_t i = 0; i < need; ++i) p[i] = fixed_byte(values[i]);
    }
    return;
  }
  if (read) {
    backend_->write_view(view, std::span<const std::byte>(bytes, need));
  } else {
    backend_->read_view(view, std::span<std::byte>(bytes, need));
  }
}

// §4's file forms: the file is checked against the stream first, so on a
// mismatch neither the stream nor the file is touched.
void StreamRuntime::file_transfer(interp::Machine& m, stdlib::Builtin id, const StreamView& view, uint64_t path_ptr,
                                  SourceLoc loc) {
  using stdlib::Builtin;
  std::string path = m.memory.read_string(path_ptr, loc);
  StreamFileKind kind = id == Builtin::streamReadImage || id == Builtin::streamWriteImage ? StreamFileKind::image
                        : id == Builtin::streamReadNpy || id == Builtin::streamWriteNpy   ? StreamFileKind::npy
                                                                                          : StreamFileKind::raw;
  bool read = id == Builtin::streamReadImage || id == Builtin::streamReadFile || id == Builtin::streamReadNpy;
  try {
    if (read) {
      std::vector<std::byte> bytes = read_stream_file(kind, path, view.elem, view.declared_extents());
      ProfileTimer timer(transfer_timer(bytes.size()));
      backend_->write_view(view, bytes);
    } else {
      std::vector<std::byte> bytes(Scheduler::host_bytes(view));
      {
        ProfileTimer timer(transfer_timer(bytes.size()));
        backend_->read_view(view, bytes);
      }
      write_stream_file(kind, path, view.elem, view.declared_extents(), bytes);
    }
  } catch (const StreamFileError& e) {
    throw RuntimeError{loc, e.what()};
  }
}

void StreamRuntime::print(interp::Machine& m, const StreamView& view) {
  std::vector<std::byte> bytes(Scheduler::host_bytes(view));
  {
    ProfileTimer timer(transfer_timer(bytes.size()));
    backend_->read_view(view, bytes);
  }
  const Type* t = view.elem;
  if (display_) {
    if (m.out) m.out->write(1, display_stream(t, view.extents, bytes, m.memory, *display_));
    return;
  }
  const int64_t row = view.extents.empty() ? 1 : view.extents.back();
  const int64_t count = element_count(view.extents);
  std::string out;
  std::vector<double> comps;
  for (int64_t k = 0; k < count; ++k) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data()) + k * static_cast<int64_t>(t->size);
    comps.clear();
    flatten(t, p, comps);
    out += stdlib::format_stream_element(comps, t->is_scalar());
    if ((k + 1) % row == 0) out += '\n';
    if (out.size() > (1u << 16)) {
      if (m.out) m.out->write(1, out);
      out.clear();
    }
  }
  if (m.out) m.out->write(1, out);
}

StreamArg StreamRuntime::builtin(interp::Machine& m, stdlib::Builtin id, const ast::CallExpr& call,
                                 std::span<const StreamArg> args) {
  using stdlib::Builtin;
  SourceLoc loc = callee_loc(call);
  StreamArg result;
  struct Cleanup {
    StreamRuntime* self;
    std::span<const StreamArg> args;
    ~Cleanup() { self->drop_views(args); }
  } cleanup{this, args};
  try {
    switch (id) {
      case Builtin::streamRead:
      case Builtin::streamWrite: {
        const StreamView& v = record(nth(args, 0).scalar.u, loc).view;
        read_write(m, id == Builtin::streamRead, v, nth(args, 1).type, nth(args, 1).scalar.u, loc);
        break;
      }
      case Builtin::streamSwap: {
        Record& a = record(nth(args, 0).scalar.u, loc);
        Record& b = record(nth(args, 1).scalar.u, loc);
        if (a.view.elem != b.view.elem ||
            canonical_extents(a.view.extents) != canonical_extents(b.view.extents)) {
          throw RuntimeError{loc, "streamSwap needs two streams of the same type and shape"};
        }
        if (a.owner && b.owner && a.view.is_whole() && b.view.is_whole()) {
          std::swap(a.view.storage, b.view.storage);
        } else {
          std::vector<std::byte> x(Scheduler::host_bytes(a.view)), y(x.size());
          ProfileTimer timer(transfer_timer(4 * x.size()));
          backend_->read_view(a.view, x);
          backend_->read_view(b.view, y);
          backend_->write_view(a.view, y);
          backend_->write_view(b.view, x);
        }
        break;
      }
      case Builtin::streamAssign: {
        const StreamView& a = record(nth(args, 0).scalar.u, loc).view;
        const StreamView& b = record(nth(args, 1).scalar.u, loc).view;
        if (a.elem != b.elem || canonical_extents(a.extents) != canonical_extents(b.extents)) {
          auto shape = [](const StreamView& v) {
            std::string s = v.elem->name() + "<";
            for (size_t i = 0; i < v.extents.size(); ++i) {
              if (i) s += ", ";
              s += std::to_string(v.extents[i]);
            }
            return s + ">";
          };
          std::string why = "a stream can be assigned only a stream of the same type and shape (";
          why += shape(b);
          why += " into ";
          why += shape(a);
          throw RuntimeError{loc, why + ")"};
        }
        std::vector<std::byte> bytes(Scheduler::host_bytes(b));
        ProfileTimer timer(transfer_timer(2 * bytes.size()));
        backend_->read_view(b, bytes);
        backend_->write_view(a, bytes);
        break;
      }
      case Builtin::streamPrint: print(m, record(nth(args, 0).scalar.u, loc).view); break;
      case Builtin::streamReadImage:
      case Builtin::streamWriteImage:
      case Builtin::streamReadFile:
      case Builtin::streamWriteFile:
      case Builtin::streamReadNpy:
      case Builtin::streamWriteNpy:
        file_transfer(m, id, record(nth(args, 0).scalar.u, loc).view, nth(args, 1).scalar.u, loc);
        break;
      case Builtin::streamSize: {
        const Extents& e = record(nth(args, 0).scalar.u, loc).view.extents;
        Extents c = canonical_extents(e);
        for (size_t j = 0; j < 4; ++j) {
          int64_t v = j < c.size() ? c[c.size() - 1 - j] : 1;
          result.vec.c[j] = interp::put<int32_t>(static_cast<int32_t>(v));
        }
        break;
      }
      case Builtin::streamGatherOp:
      case Builtin::streamScatterOp:
        gather_scatter(m, id == Builtin::streamScatterOp, call, args, loc);
        break;
      default: throw RuntimeError{loc, "'" + call.callee + "' is not a stream operation"};
    }
  } catch (const PlanError& e) {
    throw runtime_error(e, loc);
  }
  return result;
}

void StreamRuntime::gather_scatter(interp::Machine& m, bool scatter, const ast::CallExpr& call,
                                   std::span<const StreamArg> args, SourceLoc loc) {
  const StreamView& values = record(nth(args, 0).scalar.u, loc).view;
  const StreamView& index = record(nth(args, 1).scalar.u, loc).view;
  const ast::FuncDecl* op = nullptr;
  int builtin_op = 0;
  const auto* n = call.args.size() > 3 ? call.args[3]->as<ast::NameExpr>() : nullptr;
  if (n && n->decl && n->decl->as<ast::FuncDecl>()) {
    op = n->decl->as<ast::FuncDecl>();
    if (op->definition) op = op->definition;
  } else {
    builtin_op = static_cast<int>(nth(args, 3).scalar.i);
  }
  const StreamArg& arr = nth(args, 2);
  const auto t0 = Profile::Clock::now();
  const double overhead0 = profile_ ? profile_->overhead_ms() : 0;
  struct Charge {
    StreamRuntime* self;
    std::string name;
    Profile::Clock::time_point t0;
    double overhead0;
    int64_t elements;
    ~Charge() {
      if (self->profile_) self->charge_launch(name, t0, overhead0, elements, 0);
    }
  } charge{this, op ? op->name : call.callee, t0, overhead0, element_count(index.extents)};
  // The operators copy whole elements between the stream and the array.
  auto check_types = [&](const Type* array_elem) {
    const Type* it = index.elem;
    if (values.elem != array_elem) {
      throw RuntimeError{loc, "'" + call.callee + "' needs the stream and the array to have the same element type"};
    }
    if (!it || !(it->is_scalar() || it->is_vector())) {
      throw RuntimeError{loc, "'" + call.callee + "' needs an index stream of numbers"};
    }
  };
  if (arr.type && arr.type->is_stream()) {
    const StreamView& array = record(arr.scalar.u, loc).view;
    check_types(array.elem);
    GatherScatterPlan plan = Scheduler::plan_gather_scatter(scatter, values, index, array, builtin_op, op, loc);
    if (plan_output_) show(describe(plan));  // describe only when someone reads it (--dump-plans)
    backend_->run_gather_scatter(plan);
    return;
  }
  // A host array: run on a stream copy of it, then copy the result back.
  HostArray h = host_array(arr);
  check_types(h.elem);
  StreamView array = Scheduler::whole(backend_->allocate(h.bytes.size()), h.elem, h.extents);
  struct Free {
    Backend* b;
    StorageId s;
    ~Free() { b->release(s); }
  } free_array{backend_.get(), array.storage};
  backend_->write_view(array, h.bytes);
  GatherScatterPlan plan = Scheduler::plan_gather_scatter(scatter, values, index, array, builtin_op, op, loc);
  if (plan_output_) show(describe(plan));  // describe only when someone reads it (--dump-plans)
  backend_->run_gather_scatter(plan);
  if (arr.place) {
    backend_->read_view(array, h.bytes);
    std::memcpy(arr.place, h.bytes.data(), h.bytes.size());
  }
  (void)m;
}

void StreamRuntime::launch(interp::Machine& m, const ast::CallExpr& call, std::span<StreamArg> args) {
  SourceLoc loc = callee_loc(call);
  struct Cleanup {
    StreamRuntime* self;
    std::span<const StreamArg> args;
    ~Cleanup() { self->drop_views(args); }
  } cleanup{this, args};
  const ast::FuncDecl* f = call.func;
  if (f && f->definition) f = f->definition;
  if (!f) throw RuntimeError{loc, "call to '" + call.callee + "' cannot be run"};
  try {
    if (f->fkind == ast::FuncKind::Reduce) {
      run_reduction(m, *f, call, args, loc);
    } else {
      run_kernel(m, *f, call, args, loc);
    }
  } catch (const PlanError& e) {
    throw runtime_error(e, loc);
  }
}

// One argument of a kernel or reduce call as the Scheduler takes it: a
// stream's view, a host array snapshot for a gather, or a value's bytes.
CallArg StreamRuntime::call_arg(const ast::ParamDecl& p, const StreamArg& a, const ast::Expr* written,
                                SourceLoc loc) {
  CallArg c;
  c.name = written_name(written);
  if (a.type && a.type->is_stream()) {
    c.kind = CallArg::Kind::Stream;
    c.stream = record(a.scalar.u, loc).view;
  } else if (p.pkind == ast::ParamKind::Gather && a.type && a.type->is_array()) {
    c.kind = CallArg::Kind::HostArray;
    c.host = host_array(a);
  } else {
    c.kind = CallArg::Kind::Value;
    c.value = value_bytes(a, p.type);
  }
  return c;
}

namespace {
// A launch's aliasing scratch (the plan's AliasCopy entries) counts against
// the memory budget while the launch runs.
class ScratchCharge {
 public:
  ScratchCharge(MemoryBudget& budget, const std::vector<AliasCopy>& copies, const std::string& kernel, SourceLoc loc)
      : budget_(budget) {
    for (const AliasCopy& c : copies) bytes_ += Scheduler::host_bytes(c.to);
    if (!budget_.charge(bytes_)) {
      throw RuntimeError{loc, "out of memory: " + budget_.exceeded("the copy of an aliased argument of '" + kernel + "'",
                                                                   bytes_)};
    }
  }
  ~ScratchCharge() { budget_.release(bytes_); }
  ScratchCharge(const ScratchCharge&) = delete;
  ScratchCharge& operator=(const ScratchCharge&) = delete;

 private:
  MemoryBudget& budget_;
  uint64_t bytes_ = 0;
};
}  // namespace

bool StreamRuntime::is_empty_view(const StreamArg& a) const {
  if (!a.type || !a.type->is_stream()) return false;
  auto it = records_.find(a.scalar.u);
  return it != records_.end() && it->second.empty_view;
}

void StreamRuntime::run_kernel(interp::Machine&, const ast::FuncDecl& kernel, const ast::CallExpr& call,
                               std::span<StreamArg> args, SourceLoc loc) {
  // Outputs that are all empty domains: the launch has no invocations.
  bool any_out = false, all_empty = true;
  for (size_t i = 0; i < args.size() && i < kernel.params.size(); ++i) {
    if (kernel.params[i]->pkind != ast::ParamKind::Out) continue;
    any_out = true;
    all_empty = all_empty && is_empty_view(args[i]);
  }
  if (any_out && all_empty) return;
  std::vector<CallArg> cargs(args.size());
  for (size_t i = 0; i < args.size() && i < kernel.params.size(); ++i) {
    cargs[i] = call_arg(*kernel.params[i], args[i], i < call.args.size() ? call.args[i].get() : nullptr, loc);
  }
  NarrowedOutputs narrowed(*backend_, *budget_, kernel, cargs, loc);
  MapPlan plan = Scheduler::plan_map(kernel, cargs, loc);
  if (plan_output_) show(describe(plan));  // describe only when someone reads it (--dump-plans)
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound >= 0) {
      run_vout_kernel(plan, args, loc);
      narrowed.commit();
      return;
    }
  }
  ScratchCharge scratch(*budget_, plan.copies, kernel.name, loc);
  if (!profile_) {
    backend_->run_map(plan);
    narrowed.commit();
    return;
  }
  const auto t0 = Profile::Clock::now();
  const double overhead0 = profile_->overhead_ms();
  backend_->run_map(plan);
  narrowed.commit();
  const int64_t n = element_count(plan.domain);
  uint64_t bytes = 0;
  for (const PlanArg& a : plan.args) {
    if ((a.role == ArgRole::Input || a.role == ArgRole::Iter || a.role == ArgRole::Output) && a.view.elem) {
      bytes += static_cast<uint64_t>(n) * a.view.elem->size;
    }
  }
  charge_launch(kernel.name, t0, overhead0, n, bytes);
}

double* StreamRuntime::transfer_timer(uint64_t bytes) {
  if (!profile_) return nullptr;
  ++profile_->transfers;
  profile_->transfer_bytes += bytes;
  return &profile_->transfer_ms;
}

void StreamRuntime::charge_launch(const std::string& name, Profile::Clock::time_point t0, double overhead0,
                                  int64_t elements, uint64_t bytes) {
  const double total = ms_between(t0, Profile::Clock::now());
  const double others = profile_->overhead_ms() - overhead0;  // compiles, aliasing, start-up in it
  Profile::Kernel& k = profile_->kernels[name];
  ++k.launches;
  k.run_ms += total > others ? total - others : 0;
  k.elements += elements;
  k.bytes += bytes;
}

void StreamRuntime::run_reduction(interp::Machine&, const ast::FuncDecl& reducer,
                                  const ast::CallExpr& call, std::span<StreamArg> args, SourceLoc loc) {
  // A reduction of an empty domain folds nothing: the target keeps its value.
  for (size_t i = 0; i < args.size() && i < reducer.params.size(); ++i)
    if (reducer.params[i]->pkind == ast::ParamKind::Input && is_empty_view(args[i])) return;
  std::vector<CallArg> cargs(args.size());
  int target = -1;
  for (size_t i = 0; i < args.size() && i < reducer.params.size(); ++i) {
    const ast::ParamDecl& p = *reducer.params[i];
    cargs[i] = call_arg(p, args[i], i < call.args.size() ? call.args[i].get() : nullptr, loc);
    if (cargs[i].kind == CallArg::Kind::Value && p.pkind == ast::ParamKind::Reduce) target = static_cast<int>(i);
  }
  ReducePlan plan = Scheduler::plan_reduce(reducer, cargs, loc);
  if (plan_output_) show(describe(plan));  // describe only when someone reads it (--dump-plans)
  std::vector<std::byte> result(plan.input.elem ? plan.input.elem->size : 0);
  ScratchCharge scratch(*budget_, plan.copies, reducer.name, loc);
  const auto t0 = Profile::Clock::now();
  const double overhead0 = profile_ ? profile_->overhead_ms() : 0;
  backend_->run_reduce(plan, result);
  if (profile_) {
    const int64_t n = element_count(plan.input.extents);
    uint64_t bytes = plan.input.elem ? static_cast<uint64_t>(n) * plan.input.elem->size : 0;
    if (plan.to_stream) bytes += Scheduler::host_bytes(plan.output);
    charge_launch(reducer.name, t0, overhead0, n, bytes);
  }
  if (!plan.to_stream && target >= 0) {
    uint8_t* place = args[static_cast<size_t>(target)].place;
    if (!place) throw RuntimeError{loc, "the result of '" + reducer.name + "' has nowhere to go"};
    std::memcpy(place, result.data(), result.size());
  }
}

uint64_t StreamRuntime::domain(interp::Machine&, const ast::DomainExpr& e, const StreamArg& stream,
                               const StreamArg& start, const StreamArg& end) {
  // Errors point at the member name `domain`, just after the '.'.
  SourceLoc loc = e.loc;
  loc.col += 1;
  uint64_t base_handle = stream.scalar.u;
  Record r;
  {
    const Record& base = record(base_handle, loc);
    auto corners = [](const StreamArg& a) {
      std::vector<int64_t> v;
      if (a.type && a.type->is_vector()) {
        for (uint32_t j = 0; j < a.type->count; ++j) v.push_back(a.vec.c[j].i);
      } else {
        v.push_back(a.scalar.i);
      }
      return v;
    };
    std::vector<int64_t> s = corners(start), t = corners(end);
    if (Scheduler::empty_domain(base.view, s, t)) {
      std::string corner_text[2];
      for (int k = 0; k < 2; ++k) {
        const std::vector<int64_t>& c = k ? t : s;
        std::string& out = corner_text[k];
        out = c.size() == 1 ? "" : "(";
        for (size_t j = 0; j < c.size(); ++j) out += (j ? ", " : "") + std::to_string(c[j]);
        if (c.size() != 1) out += ")";
      }
      r.view = base.view;
      r.empty_view = true;
      r.unusable = "domain " + corner_text[0] + " to " + corner_text[1] +
                   " is empty: it can only be the output of a launch (or the input of a "
                   "reduction), which then runs nothing";
    } else {
      try {
        r.view = Scheduler::domain(base.view, s, t, loc);
      } catch (const PlanError& err) {
        throw runtime_error(err, loc);
      }
    }
    r.owner = false;
  }
  // A view of a view: the inner one was made for this expression only.
  auto it = records_.find(base_handle);
  if (it != records_.end() && !it->second.owner) records_.erase(it);
  return add(std::move(r));
}

}  // namespace brook
