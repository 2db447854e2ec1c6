// The Backend over OpenCL: stream storage is a cl::Buffer in C layout that
// stays on the device; host reads and writes copy only the view asked for.
// Plans become NDRanges over generated programs (cl_launch.hpp), compiled
// once per specialisation key.
#include "backends/opencl/opencl_backend.hpp"

#include "backends/opencl/cl_groups.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>

#include "backends/opencl/cl_interrupt.hpp"
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/cl_printf.hpp"
#include "backends/opencl/cl_runtime.hpp"
#include "backends/host_pool.hpp"

namespace brook {

using opencl::ClError;
using opencl::ClModule;
using opencl::ClRuntime;

namespace {

// Row-major strides of a stream's storage, in elements.
std::vector<int64_t> strides_of(const Extents& stream_extents) {
  std::vector<int64_t> s(stream_extents.size(), 1);
  for (size_t d = stream_extents.size(); d-- > 1;) s[d - 1] = s[d] * stream_extents[d];
  return s;
}

int64_t base_of(const StreamView& v) {
  std::vector<int64_t> s = strides_of(v.stream_extents);
  int64_t b = 0;
  for (size_t d = 0; d < v.offset.size() && d < s.size(); ++d) b += v.offset[d] * s[d];
  return b;
}

cl_long4 left4(const std::vector<int64_t>& v, int64_t fill) {
  cl_long4 r;
  for (size_t i = 0; i < 4; ++i) r.s[i] = i < v.size() ? v[i] : fill;
  return r;
}

// Right-aligned: the last entry of v lands in s3.
cl_long4 right4(const std::vector<int64_t>& v, int64_t fill) {
  cl_long4 r;
  for (size_t i = 0; i < 4; ++i) r.s[i] = fill;
  size_t n = std::min<size_t>(v.size(), 4);
  for (size_t i = 0; i < n; ++i) r.s[4 - n + i] = v[v.size() - n + i];
  return r;
}

std::string point_text(const std::vector<int64_t>& v) {
  if (v.size() == 1) return std::to_string(v[0]);
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

bool is_out_of_memory(cl_int e) {
  return e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY ||
         e == CL_INVALID_BUFFER_SIZE;
}

struct ArgSetter {
  cl::Kernel& k;
  cl_uint i = 0;
  template <class T>
  void operator()(const T& v) { k.setArg(i++, v); }
  void raw(size_t size, const void* p) { k.setArg(i++, size, p); }
};

class OpenCLBackend final : public Backend {
 public:
  explicit OpenCLBackend(const OpenCLOptions& o)
      : rt_(o.device, o.use_disk_cache), sink_(o.output), interrupt_(rt_.context()) {}

  std::string_view name() const override { return "opencl"; }

  // vout (§12): push records share the printf buffer; one launch, then the
  // records are ordered by invocation on the host (opencl::vout_records).
  std::vector<std::vector<std::byte>> run_map_vout(const MapPlan& plan) override {
    std::vector<uint32_t> words;
    vout_words_ = &words;
    vout_overflow_ = false;
    try {
      run_map(plan);
    } catch (...) {
      vout_words_ = nullptr;
      throw;
    }
    vout_words_ = nullptr;
    if (vout_overflow_) {
      throw PlanError{plan.loc, "kernel '" + plan.kernel->name + "' pushed more values than the OpenCL record buffer holds (" +
                                    std::to_string(opencl::kPrintfWords * 4) + " bytes)"};
    }
    std::vector<int> params, bounds;
    for (const PlanArg& a : plan.args) {
      if (a.vout_bound < 0) continue;
      params.push_back(a.param);
      bounds.push_back(a.vout_bound);
    }
    const ast::FuncDecl& k = plan.kernel->defined();
    const Compiled& c = compile(opencl::map_key(plan), k.name, plan.loc, "kernel '" + plan.kernel->name + "'",
                                [&](ClModule& m) { return opencl::map_source(plan, m); });
    std::string which;
    auto out = opencl::vout_records(*c.module, words, params, bounds, which);
    if (!which.empty()) {
      size_t i = std::stoul(which);
      throw PlanError{plan.loc, "kernel '" + plan.kernel->name + "' pushed more values to '" +
                                    plan.kernel->params[static_cast<size_t>(params[i])]->name +
                                    "' in one invocation than 'vout [" + std::to_string(bounds[i]) + "]' allows"};
    }
    out.resize(params.size());
    return out;
  }

  // Buffers come from a pool of size classes (backends/host_pool.hpp's), so a
  // stream declared in a loop reuses one buffer; it is zeroed on the device.
  StorageId allocate(uint64_t bytes) override {
    try {
      Storage s = take(bytes);
      cl_uchar zero = 0;
      rt_.queue().enqueueFillBuffer(s.buffer, zero, 0, std::max<uint64_t>(bytes, 1));
      StorageId id = next_++;
      buffers_.emplace(id, std::move(s));
      return id;
    } catch (const cl::Error& e) {
      throw PlanError{{}, failure("allocating " + std::to_string(bytes) + " bytes of stream storage", e)};
    }
  }

  void release(StorageId id) override {
    auto f = buffers_.find(id);
    if (f == buffers_.end()) return;
    give_back(std::move(f->second));
    buffers_.erase(f);
  }

  void write_view(const StreamView& view, std::span<const std::byte> host) override {
    copy_view(view, const_cast<std::byte*>(host.data()), host.size(), true);
  }
  void read_view(const StreamView& view, std::span<std::byte> host) override {
    copy_view(view, host.data(), host.size(), false);
  }

  void run_map(const MapPlan& plan) override;
  void run_reduce(const ReducePlan& plan, std::span<std::byte> result) override;
  void run_gather_scatter(const GatherScatterPlan& plan) override;

 private:
  struct Storage {
    cl::Buffer buffer;
    uint64_t bytes;
    uint64_t capacity = 0;  // the size class the buffer has
  };
  // A buffer of at least `bytes` from the pool (contents undefined). The
  // in-order queue keeps a reused buffer's new commands after its old ones.
  Storage take(uint64_t bytes) {
    const uint64_t c = HostPool::size_class(bytes);
    auto f = free_.find(c);
    if (f != free_.end() && !f->second.empty()) {
      Storage s{f->second.back(), bytes, c};
      f->second.pop_back();
      cached_ -= c;
      return s;
    }
    return Storage{cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, c), bytes, c};
  }
  void give_back(Storage s) {
    constexpr uint64_t kKeep = uint64_t{1} << 30;
    if (!s.capacity || cached_ + s.capacity > kKeep) return;  // the buffer is freed
    cached_ += s.capacity;
    free_[s.capacity].push_back(std::move(s.buffer));
  }
  // A plan's aliasing copies (plan.hpp's AliasCopy), device to device.
  std::vector<Storage> run_copies(const std::vector<AliasCopy>& copies, SourceLoc loc);
  // One launch's alias copies (scheduler.cpp's rule): made on construction,
  // handed back to the pool once the launch is enqueued (the queue is in order).
  struct LaunchScratch {
    OpenCLBackend& self;
    SourceLoc loc;
    std::vector<Storage> copies;
    LaunchScratch(OpenCLBackend& backend, const std::vector<AliasCopy>& plan_copies, SourceLoc at)
        : self(backend), loc(at), copies(backend.run_copies(plan_copies, at)) {}
    LaunchScratch(const LaunchScratch&) = delete;
    LaunchScratch& operator=(const LaunchScratch&) = delete;
    ~LaunchScratch() {
      for (Storage& x : copies) self.give_back(std::move(x));
    }
    // The buffer an argument reads: its copy when it has one, else its storage.
    cl::Buffer buffer_of(const PlanArg& a) {
      return a.copy >= 0 ? copies.at(static_cast<size_t>(a.copy)).buffer : self.storage(a.view.storage, loc).buffer;
    }
  };
  struct Compiled {
    std::unique_ptr<ClModule> module;
    cl::Program program;
    std::map<std::string, cl::Kernel> kernels;
    cl::Kernel& kernel(const char* name) {
      auto f = kernels.find(name);
      if (f == kernels.end()) f = kernels.emplace(name, cl::Kernel(program, name)).first;
      return f->second;
    }
  };

  std::string failure(const std::string& what, const cl::Error& e) {
    if (is_out_of_memory(e.err())) return "out of device memory while " + what;
    return "OpenCL failure while " + what + ": " + e.what() + " (error " + std::to_string(e.err()) + ")";
  }

  Storage& storage(StorageId id, SourceLoc loc) {
    auto f = buffers_.find(id);
    if (f == buffers_.end()) throw PlanError{loc, "stream storage #" + std::to_string(id) + " does not exist"};
    return f->second;
  }

  // Builds (once per key) the program `make` generates.
  // `name`: the kernel or reduction, for --profile; `what` names it in a
  // driver-crash notice.
  Compiled& compile(const std::string& key, const std::string& name, SourceLoc loc, const std::string& what,
                    const std::function<std::string(ClModule&)>& make) {
    auto f = compiled_.find(key);
    if (f != compiled_.end()) return f->second;
    auto t0 = Profile::Clock::now();
    struct Charge {
      Profile* p;
      const std::string& name;
      Profile::Clock::time_point t0;
      ~Charge() {
        if (!p) return;
        Profile::Kernel& k = p->kernels[name];
        ++k.compiles;
        k.compile_ms += ms_between(t0, Profile::Clock::now());
      }
    } charge{profile_, name, t0};
    Compiled c;
    c.module = std::make_unique<ClModule>();
    std::string source;
    try {
      source = make(*c.module);
    } catch (const opencl::Unsupported& u) {
      throw PlanError{u.loc.valid() ? u.loc : loc, u.message};
    }
    if (c.module->uses_double && !rt_.has_fp64()) {
      throw PlanError{loc, "this kernel uses double, but the OpenCL device has no cl_khr_fp64 support"};
    }
    try {
      c.program = rt_.program(source, what + " (called at line " + std::to_string(loc.line) + ")");
    } catch (const opencl::BuildError& e) {
      throw build_failure(*c.module, e, loc);
    } catch (const ClError& e) {
      throw PlanError{loc, e.what()};
    }
    return compiled_.emplace(key, std::move(c)).first->second;
  }

  // The driver's first error, at the .br statement it comes from when the log names one.
  static PlanError build_failure(const ClModule& m, const opencl::BuildError& e, SourceLoc loc) {
    static const std::regex at(R"(brook\.br:(\d+):\d+: error: ([^\n]*))");
    std::smatch found;
    if (std::regex_search(e.log, found, at)) {
      SourceLoc stmt = m.statement_at(static_cast<uint32_t>(std::stoul(found[1].str())));
      if (stmt.valid()) return PlanError{stmt, "the OpenCL compiler rejected this statement: " + found[2].str()};
    }
    std::string log = e.log.size() > 4000 ? e.log.substr(0, 4000) + "\n…" : e.log;
    return PlanError{loc, std::string(e.what()) + (log.empty() ? "" : "\n" + log)};
  }

  cl::Buffer& printf_buffer() {
    if (!pbuf_()) pbuf_ = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, sizeof(cl_uint) * opencl::kPrintfWords);
    return pbuf_;
  }

