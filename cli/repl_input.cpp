#include "cli/repl_input.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <sys/select.h>
#include <unistd.h>

#include "runtime/engine.hpp"

#ifdef BROOK_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace brook::cli {

namespace {

std::atomic<bool> g_interrupt{false};

extern "C" void on_sigint(int) {
  g_interrupt.store(true);
  Engine::interrupt();  // a running entry stops at its next loop iteration or call
}

class PlainReader : public LineReader {
 public:
  explicit PlainReader(bool prompts) : prompts_(prompts) {}
  std::optional<std::string> read(const std::string& prompt) override {
    interrupted_ = false;
    if (prompts_) {
      std::fputs(prompt.c_str(), stdout);
      std::fflush(stdout);
    }
    std::string line;
    for (;;) {
      int c = std::getchar();
      if (c == EOF) {
        if (std::ferror(stdin) && errno == EINTR && take_interrupt()) {
          std::clearerr(stdin);
          interrupted_ = true;
          if (prompts_) std::fputs("\n", stdout);
          return std::string();
        }
        if (line.empty()) return std::nullopt;
        return line;
      }
      if (c == '\n') return line;
      line += static_cast<char>(c);
    }
  }
  bool interrupted() const override { return interrupted_; }

 private:
  bool prompts_;
  bool interrupted_ = false;
};

#ifdef BROOK_HAVE_READLINE

Completer* g_completer = nullptr;
std::vector<std::string> g_matches;

char* next_match(const char*, int state) {
  static size_t index;
  if (state == 0) index = 0;
  if (index >= g_matches.size()) return nullptr;
  return strdup(g_matches[index++].c_str());
}

char** complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;  // no filename fallback except for :load
  std::string line(rl_line_buffer, static_cast<size_t>(start));
  if (line.rfind(":load ", 0) == 0) {
    rl_attempted_completion_over = 0;
    return nullptr;
  }
  g_matches = g_completer ? (*g_completer)(line, text) : std::vector<std::string>{};
  return rl_completion_matches(text, next_match);
}

// The callback interface lets a Ctrl-C at the prompt clear the line and show a
// fresh prompt, instead of being lost inside readline's blocking read.
class ReadlineReader : public LineReader {
 public:
  ReadlineReader(std::string history_path, Completer completer)
      : history_path_(std::move(history_path)), completer_(std::move(completer)) {
    rl_readline_name = "brook";
    rl_catch_signals = 0;
    g_completer = &completer_;
    rl_attempted_completion_function = complete;
    // ':' starts a command and must stay part of the word being completed.
    rl_basic_word_break_characters = const_cast<char*>(" \t\n\"\\'`@$><=;|&{(,+-*/%!~^[]");
    using_history();
    // A multi-line entry is one history item, in memory and in the file
    // (entries there are separated by timestamp lines).
    history_multiline_entries = 1;
    history_write_timestamps = 1;
    if (!history_path_.empty()) read_history(history_path_.c_str());
  }
  ~ReadlineReader() override { g_completer = nullptr; }

  std::optional<std::string> read(const std::string& prompt) override {
    interrupted_ = false;
    done_ = false;
    eof_ = false;
    current_ = this;
    rl_callback_handler_install(prompt.c_str(), on_line);
    while (!done_) {
      fd_set fds;
      FD_ZERO(&fds);
      FD_SET(fileno(rl_instream), &fds);
      int r = select(fileno(rl_instream) + 1, &fds, nullptr, nullptr, nullptr);
      if (take_interrupt()) {
        // Ctrl-C: abandon the line, go to a fresh prompt.
        rl_free_line_state();
        rl_callback_sigcleanup();
        rl_callback_handler_remove();
        std::fputs("^C\n", stdout);
        std::fflush(stdout);
        interrupted_ = true;
        return std::string();
      }
      if (r < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (r > 0) rl_callback_read_char();
    }
    rl_callback_handler_remove();
    current_ = nullptr;
    if (eof_) {
      std::fputs("\n", stdout);
      return std::nullopt;
    }
    return line_;
  }

  bool interrupted() const override { return interrupted_; }

  void remember(const std::string& line) override {
    if (line.empty()) return;
    add_history(line.c_str());
    if (!history_path_.empty()) {
      // Appended as we go, so a session that dies keeps what it had.
      if (append_history(1, history_path_.c_str()) != 0) write_history(history_path_.c_str());
      history_truncate_file(history_path_.c_str(), 1000);
    }
  }

 private:
  static void on_line(char* text) {
    ReadlineReader* self = current_;
    if (!self) return;
    self->done_ = true;
    if (!text) {
      self->eof_ = true;
    } else {
      self->line_ = text;
      std::free(text);
    }
    rl_callback_handler_remove();
  }

  static inline ReadlineReader* current_ = nullptr;
  std::string history_path_;
  Completer completer_;
  std::string line_;
  bool done_ = false, eof_ = false, interrupted_ = false;
};

#endif

}  // namespace

void install_interrupt_handler() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked read returns so the prompt can react
  sigaction(SIGINT, &sa, nullptr);
}

bool take_interrupt() { return g_interrupt.exchange(false); }

std::unique_ptr<LineReader> make_line_reader(bool terminal, const std::string& history_path,
                                             Completer completer) {
#ifdef BROOK_HAVE_READLINE
  if (terminal) return std::make_unique<ReadlineReader>(history_path, std::move(completer));
#else
  (void)history_path;
  (void)completer;
#endif
  return std::make_unique<PlainReader>(terminal);
}

}  // namespace brook::cli
