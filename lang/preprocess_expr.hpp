// #if / #elif integer constant expressions.
#pragma once

#include <span>

#include "lang/source.hpp"
#include "lang/token.hpp"

namespace brook::pp {

// Evaluates a #if expression after `defined` has been resolved and macros
// expanded; remaining identifiers count as 0. Errors are reported at the
// offending token (or `directive` when the expression ends early) and make the
// condition false.
bool evaluate_condition(std::span<const Token> tokens, SourceLoc directive,
                        DiagnosticEngine& diags);

}  // namespace brook::pp
