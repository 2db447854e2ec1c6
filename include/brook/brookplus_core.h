// The non-template core of Brook+'s C++ API (include/brook/Stream.h): error
// codes, host vector types, the element-type table and the two classes the
// library exports (a stream handle and a kernel launch). Brook+ programs
// include brook/Stream.h, brook/KernelInterface.h or brook/brook.h, never this.
//
// Brook+ and the embedding API (brook/brook.hpp) both name a brook::Stream<T>,
// so one translation unit includes one of them; both run on one process-wide
// engine (backend from $BROOK_BACKEND, as every brook program).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
// Brook+'s VectorDataType.h (under every Brook+ header) included <stdlib.h>
// and <string.h>, and the SDK's hosts call memset, memcpy, strcmp, malloc and
// printf with no include of their own: they compile only with these.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Brook+'s opaque stream object, a global name there: Stream<T> converts to a
// StreamImpl* and back (sharing the stream). Defined inside the library.
class StreamImpl;

namespace brook {

class Device;

// Brook+'s error codes (its spelling, PARAMATER included), as Stream::error()
// returns them.
enum BRerror {
  BR_NO_ERROR = 0,
  BR_ERROR_DECLARATION,
  BR_ERROR_READ,
  BR_ERROR_WRITE,
  BR_ERROR_KERNEL,
  BR_ERROR_DOMAIN,
  BR_ERROR_ASSIGN,
  BR_ERROR_INVALID_PARAMATER,
  BR_ERROR_NOT_SUPPORTED,
  BR_WARNING,
  BR_ERROR_FORCE_DWORD = 0x7fffffff
};

namespace plus {

// Which of Brook+'s pointer conversions its host vector of T had (its
// VectorDataType.h), so `float4 t; t[0] = 1;`, `memcpy(d, u4, 16)` and an
// int2 passed as `const int*` compile as they did there: float2..4 only
// `operator float*()`; the int, uint, char, uchar, short and ushort vectors
// that and `operator const T*() const`; double2 none (nor do double3/4,
// which Brook+ lacked).
template <class T>
inline constexpr bool vector_to_pointer = !std::is_same_v<T, double>;
template <class T>
inline constexpr bool vector_to_const_pointer =
    !std::is_same_v<T, double> && !std::is_same_v<T, float>;

// Host vectors with Brook's layout: N packed components named x, y, z, w.
// (A standard-layout struct of N packed T: its address is its first
// component's, and the pointer spans the whole vector, as Brook+'s cast of
// `this` did.)
#define BROOK_PLUS_VECTOR_POINTERS                                \
  operator T*() requires vector_to_pointer<T> {                   \
    return reinterpret_cast<T*>(this);                            \
  }                                                               \
  operator const T*() const requires vector_to_const_pointer<T> { \
    return reinterpret_cast<const T*>(this);                      \
  }
template <class T, int N>
struct Vector;
template <class T>
struct Vector<T, 2> {
  T x{}, y{};
  constexpr Vector() = default;
  constexpr Vector(T x_, T y_ = T()) : x(x_), y(y_) {}
  BROOK_PLUS_VECTOR_POINTERS
};
template <class T>
struct Vector<T, 3> {
  T x{}, y{}, z{};
  constexpr Vector() = default;
  constexpr Vector(T x_, T y_ = T(), T z_ = T()) : x(x_), y(y_), z(z_) {}
  BROOK_PLUS_VECTOR_POINTERS
};
template <class T>
struct Vector<T, 4> {
  T x{}, y{}, z{}, w{};
  constexpr Vector() = default;
  constexpr Vector(T x_, T y_ = T(), T z_ = T(), T w_ = T()) : x(x_), y(y_), z(z_), w(w_) {}
  BROOK_PLUS_VECTOR_POINTERS
};
#undef BROOK_PLUS_VECTOR_POINTERS

// The Brook name of a stream element type. Brook+'s brcc wrote one
// specialization per struct of a .br file; `brook cc` does the same.
template <class T>
struct StreamType;  // not defined: T is not a Brook+ stream element type

#define BROOK_PLUS_ELEMENT(CXX, NAME)         \
  template <>                                 \
  struct StreamType<CXX> {                    \
    static constexpr const char* name = NAME; \
  };
BROOK_PLUS_ELEMENT(float, "float")
BROOK_PLUS_ELEMENT(double, "double")
BROOK_PLUS_ELEMENT(int, "int")
BROOK_PLUS_ELEMENT(unsigned int, "uint")
BROOK_PLUS_ELEMENT(char, "char")
BROOK_PLUS_ELEMENT(signed char, "char")
BROOK_PLUS_ELEMENT(unsigned char, "uchar")
BROOK_PLUS_ELEMENT(short, "short")
BROOK_PLUS_ELEMENT(unsigned short, "ushort")
template <class T>
using Vector2 = Vector<T, 2>;
template <class T>
using Vector3 = Vector<T, 3>;
template <class T>
using Vector4 = Vector<T, 4>;
#define BROOK_PLUS_VECTORS(CXX, NAME)        \
  BROOK_PLUS_ELEMENT(Vector2<CXX>, NAME "2") \
  BROOK_PLUS_ELEMENT(Vector3<CXX>, NAME "3") \
  BROOK_PLUS_ELEMENT(Vector4<CXX>, NAME "4")
BROOK_PLUS_VECTORS(float, "float")
BROOK_PLUS_VECTORS(double, "double")
BROOK_PLUS_VECTORS(int, "int")
BROOK_PLUS_VECTORS(unsigned int, "uint")
BROOK_PLUS_VECTORS(char, "char")
BROOK_PLUS_VECTORS(unsigned char, "uchar")
BROOK_PLUS_VECTORS(short, "short")
BROOK_PLUS_VECTORS(unsigned short, "ushort")
#undef BROOK_PLUS_VECTORS
#undef BROOK_PLUS_ELEMENT

// A stream (or a domain view of one) on the process-wide engine. Copies share
// the stream. No member throws: failures become error codes on the stream.
// Every member is safe to call from any thread (Brook+'s MultiGPU and
// MonteCarlo samples stream and launch from several): the library serializes
// them on the process session's lock.
class StreamHandle {
 public:
  StreamHandle() = default;
  // dims[0] is the fastest extent (Brook+'s order, the reverse of a .br
  // declaration's). `interop` is the Direct3D form's type ("d3d9"), or null.
  StreamHandle(const char* type, std::size_t element_size, unsigned rank, const unsigned* dims,
               const char* interop = nullptr);
  // Shares the stream `impl` belongs to (null: a handle to no stream).
  explicit StreamHandle(::StreamImpl* impl);

