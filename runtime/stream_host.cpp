#include "runtime/stream_host.hpp"

namespace brook {

namespace {
[[noreturn]] void unsupported(SourceLoc loc) {
  throw interp::RuntimeError{loc, "streams are not supported yet"};
}
}  // namespace

uint64_t StreamHost::create(interp::Machine&, const ast::VarDecl& decl, std::span<const int64_t>,
                            std::span<const StreamArg>) {
  unsupported(decl.loc);
}

void StreamHost::release(interp::Machine&, uint64_t) {}

StreamArg StreamHost::builtin(interp::Machine&, stdlib::Builtin, const ast::CallExpr& call,
                              std::span<const StreamArg>) {
  unsupported(call.callee_loc.valid() ? call.callee_loc : call.loc);
}

void StreamHost::launch(interp::Machine&, const ast::CallExpr& call, std::span<StreamArg>) {
  unsupported(call.callee_loc.valid() ? call.callee_loc : call.loc);
}

void StreamHost::check_extents(interp::Machine&, uint64_t, std::span<const int64_t>,
                               const ast::ParamDecl&, SourceLoc loc) {
  unsupported(loc);
}

uint64_t StreamHost::domain(interp::Machine&, const ast::DomainExpr& e, const StreamArg&,
                            const StreamArg&, const StreamArg&) {
  unsupported(e.loc);
}

}  // namespace brook
