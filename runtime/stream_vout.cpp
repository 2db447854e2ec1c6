// Variable outputs (LANGUAGE.md §12): after a launch, each vout stream holds
// the pushed values, 1-D of length n, or <ceil(n / W), W> for a 2-D domain of
// width W with the last row padded with +infinity (BrookGPU's sentinel).
#include <cstring>
#include <limits>

#include "backends/scheduler.hpp"
#include "runtime/stream_runtime.hpp"

namespace brook {

namespace {

// +infinity in every float component of an element; other bytes stay 0.
void fill_infinity(const Type* t, std::byte* p) {
  if (!t) return;
  if (t->is_vector() || t->is_array()) {
    for (uint32_t i = 0; i < t->count; ++i) fill_infinity(t->elem, p + i * t->elem->size);
  } else if (t->kind == TypeKind::Float) {
    float f = std::numeric_limits<float>::infinity();
    std::memcpy(p, &f, sizeof f);
  } else if (t->kind == TypeKind::Double) {
    double d = std::numeric_limits<double>::infinity();
    std::memcpy(p, &d, sizeof d);
  } else if (t->is_struct() && t->decl) {
    for (const ast::FieldDecl& f : t->decl->fields) fill_infinity(f.type, p + f.offset);
  }
}

}  // namespace

void StreamRuntime::run_vout_kernel(const MapPlan& plan, std::span<StreamArg> args, SourceLoc loc) {
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound < 0) continue;
    const Record& r = record(args[static_cast<size_t>(a.param)].scalar.u, loc);
    if (!r.owner || !r.view.is_whole()) {
      throw interp::RuntimeError{loc, "the vout output '" + plan.kernel->params[static_cast<size_t>(a.param)]->name +
                                  "' needs a whole stream, not a domain of one"};
    }
  }
  std::vector<std::vector<std::byte>> pushed = backend_->run_map_vout(plan);
  size_t k = 0;
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound < 0) continue;
    Record& r = record(args[static_cast<size_t>(a.param)].scalar.u, loc);
    std::vector<std::byte> bytes = k < pushed.size() ? std::move(pushed[k]) : std::vector<std::byte>{};
    ++k;
    const Type* elem = r.view.elem;
    const uint64_t es = elem->size;
    const int64_t n = static_cast<int64_t>(bytes.size() / es);
    Extents ext{n};
    if (plan.domain.size() == 2) {
      const int64_t w = plan.domain[1];
      ext = {(n + w - 1) / w, w};
      std::vector<std::byte> inf(es);
      fill_infinity(elem, inf.data());
      while (static_cast<int64_t>(bytes.size() / es) < ext[0] * w) bytes.insert(bytes.end(), inf.begin(), inf.end());
    }
    const uint64_t size = static_cast<uint64_t>(element_count(ext)) * es;
    budget_->release(r.bytes);
    if (!budget_->charge(size)) {
      budget_->charge(r.bytes);
      const std::string& name = plan.kernel->params[static_cast<size_t>(a.param)]->name;
      throw interp::RuntimeError{loc, "out of memory: " + budget_->exceeded("the vout output '" + name + "'", size)};
    }
    StorageId fresh = backend_->allocate(size);
    StreamView v = Scheduler::whole(fresh, elem, ext, r.view.is_iter);
    if (size) backend_->write_view(v, bytes);
    backend_->release(r.view.storage);
    live_bytes_ = live_bytes_ - r.bytes + size;
    r.view = v;
    r.bytes = size;
  }
}

}  // namespace brook
