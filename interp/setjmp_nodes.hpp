// setjmp and longjmp (C99 7.13) in the host interpreter. setjmp records in
// its jmp_buf where it was called: its call site, the frame and the call
// depth. longjmp checks that record and unwinds (a C++ exception) to the
// block that holds the statement of that setjmp call, which runs that
// statement again with setjmp returning longjmp's value. The statement must
// sit directly in a block (C allows setjmp only as a whole expression
// statement or the controlling expression of if/switch/while, which is that).
#pragma once

#include <vector>

#include "interp/stmt_nodes.hpp"

namespace brook::interp {

struct SetjmpNode : Node {
  NodePtr env;
  Scalar eval(Machine& m) override;
};

struct LongjmpNode : Node {
  NodePtr env, value;
  Scalar eval(Machine& m) override;
};

// A block holding setjmp statements: a LongJump for one of them, in this
// block's frame, resumes the block at that statement. Also a goto target.
struct SetjmpBlockNode : BlockNode, JumpTable {
  std::vector<std::pair<const void*, size_t>> sites;  // (SetjmpNode, statement index)
  Flow exec(Machine& m) override;
};

}  // namespace brook::interp
