// The call stack a runtime error prints under its caret (the host functions
// active when it happened, innermost first), e.g.
//   in get(), called from sum_all() at prog.br:9:12, called from main() at prog.br:14:3
#pragma once

#include <string>

#include "interp/machine.hpp"
#include "lang/frontend.hpp"

namespace brook {

// Empty when the error happened outside any function or directly in the
// outermost one (its location already says where).
std::string call_stack_note(const interp::Machine& m, FrontEnd& front, SourceLoc error_loc);

}  // namespace brook
