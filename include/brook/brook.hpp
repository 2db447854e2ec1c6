// brook embedding API: run Brook programs (kernels, reductions, host code)
// from a C++ program. One header; value types; one exception type.
//
//   brook::Engine eng({.backend = brook::Backend::interp});
//   eng.load_source("kernel void k(float x<>, out float y<>) { y = 2.0f * x; }");
//   auto X = eng.stream<float>({4}), Y = eng.stream<float>({4});
//   X.read(host_in);              // host → stream (sizes checked)
//   eng.call("k", X, Y);          // arguments checked against the kernel
//   Y.write(host_out);            // stream → host
//
// Every failure (a compile error, a runtime error, a wrong argument) throws
// brook::Error whose what() is the full diagnostic text. An Engine is not
// shared between threads without external locking; separate engines are
// independent.
#pragma once
// Tells a header that `brook cc` generated that the host uses this API (and
// BrookGPU's below), not Brook+'s brook/Stream.h.
#define BROOK_BROOK_HPP 1

#include <concepts>
#include <cstddef>
#include <cstdint>
// BrookGPU's headers brought these in; its programs call memcmp, strncmp,
// printf and exit without including them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace brook {
class stream;  // BrookGPU's stream handle (the end of this header)
class iter;    // BrookGPU's iterator stream
// The inline namespace keeps these symbols apart from brook's internal classes
// of the same names (the library holds both); users just write brook::Engine.
inline namespace api {

// A compile error, runtime error or misuse of the API; what() holds the
// diagnostics as `brook run` would print them (file:line:col: error: …).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& diagnostics) : std::runtime_error(diagnostics) {}
};

enum class Backend { automatic, interp, jit, opencl };

// The name `--backend` and $BROOK_BACKEND use for `b` ("" for automatic).
constexpr const char* backend_name(Backend b) {
  switch (b) {
    case Backend::interp: return "interp";
    case Backend::jit: return "jit";
    case Backend::opencl: return "opencl";
    case Backend::automatic: break;
  }
  return "";
}

struct Options {
  Backend backend = Backend::automatic;  // automatic: $BROOK_BACKEND, else the best built
  int device = -1;                       // OpenCL device index; -1: $BROOK_OPENCL_DEVICE, else 0
  int threads = 0;                       // JIT worker threads; 0: all cores
  std::vector<std::string> include_dirs{};  // for #include "…"
  std::vector<std::string> defines{};       // "NAME" or "NAME=VALUE"
  // Where the program's output goes: f(1, text) for stdout, f(2, text) for
  // warnings. Unset: the process's stdout and stderr.
  std::function<void(int stream, std::string_view text)> output{};
  // Caps of --max-memory and --time-limit (0: none): bytes of stream storage,
  // aliasing scratch and host heap held at once, and wall seconds of one
  // call (load, eval, call, invoke, reduce). Past either, the call throws
  // brook::Error naming the limit and the Engine stays usable.
  std::uint64_t max_memory = 0;
  double time_limit = 0;
};

namespace detail {

class Session;
struct StreamState;

// The lock of the process-wide engine (shared_engine(), BrookGPU's and
// Brook+'s streams): held by every operation on it, so that any thread may
// launch; `brook cc`'s wrappers hold it across loading and launching.
std::recursive_mutex& process_session_mutex();

// Brook's name for a C++ scalar type; empty for other types (vectors and
// structs take the kernel's declared type, checked by size).
template <class T>
constexpr std::string_view scalar_name() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>) return "float";
  else if constexpr (std::is_same_v<U, double>) return "double";
  else if constexpr (std::is_same_v<U, bool>) return "bool";
  else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, signed char>) return "char";
  else if constexpr (std::is_same_v<U, unsigned char>) return "unsigned char";
  else if constexpr (std::is_same_v<U, short>) return "short";
  else if constexpr (std::is_same_v<U, unsigned short>) return "unsigned short";
  else if constexpr (std::is_same_v<U, int>) return "int";
  else if constexpr (std::is_same_v<U, unsigned int>) return "unsigned int";
  else if constexpr (std::is_same_v<U, long> || std::is_same_v<U, long long>) return "long";
  else if constexpr (std::is_same_v<U, unsigned long> || std::is_same_v<U, unsigned long long>) return "unsigned long";
  else return "";
}

}  // namespace detail