  void begin_printf(const Compiled& c) {
    if (!c.module->uses_printf) return;
    cl_uint zero = 0;
    rt_.queue().enqueueWriteBuffer(printf_buffer(), CL_TRUE, 0, sizeof zero, &zero);
  }

  void end_printf(const Compiled& c) {
    if (!c.module->uses_printf) return;
    cl_uint count = 0;
    rt_.queue().enqueueReadBuffer(pbuf_, CL_TRUE, 0, sizeof count, &count);
    const bool overflow = count > opencl::kPrintfWords - 1;
    count = std::min<cl_uint>(count, opencl::kPrintfWords - 1);
    std::vector<uint32_t> words(count + 1);
    if (count) rt_.queue().enqueueReadBuffer(pbuf_, CL_TRUE, 0, words.size() * sizeof(uint32_t), words.data());
    words[0] = count;
    if (vout_words_) {  // run_map_vout reads the push records
      *vout_words_ = words;
      vout_overflow_ = overflow;
    }
    std::string text;
    try {
      text = opencl::format_printf_records(*c.module, words);
    } catch (const opencl::Unsupported& u) {
      throw PlanError{u.loc, u.message};
    }
    if (text.empty()) return;
    if (sink_) {
      sink_(text);
    } else {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
  }

  // A plain buffer with `bytes` copied from the host.
  cl::Buffer host_buffer(const void* data, size_t bytes) {
    cl::Buffer b(rt_.context(), CL_MEM_READ_ONLY, std::max<size_t>(bytes, 1));
    if (bytes) rt_.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
    return b;
  }

  void copy_view(const StreamView& view, std::byte* host, size_t host_size, bool to_device);

  // Waits for `e`, the queue's latest command (so everything before it too),
  // watching for Ctrl-C (cl_interrupt.hpp).
  void wait_for(cl::Event& e) {
    pending_ = cl::Event();
    interrupt_.wait(rt_.queue(), e);
  }
  // Waits for a launch still running, before the host blocks on the queue.
  void settle() {
    if (!pending_()) return;
    cl::Event e = pending_;
    wait_for(e);
  }

  ClRuntime rt_;
  OutputSink sink_;
  opencl::ClInterrupt interrupt_;
  cl::Event pending_;  // the latest launch, when nobody has waited for it
  std::map<StorageId, Storage> buffers_;
  std::map<uint64_t, std::vector<cl::Buffer>> free_;  // the pool, by size class
  uint64_t cached_ = 0;
  StorageId next_ = 1;
  std::map<std::string, Compiled> compiled_;
  cl::Buffer pbuf_;
  std::vector<uint32_t>* vout_words_ = nullptr;  // set during run_map_vout
  bool vout_overflow_ = false;

  friend struct GatherArgs;
};

void OpenCLBackend::copy_view(const StreamView& view, std::byte* host, size_t host_size, bool to_device) {
  Storage& s = storage(view.storage, {});
  try {
    settle();
  } catch (const cl::Error& e) {
    throw PlanError{{}, failure("running a kernel", e)};
  }
  const uint64_t esize = view.elem ? view.elem->size : 0;
  const uint64_t total = static_cast<uint64_t>(element_count(view.extents)) * esize;
  if (host_size < total) throw PlanError{{}, "host buffer smaller than the stream view"};
  if (total == 0) return;
  try {
    auto& q = rt_.queue();
    if (view.is_whole()) {
      if (to_device) q.enqueueWriteBuffer(s.buffer, CL_TRUE, 0, total, host);
      else q.enqueueReadBuffer(s.buffer, CL_TRUE, 0, total, host);
      return;
    }
    // One contiguous run per row of the view.
    const size_t V = view.extents.size();
    const int64_t row = view.extents[V - 1];
    const int64_t rows = element_count(view.extents) / row;
    std::vector<int64_t> pos(V, 0);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t rest = r;
      for (size_t d = V - 1; d-- > 0;) {
        pos[d] = rest % view.extents[d];
        rest /= view.extents[d];
      }
      pos[V - 1] = 0;
      uint64_t dev = static_cast<uint64_t>(view.storage_index(pos.data())) * esize;
      std::byte* h = host + static_cast<uint64_t>(r * row) * esize;
      if (to_device) q.enqueueWriteBuffer(s.buffer, CL_FALSE, dev, static_cast<uint64_t>(row) * esize, h);
      else q.enqueueReadBuffer(s.buffer, CL_FALSE, dev, static_cast<uint64_t>(row) * esize, h);
    }
    q.finish();
  } catch (const cl::Error& e) {
    throw PlanError{{}, failure(to_device ? "writing a stream" : "reading a stream", e)};
  }
}

std::vector<OpenCLBackend::Storage> OpenCLBackend::run_copies(const std::vector<AliasCopy>& copies, SourceLoc loc) {
  std::vector<Storage> scratch;
  if (copies.empty()) return scratch;
  if (profile_) settle();  // earlier launches are not this row's time
  ProfileTimer timer(profile_ ? &profile_->alias_ms : nullptr);
  for (const AliasCopy& c : copies) {
    if (profile_) {
      ++profile_->alias_copies;
      profile_->alias_bytes += Scheduler::host_bytes(c.from);
    }
    const size_t es = c.from.elem->size;
    const uint64_t bytes = static_cast<uint64_t>(element_count(c.from.extents)) * es;
    scratch.push_back(take(bytes));
    cl::Buffer& src = storage(c.from.storage, loc).buffer;
    cl::Buffer& dst = scratch.back().buffer;
    // Up to three dimensions per rectangle copy; a 4th loops.
    const size_t n = c.from.extents.size();
    Extents E = c.from.stream_extents, O = c.from.offset, X = c.from.extents;
    while (E.size() < 3) {
      E.insert(E.begin(), 1);
      O.insert(O.begin(), 0);
      X.insert(X.begin(), 1);
    }
    const size_t k = E.size() - 3;  // dims folded into the loop
    int64_t outer = 1;
    for (size_t d = 0; d < k; ++d) outer *= X[d];
    const size_t row_pitch = static_cast<size_t>(E[k + 2]) * es, slice_pitch = row_pitch * static_cast<size_t>(E[k + 1]);
    const size_t drow = static_cast<size_t>(X[k + 2]) * es, dslice = drow * static_cast<size_t>(X[k + 1]);
    std::vector<int64_t> pos(k, 0);
    for (int64_t o = 0; o < outer; ++o) {
      int64_t rest = o, z = 0;
      for (size_t d = k; d-- > 0;) {
        pos[d] = rest % X[d];
        rest /= X[d];
      }
      for (size_t d = 0; d < k; ++d) z = z * E[d] + O[d] + pos[d];
      z = z * E[k] + O[k];
      std::array<size_t, 3> so{static_cast<size_t>(O[k + 2]) * es, static_cast<size_t>(O[k + 1]), static_cast<size_t>(z)};
      std::array<size_t, 3> dz{0, 0, static_cast<size_t>(o * X[k])};
      std::array<size_t, 3> region{drow, static_cast<size_t>(X[k + 1]), static_cast<size_t>(X[k])};
      rt_.queue().enqueueCopyBufferRect(src, dst, so, dz, region, row_pitch, slice_pitch, drow, dslice);
    }
    (void)n;
  }
  if (profile_) rt_.queue().finish();
  return scratch;
}

// Extents and strides of a gather argument's logical dimensions (cl_variant.hpp's gather_shape).
void gather_dims(const Extents& view_ext, const Extents& stream_ext, const Extents& offset, int rank,
                 SourceLoc loc, int64_t& base, cl_long4& ext, cl_long4& str) {
  std::optional<opencl::GatherShape> g = opencl::gather_shape(view_ext, stream_ext, offset, rank);
  if (!g) {
    throw PlanError{loc, "a " + std::to_string(std::max(rank, 1)) + "-D gather of this " +
                             std::to_string(canonical_extents(view_ext).size()) +
                             "-D view is not supported by the OpenCL backend"};
  }
  base = g->base;
  ext = left4(g->ext, 1);
  str = left4(g->str, 0);
}

// Sets the kernel arguments of a constant or gather (cl_launch.hpp's layout);
// temporaries it creates are kept in `keep` until the launch is done.
void set_extra(ArgSetter& set, const PlanArg& a, const ast::ParamDecl& p, SourceLoc loc,
               const std::function<cl::Buffer(const PlanArg&)>& buffer_of,
               const std::function<cl::Buffer(const void*, size_t)>& upload, std::vector<cl::Buffer>& keep) {
  if (a.role == ArgRole::Gather) {
    int64_t base;
    cl_long4 ext, str;
    if (a.gather_from_host) {
      keep.push_back(upload(a.host.bytes.data(), a.host.bytes.size()));
      Extents zero(a.host.extents.size(), 0);
      gather_dims(a.host.extents, a.host.extents, zero, p.gather_rank, loc, base, ext, str);
      set(keep.back());
    } else {
      gather_dims(a.view.extents, a.view.stream_extents, a.view.offset, p.gather_rank, loc, base, ext, str);
      set(buffer_of(a));
    }
    set(static_cast<cl_long>(base));
    set(ext);
    set(str);
    return;
  }
  if (p.type->is_scalar()) {
    if (a.value.size() < p.type->size) throw PlanError{loc, "constant '" + p.name + "' has no value"};
    set.raw(p.type->size, a.value.data());
  } else {
    keep.push_back(upload(a.value.data(), a.value.size()));
    set(keep.back());
  }
}

void OpenCLBackend::run_map(const MapPlan& plan) {
  const ast::FuncDecl& k = plan.kernel->defined();
  if (analysis::is_group_kernel(k))
    if (std::string e = analysis::group_domain_error(k, plan.domain); !e.empty())
      throw PlanError{plan.loc, e};
  Compiled& c = compile(opencl::map_key(plan), k.name, plan.loc, "kernel '" + plan.kernel->name + "'",
                        [&](ClModule& m) { return opencl::map_source(plan, m); });
  try {
    cl::Kernel& kern = c.kernel("brook_map");
    ArgSetter set{kern};
    std::vector<cl::Buffer> keep;
    // Arguments the scheduler found reading elements the call writes read a
    // copy made now (scheduler.cpp's aliasing rule); the scratch goes back
    // to the pool after the launch is enqueued (the queue is in order).
    LaunchScratch scratch(*this, plan.copies, plan.loc);
    auto input_buffer = [&](const PlanArg& a) { return scratch.buffer_of(a); };
    set(printf_buffer());
    set(interrupt_.stop_buffer());
    std::vector<int64_t> dom = plan.domain;
    for (size_t i = 0; i < 4; ++i) set(static_cast<cl_long>(i < dom.size() ? dom[i] : 1));
    for (const PlanArg& a : plan.args) {
      const ast::ParamDecl& p = *k.params.at(static_cast<size_t>(a.param));
      if (a.role == ArgRole::Constant || a.role == ArgRole::Gather) {
        set_extra(set, a, p, plan.loc, input_buffer,
                  [&](const void* d, size_t n) { return host_buffer(d, n); }, keep);
        continue;
      }
      bool out = a.role == ArgRole::Output;
      set(out ? storage(a.view.storage, plan.loc).buffer : input_buffer(a));
      set(static_cast<cl_long>(base_of(a.view)));
      set(left4(strides_of(a.view.stream_extents), 0));
      if (!out) {
        std::vector<int64_t> num, den;
        for (const DimMap& d : a.map) {
          num.push_back(d.num);
          den.push_back(d.den ? d.den : 1);
        }
        set(left4(num, 1));
        set(left4(den, 1));
      }
    }
    // The divergence word of a voting group kernel (cl_groups.hpp).
    cl::Buffer diverged;
    if (c.module->group_votes) {
      cl_int zero = 0;
      diverged = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, sizeof zero);
      rt_.queue().enqueueWriteBuffer(diverged, CL_TRUE, 0, sizeof zero, &zero);
      set(diverged);
    }
    begin_printf(c);
    cl::NDRange range, local = cl::NullRange;
    const size_t R = dom.size();
    const bool group = analysis::is_group_kernel(k);
    if (R == 1 || (opencl::flat_ok(plan) && !group))
      range = cl::NDRange(static_cast<size_t>(element_count(dom)));
    else if (R == 2) range = cl::NDRange(dom[1], dom[0]);
    else if (R == 3) range = cl::NDRange(dom[2], dom[1], dom[0]);
    else range = cl::NDRange(dom[3], dom[2], dom[0] * dom[1]);
    if (group) {
      // Real work-groups of GroupSize (backends/opencl/cl_groups.hpp).
      std::vector<size_t> l = opencl::group_local_size(k, R);
      local = l.size() == 1   ? cl::NDRange(l[0])
              : l.size() == 2 ? cl::NDRange(l[0], l[1])
                              : cl::NDRange(l[0], l[1], l[2]);
    }
    if (element_count(dom) > 0) {
      cl::Event done;
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, range, local, nullptr, &done);
      // A kernel that may loop forever is waited for here, so Ctrl-C ends
      // this call; any other runs on while the host goes on (the next
      // blocking step settles it), as the bench's chains of launches want.
      // --profile waits too, so that the launch's time is its own row's.
      if (c.module->polls || c.module->uses_printf || c.module->group_votes || !keep.empty() ||
          profile_)
        wait_for(done);
      else pending_ = done;
    }
    end_printf(c);
    if (c.module->group_votes) {
      cl_int word = 0;
      rt_.queue().enqueueReadBuffer(diverged, CL_TRUE, 0, sizeof word, &word);
      if (word) throw PlanError{plan.loc, analysis::divergent_sync_error(k)};
    }
  } catch (const cl::Error& e) {
    throw PlanError{plan.loc, failure("running kernel '" + k.name + "'", e)};
  }
}

