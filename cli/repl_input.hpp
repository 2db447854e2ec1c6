// Where REPL lines come from: readline on a terminal (history, completion,
// Ctrl-C clears the line), plain reads from a pipe (no prompts, so piped
// transcripts are exactly the program's output).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace brook::cli {

class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line without its newline; nullopt at end of input (Ctrl-D).
  // A Ctrl-C at the prompt returns an empty line with `interrupted()` true.
  virtual std::optional<std::string> read(const std::string& prompt) = 0;
  virtual bool interrupted() const { return false; }
  // Remembers a line for recall (and the history file, when there is one).
  virtual void remember(const std::string&) {}
};

// Completion candidates for `word`, given the text of the line before it.
using Completer = std::function<std::vector<std::string>(const std::string& line, const std::string& word)>;

// Readline when stdin is a terminal and brook was built with it; otherwise
// plain lines. `history_path` empty: no history file.
std::unique_ptr<LineReader> make_line_reader(bool terminal, const std::string& history_path,
                                             Completer completer);

// Ctrl-C: while an entry runs it interrupts the Engine; at the prompt it
// clears the line. Installed once per process.
void install_interrupt_handler();
// Whether the handler fired since the last call (and clears it).
bool take_interrupt();

}  // namespace brook::cli