// The scalars of a C++ value in memory order, each with its byte offset and
// Brook scalar name: what a struct or vector argument is checked against
// (`struct F4 { float x, y, z, w; }` for a float4 is four floats at 0, 4, 8,
// 12). An embedder describes its own struct with a function found by ADL:
//
//   struct Particle { F3 pos; float mass; };
//   brook::Layout brook_layout(const Particle&) {
//     return brook::layout(&Particle::pos, &Particle::mass);
//   }
//
// A member may be a scalar, a described struct, or a C array of either.
// Values of undescribed types are checked by size only.
struct LayoutField {
  std::size_t offset = 0;
  std::string_view scalar;  // "float", "unsigned int", …
  bool operator==(const LayoutField&) const = default;
};
struct Layout {
  std::vector<LayoutField> fields;  // empty: not described
};

namespace detail {

template <class T>
concept described = requires(const T& t) {
  { brook_layout(t) } -> std::same_as<Layout>;
};

template <class T>
void append_layout(Layout& out, std::size_t offset);

template <class T, class M>
std::size_t member_offset(M T::*member) {
  static const T probe{};
  return static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&(probe.*member)) -
                                  reinterpret_cast<const unsigned char*>(&probe));
}

}  // namespace detail

// T's scalars: one for a scalar, flattened for a C array, the embedder's
// brook_layout() for a struct; empty when T is none of these.
template <class T>
Layout layout_of() {
  Layout out;
  detail::append_layout<std::remove_cv_t<T>>(out, 0);
  return out;
}

// brook_layout()'s body: the members of one struct, in declaration order.
template <class T, class... M>
Layout layout(M T::*... members) {
  Layout out;
  (detail::append_layout<std::remove_cv_t<M>>(out, detail::member_offset(members)), ...);
  return out;
}

namespace detail {

template <class T>
void append_layout(Layout& out, std::size_t offset) {
  if constexpr (!scalar_name<T>().empty()) {
    out.fields.push_back({offset, scalar_name<T>()});
  } else if constexpr (std::is_array_v<T>) {
    using E = std::remove_cv_t<std::remove_extent_t<T>>;
    for (std::size_t i = 0; i < std::extent_v<T>; ++i)
      append_layout<E>(out, offset + i * sizeof(E));
  } else if constexpr (described<T>) {
    for (const LayoutField& f : brook_layout(T{}).fields)
      out.fields.push_back({offset + f.offset, f.scalar});
  }
}

// One argument of call/invoke, type-erased: a stream, or the bytes of a value.
struct Arg {
  const StreamState* stream = nullptr;
  const void* data = nullptr;
  std::size_t size = 0;
  std::string_view scalar;       // Brook scalar type name, or empty
  Layout (*layout)() = nullptr;  // a described struct's layout_of<T>
};

template <class T>
constexpr Layout (*layout_function())() {
  if constexpr (described<std::remove_cv_t<T>>)
    return &layout_of<T>;
  else
    return nullptr;
}

}  // namespace detail

// A handle to a stream owned by an Engine. Copies share the storage, which is
// freed when the last handle goes (the Engine's state lives until then too).
class AnyStream {
 public:
  AnyStream() = default;
  // Extents, slowest first (as declared: `float s<R, C>` → {R, C}).
  const std::vector<int64_t>& extents() const;
  std::string_view element_type() const;  // "float4"
  std::size_t element_size() const;
  std::size_t size() const;  // number of elements
  explicit operator bool() const { return state_ != nullptr; }

 protected:
  friend class Engine;
  friend class ::brook::stream;
  friend class ::brook::iter;
  explicit AnyStream(std::shared_ptr<detail::StreamState> s) : state_(std::move(s)) {}
  void read_bytes(const void* host, std::size_t bytes);  // host → stream
  void write_bytes(void* host, std::size_t bytes) const;  // stream → host
  std::shared_ptr<detail::StreamState> state_;
};

