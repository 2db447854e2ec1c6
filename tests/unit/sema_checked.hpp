// A program run through the whole front end, for the sema unit tests.
#pragma once

#include <string>

#include "lang/ast.hpp"
#include "lang/frontend.hpp"

namespace brook::test {

struct Checked {
  FrontEnd fe;
  FrontEnd::Unit unit;
  explicit Checked(std::string src) { unit = fe.load_source("t.br", std::move(src)); }
  bool ok() const { return unit.status == FrontEnd::Status::ok; }
  // Every diagnostic message, one per line, without locations.
  std::string messages() { return joined(false); }
  // The same, each after "error: ", "warning: " or "note: ".
  std::string labelled_messages() { return joined(true); }
  size_t errors() { return fe.diagnostics().error_count(); }
  const ast::Program& program() const { return *fe.programs().back(); }

 private:
  std::string joined(bool labelled) {
    std::string out;
    for (const Diagnostic& d : fe.diagnostics().diagnostics()) {
      if (!out.empty()) out += "\n";
      if (labelled) {
        out += d.severity == Severity::warning ? "warning: "
               : d.severity == Severity::note  ? "note: "
                                               : "error: ";
      }
      out += d.message;
    }
    return out;
  }
};

}  // namespace brook::test
