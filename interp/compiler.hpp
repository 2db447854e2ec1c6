// Turns typed AST into node trees (node.hpp), once per function. Variables are
// resolved to frame offsets or object addresses here, so running a program
// never looks a name up. Kernel bodies compile through the same Compiler with
// KernelHooks for what only kernels have.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "interp/hooks.hpp"
#include "interp/node.hpp"
#include "lang/ast.hpp"
#include "lang/source.hpp"

namespace brook::interp {

// A function ready to run. Frame layout: [0, 8) the caller's destination for
// an aggregate return value, then parameters, locals and temporaries.
struct CompiledFunction {
  const ast::FuncDecl* decl = nullptr;
  std::string name;
  StmtNodePtr body;  // null while compiling, or for a prototype never defined
  uint32_t frame_size = 16;
  std::vector<uint32_t> param_offsets;
  std::vector<const Type*> param_types;
  // A variadic function's frame slot for its call's records (interp/varargs.hpp).
  int64_t va_offset = -1;
  // Locals whose address is taken get their own memory object per call; the
  // frame holds (data*, id) at slot. Parameters among them are copied in
  // from `param_offset` on entry.
  struct Escaping {
    uint32_t slot;
    uint64_t size;
    int64_t param_offset = -1;
    std::string_view name;  // for messages about its memory
    SourceLoc loc;
  };
  std::vector<Escaping> escaping;
};

// Runs `f` with a fresh frame whose parameters `store_args` fills in (with the
// caller's frame still current). Scalar results land in m.ret, vectors in
// m.retv, aggregates at `aggregate_dest`.
template <class StoreArgs>
void invoke(Machine& m, CompiledFunction& f, SourceLoc call_loc, uint8_t* aggregate_dest,
            StoreArgs&& store_args);
// Escaping locals: create their objects on entry, end them on exit.
void enter_frame(Machine& m, const CompiledFunction& f);
void leave_frame(Machine& m, const CompiledFunction& f);

class Compiler {
 public:
  Compiler(Machine& machine, const SourceManager& sources, HostHooks* host,
           KernelHooks* kernel = nullptr);
  ~Compiler();

  // The top-level items of a program: globals are allocated (and initialised
  // in order when the result runs), other statements compiled in order.
  CompiledFunction* compile_toplevel(const ast::Program& program);
  // A function, compiled on first request.
  CompiledFunction* function(const ast::FuncDecl* decl);
  // A kernel or reduce body: parameters are frame slots (param_offsets) that
  // the kernel backend fills per element.
  CompiledFunction* compile_body(const ast::FuncDecl* decl);
  // REPL redefinition: code already compiled against `old_def` reaches
  // `new_def` from now on. Only when the signatures agree (callers store their
  // arguments at the old frame offsets); otherwise earlier callers keep the old code.
  void redefine(const ast::FuncDecl* old_def, const ast::FuncDecl* new_def);

  // --- used by hooks ---
  NodePtr value(const ast::Expr& e);      // scalar: eval, vector: eval_vec, aggregate: raw
  NodePtr place(const ast::Expr& e);      // an lvalue (raw, and ptr where addressable)
  NodePtr condition(const ast::Expr& e);  // int 0 or 1
  StmtNodePtr statement(const ast::Stmt& s);
  // Converts n from type `from` to type `to` (arithmetic, broadcast, pointer).
  NodePtr convert(NodePtr n, const Type* from, const Type* to, SourceLoc loc);
  // A fresh frame slot in the function being compiled.
  uint32_t frame_slot(uint64_t size, uint64_t align = 8);
  Machine& machine() { return machine_; }
  const SourceManager& sources() const { return sources_; }
  // The object of a global (allocated on first use).
  uint32_t global_object(const ast::VarDecl* v, SourceLoc loc);
  // The pointer to a host function (its object allocated on first use).
  uint64_t function_address(const ast::FuncDecl* decl, SourceLoc loc);
  // The arguments of a call as written (for assert's message), best effort.
  std::string source_text(const ast::CallExpr& call) const;