// A typed handle: T is a C++ type of the element's size (float for float,
// a `struct F4 { float x, y, z, w; }` for float4).
template <class T>
class Stream : public AnyStream {
  static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
                "stream elements must be plain standard-layout types");

 public:
  Stream() = default;
  // streamRead: copies exactly size() elements from host memory into the stream.
  void read(std::span<const T> host) { read_bytes(host.data(), host.size_bytes()); }
  // streamWrite: copies the stream out; `host` must hold exactly size() elements.
  void write(std::span<T> host) const { write_bytes(host.data(), host.size_bytes()); }
  std::vector<T> to_vector() const {
    std::vector<T> v(size());
    write(v);
    return v;
  }

 private:
  friend class Engine;
  explicit Stream(AnyStream s) : AnyStream(std::move(s)) {}
};

class Engine {
 public:
  explicit Engine(Options options = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Compiles a file or text and runs its top-level statements (not `main`).
  void load_file(const std::string& path);
  void load_source(std::string_view source, std::string_view name = "<source>");
  // One entry as in the REPL: declarations, statements or an expression.
  // Returns the expression's value as the REPL shows it ("42"); of a stream
  // or a view, its element type and shape ("float<4, 6>"); else "".
  std::string eval(std::string_view entry);

  // A new zeroed stream; the element type is T's Brook scalar name, or given.
  template <class T>
  Stream<T> stream(std::initializer_list<int64_t> extents) {
    static_assert(!detail::scalar_name<T>().empty(),
                  "name the element type: stream<T>(\"float4\", {…}) for vector and struct elements");
    return Stream<T>(make_stream(detail::scalar_name<T>(), sizeof(T), extents));
  }
  template <class T>
  Stream<T> stream(std::string_view element_type, std::initializer_list<int64_t> extents) {
    Stream<T> s(make_stream(element_type, sizeof(T), extents));
    if constexpr (detail::described<std::remove_cv_t<T>>) check_element_layout(s, layout_of<T>());
    return s;
  }

  // A handle to a stream that Brook code declared at top level
  // (`float a<8>;` in a loaded source): reading, writing and passing it work
  // on the program's own stream. Throws Error when no live stream has that
  // name, or (typed form) when T's size differs from the element's.
  AnyStream stream_named(std::string_view name);
  template <class T>
  Stream<T> stream_named(std::string_view name) {
    Stream<T> s(stream_named(name));
    check_element_size(s, sizeof(T));
    if constexpr (detail::described<std::remove_cv_t<T>>) check_element_layout(s, layout_of<T>());
    return s;
  }

  // Launches a kernel: streams for stream and gather parameters, plain
  // values for constants (converted as in C when scalar).
  template <class... Args>
  void call(std::string_view kernel, const Args&... args) {
    const detail::Arg erased[] = {arg(args)..., detail::Arg{}};
    call_erased(kernel, std::span<const detail::Arg>(erased, sizeof...(Args)));
  }
  // Folds a stream with a reduce function into one value.
  template <class T>
  T reduce(std::string_view reducer, const AnyStream& input) {
    T out{};
    reduce_erased(reducer, input, &out, sizeof(T), detail::scalar_name<T>());
    return out;
  }
  // Folds `input` into the stream `target` (LANGUAGE.md §7's block rule:
  // each target element receives the fold of its block of the input).
  void reduce(std::string_view reducer, const AnyStream& input, const AnyStream& target) {
    reduce_call(reducer, input, target);
  }
  // Calls a reduce function positionally, as a .br call `r(in, target)` does
  // (LANGUAGE.md §7): the reduce target is a stream (folded block-wise) or a
  // host variable, which must be a modifiable lvalue and receives the fold;
  // other arguments are constants and gathers as for call().
  template <class... Args>
  void reduce_call(std::string_view reducer, const Args&... args) {
    const detail::Arg erased[] = {arg(args)..., detail::Arg{}};
    reduce_call_erased(reducer, std::span<const detail::Arg>(erased, sizeof...(Args)));
  }
  // Calls a host function of the program.
  template <class R = void, class... Args>
  R invoke(std::string_view function, const Args&... args) {
    const detail::Arg erased[] = {arg(args)..., detail::Arg{}};
    if constexpr (std::is_void_v<R>) {
      invoke_erased(function, std::span<const detail::Arg>(erased, sizeof...(Args)), nullptr, 0, "");
    } else {
      R out{};
      invoke_erased(function, std::span<const detail::Arg>(erased, sizeof...(Args)), &out, sizeof(R),
                    detail::scalar_name<R>());
      return out;
    }
  }

  // Host globals of the program, by C layout (sizes checked).
  template <class T>
  T get(std::string_view global) const {
    T out{};
    global_erased(global, &out, sizeof(T), false);
    return out;
  }
  template <class T>
  void set(std::string_view global, const T& value) {
    global_erased(global, const_cast<T*>(&value), sizeof(T), true);
  }
  // `brook run` inside a C++ program (what `brook cc` generates for a .br
  // `main`): compile_source parses and checks a file of the program without
  // running anything (throws Error with the diagnostics); run() then runs the
  // top-level statements not yet run and main(argc, argv) when defined, and
  // returns the exit status of LANGUAGE.md §1 (main's value, exit()'s
  // argument, 1 after a runtime error, which is printed, not thrown).
  void compile_source(std::string_view source, std::string_view name);
  int run(std::span<const std::string> argv);

  // Adds -D NAME[=VALUE] and -I DIR for sources loaded from now on (each
  // only once).
  void add_preprocessor_options(std::span<const std::string> defines,
                                std::span<const std::string> include_dirs);
  // A file that the program's #include lines read from memory instead of the
  // disk, named by its absolute path (`brook cc` embeds a .br file's
  // includes this way, so the built program runs without them).
  void embed_file(std::string_view path, std::string_view text);

  // Whether the program declares `name` (a function, kernel or global).
  bool has(std::string_view name) const;

  // The backend kernels run on: "interp", "jit" or "opencl".
  std::string backend() const;
  // Moves the engine to another backend: every stream keeps its contents and
  // handles stay valid; later calls run there. Throws Error, and stays on the
  // current backend with every stream intact, when it cannot (not built, no
  // device, a stream that cannot be moved).
  void set_backend(std::string_view name);

 private:
  template <class T>
  static detail::Arg arg(const T& v) {
    if constexpr (std::is_base_of_v<AnyStream, T>) {
      return detail::Arg{v.state_.get(), nullptr, 0, {}};
    } else {
      static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
                    "arguments are streams or plain standard-layout values");
      return detail::Arg{nullptr, &v, sizeof(T), detail::scalar_name<T>(),
                         detail::layout_function<T>()};
    }
  }
  AnyStream make_stream(std::string_view element_type, std::size_t element_size,
                        std::initializer_list<int64_t> extents);
  void call_erased(std::string_view kernel, std::span<const detail::Arg> args);
  void reduce_call_erased(std::string_view reducer, std::span<const detail::Arg> args);
  void reduce_erased(std::string_view reducer, const AnyStream& input, void* out, std::size_t size,
                     std::string_view scalar);
  void invoke_erased(std::string_view function, std::span<const detail::Arg> args, void* out,
                     std::size_t size, std::string_view scalar);
  void global_erased(std::string_view name, void* data, std::size_t size, bool write) const;
  static void check_element_size(const AnyStream& s, std::size_t size);
  static void check_element_layout(const AnyStream& s, const Layout& layout);

