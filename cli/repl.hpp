// The interactive REPL (REPL.md): entries one at a time over one Engine,
// multi-line input while the parser says the entry is incomplete, `:` commands.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cli/repl_input.hpp"
#include "runtime/engine.hpp"

namespace brook::cli {

class Repl {
 public:
  // `terminal`: stdin is a terminal (prompts, readline, colours).
  Repl(EngineOptions options, bool terminal);
  // False when the first session could not start (its backend, say); the
  // reason was printed.
  bool started() const { return engine_ != nullptr; }

  // Reads and runs entries until :quit or end of input; returns the exit status.
  int loop(LineReader& reader);
  // One entry, as if typed. `more`: the text needs more lines; `open_if`: it
  // is complete but an `else` on the next line would continue it.
  enum class Submit { done, more, open_if };
  Submit submit(const std::string& text, bool final);
  // Runs `file` like :load. False after a compile or runtime error.
  bool load(const std::string& path);

  // Names to complete `word` with: commands, keywords, builtins, globals.
  std::vector<std::string> completions(const std::string& line, const std::string& word);
  bool quit_requested() const { return quit_; }
  // `brook repl --profile`: the report at the end of the session.
  std::string profile_report() { return engine_ ? engine_->profile_report() : std::string(); }
  int exit_status() const { return exit_status_; }

 private:
  void command(const std::string& line);
  // A fresh session; false (the old one kept, the reason printed) when its
  // engine cannot start.
  bool reset();
  void show_streams();
  void show_info(const std::string& name);
  void profile(const std::vector<std::string>& words);
  void emit(const std::vector<std::string>& words);
  void set_backend(const std::vector<std::string>& words);
  // The entry, or the entry with a ';' added when that finishes an expression
  // or variable declaration (`> 2 * 21`); nothing when it needs more lines.
  void error(const std::string& message) const;
  std::string next_name();

  EngineOptions options_;
  bool terminal_;
  std::unique_ptr<Engine> engine_;
  int entry_count_ = 0;
  LineReader* reader_ = nullptr;  // while loop() runs: where entries are remembered
  bool timing_ = false;
  bool quit_ = false;
  int exit_status_ = 0;
  // An entry failed (compile or runtime error). A REPL fed from a pipe or a
  // file then exits with 1, as a script would; at a terminal it exits with 0.
  bool saw_error_ = false;
  bool exited_ = false;  // the program called exit(): its status stands
  void note_failure(Engine::EntryStatus status);
};

}  // namespace brook::cli
