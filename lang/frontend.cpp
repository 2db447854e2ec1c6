#include "lang/frontend.hpp"

namespace brook {

FrontEnd::FrontEnd(FrontEndOptions options)
    : options_(std::move(options)),
      diags_(sources_),
      sema_(std::make_unique<Sema>(types_, diags_, options_.sema)) {
  diags_.set_error_limit(options_.error_limit);
}

FrontEnd::Unit FrontEnd::load_file(const std::string& path) {
  diags_.start_unit();
  std::optional<uint32_t> file = sources_.load_file(path);
  if (!file) {
    diags_.error({}, "cannot read '" + path + "'");
    return {};
  }
  // One error for a binary file, not thousands of "stray" characters.
  if (std::optional<size_t> at = first_binary_byte(sources_.text(*file))) {
    diags_.error({}, "'" + path + "' is not a text file (binary data at byte " + std::to_string(*at) + ")");
    return {};
  }
  return finish(*file, false);
}

FrontEnd::Unit FrontEnd::load_source(std::string name, std::string text, bool allow_incomplete) {
  diags_.start_unit();
  uint32_t file = sources_.add_file(std::move(name), std::move(text));
  return finish(file, allow_incomplete);
}

FrontEnd::Unit FrontEnd::finish(uint32_t file, bool allow_incomplete) {
  Unit unit;
  // Diagnostics of an entry that turns out to be incomplete must not be shown,
  // so collect into a scratch engine first and replay into the real one.
  DiagnosticEngine scratch(sources_);
  scratch.set_error_limit(options_.error_limit);
  // With keep_macros the entry works on a copy of the table, kept unless the
  // entry turns out to be incomplete (it comes back longer later).
  MacroTable trial;
  if (options_.keep_macros) trial = macros_;
  PreprocessResult pp = options_.keep_macros
                            ? preprocess(sources_, file, scratch, options_.preprocess, trial)
                            : preprocess(sources_, file, scratch, options_.preprocess);
  unit.pragmas = pp.pragmas;
  ParserState saved_state = parser_state_;
  ParseResult parsed = parse(pp.tokens, types_, scratch, parser_state_);
  if (allow_incomplete && parsed.incomplete) {
    parser_state_ = std::move(saved_state);
    unit.status = Status::incomplete;
    return unit;
  }
  if (options_.keep_macros) macros_ = std::move(trial);
  for (const Diagnostic& d : scratch.diagnostics()) diags_.report(d.severity, d.loc, d.message);
  if (scratch.has_errors()) return unit;
  auto program = std::make_unique<ast::Program>(std::move(parsed.program));
  for (const Pragma& p : pp.pragmas) {
    std::string joined;
    for (const std::string& w : p.words) joined += (joined.empty() ? "" : " ") + w;
    program->pragmas.push_back(joined);
  }
  // Kept even when sema fails: its global scope may already point into it.
  ast::Program* checked = program.get();
  programs_.push_back(std::move(program));
  if (!sema_->check(*checked)) return unit;
  unit.status = Status::ok;
  unit.program = checked;
  return unit;
}

}  // namespace brook