  std::shared_ptr<detail::Session> session_;
  friend class ::brook::stream;
  friend class ::brook::iter;
  friend Engine& shared_engine();
  explicit Engine(std::shared_ptr<detail::Session> s) : session_(std::move(s)) {}
};

// The engine of the process, created on first use on the backend
// $BROOK_BACKEND names (else the JIT), with the disk cache: the one that
// BrookGPU's host interface below and the functions `brook cc` generates use.
Engine& shared_engine();

}  // namespace api
}  // namespace brook

#ifndef BROOK_NO_BROOKGPU_API
// ---------------------------------------------------------------------------
// BrookGPU's C++ host interface, as its applications use it from .cpp files
// whose kernels `brook cc` translated:
//
//   ::brook::stream s(::brook::getStreamType((float4*)0), height, width, -1);
//   streamRead(s, data);
//   kscale(2.0f, s, t);               // void kscale(const float, ::brook::stream, ::brook::stream)
//   streamWrite(t, out);
//
// Streams live on brook::shared_engine(). The vector types are BrookGPU's
// global ones, laid out as Brook's (define BROOK_NO_BROOKGPU_API before
// including this header to leave the global namespace alone).
#ifndef BROOK_CC_TYPE_float2
#define BROOK_CC_TYPE_float2
struct float2 {
  float x, y;
};
#endif
#ifndef BROOK_CC_TYPE_float3
#define BROOK_CC_TYPE_float3
struct float3 {
  float x, y, z;
};
#endif
#ifndef BROOK_CC_TYPE_float4
#define BROOK_CC_TYPE_float4
struct float4 {
  float x, y, z, w;
};
#endif
#ifndef BROOK_CC_TYPE_double2
#define BROOK_CC_TYPE_double2
struct double2 {
  double x, y;
};
#endif
#ifndef BROOK_CC_TYPE_int2
#define BROOK_CC_TYPE_int2
struct int2 {
  int x, y;
};
#endif
#ifndef BROOK_CC_TYPE_int3
#define BROOK_CC_TYPE_int3
struct int3 {
  int x, y, z;
};
#endif
#ifndef BROOK_CC_TYPE_int4
#define BROOK_CC_TYPE_int4
struct int4 {
  int x, y, z, w;
};
#endif

