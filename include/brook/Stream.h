// Brook+ 1.4's C++ stream class, over brook's engine (facts in BROOKPLUS.md):
//
//   unsigned int dims[2] = {width, height};      // dims[0]: the fastest extent
//   brook::Stream<float> in(2, dims), out(2, dims);
//   in.read(host_in);                            // row-major host buffer
//   my_kernel(in, out);                          // a functor from `brook cc`
//   out.write(host_out);
//   if (out.error() != brook::BR_NO_ERROR) std::cerr << out.errorLog();
//
// Copies are shallow (they share the stream); assign() copies the contents.
// Nothing throws: a failure is an error code and a log entry on the stream.
// Reads, writes and launches complete before they return, so isSync() is
// always true and the "async" and "nocopy" flags change nothing observable.
// Streams may be used and kernels launched from several threads at once.
#pragma once

#include "brook/Device.h"
#include "brook/brookplus_core.h"

namespace brook {

template <class T>
class Stream : public plus::StreamHandle {
 public:
  Stream() = default;
  Stream(unsigned short rank, const unsigned int* dims)
      : plus::StreamHandle(plus::StreamType<T>::name, sizeof(T), rank, dims) {}
  // Brook+'s Direct3D form (type "d3d9"): an ordinary stream here, whose
  // setProperty() reports Direct3D as not supported.
  Stream(unsigned short rank, const unsigned int* dims, const char* type)
      : plus::StreamHandle(plus::StreamType<T>::name, sizeof(T), rank, dims, type ? type : "") {}
  // Brook+'s internal form: shares the stream `impl` is (from operator
  // StreamImpl*), as a copy would.
  explicit Stream(::StreamImpl* impl) : plus::StreamHandle(impl) {}

  void read(const void* host, const char* flags = nullptr) {
    plus::StreamHandle::read(host, flags);
  }
  void write(void* host, const char* flags = nullptr) const {
    plus::StreamHandle::write(host, flags);
  }

  // The sub-rectangle [start, end) (rank() entries each, fastest first),
  // sharing this stream's storage.
  Stream<T> domain(const unsigned int* start, const unsigned int* end) const {
    return Stream<T>(plus::StreamHandle::domain(start, end));
  }
  // Brook+'s USE_OLD_API forms.
  Stream<T> domain(int start, int end) const {
    const unsigned s[1] = {unsigned(start)}, e[1] = {unsigned(end)};
    return domain(s, e);
  }
  Stream<T> domain(const int2& start, const int2& end) const {
    return domain_of<2>(&start.x, &end.x);
  }
  Stream<T> domain(const int3& start, const int3& end) const {
    return domain_of<3>(&start.x, &end.x);
  }
  Stream<T> domain(const int4& start, const int4& end) const {
    return domain_of<4>(&start.x, &end.x);
  }
  Stream<T> execDomain(int threads) const {
    return Stream<T>(plus::StreamHandle::exec_domain(threads));
  }

  // The deep copy: same rank and extents.
  void assign(const Stream<T>& source) { plus::StreamHandle::assign(source); }

  // Brook+ sets d3dDevice, d3dResource and shareHandle on a Direct3D stream;
  // there is no Direct3D here, so each records an error on the stream.
  void setProperty(const char* name, void* value) { plus::StreamHandle::set_property(name, value); }
  // The device the stream lives on (brook has one): *count receives 1.
  Device* getDevices(unsigned int* count) { return plus::StreamHandle::devices(count); }
  operator ::StreamImpl*() const { return plus::StreamHandle::impl(); }

  bool isSync() const { return true; }
  void finish() {}
  BRerror error() { return static_cast<BRerror>(plus::StreamHandle::error()); }
  const char* errorLog() { return plus::StreamHandle::error_log(); }
  unsigned int getRank() const { return rank(); }
  const unsigned int* getDimension() const { return dims(); }

 private:
  explicit Stream(plus::StreamHandle h) : plus::StreamHandle(std::move(h)) {}
  template <int N>
  Stream<T> domain_of(const int* start, const int* end) const {
    unsigned s[N], e[N];
    for (int i = 0; i < N; ++i) {
      s[i] = unsigned(start[i]);
      e[i] = unsigned(end[i]);
    }
    return domain(s, e);
  }
};

}  // namespace brook

// Brook+'s legacy free functions, global there. They take the stream by value
// (a shallow copy, so the data still reaches the caller's stream), which lets
// a temporary such as `s.domain(start, end)` be read or written.
template <class T>
void streamRead(brook::Stream<T> s, const void* host) {
  s.read(host);
}
template <class T>
void streamWrite(brook::Stream<T> s, void* host) {
  s.write(host);
}
