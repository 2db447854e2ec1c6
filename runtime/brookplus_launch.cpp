// One launch of a Brook+ binding (include/brook/KernelInterface.h): the
// arguments become one Brook call entry on the process session, as the
// embedding API's calls do; a failure lands on the output streams.
//
// A launch holds the session lock from its construction to its destruction:
// its value arguments live in hidden globals of the session (per position),
// which another thread's launch would otherwise overwrite between the push
// and the run.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "runtime/brookplus_impl.hpp"

namespace brook::plus {

namespace {

// Sources already loaded into the process session, by their text's address
// (one per generated file).
std::set<const char*>& loaded_sources() {
  static std::set<const char*> loaded;
  return loaded;
}

bool is_output(const ast::ParamDecl& p) {
  return p.pkind == ast::ParamKind::Out || p.pkind == ast::ParamKind::Reduce || p.scatter;
}

// Brook+ refuses to bind one stream as both an input and an output of a
// kernel unless this is set (to anything).
bool aliasing_permitted() {
  return std::getenv("BRT_PERMIT_READ_WRITE_ALIASING") != nullptr;
}

// Brook+'s checks of a map kernel's streams before it runs (its
// KernelImpl::run), with its codes and texts, on every output: an input that
// is also an output is refused (false: no launch) unless
// BRT_PERMIT_READ_WRITE_ALIASING is set; a stream input whose extents differ
// from the first output's is resampled to them (brook's rule, LANGUAGE.md) and
// the outputs record that it was.
// `streams`: each parameter's stream argument, or null.
bool check_kernel_streams(const ast::FuncDecl& fn, const std::vector<StreamImpl*>& streams,
                          const std::vector<StreamImpl*>& outputs) {
  std::size_t params = streams.size();
  auto record = [&](const char* text) {
    for (StreamImpl* s : outputs) s->fail(BR_ERROR_INVALID_PARAMATER, text);
  };
  if (!aliasing_permitted()) {
    for (std::size_t i = 0; i < params; ++i) {
      const ast::ParamDecl& p = *fn.params[i];
      if (!streams[i] || is_output(p)) continue;
      for (StreamImpl* o : outputs) {
        if (o != streams[i]) continue;
        record(
            "Kernel Execution : Input stream is same as output stream.\n"
            "Binding kernels read-write is prohibited.\n");
        // Brook+ also told the console how to allow it (on stdout; here on
        // stderr, which is for diagnostics).
        std::fflush(stdout);
        std::fputs(
            "Kernel Execution Error: Input stream is same as output stream.\n"
            "Binding kernels read-write is prohibited.\n"
            "Environment variable BRT_PERMIT_READ_WRITE_ALIASING can be used to allow "
            "input-output aliasing.\n"
            "But the results can be unpredictable.\n",
            stderr);
        return false;
      }
    }
  }
  const StreamImpl* first = nullptr;  // the first regular (not scatter) output
  for (std::size_t i = 0; i < params && !first; ++i)
    if (streams[i] && fn.params[i]->pkind == ast::ParamKind::Out) first = streams[i];
  // A stream whose declaration failed has no extents to compare: the launch
  // reports that instead.
  if (!first || !first->base) return true;
  for (std::size_t i = 0; i < params; ++i) {
    const StreamImpl* in = streams[i];
    if (in && in->base && fn.params[i]->pkind == ast::ParamKind::Input && in->dims != first->dims) {
      record(
          "Kernel Execution : Input stream dimension doesn't match with output dimension. "
          "An implicit resize is done to match output dimension. "
          "In the next release this feature will be deprecated\n");
      break;  // one entry however many inputs differ, as Brook+
    }
  }
  return true;
}

}  // namespace

struct Launch::State {
  // First, so it is released last.
  std::unique_lock<std::recursive_mutex> lock{session_mutex()};
  const char* source;
  std::string source_name;
  std::string function;
  struct Argument {
    std::shared_ptr<StreamImpl> stream;  // a stream argument, or
    std::string text;                    // the Brook text of a value
    std::string error;                   // why the argument cannot be passed
  };
  std::vector<Argument> args;
  void* reduce_out = nullptr;
  std::size_t reduce_size = 0;
  std::string reduce_global;
};

Launch::Launch(const char* source, const char* source_name, const char* function)
    : state_(std::make_unique<State>()) {
  state_->source = source;
  state_->source_name = source_name;
  state_->function = function;
}
Launch::~Launch() = default;

void Launch::stream(const StreamHandle& s) {
  State::Argument a;
  a.stream = s.impl_;
  if (!a.stream || !a.stream->base) a.error = "a stream argument's declaration failed";
  state_->args.push_back(std::move(a));
}

void Launch::value(const void* bytes, std::size_t size, const char* type) {
  State::Argument a;
  try {
    a.text = process_session()->value_global("bp" + std::to_string(state_->args.size()), type,
                                             bytes, size);
  } catch (const api::Error& e) {
    a.error = e.what();
  }
  state_->args.push_back(std::move(a));
}

void Launch::array(const void* bytes, std::size_t size, const char* type, const char* extents) {
  State::Argument a;
  try {
    // A hidden global array per position and shape, e.g. `float g[3][3];`.
    const std::shared_ptr<api::detail::Session>& session = process_session();
    std::string key = "bparray" + std::to_string(state_->args.size()) + std::string(extents);
    std::string name = session->hidden_array(key, type, extents);
    const Type* t = nullptr;
    std::optional<std::span<uint8_t>> slot = session->engine().global_bytes(name, &t);
    if (!slot || slot->size() != size)
      api::detail::Session::fail("internal: constant array of the wrong size");
    std::memcpy(slot->data(), bytes, size);
    a.text = name;
  } catch (const api::Error& e) {
    a.error = e.what();
  }
  state_->args.push_back(std::move(a));
}

void Launch::reduce_to(void* out, std::size_t size, const char* type) {
  State::Argument a;
  try {
    a.text = process_session()->value_global("bpresult", type, out, size);
    state_->reduce_out = out;
    state_->reduce_size = size;
    state_->reduce_global = a.text;
  } catch (const api::Error& e) {
    a.error = e.what();
  }
  state_->args.push_back(std::move(a));
}

void Launch::run(LaunchDomain* domain) {
  State& st = *state_;
  const std::shared_ptr<api::detail::Session>& session = process_session();
  std::vector<StreamImpl*> outputs;  // where a failure is reported
  auto report = [&](const std::string& text) {
    std::string entry = "Kernel Execution : " + text;
    if (outputs.empty()) {
      for (State::Argument& a : st.args)
        if (a.stream) outputs.push_back(a.stream.get());
    }
    for (StreamImpl* s : outputs) s->fail(BR_ERROR_KERNEL, entry);
  };
  LaunchDomain launch = domain ? *domain : LaunchDomain{};
  if (domain) *domain = LaunchDomain{};  // Brook+ resets them after each launch
  try {
    if (loaded_sources().insert(st.source).second) {
      try {
        session->eval(st.source_name, st.source);
      } catch (...) {
        loaded_sources().erase(st.source);
        throw;
      }
    }
    ast::Decl* d = session->engine().front_end().sema().lookup_global(st.function);
    auto* f = d ? d->as<ast::FuncDecl>() : nullptr;
    if (!f || (f->fkind != ast::FuncKind::Kernel && f->fkind != ast::FuncKind::Reduce))
      api::detail::Session::fail("no kernel or reduction named '" + st.function + "'");
    const ast::FuncDecl& fn = f->defined();
    std::size_t params = std::min(st.args.size(), fn.params.size());
    for (std::size_t i = 0; i < params; ++i)
      if (st.args[i].stream && is_output(*fn.params[i])) outputs.push_back(st.args[i].stream.get());
    std::vector<StreamImpl*> streams(params);
    for (std::size_t i = 0; i < params; ++i) streams[i] = st.args[i].stream.get();
    if (f->fkind == ast::FuncKind::Kernel && !check_kernel_streams(fn, streams, outputs)) return;
    std::string text = st.function + "(";
    for (std::size_t i = 0; i < st.args.size(); ++i) {
      State::Argument& a = st.args[i];
      if (!a.error.empty())
        api::detail::Session::fail("argument " + std::to_string(i + 1) + ": " + a.error);
      if (a.stream && a.stream->exec_threads)
        api::detail::Session::fail("argument " + std::to_string(i + 1) +
                                   " is an execDomain() stream, which is not supported");
      std::string arg = a.text;
      if (a.stream) {
        StreamImpl view = *a.stream;
        bool out = i < fn.params.size() && fn.params[i]->pkind == ast::ParamKind::Out;
        if (out && launch.sized) {  // domainOffset/domainSize: x and y of the outputs
          for (std::size_t k = 0; k < view.dims.size() && k < 2; ++k) {
            unsigned o = launch.offset[k], n = launch.size[k];
            if (n == 0 || o + n > view.dims[k]) {
              api::detail::Session::fail("domainOffset/domainSize leave dimension " +
                                         std::to_string(k) + " of output " + std::to_string(i + 1) +
                                         " ([" + std::to_string(o) + ", " + std::to_string(o + n) +
                                         ") of " + std::to_string(view.dims[k]) + ")");
            }
            view.origin[k] += o;
            view.dims[k] = n;
          }
        }
        arg = brook_text(view);
      }
      text += (i ? ", " : "") + arg;
    }
    session->eval("<" + st.function + ">", text + ");");
    session->launched();
    if (st.reduce_out) {
      const Type* t = nullptr;
      std::optional<std::span<uint8_t>> bytes =
          session->engine().global_bytes(st.reduce_global, &t);
      if (bytes && bytes->size() == st.reduce_size)
        std::memcpy(st.reduce_out, bytes->data(), st.reduce_size);
    }
  } catch (const api::Error& e) {
    report(e.what());
  }
}

}  // namespace brook::plus