namespace brook {

// BrookGPU's element type codes; getStreamType((T*)0) lists T's fields,
// ended by __BRTNONE.
enum StreamType {
  __BRTNONE = -1,
  __BRTSTREAM = 0,
  __BRTFLOAT = 1,
  __BRTFLOAT2 = 2,
  __BRTFLOAT3 = 3,
  __BRTFLOAT4 = 4,
  __BRTFIXED = 5,
  __BRTFIXED2 = 6,
  __BRTFIXED3 = 7,
  __BRTFIXED4 = 8,
  __BRTSHORTFIXED = 9,
  __BRTSHORTFIXED2 = 10,
  __BRTSHORTFIXED3 = 11,
  __BRTSHORTFIXED4 = 12,
  __BRTDOUBLE = 13,
  __BRTDOUBLE2 = 14,
};

template <class T>
const StreamType* getStreamType(T* unused = 0);

namespace detail {
// Names a struct's field list (`brook cc` writes getStreamType for each .br
// struct with this call): a ::brook::stream made from `fields` is then a
// stream of Brook type `brook_type`, of `bytes` per element. Returns true.
bool name_stream_type(const StreamType* fields, const char* brook_type, std::size_t bytes);
}  // namespace detail
#define BROOK_STREAM_TYPE(T, CODE)                        \
  template <>                                             \
  inline const StreamType* getStreamType(T*) {            \
    static const StreamType result[] = {CODE, __BRTNONE}; \
    return result;                                        \
  }
BROOK_STREAM_TYPE(float, __BRTFLOAT)
BROOK_STREAM_TYPE(::float2, __BRTFLOAT2)
BROOK_STREAM_TYPE(::float3, __BRTFLOAT3)
BROOK_STREAM_TYPE(::float4, __BRTFLOAT4)
BROOK_STREAM_TYPE(double, __BRTDOUBLE)
BROOK_STREAM_TYPE(::double2, __BRTDOUBLE2)
#undef BROOK_STREAM_TYPE

// A stream handle: copies share the storage (BrookGPU's reference count).
class stream {
 public:
  stream() = default;
  // BrookGPU's form: the element type, then the extents (slowest first,
  // as declared in Brook), ended by -1.
  stream(const StreamType* type, ...);
  template <class T>
  static stream create(int extent) {
    return stream(getStreamType((T*)0), extent, -1);
  }
  template <class T>
  static stream create(int y, int x) {
    return stream(getStreamType((T*)0), y, x, -1);
  }
  // A handle of the embedding API's stream (brook::Stream<T>, AnyStream).
  explicit stream(AnyStream s) : s_(std::move(s)) {}
  // BrookGPU accepted an iterator wherever a kernel reads an input stream.
  stream(const ::brook::iter& it);