void OpenCLBackend::run_reduce(const ReducePlan& plan, std::span<std::byte> result) {
  const ast::FuncDecl& f = plan.reducer->defined();
  Compiled& c = compile(opencl::reduce_key(plan), f.name, plan.loc, "reduce function '" + plan.reducer->name + "'",
                        [&](ClModule& m) { return opencl::reduce_source(plan, m); });
  const Type* t = f.params.at(static_cast<size_t>(plan.input_param))->type;
  const uint64_t S = t->size;
  try {
    std::vector<cl::Buffer> keep;
    LaunchScratch scratch(*this, plan.copies, plan.loc);
    auto buffer_of = [&](const PlanArg& a) { return scratch.buffer_of(a); };
    auto extras = [&](ArgSetter& set) {
      for (const PlanArg& a : plan.extra) {
        set_extra(set, a, *f.params.at(static_cast<size_t>(a.param)), plan.loc, buffer_of,
                  [&](const void* d, size_t n) { return host_buffer(d, n); }, keep);
      }
    };
    const StreamView& in = plan.input;
    const size_t V = in.extents.size();
    std::vector<int64_t> block = plan.to_stream ? plan.block : in.extents;
    block.resize(V, 1);
    std::vector<int64_t> oext(V);
    for (size_t d = 0; d < V; ++d) oext[d] = block[d] ? in.extents[d] / block[d] : 1;
    const int64_t B = element_count(block), nout = element_count(oext);
    if (B <= 0 || nout <= 0) return;
    auto group = [](int64_t n) { return n <= 256 ? n : std::max<int64_t>(64, (n + 1023) / 1024); };
    int64_t G = group(B), chunks = (B + G - 1) / G;
    // Partial results in pooled buffers: a reduction per launch (sgm_path's
    // per-column minimum) reuses them instead of creating buffers each time.
    scratch.copies.push_back(take(static_cast<uint64_t>(nout * chunks) * S));
    cl::Buffer cur = scratch.copies.back().buffer;
    cl::Event last;  // the latest pass: the host waits for it, watching for Ctrl-C
    begin_printf(c);
    {
      cl::Kernel& kern = c.kernel("brook_reduce_first");
      ArgSetter set{kern};
      set(printf_buffer());
      set(interrupt_.stop_buffer());
      set(plan.input_copy >= 0 ? scratch.copies.at(static_cast<size_t>(plan.input_copy)).buffer
                               : storage(in.storage, plan.loc).buffer);
      set(static_cast<cl_long>(base_of(in)));
      set(right4(in.extents, 1));
      set(right4(strides_of(in.stream_extents), 0));
      set(right4(oext, 1));
      set(right4(block, 1));
      set(static_cast<cl_long>(G));
      set(static_cast<cl_long>(chunks));
      set(static_cast<cl_long>(B));
      set(cur);
      extras(set);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(chunks, nout), cl::NullRange, nullptr, &last);
    }
    // Each pass folds consecutive partials in order: operands never swap.
    while (chunks > 1) {
      int64_t n = chunks;
      G = group(n);
      chunks = (n + G - 1) / G;
      scratch.copies.push_back(take(static_cast<uint64_t>(nout * chunks) * S));
      cl::Buffer next = scratch.copies.back().buffer;
      cl::Kernel& kern = c.kernel("brook_reduce_next");
      ArgSetter set{kern};
      set(printf_buffer());
      set(interrupt_.stop_buffer());
      set(cur);
      set(static_cast<cl_long>(n));
      set(static_cast<cl_long>(G));
      set(static_cast<cl_long>(chunks));
      set(next);
      extras(set);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(chunks, nout), cl::NullRange, nullptr, &last);
      cur = next;
    }
    if (plan.to_stream) {
      const StreamView& out = plan.output;
      cl::Kernel& kern = c.kernel("brook_reduce_store");
      ArgSetter set{kern};
      set(cur);
      set(storage(out.storage, plan.loc).buffer);
      set(static_cast<cl_long>(base_of(out)));
      set(right4(out.extents, 1));
      set(right4(strides_of(out.stream_extents), 0));
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(nout), cl::NullRange, nullptr, &last);
      // As a map launch: the host goes on unless Ctrl-C, printf or --profile
      // need the wait now (sgm_path's per-column minimum feeds the next launch
      // on the same in-order queue).
      if (c.module->polls || c.module->uses_printf || !keep.empty() || profile_)
        wait_for(last);
      else
        pending_ = last;
    } else {
      if (result.size() < S) throw PlanError{plan.loc, "the reduction's host value is too small"};
      // One wait covers the passes and the read (an in-order queue).
      rt_.queue().enqueueReadBuffer(cur, CL_FALSE, 0, S, result.data(), nullptr, &last);
      wait_for(last);
    }
    end_printf(c);
  } catch (const cl::Error& e) {
    throw PlanError{plan.loc, failure("running reduction '" + f.name + "'", e)};
  }
}

