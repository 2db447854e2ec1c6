#include "backends/interp/interp_backend.hpp"

#include "backends/instance.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "backends/interp/kernel_loops.hpp"
#include "interp/interrupt.hpp"
#include "lang/analysis_group.hpp"

namespace brook {

using interp::BoundStream;
using interp::CompiledFunction;
using interp::RuntimeError;
using interp::next_position;
using interp::view_index;
using interp::MachineGuard;

// Kernel printf goes to the backend's OutputSink (stdout only).
class InterpBackend::Sink : public interp::OutputSink {
 public:
  explicit Sink(brook::OutputSink f) : f_(std::move(f)) {}
  void write(int, std::string_view text) override {
    if (f_) f_(text);
  }

 private:
  brook::OutputSink f_;
};

InterpBackend::InterpBackend(const SourceManager& sources, brook::OutputSink output)
    : sink_(std::make_unique<Sink>(std::move(output))),
      kernel_nodes_(context_),
      compiler_(machine_, sources, &host_hooks_, &kernel_nodes_) {
  machine_.out = sink_.get();
  machine_.in_kernel = true;
}

InterpBackend::~InterpBackend() = default;

StorageId InterpBackend::allocate(uint64_t bytes) {
  StorageId id = next_++;
  storage_[id] = memory_.get(bytes, true);
  return id;
}

void InterpBackend::release(StorageId storage) { storage_.erase(storage); }

std::byte* InterpBackend::data(StorageId storage) {
  auto it = storage_.find(storage);
  if (it == storage_.end()) throw PlanError{{}, "internal error: stream storage " + std::to_string(storage) + " is gone"};
  return it->second.data();
}

std::vector<HostBlock> InterpBackend::run_copies(const std::vector<AliasCopy>& copies) {
  std::vector<HostBlock> scratch;
  ProfileTimer timer(profile_ && !copies.empty() ? &profile_->alias_ms : nullptr);
  for (const AliasCopy& c : copies) {
    if (profile_) {
      ++profile_->alias_copies;
      profile_->alias_bytes += Scheduler::host_bytes(c.from);
    }
    const uint64_t size = c.from.elem->size;
    scratch.push_back(memory_.get(Scheduler::host_bytes(c.from), false));
    const std::byte* src = data(c.from.storage);
    std::byte* dst = scratch.back().data();
    std::vector<int64_t> pos(c.from.extents.size(), 0);
    size_t k = 0;
    do {
      std::memcpy(dst + k * size, src + c.from.storage_index(pos.data()) * size, size);
      ++k;
    } while (next_position(pos, c.from.extents));
  }
  return scratch;
}

std::byte* InterpBackend::storage_data(StorageId storage) { return data(storage); }

void InterpBackend::write_view(const StreamView& view, std::span<const std::byte> host) {
  std::byte* base = data(view.storage);
  const uint64_t size = view.elem->size;
  if (host.size() < Scheduler::host_bytes(view)) throw PlanError{{}, "internal error: host buffer too small"};
  if (Scheduler::host_bytes(view) == 0) return;  // an empty stream (a vout nobody pushed to)
  std::vector<int64_t> pos(view.extents.size(), 0);
  size_t k = 0;
  do {
    std::memcpy(base + view.storage_index(pos.data()) * size, host.data() + k * size, size);
    ++k;
  } while (next_position(pos, view.extents));
}

void InterpBackend::read_view(const StreamView& view, std::span<std::byte> host) {
  const std::byte* base = data(view.storage);
  const uint64_t size = view.elem->size;
  if (host.size() < Scheduler::host_bytes(view)) throw PlanError{{}, "internal error: host buffer too small"};
  if (Scheduler::host_bytes(view) == 0) return;  // an empty stream (a vout nobody pushed to)
  std::vector<int64_t> pos(view.extents.size(), 0);
  size_t k = 0;
  do {
    std::memcpy(host.data() + k * size, base + view.storage_index(pos.data()) * size, size);
    ++k;
  } while (next_position(pos, view.extents));
}

std::vector<BoundStream> InterpBackend::bind(const std::vector<PlanArg>& args, size_t param_count,
                                             const std::vector<HostBlock>& scratch) {
  std::vector<BoundStream> bound(param_count);
  for (const PlanArg& a : args) {
    if (a.role == ArgRole::Constant || a.param < 0 || static_cast<size_t>(a.param) >= param_count) continue;
    BoundStream& b = bound[static_cast<size_t>(a.param)];
    b.arg = &a;
    if (a.role == ArgRole::Gather && a.gather_from_host) {
      b.data = a.host.bytes.data();
      continue;
    }
    // The scheduler's copy where the call writes elements this argument reads.
    b.data = a.copy >= 0 ? scratch.at(static_cast<size_t>(a.copy)).data() : data(a.view.storage);
  }
  return bound;
}

template <class Fill, class Drain>
void InterpBackend::invoke_body(CompiledFunction& fn, SourceLoc loc, Fill&& fill, Drain&& drain) {
  if (!fn.body) throw RuntimeError{loc, "'" + fn.name + "' is declared but never defined"};
  interp::StackArena::Mark mark = machine_.stack.mark();
  uint8_t* frame = machine_.stack.push(fn.frame_size);
  fill(frame);
  interp::store_as<uint8_t*>(frame, nullptr);
  machine_.fp = frame;
  machine_.depth = 1;
  if (!fn.escaping.empty()) interp::enter_frame(machine_, fn);
  machine_.ret.u = 0;
  fn.body->exec(machine_);
  if (!fn.escaping.empty()) interp::leave_frame(machine_, fn);
  drain(frame);
  machine_.stack.release(mark);
}

void InterpBackend::run_map(const MapPlan& plan) {
  if (element_count(plan.domain) == 0) return;  // over an empty stream: no invocation
  MachineGuard guard(machine_, context_);
  CompiledFunction* fn = compiler_.compile_body(plan.kernel);
  const size_t nparams = fn->param_offsets.size();

  std::vector<HostBlock> scratch = run_copies(plan.copies);
  std::vector<BoundStream> bound = bind(plan.args, nparams, scratch);

  struct Moving {
    uint32_t offset;
    uint64_t size;
    const PlanArg* arg;
    std::byte* data;
  };
  std::vector<Moving> inputs, outputs;
  std::vector<std::pair<uint32_t, const PlanArg*>> constants;
  for (const PlanArg& a : plan.args) {
    if (a.param < 0 || static_cast<size_t>(a.param) >= nparams) continue;
    uint32_t off = fn->param_offsets[static_cast<size_t>(a.param)];
    switch (a.role) {
      case ArgRole::Input:
      case ArgRole::Iter:
        inputs.push_back({off, a.view.elem->size, &a, const_cast<std::byte*>(bound[static_cast<size_t>(a.param)].data)});
        break;
      case ArgRole::Output: outputs.push_back({off, a.view.elem->size, &a, data(a.view.storage)}); break;
      case ArgRole::Constant: constants.emplace_back(off, &a); break;
      case ArgRole::Gather: break;
    }
  }

  std::vector<int64_t> pos(plan.domain.size(), 0);
  context_.pos = pos.data();
  context_.rank = pos.size();
  context_.bound = bound.data();
  context_.bound_count = bound.size();
  int64_t view_pos[8];
  auto locate = [&](const Moving& mv) {
    const std::vector<DimMap>& map = mv.arg->map;
    for (size_t d = 0; d < map.size() && d < 8; ++d) view_pos[d] = map[d].apply(pos.data());
    return mv.data + mv.arg->view.storage_index(view_pos) * static_cast<int64_t>(mv.size);
  };
  context_.invocation = 0;
  const std::array<int32_t, 4> ioff = instance_offset(plan);
  for (size_t j = 0; j < 4; ++j) context_.instance_offset[j] = ioff[j];
  auto fill = [&](uint8_t* frame) {
    for (auto& [off, a] : constants) {
      std::memcpy(frame + off, a->value.data(), a->value.size());
    }
    for (const Moving& in : inputs) std::memcpy(frame + in.offset, locate(in), in.size);
    for (const Moving& out : outputs) std::memcpy(frame + out.offset, locate(out), out.size);
  };
  auto drain = [&](uint8_t* frame) {
    for (const Moving& out : outputs) std::memcpy(locate(out), frame + out.offset, out.size);
  };
  if (analysis::is_group_kernel(*plan.kernel)) {
    run_groups(plan, *fn, pos, fill, drain);
    return;
  }
  do {
    invoke_body(*fn, plan.loc, fill, drain);
    // Ctrl-C and --time-limit stop a long launch, not only the host loop
    // around it (the outputs are then partly written, as on the JIT).
    if ((++context_.invocation & 1023) == 0) poll_interrupt();
  } while (next_position(pos, plan.domain));
}

std::vector<std::vector<std::byte>> InterpBackend::run_map_vout(const MapPlan& plan) {
  // Invocations run one after another in row-major order: each push appends.
  std::vector<interp::VoutSink> sinks(plan.kernel->params.size());
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound >= 0 && static_cast<size_t>(a.param) < sinks.size()) sinks[static_cast<size_t>(a.param)].bound = a.vout_bound;
  }
  interp::KernelContext saved = context_;
  context_.vouts = &sinks;
  context_.kernel = plan.kernel;
  context_.call_loc = plan.loc;
  try {
    run_map(plan);
  } catch (...) {
    context_ = saved;
    throw;
  }
  context_ = saved;
  std::vector<std::vector<std::byte>> out;
  for (const PlanArg& a : plan.args) {
    if (a.vout_bound >= 0) out.push_back(std::move(sinks[static_cast<size_t>(a.param)].bytes));
  }
  return out;
}

