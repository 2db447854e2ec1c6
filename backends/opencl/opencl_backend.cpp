// The Backend over OpenCL: stream storage is a cl::Buffer in C layout that
// stays on the device; host reads and writes copy only the view asked for.
// Plans become NDRanges over generated programs (cl_launch.hpp), compiled
// once per specialisation key.
#include "backends/opencl/opencl_backend.hpp"

#include "backends/opencl/cl_args.hpp"
#include "backends/opencl/cl_groups.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <unordered_map>

#include "backends/opencl/cl_interrupt.hpp"
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/cl_printf.hpp"
#include "backends/opencl/cl_runtime.hpp"
#include "backends/gather_index.hpp"
#include "backends/host_pool.hpp"
#include "backends/view_layout.hpp"

namespace brook {

using opencl::ClError;
using opencl::ClModule;
using opencl::ClRuntime;

namespace {

// Pages the system hands out zeroed (anonymous mmap), lent to a buffer of a
// device that computes in host memory (CL_MEM_USE_HOST_PTR: PoCL uses them in
// place). They go back when the driver destroys the buffer.
struct ZeroPages {
  std::byte* data;
  uint64_t bytes;
};
void CL_CALLBACK unmap_zero_pages(cl_mem, void* user) {
  std::unique_ptr<ZeroPages> pages(static_cast<ZeroPages*>(user));
  unmap_fresh_pages(pages->data, pages->bytes);
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

class OpenCLBackend final : public Backend {
 public:
  explicit OpenCLBackend(const OpenCLOptions& o)
      : rt_(o.device, o.cache_dir, o.dump_dir), sink_(o.output), interrupt_(rt_.context()),
        host_memory_((rt_.device().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0) {}
  // Launches may still be queued (a program's last kernel whose output is
  // never read): they finish before their programs, kernels and buffers are
  // released. PoCL crashes when a program goes while its kernel is compiling.
  ~OpenCLBackend() override {
    try {
      rt_.queue().finish();
    } catch (const std::exception&) {
      // Nothing is left to report to; the releases below still run.
    }
  }

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
    const Compiled& c = *last_map_;  // the variant run_map launched
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
  // A large stream new to the pool, on a CPU device, is fresh zeroed pages
  // instead (zero_pages): §4's zeroing then costs no pass over the memory,
  // only the page faults a first write takes anyway.
  StorageId allocate(uint64_t bytes) override {
    try {
      std::optional<Storage> fresh = zero_pages(bytes);
      Storage s = fresh ? std::move(*fresh) : take(bytes);
      cl_uchar zero = 0;
      if (!fresh) rt_.queue().enqueueFillBuffer(s.buffer, zero, 0, std::max<uint64_t>(bytes, 1));
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
  // A new buffer of at least `bytes` whose contents are zero, when the device
  // works in host memory and the pool has no buffer of its size class.
  std::optional<Storage> zero_pages(uint64_t bytes) {
    constexpr uint64_t kMinimum = uint64_t{256} << 10;  // below, the fill is cheap
    if (!host_memory_ || bytes < kMinimum) return std::nullopt;
    const uint64_t c = HostPool::size_class(bytes);
    if (auto f = free_.find(c); f != free_.end() && !f->second.empty()) return std::nullopt;
    std::byte* p = map_fresh_pages(c, bytes);
    if (!p) return std::nullopt;
    auto pages = std::make_unique<ZeroPages>(ZeroPages{p, c});
    try {
      cl::Buffer b(rt_.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, c, p);
      if (clSetMemObjectDestructorCallback(b(), unmap_zero_pages, pages.get()) != CL_SUCCESS) {
        b = cl::Buffer();  // released before its pages are
        unmap_fresh_pages(p, c);
        return std::nullopt;
      }
      pages.release();  // the callback owns them now
      return Storage{std::move(b), bytes, c};
    } catch (const cl::Error&) {
      unmap_fresh_pages(p, c);
      return std::nullopt;
    }
  }
  void give_back(Storage s) {
    constexpr uint64_t kKeep = uint64_t{1} << 30;
    if (!s.capacity || cached_ + s.capacity > kKeep) {  // the buffer is freed
      ++buffers_freed_;
      return;
    }
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
  };
  // Sets `kern`'s arguments from their one description (cl_args.hpp): a
  // stream's buffer is its aliasing copy in `scratch` when it has one, the
  // launch's own buffers are `slots`, and uploaded bytes stay alive in `keep`
  // until the launch is done.
  // Returns the number of arguments set.
  // `baked`: the program has the shape arguments as constants (ClModule::shape_baked).
  cl_uint set_args(cl::Kernel& kern, const opencl::ClArgs& args, LaunchScratch& scratch,
                   std::initializer_list<cl::Buffer> slots, std::vector<cl::Buffer>& keep,
                   bool baked = false) {
    using Kind = opencl::ClArg::Kind;
    // A remembered buffer handle names the same buffer only while no buffer
    // has been freed since (a driver may hand the handle out again).
    if (cache_epoch_ != buffers_freed_) {
      arg_cache_.clear();
      cache_epoch_ = buffers_freed_;
    }
    std::vector<ArgBytes>& last = arg_cache_[kern()];
    // Sets argument i unless the kernel already holds these bytes from an
    // earlier launch: a loop's launches mostly pass the same buffers and
    // numbers again, and a driver's clSetKernelArg is not free (NVIDIA's
    // more than PoCL's; winograd sets 20 per launch). Buffers made for one
    // launch (uploaded bytes, a launch's own words) are set every time.
    auto put = [&](cl_uint i, size_t size, const void* value, bool remember = true) {
      if (i >= last.size()) last.resize(i + 1);
      ArgBytes& held = last[i];
      if (remember && size <= held.bytes.size()) {
        if (held.size == size && std::memcmp(held.bytes.data(), value, size) == 0) return;
        kern.setArg(i, size, value);
        held.size = static_cast<uint8_t>(size);
        std::memcpy(held.bytes.data(), value, size);
      } else {
        kern.setArg(i, size, value);
        held.size = 0;  // too large to remember: set every time
      }
    };
    auto put_buffer = [&](cl_uint i, const cl::Buffer& b, bool remember = true) {
      const cl_mem m = b();
      put(i, sizeof m, &m, remember);
    };
    cl_uint i = 0;
    for (const opencl::ClArg& a : args) {
      if (!a.error.empty()) throw PlanError{scratch.loc, a.error};
      if (baked && a.shape) continue;
      switch (a.kind) {
        case Kind::PrintBuffer: put_buffer(i++, printf_buffer()); break;
        case Kind::StopFlag: put_buffer(i++, interrupt_.stop_buffer()); break;
        case Kind::Stream:
          put_buffer(i++, a.copy >= 0 ? scratch.copies.at(static_cast<size_t>(a.copy)).buffer
                                      : storage(a.view->storage, scratch.loc).buffer);
          break;
        case Kind::HostBytes:
          keep.push_back(host_buffer(a.bytes->data(), a.bytes->size()));
          put_buffer(i++, keep.back(), false);
          break;
        case Kind::Scratch:
        case Kind::ErrorWord: put_buffer(i++, *(slots.begin() + a.slot), false); break;
        case Kind::Long: {
          const cl_long v = a.v[0];
          put(i++, sizeof v, &v);
          break;
        }
        case Kind::Long4: {
          cl_long4 v;
          for (size_t c = 0; c < 4; ++c) v.s[c] = a.v[c];
          put(i++, sizeof v, &v);
          break;
        }
        case Kind::Value: put(i++, a.type->size, a.bytes->data()); break;
      }
    }
    return i;
  }
  // The bytes a kernel argument was last set to (size 0: not known).
  struct ArgBytes {
    uint8_t size = 0;
    std::array<std::byte, 32> bytes{};
  };
  struct Compiled {
    std::unique_ptr<ClModule> module;
    cl::Program program;
    std::map<std::string, cl::Kernel> kernels;
    // Global sizes launched so far: PoCL compiles a kernel's work-group
    // function at its first launch of a size, inside this process.
    std::set<std::array<size_t, 3>> launched;
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

  // The variant of brook_map for this launch. A shape (cl_launch.hpp's
  // map_shape) launched kShapeLaunches times gets its own variant, with the
  // extents and strides compiled in: a program that launches a kernel over
  // the same streams again and again (winograd's 6,000 launches, sgm_path's
  // 1,280 column views) pays one more compile for kernels as fast as
  // hand-written ones, and one launched once or over ever new shapes pays
  // nothing. At most kShapeVariants shapes per generic variant, so a program
  // that walks through many shapes compiles a bounded number.
  static constexpr int kShapeLaunches = 4;
  static constexpr int kShapeVariants = 4;
  Compiled& map_program(const MapPlan& plan, const opencl::ClArgs& args) {
    const ast::FuncDecl& k = plan.kernel->defined();
    const std::string what = "kernel '" + plan.kernel->name + "'";
    // A launch of the same geometry as one before (a loop's) takes the
    // variant that one took, without map_key's analyses and strings: those
    // were half of brook's own cost per launch on PoCL.
    const bool group = analysis::is_group_kernel(k);
    uint64_t hash = 0;
    if (!group) {
      plan_signature(plan, signature_);
      hash = signature_hash(signature_);
      if (auto m = shaped_memo_.find(hash); m != shaped_memo_.end() && m->second.signature == signature_)
        return *m->second.compiled;
    }
    std::string key = opencl::map_key(plan, facts_);
    if (!group) {
      std::string shaped = key + " shape" + opencl::map_shape(args);
      if (auto f = compiled_.find(shaped); f != compiled_.end()) {
        // Only the final answer is kept: before its variant exists a shape's
        // launches are still being counted.
        if (shaped_memo_.size() >= kMemoEntries) shaped_memo_.clear();
        shaped_memo_[hash] = Memo{signature_, &f->second};
        return f->second;
      }
      ShapeCounts& sc = shape_counts_[key];
      auto n = sc.launches.find(shaped);
      if (n == sc.launches.end() && sc.launches.size() < 64)
        n = sc.launches.emplace(shaped, 0).first;
      if (n != sc.launches.end() && ++n->second >= kShapeLaunches && sc.variants < kShapeVariants) {
        ++sc.variants;
        return compile(shaped, k.name, plan.loc, what, [&](ClModule& m) {
          return opencl::map_source_for_shape(plan, args, m, facts_);
        });
      }
    }
    return compile(key, k.name, plan.loc, what,
                   [&](ClModule& m) { return opencl::map_source(plan, m, facts_); });
  }
  struct ShapeCounts {
    std::map<std::string, int> launches;  // by shaped key
    int variants = 0;
  };
  struct Memo {
    std::vector<int64_t> signature;  // plan_signature of the launch
    Compiled* compiled = nullptr;    // its shape variant, in compiled_
  };
  static constexpr size_t kMemoEntries = 4096;  // then it starts again
  std::unordered_map<uint64_t, Memo> shaped_memo_;  // by signature_hash
  // Per kernel object (they live as long as compiled_), what set_args last set.
  std::unordered_map<cl_kernel, std::vector<ArgBytes>> arg_cache_;
  uint64_t buffers_freed_ = 0;  // storage and pool buffers freed so far
  uint64_t cache_epoch_ = 0;    // buffers_freed_ when arg_cache_ was started
  std::vector<int64_t> signature_;                  // this launch's, reused

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
    unsettled_ = false;
    interrupt_.wait(rt_.queue(), e);
  }
  // Waits for launches still running, before the host blocks on the queue:
  // a marker is the queue's latest command (the queue is in order).
  void settle() {
    if (!unsettled_) return;
    cl::Event marker;
    rt_.queue().enqueueMarkerWithWaitList(nullptr, &marker);
    wait_for(marker);
  }

  ClRuntime rt_;
  OutputSink sink_;
  opencl::ClInterrupt interrupt_;
  bool unsettled_ = false;  // launches were queued that nobody has waited for
  std::map<StorageId, Storage> buffers_;
  std::map<uint64_t, std::vector<cl::Buffer>> free_;  // the pool, by size class
  bool host_memory_ = false;  // a CPU device: buffers can be host pages used in place
  uint64_t cached_ = 0;
  StorageId next_ = 1;
  std::map<std::string, Compiled> compiled_;
  std::map<std::string, ShapeCounts> shape_counts_;  // by generic map key
  opencl::KernelFacts facts_;
  Compiled* last_map_ = nullptr;  // run_map's variant, for run_map_vout
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

void OpenCLBackend::run_map(const MapPlan& plan) {
  const ast::FuncDecl& k = plan.kernel->defined();
  if (analysis::is_group_kernel(k))
    if (std::string e = analysis::group_domain_error(k, plan.domain); !e.empty())
      throw PlanError{plan.loc, e};
  const opencl::ClArgs args = opencl::map_args(plan);
  Compiled& c = map_program(plan, args);
  last_map_ = &c;
  try {
    cl::Kernel& kern = c.kernel("brook_map");
    std::vector<cl::Buffer> keep;
    // Arguments the scheduler found reading elements the call writes read a
    // copy made now (scheduler.cpp's aliasing rule); the scratch goes back
    // to the pool after the launch is enqueued (the queue is in order).
    LaunchScratch scratch(*this, plan.copies, plan.loc);
    const cl_uint next = set_args(kern, args, scratch, {}, keep, c.module->shape_baked);
    const std::vector<int64_t>& dom = plan.domain;
    // The divergence word of a voting group kernel (cl_groups.hpp), after
    // the parameters cl_args.hpp lists (map_source appends it the same way).
    cl::Buffer diverged;
    if (c.module->group_votes) {
      cl_int zero = 0;
      diverged = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, sizeof zero);
      rt_.queue().enqueueWriteBuffer(diverged, CL_TRUE, 0, sizeof zero, &zero);
      kern.setArg(next, diverged);
    }
    begin_printf(c);
    cl::NDRange range, local = cl::NullRange;
    const size_t R = dom.size();
    const bool group = analysis::is_group_kernel(k);
    // The first dimension is padded to whole work-groups unless the kernel
    // has real ones (the generated code returns past the domain).
    auto first = [&](int64_t n) {
      return group ? static_cast<size_t>(n) : opencl::padded_extent(n);
    };
    if (R == 1 || (opencl::flat_ok(plan, facts_) && !group))
      range = cl::NDRange(first(element_count(dom)));
    else if (R == 2) range = cl::NDRange(first(dom[1]), dom[0]);
    else if (R == 3) range = cl::NDRange(first(dom[2]), dom[1], dom[0]);
    else range = cl::NDRange(first(dom[3]), dom[2], dom[0] * dom[1]);
    if (group) {
      // Real work-groups of GroupSize (backends/opencl/cl_groups.hpp).
      std::vector<size_t> l = opencl::group_local_size(k, R);
      local = l.size() == 1   ? cl::NDRange(l[0])
              : l.size() == 2 ? cl::NDRange(l[0], l[1])
                              : cl::NDRange(l[0], l[1], l[2]);
    }
    if (element_count(dom) > 0) {
      const std::array<size_t, 3> shape{range.dimensions() > 0 ? range.get()[0] : 0,
                                        range.dimensions() > 1 ? range.get()[1] : 0,
                                        range.dimensions() > 2 ? range.get()[2] : 0};
      if (c.launched.insert(shape).second) {
        // The first launch of a size: the driver may compile here, so a crash
        // of its compiler names the kernel (cl_runtime.hpp).
        opencl::CrashNotice notice("kernel '" + k.name + "' for its first launch");
        cl::Event done;
        rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, range, local, nullptr, &done);
        wait_for(done);
      } else if (c.module->polls || c.module->uses_printf || c.module->group_votes || !keep.empty() ||
                 profile_) {
        // A kernel that may loop forever is waited for here, so Ctrl-C ends
        // this call; --profile waits too, so that the launch's time is its
        // own row's.
        cl::Event done;
        rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, range, local, nullptr, &done);
        wait_for(done);
      } else {
        // Any other runs on while the host goes on (the next blocking step
        // settles it), as chains of launches want; without an event, which
        // costs PoCL a microsecond per launch.
        rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, range, local);
        unsettled_ = true;
      }
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
    const opencl::ReduceBlocks blocks = opencl::reduce_blocks(plan);
    const int64_t B = element_count(blocks.block), nout = element_count(blocks.outputs);
    if (B <= 0 || nout <= 0) return;
    // Each pass cuts its operands into chunks by the rule all backends share
    // (fold_chunk, backends/plan.hpp): one work-item folds one chunk in order.
    int64_t G = fold_chunk(B), chunks = (B + G - 1) / G;
    // A reduction into a stream ends as a map launch does: the host goes on
    // unless Ctrl-C, printf or --profile need the wait now (sgm_path's
    // per-column minimum feeds the next launch on the same in-order queue).
    auto settle_stream = [&](cl::Event& last) {
      if (c.module->polls || c.module->uses_printf || !keep.empty() || profile_)
        wait_for(last);
      else
        unsettled_ = true;
    };
    if (plan.to_stream && chunks == 1) {
      // Each output's block folded by one work-item, straight into the output:
      // one launch where sgm_path's per-column minimum took two.
      cl::Event last;
      cl::Kernel& kern = c.kernel("brook_reduce_direct");
      set_args(kern, opencl::reduce_direct_args(plan, B), scratch, {}, keep);
      begin_printf(c);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(1, nout), cl::NullRange,
                                       nullptr, &last);
      settle_stream(last);
      end_printf(c);
      return;
    }
    // Partial results in pooled buffers: a reduction per launch (sgm_path's
    // per-column minimum) reuses them instead of creating buffers each time.
    scratch.copies.push_back(take(static_cast<uint64_t>(nout * chunks) * S));
    cl::Buffer cur = scratch.copies.back().buffer;
    cl::Event last;  // the latest pass: the host waits for it, watching for Ctrl-C
    begin_printf(c);
    {
      cl::Kernel& kern = c.kernel("brook_reduce_first");
      set_args(kern, opencl::reduce_first_args(plan, G, chunks, B), scratch, {cl::Buffer(), cur}, keep);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange,
                                       cl::NDRange(opencl::padded_extent(chunks), nout),
                                       cl::NullRange, nullptr, &last);
    }
    // Each pass folds consecutive partials in order: operands never swap.
    while (chunks > 1) {
      int64_t n = chunks;
      G = fold_chunk(n);
      chunks = (n + G - 1) / G;
      scratch.copies.push_back(take(static_cast<uint64_t>(nout * chunks) * S));
      cl::Buffer next = scratch.copies.back().buffer;
      cl::Kernel& kern = c.kernel("brook_reduce_next");
      set_args(kern, opencl::reduce_next_args(plan, n, G, chunks), scratch, {cur, next}, keep);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange,
                                       cl::NDRange(opencl::padded_extent(chunks), nout),
                                       cl::NullRange, nullptr, &last);
      cur = next;
    }
    if (plan.to_stream) {
      cl::Kernel& kern = c.kernel("brook_reduce_store");
      set_args(kern, opencl::reduce_store_args(plan), scratch, {cur}, keep);
      rt_.queue().enqueueNDRangeKernel(kern, cl::NullRange, cl::NDRange(nout), cl::NullRange, nullptr, &last);
      settle_stream(last);
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
    const Extents acanon = canonical_extents(plan.array.extents);
    const int64_t n = element_count(plan.index.extents);
    cl_long minus_one = -1;
    cl::Buffer err = host_buffer(&minus_one, sizeof minus_one);
    std::vector<cl::Buffer> keep;
    LaunchScratch no_copies(*this, {}, plan.loc);
    set_args(kern, opencl::gs_args(plan), no_copies, {err}, keep);
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
    size_t comps = std::min<size_t>(it->width(), acanon.size());
    std::vector<int64_t> shown;
    for (size_t j = 0; j < comps; ++j) shown.push_back(gather_index_component(it, e, static_cast<uint32_t>(j)));
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
