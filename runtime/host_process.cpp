// The process, as C and POSIX programs see it (LANGUAGE.md §9): the
// environment (setenv, unsetenv), _Exit, getopt with glibc's behaviour
// (it moves non-options to the end of argv), and <signal.h>'s signal and
// raise. Signals are synchronous here: raise() runs the program's handler
// at once; a handler is never called from outside the program.
#include <stdio_ext.h>

#include <algorithm>
#include <cerrno>
#include <cfenv>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "interp/function_pointers.hpp"
#include "runtime/host_call.hpp"

namespace brook::host_detail {

namespace {

constexpr uint64_t kSigDfl = 0, kSigIgn = 1, kSigErr = ~uint64_t{0};
constexpr int32_t kSigKill = 9, kSigStop = 19, kMaxSignal = 64;

// Signals whose default action is to do nothing (glibc, x86-64 Linux):
// SIGCHLD, SIGCONT, SIGURG, SIGWINCH.
bool ignored_by_default(int32_t sig) {
  return sig == 17 || sig == 18 || sig == 23 || sig == 28;
}

const char* signal_name(int32_t sig) {
  static const char* const kNames[] = {
      nullptr,     "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",   "SIGTRAP", "SIGABRT", "SIGBUS",
      "SIGFPE",    "SIGKILL", "SIGUSR1",   "SIGSEGV", "SIGUSR2",  "SIGPIPE", "SIGALRM", "SIGTERM",
      "SIGSTKFLT", "SIGCHLD", "SIGCONT",   "SIGSTOP", "SIGTSTP",  "SIGTTIN", "SIGTTOU", "SIGURG",
      "SIGXCPU",   "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO",   "SIGPWR",  "SIGSYS"};
  return sig > 0 && sig < static_cast<int32_t>(std::size(kNames)) ? kNames[sig] : nullptr;
}

// getopt's view of the program's argv and globals.
class Getopt {
 public:
  Getopt(LibCall& c, Machine& m, int32_t argc, uint64_t argv, std::string optstring)
      : c_(c), m_(m), argc_(argc), argv_(argv), spec_(std::move(optstring)) {}

  int32_t next() {
    Machine::GetoptState& st = m_.getopt;
    set_optarg(0);
    int32_t optind = load_int(m_.optind_ptr);
    if (optind == 0 || !st.initialized) {
      if (optind == 0) optind = 1;
      st.first_nonopt = st.last_nonopt = optind;
      st.nextchar = 0;
      st.initialized = true;
    }
    // glibc's orderings: '+' (or POSIXLY_CORRECT) stops at the first
    // non-option, '-' returns each non-option as the argument of option 1.
    size_t start = 0;
    enum { permute, require_order, return_in_order } ordering = permute;
    if (!spec_.empty() && spec_[0] == '-')
      ordering = return_in_order, start = 1;
    else if (!spec_.empty() && spec_[0] == '+')
      ordering = require_order, start = 1;
    else if (std::getenv("POSIXLY_CORRECT"))
      ordering = require_order;
    const bool quiet = start < spec_.size() && spec_[start] == ':';
    const bool print_errors = load_int(m_.opterr_ptr) != 0 && !quiet;

    if (st.nextchar == 0 || byte(st.nextchar) == 0) {
      if (st.last_nonopt > optind) st.last_nonopt = optind;
      if (st.first_nonopt > optind) st.first_nonopt = optind;
      if (ordering == permute) {
        if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind)
          exchange(optind);
        else if (st.last_nonopt != optind)
          st.first_nonopt = optind;
        while (optind < argc_ && nonoption(optind)) ++optind;
        st.last_nonopt = optind;
      }
      if (optind != argc_ && arg_text(optind) == "--") {
        ++optind;
        if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind)
          exchange(optind);
        else if (st.first_nonopt == st.last_nonopt)
          st.first_nonopt = optind;
        st.last_nonopt = argc_;
        optind = argc_;
      }
      if (optind == argc_) {
        if (st.first_nonopt != st.last_nonopt) optind = st.first_nonopt;
        store_int(m_.optind_ptr, optind);
        return -1;
      }
      if (nonoption(optind)) {
        if (ordering == require_order) {
          store_int(m_.optind_ptr, optind);
          return -1;
        }
        set_optarg(arg(optind));
        store_int(m_.optind_ptr, optind + 1);
        return 1;
      }
      st.nextchar = interp::pointer_add(arg(optind), 1);
    }

