// Internal state behind Brook+'s C++ API (include/brook/Stream.h): a stream
// handle is a rectangle of a hidden top-level stream of the process-wide
// session; errors collect on the handle as Brook+'s error()/errorLog() report
// them.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "brook/Device.h"
#include "brook/brookplus_core.h"
#include "runtime/api_session.hpp"

namespace brook::plus {

// The one engine session of the process, made on first use (backend from
// $BROOK_BACKEND). Streams hold it, so it outlives every stream.
const std::shared_ptr<api::detail::Session>& process_session();

// Held by every entry point that touches the session, its engine or a
// stream's state: Brook+ programs call them from several threads at once.
// Recursive, since entry points call one another (assign reads and writes).
using SessionLock = std::lock_guard<std::recursive_mutex>;
inline std::recursive_mutex& session_mutex() {
  return api::detail::process_session_mutex();
}

// The device a thread's new streams live on (useDevices), by default the
// "all" device.
Device* current_device();

}  // namespace brook::plus

// Brook+'s name for the stream object, global there (brookplus_core.h
// declares it for Stream<T>'s operator StreamImpl*). Always owned by a
// shared_ptr, so Stream(StreamImpl*) can share it.
class StreamImpl : public std::enable_shared_from_this<StreamImpl> {
 public:
  StreamImpl() = default;
  // A copy is a new object (enable_shared_from_this starts it unowned).
  StreamImpl(const StreamImpl&) = default;
  StreamImpl& operator=(const StreamImpl&) = delete;
  // Releasing the last handle of a stream releases it in the engine, which
  // another thread may be using: under the session lock.
  ~StreamImpl() {
    brook::plus::SessionLock lock(brook::plus::session_mutex());
    base.reset();
  }

  std::shared_ptr<brook::api::detail::StreamState> base;  // null when the declaration failed
  std::string type;
  std::size_t element_size = 0;
  std::vector<unsigned> base_dims;  // the whole stream's extents, fastest first
  std::vector<unsigned> origin;     // this view's first element in it, fastest first
  std::vector<unsigned> dims;       // this view's extents, fastest first
  int exec_threads = 0;             // execDomain(n): launch n threads (unsupported)
  std::string interop;              // the Direct3D form's type ("d3d9"), else empty
  brook::Device* device = nullptr;  // the thread's device when it was declared
  int first_error = brook::BR_NO_ERROR;
  std::string log;
  std::string log_returned;  // what error_log() last returned, kept alive

  bool whole() const {
    return origin == std::vector<unsigned>(origin.size(), 0) && dims == base_dims;
  }
  std::size_t count() const;
  void fail(int code, const std::string& text);
};

namespace brook::plus {

using ::StreamImpl;

// How a Brook entry names the handle: the hidden stream, or
// `name.domain(start, end)` of it (LANGUAGE.md §4 spelling).
std::string brook_text(const StreamImpl& s);

}  // namespace brook::plus
