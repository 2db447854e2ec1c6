#include "lang/source.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace brook {

uint32_t SourceManager::add_file(std::string path, std::string text) {
  // A UTF-8 byte-order mark is not part of the program (editors on Windows add it).
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  File f{std::move(path), std::move(text), {0}};
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  }
  files_.push_back(std::move(f));
  return static_cast<uint32_t>(files_.size() - 1);
}

namespace {
// The key of an embedded file: absolute and normalised, without resolving
// links, so that `dir/./a.h` and `/abs/dir/a.h` name one file.
std::string embed_key(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::absolute(path, ec);
  return (ec ? std::filesystem::path(path) : p).lexically_normal().string();
}
}  // namespace

void SourceManager::embed_file(const std::string& path, std::string text) {
  embedded_[embed_key(path)] = std::move(text);
}

bool SourceManager::file_exists(const std::string& path) const {
  if (!embedded_.empty() && embedded_.count(embed_key(path))) return true;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::optional<uint32_t> SourceManager::load_file(const std::string& path) {
  if (!embedded_.empty())
    if (auto it = embedded_.find(embed_key(path)); it != embedded_.end()) return add_file(path, it->second);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return add_file(path, ss.str());
}

bool SourceManager::same_file(uint32_t a, uint32_t b) const {
  if (a == b) return true;
  if (a >= files_.size() || b >= files_.size()) return false;
  if (files_[a].path == files_[b].path) return true;
  std::error_code ea, eb;
  auto ca = std::filesystem::weakly_canonical(files_[a].path, ea);
  auto cb = std::filesystem::weakly_canonical(files_[b].path, eb);
  return !ea && !eb && ca == cb;
}

std::optional<size_t> first_binary_byte(std::string_view text) {
  // NUL and the C0 controls that no text editor writes; tabs, newlines, form
  // feeds, vertical tabs, carriage returns and escape (ANSI colours in
  // comments) are text. Bytes >= 0x80 are allowed: old sources have Latin-1
  // comments.
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' && c != 0x1b) return i;
    if (c == 0x7f) return i;
  }
  return std::nullopt;
}

std::string_view SourceManager::line_text(SourceLoc loc) const {
  if (loc.file >= files_.size() || loc.line == 0) return {};
  const File& f = files_[loc.file];
  if (loc.line > f.line_starts.size()) return {};
  uint32_t start = f.line_starts[loc.line - 1];
  uint32_t end = start;
  while (end < f.text.size() && f.text[end] != '\n') ++end;
  if (end > start && f.text[end - 1] == '\r') --end;
  return std::string_view(f.text).substr(start, end - start);
}

void DiagnosticEngine::error(SourceLoc loc, std::string message) {
  report(Severity::error, loc, std::move(message));
}
void DiagnosticEngine::warning(SourceLoc loc, std::string message) {
  report(Severity::warning, loc, std::move(message));
}
void DiagnosticEngine::note(SourceLoc loc, std::string message) {
  report(Severity::note, loc, std::move(message));
}

void DiagnosticEngine::report(Severity severity, SourceLoc loc, std::string message) {
  if (severity == Severity::runtime_error) {
    for (const Diagnostic& d : diagnostics_) {
      if (d.severity == severity && d.loc == loc && loc.valid()) return;  // cascade
    }
    ++error_count_;
  } else if (limit_reported_) {
    return;  // past the error limit: nothing more from this unit
  } else if (severity == Severity::error) {
    for (const Diagnostic& d : diagnostics_) {
      if (d.severity == severity && d.loc == loc && loc.valid()) return;  // cascade
    }
    if (error_limit_ != 0 && unit_errors_ >= error_limit_) {
      limit_reported_ = true;
      severity = Severity::error;
      loc = {};
      message = "too many errors (" + std::to_string(error_limit_) +
                "); stopping here (--error-limit N raises the limit, 0 removes it)";
    }
    ++unit_errors_;
    ++error_count_;
  }
  diagnostics_.push_back({severity, loc, std::move(message)});
  if (listener_) listener_(diagnostics_.back());
}

void DiagnosticEngine::clear() {
  diagnostics_.clear();
  error_count_ = 0;
  start_unit();
}

std::string DiagnosticEngine::format(const Diagnostic& d, bool color) const {
  return format_diagnostic(*sources_, d, color);
}

std::string DiagnosticEngine::format_all(bool color) const {
  std::string out;
  for (const Diagnostic& d : diagnostics_) out += format(d, color);
  return out;
}

std::string format_diagnostic(const SourceManager& sources, const Diagnostic& d, bool color) {
  const char* label = "error";
  const char* tint = "\033[1;31m";
  switch (d.severity) {
    case Severity::error: break;
    case Severity::warning: label = "warning"; tint = "\033[1;35m"; break;
    case Severity::note: label = "note"; tint = "\033[1;36m"; break;
    case Severity::runtime_error: label = "runtime error"; break;
  }
  std::string out;
  if (d.loc.valid() && d.loc.file < sources.file_count()) {
    if (color) out += "\033[1m";
    out += sources.path(d.loc.file) + ":" + std::to_string(d.loc.line) + ":" +
           std::to_string(d.loc.col) + ": ";
    if (color) out += "\033[0m";
  } else {
    out += "brook: ";
  }
  if (color) out += tint;
  out += label;
  out += ": ";
  if (color) out += "\033[0m\033[1m";
  out += d.message;
  if (color) out += "\033[0m";
  out += "\n";
  std::string_view line = d.loc.valid() ? sources.line_text(d.loc) : std::string_view{};
  if (!line.empty()) {
    // A very long line (generated code, one-line programs) shows only a
    // window around the caret, as clang does, marked with "..." at the cuts.
    constexpr size_t kWindow = 100;
    size_t col = d.loc.col > 0 ? d.loc.col - 1 : 0;
    std::string shown(line);
    size_t caret_at = std::min<size_t>(col, line.size());
    if (line.size() > 2 * kWindow) {
      size_t from = caret_at > kWindow / 2 ? caret_at - kWindow / 2 : 0;
      size_t to = std::min(line.size(), from + kWindow);
      shown = (from > 0 ? "..." : "") + std::string(line.substr(from, to - from)) + (to < line.size() ? "..." : "");
      caret_at = caret_at - from + (from > 0 ? 3 : 0);
    }
    out += shown;
    out += "\n";
    std::string caret;
    for (size_t i = 0; i < caret_at && i < shown.size(); ++i) {
      caret += shown[i] == '\t' ? '\t' : ' ';
    }
    if (color) caret += "\033[1;32m";
    caret += "^";
    if (color) caret += "\033[0m";
    out += caret + "\n";
  }
  return out;
}

}  // namespace brook