  void read(const void* data);   // streamRead: every element from host memory
  void write(void* data) const;  // streamWrite: every element to host memory
  // A view: [min, max) per dimension, x (the fastest) first, as .domain() in Brook.
  stream domain(int min, int max) const;
  stream domain(const ::int2& min, const ::int2& max) const;
  stream domain(const ::int3& min, const ::int3& max) const;
  stream domain(const ::int4& min, const ::int4& max) const;
  void swap(stream& other) { std::swap(s_, other.s_); }

  const AnyStream& handle() const { return s_; }
  const std::vector<int64_t>& extents() const { return s_.extents(); }

 private:
  stream domain_of(std::initializer_list<int> min, std::initializer_list<int> max) const;
  AnyStream s_;
};

// BrookGPU's iterator stream, as brcc's output and applications built it:
// the element type, the extents (slowest first) ended by -1, then the first
// value's components and the last value's, ended by -1. `::brook::iter
// it(__BRTFLOAT2, h, w, -1, 0.0f, 0.0f, 1.0f, 1.0f, -1)` is Brook's `iter
// float2 it<h, w> = iter(float2(0, 0), float2(1, 1));` (LANGUAGE.md §6),
// passed to a kernel's iterator parameter.
class iter {
 public:
  iter() = default;
  iter(StreamType type, ...);

  const AnyStream& handle() const { return s_; }
  const std::vector<int64_t>& extents() const { return s_.extents(); }

 private:
  AnyStream s_;
};

inline stream::stream(const ::brook::iter& it) : s_(it.handle()) {}

// BrookGPU's runtime routines (brt.hpp). brook has one runtime, chosen by
// $BROOK_BACKEND (else the JIT): initialize() accepts any of BrookGPU's
// runtime names ("cpu", "dx9", "ogl", "cal", ...) and keeps that backend;
// launches and copies complete before they return, so finish() waits for
// nothing; bind() and unbind() (sharing the GPU with the application's
// rendering) have nothing to do.
void initialize(const char* runtime, void* context = 0);
void finalize();
void finish();
void bind();
void unbind();
// The runtimes initialize() accepts, ended by a null pointer: {"cpu", 0}.
const char** runtimeTargets();
typedef std::int64_t int64;
// A monotonic clock in microseconds, for timing.
int64 microseconds();

}  // namespace brook

// BrookGPU's aligned host memory, for buffers that streamRead and streamWrite copy.
#ifndef BRTALIGNED
#if defined(__GNUC__)
#define BRTALIGNED __attribute__((aligned(16)))
#else
#define BRTALIGNED alignas(16)
#endif
#endif
inline void* brmalloc(std::size_t bytes) {
  return std::aligned_alloc(16, (bytes + 15) / 16 * 16);
}
inline void brfree(void* p) {
  std::free(p);
}

typedef ::brook::stream __BRTStream;
typedef ::brook::iter __BRTIter;
// BrookGPU's type codes are global names there (`::brook::iter it(__BRTFLOAT2, …)`).
using enum ::brook::StreamType;

inline void streamRead(::brook::stream& s, const void* data) {
  s.read(data);
}
inline void streamWrite(const ::brook::stream& s, void* data) {
  s.write(data);
}
inline void streamSwap(::brook::stream& a, ::brook::stream& b) {
  a.swap(b);
}
// BrookGPU's streamSize: the extents as a float4, x (the fastest) first.
inline ::float4 streamSize(const ::brook::stream& s) {
  const std::vector<int64_t>& e = s.extents();
  float v[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < e.size() && i < 4; ++i)
    v[i] = static_cast<float>(e[e.size() - 1 - i]);
  return ::float4{v[0], v[1], v[2], v[3]};
}
#endif  // BROOK_NO_BROOKGPU_API
