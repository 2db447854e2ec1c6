// The JIT backend: stream storage in host memory (from a pool), the copies
// aliasing needs, compiling entry points (cached per kernel and shape), and
// the profile. Launches are in jit_map.cpp, jit_reduce.cpp and
// jit_gather_scatter.cpp; the class is in jit_backend_impl.hpp.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "jit/jit_backend_impl.hpp"

namespace brook {
namespace jit {

void JitBackend::copy_view(const StreamView& view, std::byte* host, size_t host_size,
                           bool to_stream) {
  std::byte* base = base_of(view.storage, {});
  const size_t es = view.elem->size;
  size_t at = 0;
  for_each_view_row(view, [&](int64_t index, int64_t len) {
    size_t n = static_cast<size_t>(len) * es;
    if (at + n > host_size) return;
    std::byte* s = base + static_cast<size_t>(index) * es;
    if (to_stream)
      std::memcpy(s, host + at, n);
    else
      std::memcpy(host + at, s, n);
    at += n;
  });
}

ArgRt JitBackend::view_rt(const StreamView& v, const std::vector<DimMap>* map, SourceLoc loc,
                          std::byte* base) {
  ArgRt a;
  a.base = base ? base : base_of(v.storage, loc);
  a.elem_size = static_cast<int64_t>(v.elem->size);
  a.rank = static_cast<int64_t>(v.extents.size());
  if (a.rank > kMaxRank)
    throw PlanError{loc, "streams of more than 4 dimensions are not supported"};
  auto strides = row_major_strides(v.stream_extents);
  for (size_t d = 0; d < v.extents.size(); ++d) {
    a.stride[d] = strides[d];
    a.offset[d] = v.offset[d];
    a.extent[d] = v.extents[d];
    if (map && d < map->size()) {
      a.num[d] = (*map)[d].num;
      a.den[d] = (*map)[d].den ? (*map)[d].den : 1;
    }
  }
  return a;
}

ArgRt JitBackend::gather_rt(const PlanArg& pa, SourceLoc loc, std::byte* base) {
  if (!pa.gather_from_host) return view_rt(pa.view, nullptr, loc, base);
  ArgRt a;
  uint64_t need = static_cast<uint64_t>(element_count(pa.host.extents)) *
                  (pa.host.elem ? pa.host.elem->size : 0);
  if (pa.host.extents.empty() || need == 0 || pa.host.bytes.size() < need) {
    throw PlanError{loc, "the gather array has no elements"};
  }
  a.base = const_cast<std::byte*>(pa.host.bytes.data());
  a.elem_size = pa.host.elem ? static_cast<int64_t>(pa.host.elem->size) : 0;
  a.rank = static_cast<int64_t>(pa.host.extents.size());
  if (a.rank > kMaxRank)
    throw PlanError{loc, "gather arrays of more than 4 dimensions are not supported"};
  auto strides = row_major_strides(pa.host.extents);
  for (size_t d = 0; d < pa.host.extents.size(); ++d) {
    a.stride[d] = strides[d];
    a.extent[d] = std::max<int64_t>(pa.host.extents[d], 1);
  }
  return a;
}

std::vector<HostBlock> JitBackend::run_copies(const std::vector<AliasCopy>& copies, SourceLoc loc) {
  std::vector<HostBlock> scratch;
  if (copies.empty()) return scratch;
  auto t0 = std::chrono::steady_clock::now();
  for (const AliasCopy& c : copies) {
    const size_t es = c.from.elem->size;
    const uint64_t bytes = static_cast<uint64_t>(element_count(c.from.extents)) * es;
    try {
      scratch.push_back(memory_.get(bytes, false));
    } catch (const std::bad_alloc&) {
      throw PlanError{loc, "out of memory copying a stream the call also writes"};
    }
    const std::byte* src = base_of(c.from.storage, loc);
    std::byte* dst = scratch.back().data();
    std::vector<std::pair<int64_t, int64_t>> rows;  // (storage index, length)
    for_each_view_row(c.from, [&](int64_t index, int64_t len) { rows.emplace_back(index, len); });
    const int64_t len = rows.empty() ? 0 : rows[0].second;
    auto copy_rows = [&](int64_t first, int64_t last) {
      for (int64_t r = first; r < last; ++r) {
        std::memcpy(dst + static_cast<size_t>(r * len) * es,
                    src + static_cast<size_t>(rows[static_cast<size_t>(r)].first) * es,
                    static_cast<size_t>(len) * es);
      }
    };
    const int64_t n = static_cast<int64_t>(rows.size());
    if (bytes < (uint64_t{1} << 20) || n < 2 || pool_.size() == 1) {
      copy_rows(0, n);
    } else {
      const int64_t blocks = std::min<int64_t>(n, pool_.size() * 4);
      pool_.run(blocks, [&](int64_t i) { copy_rows(n * i / blocks, n * (i + 1) / blocks); });
    }
  }
  if (profile_) {
    profile_->alias_ms += ms_since(t0);
    profile_->alias_copies += static_cast<int64_t>(copies.size());
    for (const AliasCopy& c : copies) profile_->alias_bytes += Scheduler::host_bytes(c.from);
  }
  return scratch;
}

void* JitBackend::entry(const std::string& kernel_name, const JitCompiler::Emit& emit,
                        SourceLoc loc) {
  JitCompiler::Result r;
  try {
    r = compiler_.get(emit);
  } catch (const CodegenError& e) {
    throw PlanError{e.loc.valid() ? e.loc : loc, e.message};
  } catch (const std::exception& e) {
    throw PlanError{loc, e.what()};
  }
  if (r.compiled) {
    ++compiles_;
    stats_[kernel_name].compiles++;
  }
  stats_[kernel_name].compile_ms += r.ms;
  if (profile_) {
    Profile::Kernel& k = profile_->kernels[kernel_name];
    k.compiles += r.compiled ? 1 : 0;
    k.cache_loads += r.compiled ? 0 : 1;
    k.compile_ms += r.ms;
    if (!startup_reported_ && compiler_.startup_ms() > 0) {
      profile_->startup_ms += compiler_.startup_ms();
      startup_reported_ = true;
    }
  }
  return r.address;
}

FoldFn JitBackend::lane_fold(const ReducePlan& plan, const std::vector<ArgShape>& params,
                             int lanes) {
  const ast::FuncDecl& red = *plan.reducer;
  auto key = std::make_tuple(&red, params, lanes);
  if (auto it = lane_folds_.find(key); it != lane_folds_.end()) return it->second;
  bool relaxed = options_.fp_relaxed;
  auto fn = reinterpret_cast<FoldFn>(entry(
      red.name,
      [&](llvm::Module& m, const std::string& name) {
        emit_fold(m, red, plan.input_param, plan.reduce_param, params, name, relaxed, lanes);
      },
      plan.loc));
  lane_folds_[key] = fn;
  return fn;
}

FoldFn JitBackend::fold_of(const ast::FuncDecl& red, int input_param, int reduce_param,
                           const std::vector<ArgShape>& params, SourceLoc loc) {
  auto key = std::make_pair(&red, params);
  if (auto it = folds_.find(key); it != folds_.end()) return it->second;
  const bool relaxed = options_.fp_relaxed;
  auto fn = reinterpret_cast<FoldFn>(entry(
      red.name,
      [&](llvm::Module& m, const std::string& name) {
        emit_fold(m, red, input_param, reduce_param, params, name, relaxed);
      },
      loc));
  folds_[key] = fn;
  return fn;
}

std::string JitBackend::profile_report() const {
  std::ostringstream os;
  os << "kernel                compiles  compile ms  launches      run ms     elements/s\n";
  char line[256];
  for (const auto& [name, s] : stats_) {
    double eps = s.run_ms > 0 ? static_cast<double>(s.elements) / (s.run_ms / 1000.0) : 0;
    std::snprintf(line, sizeof line, "%-20s %9d %11.2f %9lld %11.3f %14.4g\n", name.c_str(),
                  s.compiles, s.compile_ms, static_cast<long long>(s.launches), s.run_ms, eps);
    os << line;
  }
  if (compiler_.startup_ms() > 0) {
    std::snprintf(line, sizeof line,
                  "JIT start-up (once per process, before the first compile): %.2f ms\n",
                  compiler_.startup_ms());
    os << line;
  }
  return os.str();
}

}  // namespace jit

std::unique_ptr<Backend> make_jit_backend(const JitOptions& options) {
  return std::make_unique<jit::JitBackend>(options);
}

std::string jit_profile_report(const Backend& backend) {
  const auto* j = dynamic_cast<const jit::JitBackend*>(&backend);
  return j ? j->profile_report() : std::string();
}

int jit_compile_count(const Backend& backend) {
  const auto* j = dynamic_cast<const jit::JitBackend*>(&backend);
  return j ? j->compiles() : 0;
}

}  // namespace brook