 private:
  struct Local {
    uint32_t offset;
    bool escaping;
  };
  // Where a setjmp compiled now is resumed after a longjmp: the block being
  // built (its list of setjmp sites) and the index its statement gets there.
  // Null outside a statement that sits directly in a block.
  struct SetjmpPlace {
    std::vector<std::pair<const void*, size_t>>* sites = nullptr;
    size_t index = 0;
  };
  SetjmpPlace setjmp_place_;
  NodePtr setjmp_call(const ast::CallExpr& e, bool is_setjmp);

  struct FunctionState {
    CompiledFunction* fn;
    std::unordered_map<const ast::Decl*, Local> locals;
    std::unordered_set<const ast::Decl*> address_taken;
    std::vector<const ast::VarDecl*> scope_streams;
  };

  NodePtr rvalue(const Type* t, NodePtr place);
  NodePtr name_place(const ast::NameExpr& e);
  NodePtr unary(const ast::UnaryExpr& e);
  NodePtr binary(const ast::BinaryExpr& e);
  NodePtr binary_nodes(ast::BinaryOp op, const Type* lt, NodePtr l, const Type* rt, NodePtr r,
                       const Type* result, SourceLoc loc);
  NodePtr assign(const ast::AssignExpr& e);
  NodePtr call(const ast::CallExpr& e);
  NodePtr math_builtin(const ast::CallExpr& e);
  NodePtr cast(const ast::CastExpr& e);
  NodePtr construct(const ast::ConstructExpr& e);
  NodePtr index(const ast::IndexExpr& e);
  NodePtr member(const ast::MemberExpr& e);
  NodePtr bitfield_unit(const ast::MemberExpr& e);
  NodePtr swizzle_place(const ast::SwizzleExpr& e);
  NodePtr string_literal(const ast::StringLit& e);
  NodePtr compound_literal(const ast::CompoundLitExpr& e);
  StmtNodePtr declaration(const ast::VarDecl& v);
  StmtNodePtr expression_statement(const ast::Expr& e);
  StmtNodePtr initializer(NodePtr place, const Type* t, const ast::Expr& init);
  Local declare_local(const ast::Decl* d, const Type* t);
  void find_address_taken(const ast::Stmt& s, std::unordered_set<const ast::Decl*>& out);
  CompiledFunction* compile_function(const ast::FuncDecl* decl, bool kernel_body);

  Machine& machine_;
  const SourceManager& sources_;
  HostHooks* host_;
  KernelHooks* kernel_;
  FunctionState* current_ = nullptr;
  std::unordered_map<const ast::FuncDecl*, std::unique_ptr<CompiledFunction>> functions_;
  std::deque<CompiledFunction> toplevels_;
  std::unordered_map<const ast::VarDecl*, uint32_t> globals_;
  std::unordered_map<const CompiledFunction*, uint32_t> function_objects_;
  std::unordered_map<const ast::StringLit*, uint32_t> literals_;
};

// ---------------------------------------------------------------------------

template <class StoreArgs>
void invoke(Machine& m, CompiledFunction& f, SourceLoc call_loc, uint8_t* aggregate_dest,
            StoreArgs&& store_args) {
  if (!f.body) {
    throw RuntimeError{call_loc, "function '" + f.name + "' is declared but never defined"};
  }
  if (m.depth >= kMaxCallDepth) {
    throw RuntimeError{call_loc, "stack overflow: more than " + std::to_string(kMaxCallDepth) +
                                     " nested calls"};
  }
  poll_interrupt();
  StackArena::Mark mark = m.stack.mark();
  uint8_t* frame = m.stack.push(f.frame_size);
  store_args(frame);
  store_as<uint8_t*>(frame, aggregate_dest);
  uint8_t* saved = m.fp;
  m.fp = frame;
  m.calls[m.depth] = {&f, call_loc};
  ++m.depth;
  if (!f.escaping.empty()) enter_frame(m, f);
  // A body that ends without 'return' yields 0, not whatever the last
  // nested call left in m.ret (C's rule for main; deterministic elsewhere).
  if (f.body->exec(m) != Flow::ret) m.ret.u = 0;
  if (!f.escaping.empty()) leave_frame(m, f);
  --m.depth;
  m.fp = saved;
  m.stack.release(mark);
}

}  // namespace brook::interp
