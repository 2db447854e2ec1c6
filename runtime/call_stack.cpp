#include "runtime/call_stack.hpp"

#include <vector>

#include "interp/compiler.hpp"

namespace brook {

namespace {

// The function whose definition holds `loc`: the last one that starts before
// it in the same file (C functions do not nest).
const ast::FuncDecl* enclosing_function(FrontEnd& front, SourceLoc loc) {
  const ast::FuncDecl* best = nullptr;
  for (const auto& program : front.programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* f = d->as<ast::FuncDecl>();
        if (!f || !f->body || f->loc.file != loc.file) continue;
        bool before = f->loc.line < loc.line || (f->loc.line == loc.line && f->loc.col <= loc.col);
        bool later = !best || f->loc.line > best->loc.line ||
                     (f->loc.line == best->loc.line && f->loc.col > best->loc.col);
        if (before && later) best = f;
      }
    }
  }
  return best;
}

std::string where(const FrontEnd& front, SourceLoc loc) {
  return const_cast<FrontEnd&>(front).sources().path(loc.file) + ":" + std::to_string(loc.line) +
         ":" + std::to_string(loc.col);
}

}  // namespace

std::string call_stack_note(const interp::Machine& m, FrontEnd& front, SourceLoc error_loc) {
  const int depth = m.depth;
  if (depth <= 0 || !error_loc.valid()) return "";
  const ast::FuncDecl* at = enclosing_function(front, error_loc);
  const bool in_kernel = at && at->fkind != ast::FuncKind::Host;
  // The callers, innermost first: each function and where in it the next
  // call was made. Hidden entry functions ("<top level>") end the list.
  struct Frame {
    std::string name;
    SourceLoc loc;
    int times = 1;
  };
  std::vector<Frame> frames;
  for (int i = depth - 1; i >= 1; --i) {
    const std::string& name = m.calls[i - 1].fn->name;
    if (name.empty() || name[0] == '<') break;
    SourceLoc loc = m.calls[i].call_loc;
    if (!frames.empty() && frames.back().name == name && frames.back().loc == loc) {
      ++frames.back().times;  // recursion: one line per repeated call site
    } else {
      frames.push_back({name, loc});
    }
  }
  const std::string& innermost = m.calls[depth - 1].fn->name;
  if (innermost.empty() || innermost[0] == '<') return "";
  // An error in the outermost function itself needs no stack.
  if (frames.empty() && !in_kernel) return "";
  std::string note = "  in ";
  if (in_kernel)
    note += std::string(at->fkind == ast::FuncKind::Reduce ? "reduction " : "kernel ") + at->name +
            "(), run from ";
  note += innermost + "()";
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i == kShown && frames.size() > kShown + 1) {
      note += ", … " + std::to_string(frames.size() - kShown - 1) + " more calls";
      i = frames.size() - 1;
    }
    const Frame& f = frames[i];
    note += ", called from " + f.name + "() at " + where(front, f.loc);
    if (f.times > 1) note += " (" + std::to_string(f.times) + " times)";
  }
  return note + "\n";
}

}  // namespace brook