void OpenCLBackend::run_gather_scatter(const GatherScatterPlan& plan) {
  Compiled& c = compile(
      opencl::gs_key(plan), plan.op ? plan.op->name : std::string(plan.is_scatter ? "streamScatterOp" : "streamGatherOp"),
      plan.loc, plan.op ? "reduce function '" + plan.op->name + "'" : std::string("a gather/scatter operator"),
      [&](ClModule& m) { return opencl::gs_source(plan, m); });
  try {
    cl::Kernel& kern = c.kernel("brook_gs");
    ArgSetter set{kern};
    set(printf_buffer());
    set(interrupt_.stop_buffer());
    for (const StreamView* v : {&plan.values, &plan.index}) {
      set(storage(v->storage, plan.loc).buffer);
      set(static_cast<cl_long>(base_of(*v)));
      set(right4(v->extents, 1));
      set(right4(strides_of(v->stream_extents), 0));
    }
    const StreamView& arr = plan.array;
    Extents acanon = canonical_extents(arr.extents);
    std::vector<int64_t> astr = strides_of(arr.stream_extents);
    astr.erase(astr.begin(), astr.begin() + static_cast<std::ptrdiff_t>(astr.size() - acanon.size()));
    set(storage(arr.storage, plan.loc).buffer);
    set(static_cast<cl_long>(base_of(arr)));
    set(right4(acanon, 1));
    set(right4(astr, 0));
    const int64_t n = element_count(plan.index.extents);
    set(static_cast<cl_long>(n));
    cl_long minus_one = -1;
    cl::Buffer err = host_buffer(&minus_one, sizeof minus_one);
    set(err);
    begin_printf(c);
    cl::Event done;
    rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr, &done);
    wait_for(done);
    cl_long bad = -1;
    rt_.queue().enqueueReadBuffer(err, CL_TRUE, 0, sizeof bad, &bad);
    end_printf(c);
    if (bad < 0) return;
    // Name the offending element the way the user sees it: (column, row).
    const Type* it = plan.index.elem;
    std::vector<std::byte> idx(static_cast<size_t>(n) * it->size);
    read_view(plan.index, idx);
    const std::byte* e = idx.data() + static_cast<size_t>(bad) * it->size;
    const Type* s = it->scalar_of();
    size_t comps = std::min<size_t>(it->width(), acanon.size());
    std::vector<int64_t> shown;
    for (size_t j = 0; j < comps; ++j) {
      const std::byte* p = e + j * s->size;
      int64_t v = 0;
      if (s->kind == TypeKind::Float) { float f; std::memcpy(&f, p, 4); v = static_cast<int>(f + 0.5f); }
      else if (s->kind == TypeKind::Double) { double d; std::memcpy(&d, p, 8); v = static_cast<int>(d + 0.5); }
      else if (s->size == 8) { std::memcpy(&v, p, 8); }
      // Not `signed ? i : (uint32_t)i`: that ?: has type uint32_t, so -1 showed as 4294967295.
      else if (s->size == 4) { int32_t i; std::memcpy(&i, p, 4); v = s->is_signed() ? int64_t{i} : int64_t{static_cast<uint32_t>(i)}; }
      else if (s->size == 2) { int16_t i; std::memcpy(&i, p, 2); v = s->is_signed() ? i : static_cast<uint16_t>(i); }
      else { int8_t i; std::memcpy(&i, p, 1); v = s->is_signed() ? i : static_cast<uint8_t>(i); }
      shown.push_back(v);
    }
    Extents icanon = canonical_extents(plan.index.extents);
    std::vector<int64_t> elem;
    int64_t rest = bad;
    for (size_t d = icanon.size(); d-- > 0;) {
      elem.push_back(rest % icanon[d]);
      rest /= icanon[d];
    }
    throw PlanError{plan.loc, "index " + point_text(shown) + " of element " + point_text(elem) +
                                  " is outside the array " + shape_text(acanon)};
  } catch (const cl::Error& e) {
    throw PlanError{plan.loc, failure(plan.is_scatter ? "running streamScatterOp" : "running streamGatherOp", e)};
  }
}

}  // namespace

std::unique_ptr<Backend> make_opencl_backend(const OpenCLOptions& options) {
  try {
    return std::make_unique<OpenCLBackend>(options);
  } catch (const ClError& e) {
    throw OpenCLSetupError(e.what());
  } catch (const cl::Error& e) {
    throw OpenCLSetupError(std::string("cannot set up OpenCL: ") + e.what() + " (error " + std::to_string(e.err()) + ")");
  }
}

std::string list_opencl_devices() {
  std::vector<cl::Device> devices = opencl::all_devices();
  if (devices.empty()) return "no OpenCL platform or device found (install an OpenCL driver, e.g. pocl-opencl-icd)\n";
  std::string s;
  for (size_t i = 0; i < devices.size(); ++i) s += std::to_string(i) + ": " + opencl::describe_device(devices[i]) + "\n";
  return s;
}

}  // namespace brook