void InterpBackend::run_reduce(const ReducePlan& plan, std::span<std::byte> result) {
  MachineGuard guard(machine_, context_);
  CompiledFunction* fn = compiler_.compile_body(plan.reducer);
  const size_t nparams = fn->param_offsets.size();
  const uint64_t size = plan.input.elem->size;
  const uint32_t in_off = fn->param_offsets[static_cast<size_t>(plan.input_param)];
  const uint32_t acc_off = fn->param_offsets[static_cast<size_t>(plan.reduce_param)];

  std::vector<HostBlock> scratch = run_copies(plan.copies);
  std::vector<BoundStream> bound = bind(plan.extra, nparams, scratch);
  context_.pos = nullptr;
  context_.rank = 0;
  context_.bound = bound.data();
  context_.bound_count = bound.size();

  const std::byte* in_data = plan.input_copy >= 0 ? scratch.at(static_cast<size_t>(plan.input_copy)).data()
                                                  : data(plan.input.storage);

  std::vector<std::byte> acc(size);
  uint64_t steps = 0;
  auto step = [&](const std::byte* x) {
    if ((++steps & 1023) == 0) poll_interrupt();  // as in run_map
    invoke_body(
        *fn, plan.loc,
        [&](uint8_t* frame) {
          for (const PlanArg& a : plan.extra) {
            if (a.role == ArgRole::Constant && static_cast<size_t>(a.param) < nparams) {
              std::memcpy(frame + fn->param_offsets[static_cast<size_t>(a.param)], a.value.data(), a.value.size());
            }
          }
          std::memcpy(frame + acc_off, acc.data(), size);
          std::memcpy(frame + in_off, x, size);
        },
        [&](uint8_t* frame) { std::memcpy(acc.data(), frame + acc_off, size); });
  };

  // One pass of the regrouping rule every backend shares (fold_chunk,
  // backends/plan.hpp): folds m operands, yielded in order by next_operand(),
  // chunk by chunk, and returns the chunks' results.
  auto fold_pass = [&](int64_t m, auto&& next_operand) {
    const int64_t g = fold_chunk(m);
    std::vector<std::byte> results;
    for (int64_t k = 0; k < m; ++k) {
      const std::byte* x = next_operand();
      if (k % g == 0)
        std::memcpy(acc.data(), x, size);
      else
        step(x);
      if (k % g == g - 1 || k == m - 1) results.insert(results.end(), acc.begin(), acc.end());
    }
    return results;
  };
  // Folds n operands into acc: the chunks' results are folded again by the
  // same rule until one is left.
  auto fold_operands = [&](int64_t n, auto&& next_operand) {
    std::vector<std::byte> partials = fold_pass(n, next_operand);
    for (auto m = static_cast<int64_t>(partials.size() / size); m > 1;
         m = static_cast<int64_t>(partials.size() / size)) {
      const std::byte* x = partials.data();
      partials = fold_pass(m, [&] { return std::exchange(x, x + size); });
    }
    std::memcpy(acc.data(), partials.data(), size);
  };

  Extents in_c = canonical_extents(plan.input.extents);
  if (!plan.to_stream) {
    std::vector<int64_t> pos(in_c.size(), 0);
    const int64_t n = element_count(in_c);
    if (n == 0) return;
    fold_operands(n, [&] {
      const std::byte* x = in_data + view_index(plan.input, pos.data(), pos.size()) * static_cast<int64_t>(size);
      next_position(pos, in_c);
      return x;
    });
    if (result.size() >= size) std::memcpy(result.data(), acc.data(), size);
    return;
  }

  // The scheduler gives input and output one rank, with
  // output.extents[d] * block[d] == input.extents[d] (§7).
  const Extents& out_e = plan.output.extents;
  const Extents& block = plan.block;
  const size_t r = plan.input.extents.size();
  std::byte* out_data = data(plan.output.storage);
  std::vector<int64_t> o(r, 0), b(r, 0), p(r, 0);
  const int64_t block_count = element_count(block);
  if (block_count == 0 || element_count(out_e) == 0) return;
  do {
    std::fill(b.begin(), b.end(), 0);
    fold_operands(block_count, [&] {
      for (size_t d = 0; d < p.size(); ++d) p[d] = o[d] * block[d] + b[d];
      next_position(b, block);
      return in_data + view_index(plan.input, p.data(), p.size()) * static_cast<int64_t>(size);
    });
    std::memcpy(out_data + view_index(plan.output, o.data(), o.size()) * static_cast<int64_t>(size), acc.data(), size);
  } while (next_position(o, out_e));
}