    const int32_t ch = byte(st.nextchar);
    st.nextchar = interp::pointer_add(st.nextchar, 1);
    const size_t at =
        ch == ':' || ch == ';' ? std::string::npos : spec_.find(static_cast<char>(ch), start);
    if (byte(st.nextchar) == 0) ++optind;
    if (at == std::string::npos) {
      if (print_errors)
        complain("invalid option -- '" + std::string(1, static_cast<char>(ch)) + "'");
      store_int(m_.optopt_ptr, ch);
      store_int(m_.optind_ptr, optind);
      return '?';
    }
    int32_t result = ch;
    if (at + 1 < spec_.size() && spec_[at + 1] == ':') {
      const bool optional = at + 2 < spec_.size() && spec_[at + 2] == ':';
      if (byte(st.nextchar) != 0) {
        set_optarg(st.nextchar);
        ++optind;
      } else if (optional) {
        set_optarg(0);
      } else if (optind == argc_) {
        if (print_errors)
          complain("option requires an argument -- '" + std::string(1, static_cast<char>(ch)) +
                   "'");
        store_int(m_.optopt_ptr, ch);
        result = quiet ? ':' : '?';
      } else {
        set_optarg(arg(optind));
        ++optind;
      }
      st.nextchar = 0;
    }
    store_int(m_.optind_ptr, optind);
    return result;
  }

 private:
  int32_t load_int(uint64_t p) {
    int32_t v = 0;
    if (p) std::memcpy(&v, m_.memory.at(p, 4, c_.loc), 4);
    return v;
  }
  void store_int(uint64_t p, int32_t v) {
    if (p) std::memcpy(m_.memory.at(p, 4, c_.loc, true), &v, 4);
  }
  void set_optarg(uint64_t v) {
    if (m_.optarg_ptr) std::memcpy(m_.memory.at(m_.optarg_ptr, 8, c_.loc, true), &v, 8);
  }
  uint64_t arg(int32_t i) {
    uint64_t p = 0;
    std::memcpy(&p, m_.memory.at(interp::pointer_add(argv_, int64_t{8} * i), 8, c_.loc), 8);
    return p;
  }
  std::string arg_text(int32_t i) { return m_.memory.read_string(arg(i), c_.loc); }
  int32_t byte(uint64_t p) { return *m_.memory.at(p, 1, c_.loc); }
  bool nonoption(int32_t i) {
    const uint64_t p = arg(i);
    return byte(p) != '-' || byte(interp::pointer_add(p, 1)) == 0;
  }
  // Moves the non-options [first_nonopt, last_nonopt) after the options
  // [last_nonopt, optind), as glibc's exchange() does.
  void exchange(int32_t optind) {
    Machine::GetoptState& st = m_.getopt;
    std::vector<uint64_t> v;
    for (int32_t i = st.first_nonopt; i < optind; ++i) v.push_back(arg(i));
    std::rotate(v.begin(), v.begin() + (st.last_nonopt - st.first_nonopt), v.end());
    for (int32_t i = st.first_nonopt; i < optind; ++i)
      std::memcpy(m_.memory.at(interp::pointer_add(argv_, int64_t{8} * i), 8, c_.loc, true),
                  &v[static_cast<size_t>(i - st.first_nonopt)], 8);
    st.first_nonopt += optind - st.last_nonopt;
    st.last_nonopt = optind;
  }
  void complain(const std::string& what) {
    c_.write_to(m_, m_.stderr_ptr, arg_text(0) + ": " + what + "\n");
  }

  LibCall& c_;
  Machine& m_;
  int32_t argc_;
  uint64_t argv_;
  std::string spec_;
};

}  // namespace

