// The state an executing program shares across every node: memory, the call
// stack, return registers and the output layer.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interp/memory.hpp"
#include "interp/value.hpp"

namespace brook::interp {

struct CompiledFunction;

// Where program output goes (stdout = 1, stderr = 2). The REPL and embedders
// substitute their own; runtime errors flush it before they are printed.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void write(int stream, std::string_view text) = 0;
  virtual void flush() {}
};

// Frames of non-escaping locals live here, bump-allocated in chunks that never
// move, so a frame's host address is stable for its whole life.
class StackArena {
 public:
  struct Mark {
    size_t chunk;
    size_t used;
  };
  Mark mark() const { return {current_, used_}; }
  void release(Mark m) { current_ = m.chunk; used_ = m.used; }
  // `size` zeroed bytes, 16-aligned.
  uint8_t* push(size_t size);

 private:
  struct Chunk {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size;
  };
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
  size_t used_ = 0;
};

inline constexpr int kMaxCallDepth = 10000;

// Ctrl-C: interp/interrupt.hpp (shared with the JIT and OpenCL backends).
using brook::interrupt_requested;
using brook::poll_interrupt;

struct Machine {
  Memory memory;
  StackArena stack;
  uint8_t* fp = nullptr;  // the running function's frame
  int depth = 0;
  // The active calls, outermost first: calls[i] for i < depth is the function
  // running at depth i + 1 and where it was called. Left as it was when a
  // runtime error unwinds, so the error can print the call stack.
  struct Call {
    const CompiledFunction* fn = nullptr;
    SourceLoc call_loc;
  };
  std::vector<Call> calls = std::vector<Call>(kMaxCallDepth);
  // Return registers: scalars, vectors. An aggregate result is copied to the
  // address the caller stores at the start of the callee's frame.
  Scalar ret{};
  Vec retv{};
  OutputSink* out = nullptr;
  // Running kernel bodies: integer division by zero yields 0 there (§3).
  bool in_kernel = false;
  // File objects for the predefined stdout/stderr/stdin globals.
  uint64_t stdout_ptr = 0, stderr_ptr = 0, stdin_ptr = 0;
  // The label a goto (Flow::jump) is looking for: its ast::LabelStmt.
  const void* jump_to = nullptr;
  // A longjmp back to a setjmp (interp/setjmp_nodes.hpp): that SetjmpNode
  // returns longjmp_value once instead of recording.
  const void* longjmp_site = nullptr;
  int32_t longjmp_value = 0;
  // strtok's position in the string it is splitting (0: none yet).
  uint64_t strtok_next = 0;
  // errno's object (`*__brook_errno()`), made on first use (0: none yet);
  // host library calls load the C library's errno from it and store it back.
  uint64_t errno_ptr = 0;
  // drand48 & co.'s 48-bit state (POSIX's initial value).
  uint64_t rand48 = 0x1234abcd330eull;
  // The static results of localtime/gmtime (a struct tm) and asctime/ctime.
  uint64_t tm_ptr = 0, asctime_ptr = 0;
  // div()'s and ldiv()'s result, copied out by the expression that called it.
  uint64_t div_ptr = 0;
  // getopt's globals, objects of the program's (optarg, optind, opterr,
  // optopt), and where it is inside argv: the rest of a cluster of options
  // (`-abc`) and glibc's bounds of the non-options it moves to the end.
  uint64_t optarg_ptr = 0, optind_ptr = 0, opterr_ptr = 0, optopt_ptr = 0;
  struct GetoptState {
    uint64_t nextchar = 0;
    int32_t first_nonopt = 1, last_nonopt = 1;
    bool initialized = false;
  } getopt;
  // signal()'s dispositions by signal number: 0 SIG_DFL, 1 SIG_IGN, else a
  // function pointer, with the function type it was passed as (absent:
  // SIG_DFL).
  struct SignalHandler {
    uint64_t pointer = 0;
    const void* fn_type = nullptr;  // a brook::Type
  };
  std::unordered_map<int32_t, SignalHandler> signal_handlers;
  // atexit()'s handlers (function pointers), run last first after main.
  std::vector<uint64_t> atexit_handlers;
  // Function pointers: the memory object of each function whose address was taken.
  std::unordered_map<uint32_t, CompiledFunction*> functions;
};

}  // namespace brook::interp
