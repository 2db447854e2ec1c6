// Internal state behind Brook+'s C++ API (include/brook/Stream.h): a stream
// handle is a rectangle of a hidden top-level stream of the process-wide
// session; errors collect on the handle as Brook+'s error()/errorLog() report
// them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "brook/brookplus_core.h"
#include "runtime/api_session.hpp"

namespace brook::plus {

// The one engine session of the process, made on first use (backend from
// $BROOK_BACKEND). Streams hold it, so it outlives every stream.
const std::shared_ptr<api::detail::Session>& process_session();

struct StreamImpl {
  std::shared_ptr<api::detail::StreamState> base;  // null when the declaration failed
  std::string type;
  std::size_t element_size = 0;
  std::vector<unsigned> base_dims;  // the whole stream's extents, fastest first
  std::vector<unsigned> origin;     // this view's first element in it, fastest first
  std::vector<unsigned> dims;       // this view's extents, fastest first
  int exec_threads = 0;             // execDomain(n): launch n threads (unsupported)
  int first_error = BR_NO_ERROR;
  std::string log;
  std::string log_returned;  // what error_log() last returned, kept alive

  bool whole() const {
    return origin == std::vector<unsigned>(origin.size(), 0) && dims == base_dims;
  }
  std::size_t count() const;
  void fail(int code, const std::string& text);
};

// How a Brook entry names the handle: the hidden stream, or
// `name.domain(start, end)` of it (LANGUAGE.md §4 spelling).
std::string brook_text(const StreamImpl& s);

}  // namespace brook::plus
