// BrookGPU's C++ host interface (the end of include/brook/brook.hpp) and the
// process-wide engine it shares with Brook+'s API and `brook cc`'s code.
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

// Not brookplus_impl.hpp: Brook+'s host vector typedefs would replace the
// BrookGPU vector types this file's signatures use.
#include "runtime/api_session.hpp"

namespace brook {

namespace plus {
const std::shared_ptr<api::detail::Session>& process_session();  // brookplus_stream.cpp
}

namespace api {

namespace detail {

std::unique_lock<std::recursive_mutex> lock_session(const Session& session);  // api_engine.cpp
std::shared_ptr<StreamState> locked_state();

void release_device_at_exit(Session* session) {
  static Session* const released = session;
  static const bool registered = std::atexit([] {
                                   if (released->engine().backend_name() == "interp") return;
                                   std::string error;
                                   released->engine().switch_backend("interp", &error);
                                 }) == 0;
  (void)registered;
}

std::recursive_mutex& process_session_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace detail

Engine& shared_engine() {
  static Engine engine(plus::process_session());
  return engine;
}

}  // namespace api

namespace {

// The struct field lists brook cc's getStreamType specializations named.
struct NamedTypes {
  std::mutex mutex;
  std::map<const StreamType*, std::pair<std::string, std::size_t>> by_list;
};
NamedTypes& named_types() {
  static NamedTypes types;
  return types;
}

// Brook's element type for BrookGPU's type list: a .br struct's list by the
// name brook cc gave it, else one field's type.
std::pair<std::string, std::size_t> element_of(const StreamType* type) {
  {
    NamedTypes& named = named_types();
    std::lock_guard lock(named.mutex);
    if (auto it = named.by_list.find(type); it != named.by_list.end()) return it->second;
  }
  if (!type || type[0] == __BRTNONE)
    api::detail::Session::fail("a ::brook::stream needs an element type");
  if (type[1] != __BRTNONE) {
    api::detail::Session::fail(
        "a ::brook::stream of a struct needs the struct declared in a .br file that `brook cc` "
        "translated (its getStreamType names the type); this field list is not one of those");
  }
  switch (type[0]) {
    case __BRTFLOAT:
      return {"float", 4};
    case __BRTFLOAT2:
      return {"float2", 8};
    case __BRTFLOAT3:
      return {"float3", 12};
    case __BRTFLOAT4:
      return {"float4", 16};
    // fixed and shortfixed: spellings of float (LANGUAGE.md §12), as
    // BrookGPU's CPU runtime computed them.
    case __BRTFIXED:
    case __BRTSHORTFIXED:
      return {"float", 4};
    case __BRTFIXED2:
    case __BRTSHORTFIXED2:
      return {"float2", 8};
    case __BRTFIXED3:
    case __BRTSHORTFIXED3:
      return {"float3", 12};
    case __BRTFIXED4:
    case __BRTSHORTFIXED4:
      return {"float4", 16};
    case __BRTDOUBLE:
      return {"double", 8};
    case __BRTDOUBLE2:
      return {"double2", 16};
    default:
      api::detail::Session::fail("unknown BrookGPU stream type code " +
                                 std::to_string(static_cast<int>(type[0])));
  }
}

}  // namespace

namespace detail {

bool name_stream_type(const StreamType* fields, const char* brook_type, std::size_t bytes) {
  NamedTypes& named = named_types();
  std::lock_guard lock(named.mutex);
  named.by_list[fields] = {brook_type, bytes};
  return true;
}

}  // namespace detail

stream::stream(const StreamType* type, ...) {
  auto [element, size] = element_of(type);
  std::vector<int64_t> extents;
  va_list args;
  va_start(args, type);
  for (;;) {
    int e = va_arg(args, int);
    if (e == -1) break;
    if (extents.size() == 4) {
      va_end(args);
      api::detail::Session::fail("a stream has 1 to 4 extents (the list ends with -1)");
    }
    extents.push_back(e);
  }
  va_end(args);
  std::lock_guard lock(api::detail::process_session_mutex());
  api::Engine& engine = api::shared_engine();
  s_ = AnyStream(api::detail::new_stream(engine.session_, element, size, extents));
}

iter::iter(StreamType type, ...) {
  int comps = type == __BRTFLOAT ? 1 : type == __BRTFLOAT2 ? 2 : type == __BRTFLOAT3 ? 3 : type == __BRTFLOAT4 ? 4 : 0;
  if (comps == 0)
    api::detail::Session::fail("a ::brook::iter is of float, float2, float3 or float4 (__BRTFLOAT..4)");
  std::vector<int64_t> extents;
  std::vector<double> range;  // the first value's components, then the last's
  va_list args;
  va_start(args, type);
  for (;;) {
    int e = va_arg(args, int);
    if (e == -1) break;
    if (extents.size() == 4 || e < 1) {
      va_end(args);
      api::detail::Session::fail("an iterator has 1 to 4 positive extents (the list ends with -1)");
    }
    extents.push_back(e);
  }
  // C passes each float as a double through '...'.
  for (int i = 0; i < 2 * comps; ++i) range.push_back(va_arg(args, double));
  va_end(args);
  const std::string element = comps == 1 ? "float" : "float" + std::to_string(comps);
  auto literal = [](double v) {
    if (!std::isfinite(v)) api::detail::Session::fail("an iterator's range must be finite");
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", static_cast<float>(v));
    std::string s = text;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
  };
  auto value = [&](int from) {
    std::string v = element + "(";
    for (int i = 0; i < comps; ++i) v += (i ? ", " : "") + literal(range[static_cast<size_t>(from + i)]);
    return v + ")";
  };
  std::lock_guard lock(api::detail::process_session_mutex());
  api::Engine& engine = api::shared_engine();
  auto state = api::detail::locked_state();
  state->name = engine.session_->fresh_name();
  state->element_type = element;
  state->element_size = 4 * static_cast<std::size_t>(comps);
  state->extents = extents;
  state->count = 1;
  std::string decl = "iter " + element + " " + state->name + "<";
  for (std::size_t i = 0; i < extents.size(); ++i) {
    decl += (i ? ", " : "") + std::to_string(extents[i]);
    state->count *= static_cast<std::size_t>(extents[i]);
  }
  decl += "> = iter(" + value(0) + ", " + value(comps) + ");";
  engine.session_->eval("<iter>", decl);
  state->session = engine.session_;  // from here on the destructor releases it
  s_ = AnyStream(std::move(state));
}

void stream::read(const void* data) {
  if (!s_) api::detail::Session::fail("streamRead of a stream that was never declared");
  std::lock_guard lock(api::detail::process_session_mutex());
  s_.read_bytes(data, s_.size() * s_.element_size());
}

void stream::write(void* data) const {
  if (!s_) api::detail::Session::fail("streamWrite of a stream that was never declared");
  std::lock_guard lock(api::detail::process_session_mutex());
  s_.write_bytes(data, s_.size() * s_.element_size());
}

stream stream::domain_of(std::initializer_list<int> min, std::initializer_list<int> max) const {
  if (!s_) api::detail::Session::fail("domain() of a stream that was never declared");
  std::lock_guard lock(api::detail::process_session_mutex());
  const api::detail::StreamState& base = *s_.state_;
  const std::size_t rank = base.extents.size();
  if (min.size() != rank) {
    api::detail::Session::fail("domain() of a " + std::to_string(rank) + "-D stream takes int" +
                               (rank == 1 ? std::string() : std::to_string(rank)) + " corners");
  }
  // Corners are x (the fastest extent) first; extents are slowest first.
  auto view = api::detail::locked_state();
  view->session = base.session;
  view->owned = false;
  view->parent = s_.state_;
  view->element_type = base.element_type;
  view->elem = base.elem;
  view->element_size = base.element_size;
  view->count = 1;
  std::string lo, hi;
  for (std::size_t i = 0; i < rank; ++i) {
    int a = min.begin()[i], b = max.begin()[i];
    int64_t extent = base.extents[rank - 1 - i];
    if (a < 0 || b > extent || a >= b) {
      api::detail::Session::fail("domain() corner " + std::to_string(a) + ".." + std::to_string(b) +
                                 " is outside dimension " + std::to_string(i) + " of extent " +
                                 std::to_string(extent));
    }
    view->extents.insert(view->extents.begin(), b - a);
    view->count *= static_cast<std::size_t>(b - a);
    lo += (i ? ", " : "") + std::to_string(a);
    hi += (i ? ", " : "") + std::to_string(b);
  }
  std::string vec = rank == 1 ? "" : "int" + std::to_string(rank);
  view->name = base.name + ".domain(" + vec + "(" + lo + "), " + vec + "(" + hi + "))";
  return stream(AnyStream(std::move(view)));
}

stream stream::domain(int min, int max) const {
  return domain_of({min}, {max});
}
stream stream::domain(const ::int2& min, const ::int2& max) const {
  return domain_of({min.x, min.y}, {max.x, max.y});
}
stream stream::domain(const ::int3& min, const ::int3& max) const {
  return domain_of({min.x, min.y, min.z}, {max.x, max.y, max.z});
}
stream stream::domain(const ::int4& min, const ::int4& max) const {
  return domain_of({min.x, min.y, min.z, min.w}, {max.x, max.y, max.z, max.w});
}

// BrookGPU's runtime routines (brt.hpp). brook has one runtime, chosen by
// $BROOK_BACKEND (else the JIT): initialize() accepts any of BrookGPU's
// runtime names ("cpu", "cpumt", "dx9", "ogl", "cal", ...) and starts the
// process-wide engine on that backend, so that a program's first launch
// does not pay for it; kernels and copies finish before they return, so
// finish() has nothing to wait for, and nothing is bound to release.
void initialize(const char* /*runtime*/, void* /*context*/) {
  std::lock_guard lock(api::detail::process_session_mutex());
  (void)api::shared_engine();
}
void finalize() {}
void finish() {}
void bind() {}
void unbind() {}

const char** runtimeTargets() {
  // The one runtime brook has, by BrookGPU's name for the always-present one.
  static const char* targets[] = {"cpu", nullptr};
  return targets;
}

int64 microseconds() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace brook