std::optional<Scalar> LibCall::process(Machine& m) {
  using interp::put;
  switch (id) {
    case Builtin::setenv: {
      const std::string name = m.memory.read_string(arg(m, 0).u, loc);
      const std::string value = m.memory.read_string(arg(m, 1).u, loc);
      const int overwrite = static_cast<int>(arg(m, 2).i);
      return put<int32_t>(::setenv(name.c_str(), value.c_str(), overwrite));
    }
    case Builtin::unsetenv: {
      const std::string name = m.memory.read_string(arg(m, 0).u, loc);
      return put<int32_t>(::unsetenv(name.c_str()));
    }
    case Builtin::Exit_: {
      // C's _Exit: no atexit handlers and no flushing, so what stdout and
      // the open files still buffer is lost, as under gcc.
      const int32_t status = static_cast<int32_t>(arg(m, 0).i);
      ::__fpurge(stdout);
      lib->discard_files();
      throw interp::ExitRequest{status, true};
    }
    case Builtin::getopt: {
      const int32_t argc = static_cast<int32_t>(arg(m, 0).i);
      const uint64_t argv = arg(m, 1).u;
      std::string optstring = m.memory.read_string(arg(m, 2).u, loc);
      if (argc < 1) return put<int32_t>(-1);
      return put<int32_t>(Getopt(*this, m, argc, argv, std::move(optstring)).next());
    }
    case Builtin::signal: {
      const int32_t sig = static_cast<int32_t>(arg(m, 0).i);
      const uint64_t handler = arg(m, 1).u;
      if (sig < 1 || sig > kMaxSignal || sig == kSigKill || sig == kSigStop) {
        errno = EINVAL;
        return interp::from_u64(kSigErr);
      }
      Machine::SignalHandler& slot = m.signal_handlers[sig];
      const uint64_t old = slot.pointer;
      slot = {handler, types[1]->is_pointer() ? types[1]->elem : nullptr};
      return interp::from_u64(old);
    }
    case Builtin::raise: {
      const int32_t sig = static_cast<int32_t>(arg(m, 0).i);
      if (sig < 1 || sig > kMaxSignal) {
        errno = EINVAL;
        return put<int32_t>(-1);
      }
      auto it = m.signal_handlers.find(sig);
      const uint64_t handler = it == m.signal_handlers.end() ? kSigDfl : it->second.pointer;
      if (handler == kSigIgn || (handler == kSigDfl && ignored_by_default(sig)))
        return put<int32_t>(0);
      if (handler == kSigDfl) {
        const char* name = signal_name(sig);
        throw RuntimeError{loc, std::string("raise(") + (name ? name : std::to_string(sig)) +
                                    "): the signal's default action ends the program"};
      }
      const auto* fn_type = static_cast<const Type*>(it->second.fn_type);
      const std::vector<const Type*> arg_types{types[0]};
      interp::CompiledFunction& fn = interp::function_at(m, handler, fn_type, arg_types, loc);
      interp::invoke(m, fn, loc, nullptr, [&](uint8_t* frame) {
        if (!fn.param_offsets.empty()) interp::store_as<int32_t>(frame + fn.param_offsets[0], sig);
      });
      return put<int32_t>(0);
    }
    case Builtin::setlocale: {
      // Programs run in the "C" locale (brook's own number formatting and
      // parsing depend on it): "C", "POSIX" and "" (the environment's, which
      // is taken to be C) select it, any other name fails, as an uninstalled
      // locale does.
      const int32_t category = static_cast<int32_t>(arg(m, 0).i);
      const uint64_t p = arg(m, 1).u;
      if (category < 0 || category > 6) return interp::from_u64(0);
      if (p) {
        const std::string name = m.memory.read_string(p, loc);
        if (!name.empty() && name != "C" && name != "POSIX") return interp::from_u64(0);
      }
      const uint64_t s =
          interp::make_pointer(m.memory.allocate(2, interp::ObjectKind::global, loc), 0);
      std::memcpy(m.memory.at(s, 2, loc, true), "C", 2);
      return interp::from_u64(s);
    }
    case Builtin::fesetround: {
      // The host interpreter's arithmetic then rounds that way, as a C
      // program's does; the engine goes back to nearest after each run, and
      // kernels (other threads) always round to nearest.
      const int32_t mode = static_cast<int32_t>(arg(m, 0).i);
      if (mode != FE_TONEAREST && mode != FE_DOWNWARD && mode != FE_UPWARD && mode != FE_TOWARDZERO)
        return put<int32_t>(1);
      return put<int32_t>(std::fesetround(mode) == 0 ? 0 : 1);
    }
    case Builtin::fegetround:
      return put<int32_t>(std::fegetround());
    default:
      return std::nullopt;
  }
}

}  // namespace brook::host_detail