void InterpBackend::run_reducer(const ast::FuncDecl& reducer, SourceLoc loc,
                                const std::vector<PlanArg>& extra, const std::byte* first,
                                const std::byte* second, std::byte* result) {
  CompiledFunction* fn = compiler_.compile_body(&reducer);
  int stream_params[2] = {-1, -1};
  int reduce_param = -1;
  int found = 0;
  for (size_t i = 0; i < reducer.params.size(); ++i) {
    ast::ParamKind k = reducer.params[i]->pkind;
    if (k == ast::ParamKind::Reduce) reduce_param = static_cast<int>(i);
    if ((k == ast::ParamKind::Input || k == ast::ParamKind::Reduce || k == ast::ParamKind::Iter) && found < 2) {
      stream_params[found++] = static_cast<int>(i);
    }
  }
  if (found < 2 || reduce_param < 0 || fn->param_offsets.size() != reducer.params.size()) {
    throw PlanError{loc, "'" + reducer.name + "' is not a reduction with one input and one reduce parameter"};
  }
  const Type* t = fn->param_types[static_cast<size_t>(reduce_param)];
  invoke_body(
      *fn, loc,
      [&](uint8_t* frame) {
        for (const PlanArg& a : extra) {
          if (a.role == ArgRole::Constant && static_cast<size_t>(a.param) < fn->param_offsets.size()) {
            std::memcpy(frame + fn->param_offsets[static_cast<size_t>(a.param)], a.value.data(), a.value.size());
          }
        }
        std::memcpy(frame + fn->param_offsets[static_cast<size_t>(stream_params[0])], first, t->size);
        std::memcpy(frame + fn->param_offsets[static_cast<size_t>(stream_params[1])], second, t->size);
      },
      [&](uint8_t* frame) {
        std::memcpy(result, frame + fn->param_offsets[static_cast<size_t>(reduce_param)], t->size);
      });
}

}  // namespace brook
