// The front end as one object: sources, diagnostics, types, parser state and
// sema that persist across files and REPL entries. The Engine owns one.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.hpp"
#include "lang/parser.hpp"
#include "lang/preprocess.hpp"
#include "lang/sema.hpp"
#include "lang/source.hpp"
#include "lang/types.hpp"

namespace brook {

struct FrontEndOptions {
  PreprocessOptions preprocess;
  SemaOptions sema;
  // Macros persist from one load to the next, as if every file and source
  // were one translation unit (the REPL). Off: each is preprocessed alone.
  bool keep_macros = false;
  // Errors reported per file or entry before "too many errors" (0: no limit).
  size_t error_limit = 20;
};

class FrontEnd {
 public:
  explicit FrontEnd(FrontEndOptions options = {});

  enum class Status { ok, error, incomplete };
  struct Unit {
    Status status = Status::error;
    ast::Program* program = nullptr;  // owned by the FrontEnd; null unless ok
    std::vector<Pragma> pragmas;
  };

  // Preprocess, parse and check a file from disk. A file that cannot be read
  // is an error diagnostic without a location.
  Unit load_file(const std::string& path);
  // The same for text given directly (REPL entries, embedders); `name` is how
  // diagnostics refer to it. With `allow_incomplete`, text that ends inside a
  // construct returns Status::incomplete and reports nothing.
  Unit load_source(std::string name, std::string text, bool allow_incomplete = false);

  SourceManager& sources() { return sources_; }
  DiagnosticEngine& diagnostics() { return diags_; }
  TypeContext& types() { return types_; }
  Sema& sema() { return *sema_; }
  const std::vector<std::unique_ptr<ast::Program>>& programs() const { return programs_; }
  // -D and -I for files and sources loaded from now on (`brook cc` programs
  // add each generated file's options to one shared engine).
  PreprocessOptions& preprocess_options() { return options_.preprocess; }
  // With keep_macros: the macros in force after the latest load (an entry
  // found incomplete leaves them as they were).
  const MacroTable& macros() const { return macros_; }

  // How the REPL reads an entry typed so far (REPL.md), decided by parsing
  // `text` on its own with the session's typedef names and macros; nothing
  // is registered and nothing is reported. Nullopt while the text ends
  // inside a construct, so more lines are needed.
  struct EntryShape {
    std::string text;      // what to run: `text`, or with a missing final ';' added
    std::string stream;    // the entry is only a stream or a view of one: show this expression
    bool open_if = false;  // ends in an `if` without `else`: an `else` line may follow
  };
  std::optional<EntryShape> complete_entry(std::string_view text);
  // The names declared at top level so far (hidden '<…>' ones left out), sorted.
  std::vector<std::string> global_names() const;

 private:
  Unit finish(uint32_t file, bool allow_incomplete);

  FrontEndOptions options_;
  SourceManager sources_;
  DiagnosticEngine diags_;
  TypeContext types_;
  ParserState parser_state_;
  std::unique_ptr<Sema> sema_;
  std::vector<std::unique_ptr<ast::Program>> programs_;
  MacroTable macros_;
};

}  // namespace brook
