#include "runtime/stream_narrow.hpp"

#include <cstring>

#include "interp/value.hpp"

namespace brook {

namespace {

// Copies `n` elements, keeping the first min(from, to) bytes of each.
void resize_elements(std::span<const std::byte> from, uint64_t from_size, std::span<std::byte> to,
                     uint64_t to_size, int64_t n) {
  const uint64_t keep = from_size < to_size ? from_size : to_size;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(to.data() + static_cast<uint64_t>(i) * to_size,
                from.data() + static_cast<uint64_t>(i) * from_size, keep);
  }
}

}  // namespace

NarrowedOutputs::NarrowedOutputs(Backend& backend, MemoryBudget& budget,
                                 const ast::FuncDecl& kernel, std::span<CallArg> args,
                                 SourceLoc loc)
    : backend_(backend), budget_(budget) {
  for (size_t i = 0; i < args.size() && i < kernel.params.size(); ++i) {
    const ast::ParamDecl& p = *kernel.params[i];
    CallArg& a = args[i];
    if (p.pkind != ast::ParamKind::Out || a.kind != CallArg::Kind::Stream || !p.type ||
        a.stream.elem == p.type || p.vout_bound >= 0)
      continue;
    Output o;
    o.target = a.stream;
    const int64_t n = element_count(o.target.extents);
    o.bytes = static_cast<uint64_t>(n) * p.type->size;
    if (!budget_.charge(o.bytes)) {
      throw interp::RuntimeError{
          loc, "out of memory: " + budget_.exceeded("the output '" + p.name + "' of '" +
                                                        kernel.name + "' in its own type",
                                                    o.bytes)};
    }
    o.temp = Scheduler::whole(backend_.allocate(o.bytes), p.type, o.target.declared_extents());
    outputs_.push_back(o);
    std::vector<std::byte> now(static_cast<uint64_t>(n) * o.target.elem->size);
    std::vector<std::byte> wide(o.bytes);
    backend_.read_view(o.target, now);
    resize_elements(now, o.target.elem->size, wide, p.type->size, n);
    backend_.write_view(o.temp, wide);
    a.stream = o.temp;
  }
}

void NarrowedOutputs::commit() {
  for (const Output& o : outputs_) {
    const int64_t n = element_count(o.target.extents);
    std::vector<std::byte> wide(o.bytes);
    std::vector<std::byte> narrow(static_cast<uint64_t>(n) * o.target.elem->size);
    backend_.read_view(o.temp, wide);
    resize_elements(wide, o.temp.elem->size, narrow, o.target.elem->size, n);
    backend_.write_view(o.target, narrow);
  }
}

NarrowedOutputs::~NarrowedOutputs() {
  for (const Output& o : outputs_) {
    backend_.release(o.temp.storage);
    budget_.release(o.bytes);
  }
}

}  // namespace brook
