// Brook+'s stream handle (include/brook/brookplus_core.h) over the embedding
// session. Brook+ reports failures on the stream instead of throwing, so
// every brook::Error stops here and becomes an error code and a log line.
#include <cstring>
#include <vector>

#include "runtime/brookplus_impl.hpp"

std::size_t StreamImpl::count() const {
  std::size_t n = 1;
  for (unsigned d : dims) n *= d;
  return n;
}

void StreamImpl::fail(int code, const std::string& text) {
  if (first_error == brook::BR_NO_ERROR) first_error = code;
  log += text;
  if (log.empty() || log.back() != '\n') log += '\n';
}

namespace brook::plus {

void load_pending_sources();  // brookplus_sources.cpp

const std::shared_ptr<api::detail::Session>& process_session() {
  static const std::shared_ptr<api::detail::Session> session = [] {
    auto s = std::make_shared<api::detail::Session>(api::Options{});
    s->process_wide = true;
    return s;
  }();
  return session;
}

std::string brook_text(const StreamImpl& s) {
  const std::string& name = s.base->name;
  if (s.whole()) return name;
  auto point = [&](bool end) {
    std::string t = s.dims.size() == 1 ? "" : "int" + std::to_string(s.dims.size()) + "(";
    for (std::size_t i = 0; i < s.dims.size(); ++i)
      t += (i ? ", " : "") + std::to_string(s.origin[i] + (end ? s.dims[i] : 0));
    return s.dims.size() == 1 ? t : t + ")";
  };
  return name + ".domain(" + point(false) + ", " + point(true) + ")";
}

namespace {

// Visits the view's elements in row-major order (dims[0] fastest) with their
// element offset in the whole stream.
template <class F>
void for_each_element(const StreamImpl& s, F&& f) {
  std::size_t rank = s.dims.size();
  std::vector<std::size_t> stride(rank, 1);
  for (std::size_t i = 1; i < rank; ++i) stride[i] = stride[i - 1] * s.base_dims[i - 1];
  std::vector<unsigned> at(rank, 0);
  for (std::size_t n = 0, total = s.count(); n < total; ++n) {
    std::size_t offset = 0;
    for (std::size_t i = 0; i < rank; ++i) offset += (s.origin[i] + at[i]) * stride[i];
    f(n, offset);
    for (std::size_t i = 0; i < rank && ++at[i] == s.dims[i]; ++i) at[i] = 0;
  }
}

std::vector<std::byte> whole_bytes(const StreamImpl& s) {
  std::vector<std::byte> bytes(s.base->count * s.element_size);
  std::string error;
  if (!s.base->session->engine().stream_data(s.base->name, false, bytes, &error))
    api::detail::Session::fail(error);
  return bytes;
}

void store_whole(const StreamImpl& s, std::vector<std::byte>& bytes) {
  std::string error;
  if (!s.base->session->engine().stream_data(s.base->name, true, bytes, &error))
    api::detail::Session::fail(error);
}

}  // namespace

StreamHandle::StreamHandle(const char* type, std::size_t element_size, unsigned rank,
                           const unsigned* dims, const char* interop)
    : impl_(std::make_shared<StreamImpl>()) {
  SessionLock lock(session_mutex());
  impl_->type = type;
  impl_->element_size = element_size;
  impl_->interop = interop ? interop : "";
  impl_->device = current_device();
  if (rank < 1 || rank > 4 || !dims) {
    impl_->fail(BR_ERROR_DECLARATION,
                "Stream declaration : the rank must be 1 to 4, not " + std::to_string(rank));
    return;
  }
  impl_->base_dims.assign(dims, dims + rank);
  impl_->dims = impl_->base_dims;
  impl_->origin.assign(rank, 0);
  std::vector<int64_t> extents;  // a .br declaration's order: slowest first
  for (unsigned i = rank; i-- > 0;) extents.push_back(dims[i]);
  try {
    load_pending_sources();  // brookplus_sources.cpp: the .br structs a stream may be of
    impl_->base = api::detail::new_stream(process_session(), type, element_size, extents);
  } catch (const api::Error& e) {
    impl_->fail(BR_ERROR_DECLARATION, std::string("Stream declaration : ") + e.what());
  }
}

StreamHandle::StreamHandle(::StreamImpl* impl) {
  if (impl) impl_ = impl->shared_from_this();
}

StreamHandle StreamHandle::domain(const unsigned* start, const unsigned* end) const {
  SessionLock lock(session_mutex());
  StreamHandle child;
  child.impl_ = std::make_shared<StreamImpl>();
  StreamImpl& c = *child.impl_;
  if (!impl_) {
    c.fail(BR_ERROR_DOMAIN, "Domain : the stream was never declared");
    return child;
  }
  c.base = impl_->base;
  c.type = impl_->type;
  c.element_size = impl_->element_size;
  c.base_dims = impl_->base_dims;
  c.origin = impl_->origin;
  c.dims = impl_->dims;
  if (!c.base) {
    c.fail(BR_ERROR_DOMAIN, "Domain : the stream's declaration failed");
    return child;
  }
  for (std::size_t i = 0; i < c.dims.size(); ++i) {
    if (!start || !end || end[i] <= start[i] || end[i] > impl_->dims[i]) {
      c.fail(BR_ERROR_DOMAIN,
             "Domain : dimension " + std::to_string(i) + " [" +
                 (start && end ? std::to_string(start[i]) + ", " + std::to_string(end[i]) : "?") +
                 ") is empty or outside the stream's extent " + std::to_string(impl_->dims[i]));
      c.base.reset();
      return child;
    }
    c.origin[i] = impl_->origin[i] + start[i];
    c.dims[i] = end[i] - start[i];
  }
  return child;
}

StreamHandle StreamHandle::exec_domain(int threads) const {
  SessionLock lock(session_mutex());
  StreamHandle clone = *this;
  clone.impl_ = std::make_shared<StreamImpl>(impl_ ? *impl_ : StreamImpl{});
  clone.impl_->first_error = BR_NO_ERROR;
  clone.impl_->log.clear();
  clone.impl_->exec_threads = threads;
  clone.impl_->fail(BR_ERROR_NOT_SUPPORTED,
                    "execDomain : launching a thread count apart from the output's "
                    "size is not supported");
  return clone;
}

void StreamHandle::read(const void* host, const char* /*flags: synchronous either way*/) {
  if (!impl_) return;
  SessionLock lock(session_mutex());
  StreamImpl& s = *impl_;
  if (!host) return s.fail(BR_ERROR_INVALID_PARAMATER, "Stream read : the host pointer is NULL");
  if (!s.base) return s.fail(BR_ERROR_READ, "Stream read : the stream's declaration failed");
  try {
    std::span<const std::byte> in(static_cast<const std::byte*>(host), s.count() * s.element_size);
    std::vector<std::byte> bytes = s.whole() ? std::vector<std::byte>(in.size()) : whole_bytes(s);
    for_each_element(s, [&](std::size_t n, std::size_t at) {
      std::memcpy(&bytes[at * s.element_size], &in[n * s.element_size], s.element_size);
    });
    store_whole(s, bytes);
  } catch (const api::Error& e) {
    s.fail(BR_ERROR_READ, std::string("Stream read : ") + e.what());
  }
}

void StreamHandle::write(void* host, const char* /*flags*/) const {
  if (!impl_) return;
  SessionLock lock(session_mutex());
  StreamImpl& s = *impl_;
  if (!host) return s.fail(BR_ERROR_INVALID_PARAMATER, "Stream write : the host pointer is NULL");
  if (!s.base) return s.fail(BR_ERROR_WRITE, "Stream write : the stream's declaration failed");
  try {
    std::vector<std::byte> bytes = whole_bytes(s);
    auto* out = static_cast<std::byte*>(host);
    for_each_element(s, [&](std::size_t n, std::size_t at) {
      std::memcpy(out + n * s.element_size, &bytes[at * s.element_size], s.element_size);
    });
  } catch (const api::Error& e) {
    s.fail(BR_ERROR_WRITE, std::string("Stream write : ") + e.what());
  }
}

void StreamHandle::assign(const StreamHandle& source) {
  if (!impl_) return;
  SessionLock lock(session_mutex());
  StreamImpl& s = *impl_;
  if (!source.impl_ || !source.impl_->base || !s.base)
    return s.fail(BR_ERROR_ASSIGN, "Stream assign : a stream's declaration failed");
  if (source.impl_->dims != s.dims || source.impl_->type != s.type)
    return s.fail(BR_ERROR_ASSIGN, "Stream assign : the streams differ in type, rank or extents");
  std::vector<std::byte> buffer(s.count() * s.element_size);
  source.write(buffer.data(), nullptr);
  read(buffer.data(), nullptr);
}

void StreamHandle::set_property(const char* name, void* /*value*/) {
  if (!impl_) return;
  SessionLock lock(session_mutex());
  // As Brook+: only a Direct3D stream has properties (d3dDevice,
  // d3dResource, shareHandle), and brook has no Direct3D to bind them to.
  if (impl_->interop.empty())
    return impl_->fail(BR_ERROR_INVALID_PARAMATER,
                       "Set Property : This is not an interoperable stream");
  impl_->fail(BR_ERROR_NOT_SUPPORTED, std::string("Set Property : ") + (name ? name : "(null)") +
                                          ": Direct3D interoperability is not supported");
}

Device* StreamHandle::devices(unsigned* count) const {
  // As Brook+'s StreamData: no count, no answer.
  if (!count) return nullptr;
  *count = impl_ && impl_->device ? 1 : 0;
  return impl_ ? impl_->device : nullptr;
}

int StreamHandle::error() const {
  if (!impl_) return BR_NO_ERROR;
  SessionLock lock(session_mutex());
  int e = impl_->first_error;
  impl_->first_error = BR_NO_ERROR;
  return e;
}

const char* StreamHandle::error_log() const {
  if (!impl_) return "";
  SessionLock lock(session_mutex());
  impl_->log_returned = std::move(impl_->log);
  impl_->log.clear();
  return impl_->log_returned.c_str();
}

unsigned StreamHandle::rank() const {
  return impl_ ? unsigned(impl_->dims.size()) : 0;
}
const unsigned* StreamHandle::dims() const {
  return impl_ ? impl_->dims.data() : nullptr;
}

void StreamHandle::fail(int code, const std::string& text) const {
  if (!impl_) return;
  SessionLock lock(session_mutex());
  impl_->fail(code, text);
}

}  // namespace brook::plus