  StreamHandle domain(const unsigned* start, const unsigned* end) const;
  StreamHandle exec_domain(int threads) const;
  void read(const void* host, const char* flags);
  void write(void* host, const char* flags) const;
  void assign(const StreamHandle& source);
  void set_property(const char* name, void* value);
  // The devices the stream lives on: *count receives 1 (0 for no stream).
  Device* devices(unsigned* count) const;
  int error() const;              // the first error since the last call, then cleared
  const char* error_log() const;  // every error's text since the last call, then cleared
  unsigned rank() const;
  const unsigned* dims() const;  // rank() extents, fastest first
  void fail(int code, const std::string& text) const;
  ::StreamImpl* impl() const { return impl_.get(); }

 private:
  friend class Launch;
  std::shared_ptr<::StreamImpl> impl_;
};

// What EXTENDCLASS's domainOffset/domainSize set for a kernel's next launch.
struct LaunchDomain {
  unsigned offset[4] = {0, 0, 0, 0};
  unsigned size[4] = {0, 0, 0, 0};
  bool sized = false;
};

// One launch of a kernel or reduction of an embedded .br source; the
// generated bindings push the arguments in order and run it. Errors land on
// the output streams' error(), as in Brook+. It holds the process session's
// lock from construction to destruction, so launches from several threads
// run one at a time, each with its own arguments.
class Launch {
 public:
  Launch(const char* source, const char* source_name, const char* function);
  ~Launch();
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  void stream(const StreamHandle& s);
  void value(const void* bytes, std::size_t size, const char* type);
  // A sized constant array (`float mask[3][3]`): bytes in C order.
  void array(const void* bytes, std::size_t size, const char* type, const char* extents);
  void reduce_to(void* out, std::size_t size, const char* type);
  void run(LaunchDomain* domain = nullptr);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace plus
}  // namespace brook

// Brook+'s global host vector and scalar names.
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned short ushort;
#define BROOK_PLUS_HOST_VECTORS(CXX, NAME)       \
  typedef ::brook::plus::Vector<CXX, 2> NAME##2; \
  typedef ::brook::plus::Vector<CXX, 3> NAME##3; \
  typedef ::brook::plus::Vector<CXX, 4> NAME##4;
BROOK_PLUS_HOST_VECTORS(float, float)
BROOK_PLUS_HOST_VECTORS(double, double)
BROOK_PLUS_HOST_VECTORS(int, int)
BROOK_PLUS_HOST_VECTORS(unsigned int, uint)
BROOK_PLUS_HOST_VECTORS(char, char)
BROOK_PLUS_HOST_VECTORS(unsigned char, uchar)
BROOK_PLUS_HOST_VECTORS(short, short)
BROOK_PLUS_HOST_VECTORS(unsigned short, ushort)
#undef BROOK_PLUS_HOST_VECTORS
// brook/brook.hpp (BrookGPU's host interface) defines these names too when
// it is included after this header (inside the library); it keeps these.
#define BROOK_CC_TYPE_float2
#define BROOK_CC_TYPE_float3
#define BROOK_CC_TYPE_float4
#define BROOK_CC_TYPE_double2
#define BROOK_CC_TYPE_int2
#define BROOK_CC_TYPE_int3
#define BROOK_CC_TYPE_int4
