// Source files, locations and the diagnostic engine shared by every stage.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brook {

// A position in a source file. `file` indexes SourceManager; line and column are
// 1-based. Macro expansions carry the location of the macro use, includes the
// location inside the included file, so a diagnostic always names what the user
// wrote. line == 0 means "no location" (e.g. a command-line define).
struct SourceLoc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

// Owns the text of every file the program was built from (including REPL
// entries, which are registered as pseudo-files like "<repl:3>").
// The offset of the first byte that shows `text` is not a text file (a NUL or
// another control character), or nullopt for text.
std::optional<size_t> first_binary_byte(std::string_view text);

class SourceManager {
 public:
  uint32_t add_file(std::string path, std::string text);
  // Reads a file from disk; nullopt when it cannot be read.
  std::optional<uint32_t> load_file(const std::string& path);
  const std::string& path(uint32_t file) const { return files_.at(file).path; }
  std::string_view text(uint32_t file) const { return files_.at(file).text; }
  // The text of loc's line without its newline; empty when out of range.
  std::string_view line_text(SourceLoc loc) const;
  size_t file_count() const { return files_.size(); }
  // Whether two loaded files are the same file on disk (a header that two
  // translation units include), by path or by canonical path.
  bool same_file(uint32_t a, uint32_t b) const;

  // A file held in memory under its absolute path and read instead of the
  // disk: `brook cc` embeds a program's #include files in the generated C++,
  // so the built program needs none of them where it runs.
  void embed_file(const std::string& path, std::string text);
  // Whether load_file(path) finds something: an embedded file or a regular
  // file on disk.
  bool file_exists(const std::string& path) const;

 private:
  struct File {
    std::string path;
    std::string text;
    std::vector<uint32_t> line_starts;
  };
  std::vector<File> files_;
  std::map<std::string, std::string> embedded_;  // absolute path → text
};

enum class Severity { error, warning, note, runtime_error };

struct Diagnostic {
  Severity severity;
  SourceLoc loc;
  std::string message;
};

// Collects diagnostics. Stages report through it and keep going; the caller
// decides when to print. Errors at the exact same location as an earlier error
// are dropped, which is the main defence against cascades.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sources) : sources_(&sources) {}
  const SourceManager& sources() const { return *sources_; }

  void error(SourceLoc loc, std::string message);
  void warning(SourceLoc loc, std::string message);
  void note(SourceLoc loc, std::string message);
  void report(Severity severity, SourceLoc loc, std::string message);

  // At most `limit` errors per unit (0: no limit); the first one past it is
  // replaced by one "too many errors" error and later diagnostics are dropped,
  // as clang's -ferror-limit does.
  void set_error_limit(size_t limit) { error_limit_ = limit; }
  size_t error_limit() const { return error_limit_; }
  // A new unit (a file, a REPL entry) starts with its own count.
  void start_unit() {
    unit_errors_ = 0;
    limit_reported_ = false;
  }

  bool has_errors() const { return error_count_ > 0; }
  size_t error_count() const { return error_count_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  void clear();

  // When set, each diagnostic is also passed here as it is reported.
  void set_listener(std::function<void(const Diagnostic&)> listener) {
    listener_ = std::move(listener);
  }

  // "file:line:col: error: message\n<source line>\n<caret>\n"
  std::string format(const Diagnostic& d, bool color = false) const;
  // All diagnostics so far, in order, formatted.
  std::string format_all(bool color = false) const;

 private:
  const SourceManager* sources_;
  std::vector<Diagnostic> diagnostics_;
  size_t error_count_ = 0;
  size_t error_limit_ = 20;
  size_t unit_errors_ = 0;
  bool limit_reported_ = false;
  std::function<void(const Diagnostic&)> listener_;
};

// Formats one diagnostic without an engine (used for runtime errors).
std::string format_diagnostic(const SourceManager& sources, const Diagnostic& d,
                              bool color = false);

}  // namespace brook
