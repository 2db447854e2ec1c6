// Statement nodes and calls. Small structs the Compiler fills in directly.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "interp/bitfield_nodes.hpp"
#include "interp/builders.hpp"
#include "interp/compiler.hpp"
#include "interp/varargs.hpp"

namespace brook::interp {

struct BlockNode : StmtNode {
  std::vector<StmtNodePtr> body;
  std::vector<StmtNodePtr> at_exit;  // stream releases
  Flow exec(Machine& m) override {
    Flow f = Flow::normal;
    for (auto& s : body) {
      f = s->exec(m);
      if (f != Flow::normal) break;
    }
    if (!at_exit.empty()) {
      for (auto& s : at_exit) s->exec(m);
    }
    return f;
  }
};

// Where a goto can resume: (label, index of the first statement it labels).
struct JumpTable {
  std::vector<std::pair<const void*, size_t>> labels;
  size_t find(const void* label) const {
    for (const auto& [l, i] : labels)
      if (l == label) return i;
    return SIZE_MAX;
  }
};

// A block with labels among its direct children: a goto to one of them, from
// here or from a statement nested here, resumes the block at that statement.
struct LabelBlockNode : BlockNode, JumpTable {
  Flow exec(Machine& m) override {
    Flow f = Flow::normal;
    for (size_t i = 0; i < body.size();) {
      f = body[i]->exec(m);
      if (f == Flow::normal) {
        ++i;
        continue;
      }
      if (f != Flow::jump) break;
      size_t k = find(m.jump_to);
      if (k == SIZE_MAX) break;  // an outer block holds the label
      poll_interrupt();          // a goto loop stays interruptible
      f = Flow::normal;
      i = k;
    }
    if (!at_exit.empty()) {
      for (auto& s : at_exit) s->exec(m);
    }
    return f;
  }
};

struct GotoNode : StmtNode {
  const void* label;
  Flow exec(Machine& m) override {
    m.jump_to = label;
    return Flow::jump;
  }
};

struct ScalarExprStmt : StmtNode {
  NodePtr e;
  Flow exec(Machine& m) override {
    e->eval(m);
    return Flow::normal;
  }
};

struct ExprStmtNode : StmtNode {
  NodePtr e;
  const Type* type;
  Flow exec(Machine& m) override {
    discard(m, *e, type);
    return Flow::normal;
  }
};

// gcc's `({ stmts; e; })`: the block, then e's value.
struct StmtExprNode : Node {
  StmtNodePtr body;
  NodePtr result;  // null: no value
  void run(Machine& m) {
    if (body->exec(m) != Flow::normal)
      throw RuntimeError{loc,
                         "a jump out of a statement expression ('return', 'break', "
                         "'continue' or 'goto') is not supported"};
  }
  Scalar eval(Machine& m) override {
    run(m);
    return result ? result->eval(m) : Scalar{};
  }
  void eval_vec(Machine& m, Vec& out) override {
    run(m);
    if (result) result->eval_vec(m, out);
  }
  uint8_t* raw(Machine& m, bool write) override {
    run(m);
    return result ? result->raw(m, write) : nullptr;
  }
};

struct EmptyNode : StmtNode {
  Flow exec(Machine&) override { return Flow::normal; }
};

struct IfNode : StmtNode {
  NodePtr cond;
  StmtNodePtr then_s, else_s;
  Flow exec(Machine& m) override {
    if (cond->eval(m).i) return then_s->exec(m);
    return else_s ? else_s->exec(m) : Flow::normal;
  }
};

struct ForNode : StmtNode {
  StmtNodePtr init;
  NodePtr cond;
  StmtNodePtr step;
  StmtNodePtr body;
  Flow exec(Machine& m) override {
    if (init) init->exec(m);
    while (!cond || cond->eval(m).i) {
      poll_interrupt();
      Flow f = body->exec(m);
      if (f == Flow::brk) break;
      if (f >= Flow::ret) return f;
      if (step) step->exec(m);
    }
    return Flow::normal;
  }
};

struct DoNode : StmtNode {
  NodePtr cond;
  StmtNodePtr body;
  Flow exec(Machine& m) override {
    do {
      poll_interrupt();
      Flow f = body->exec(m);
      if (f == Flow::brk) break;
      if (f >= Flow::ret) return f;
    } while (cond->eval(m).i);
    return Flow::normal;
  }
};

struct SwitchNode : StmtNode, JumpTable {
  NodePtr cond;
  std::vector<StmtNodePtr> body;
  std::vector<std::pair<int64_t, size_t>> cases;  // sorted by value
  size_t default_index = SIZE_MAX;
  Flow exec(Machine& m) override {
    int64_t v = cond->eval(m).i;
    auto it = std::lower_bound(cases.begin(), cases.end(), std::pair<int64_t, size_t>{v, 0});
    size_t start = (it != cases.end() && it->first == v) ? it->second : default_index;
    for (size_t i = start; i < body.size(); ++i) {
      Flow f = body[i]->exec(m);
      if (f == Flow::normal) continue;
      if (f == Flow::brk) return Flow::normal;
      if (f == Flow::jump && !labels.empty()) {
        size_t k = find(m.jump_to);
        if (k != SIZE_MAX) {
          poll_interrupt();
          i = k - 1;  // the loop's ++i lands on k (wrapping when k is 0)
          continue;
        }
      }
      return f;
    }
    return Flow::normal;
  }
};

struct JumpNode : StmtNode {
  Flow flow;
  Flow exec(Machine&) override { return flow; }
};

struct ReturnScalar : StmtNode {
  NodePtr e;
  Flow exec(Machine& m) override {
    m.ret = e->eval(m);
    return Flow::ret;
  }
};

struct ReturnVec : StmtNode {
  NodePtr e;
  Flow exec(Machine& m) override {
    Vec v;
    e->eval_vec(m, v);
    m.retv = v;
    return Flow::ret;
  }
};

struct ReturnAggregate : StmtNode {
  NodePtr e;
  uint64_t size;
  Flow exec(Machine& m) override {
    const uint8_t* src = e->raw(m, false);
    uint8_t* dst = load_as<uint8_t*>(m.fp);
    if (dst) std::memmove(dst, src, size);
    return Flow::ret;
  }
};

// Stores that initialise an object: zero it, then each listed element.
struct InitNode : StmtNode {
  NodePtr place;
  uint64_t size;
  struct Item {
    uint64_t offset;
    NodePtr e;
    const Type* type;
    bool is_bitfield = false;  // then `bits` says where in the unit at `offset`
    BitfieldSpec bits{};
  };
  std::vector<Item> items;
  Flow exec(Machine& m) override {
    std::memset(place->raw(m, true), 0, size);
    for (Item& it : items) {
      const Type* t = it.type;
      if (it.is_bitfield) {
        const int64_t v = it.e->eval(m).i;
        it.bits.write(place->raw(m, true) + it.offset, v);
      } else if (t->is_vector()) {
        Vec v;
        it.e->eval_vec(m, v);
        store_vec(t, place->raw(m, true) + it.offset, v);
      } else if (t->is_struct() || t->is_array()) {
        const uint8_t* src = it.e->raw(m, false);
        std::memmove(place->raw(m, true) + it.offset, src, t->size);
      } else {
        Scalar s = it.e->eval(m);
        store_fn(t)(place->raw(m, true) + it.offset, s);
      }
    }
    return Flow::normal;
  }
};

// Runs its statement the first time only (static locals).
struct OnceNode : StmtNode {
  StmtNodePtr s;
  bool done = false;
  Flow exec(Machine& m) override {
    if (!done) {
      done = true;
      s->exec(m);
    }
    return Flow::normal;
  }
};

struct CallNode : Node {
  CompiledFunction* fn;
  struct Arg {
    NodePtr e;
    uint32_t offset;
    const Type* type;
    StoreFn store;
  };
  std::vector<Arg> args;
  // Past a variadic function's named parameters: the nodes, and each with its type.
  std::vector<NodePtr> extra_nodes;
  std::vector<VarArg> extras;
  uint32_t result_temp = 0;  // aggregate results
  uint64_t result_size = 0;
  // Last argument first, as gcc evaluates them on x86-64 (C leaves the order
  // unspecified; programs that print `f(), f()` expect gcc's).
  void store_args(Machine& m, uint8_t* frame) {
    for (auto it = args.rbegin(); it != args.rend(); ++it) {
      Arg& a = *it;
      if (a.store) {
        a.store(frame + a.offset, a.e->eval(m));
      } else if (a.type->is_vector()) {
        Vec v;
        a.e->eval_vec(m, v);
        store_vec(a.type, frame + a.offset, v);
      } else {
        std::memcpy(frame + a.offset, a.e->raw(m, false), a.type->size);
      }
    }
  }
  void call(Machine& m, uint8_t* dest) {
    if (fn->va_offset >= 0) return call_variadic(m, dest);
    invoke(m, *fn, loc, dest, [&](uint8_t* frame) { store_args(m, frame); });
  }
  // Kept out of line so that the common call stays as small as before.
  [[gnu::noinline]] void call_variadic(Machine& m, uint8_t* dest) {
    VarArgsScope varargs(m);
    invoke(m, *fn, loc, dest, [&](uint8_t* frame) {
      uint64_t block = store_varargs(m, extras, loc);
      varargs.hold(block);
      store_as<uint64_t>(frame + fn->va_offset, block);
      store_args(m, frame);
    });
  }
  Scalar eval(Machine& m) override {
    call(m, nullptr);
    return m.ret;
  }
  void eval_vec(Machine& m, Vec& out) override {
    call(m, nullptr);
    out = m.retv;
  }
  uint8_t* raw(Machine& m, bool) override {
    uint8_t* dest = m.fp + result_temp;
    call(m, dest);
    return dest;
  }
};

// A node that fails with a runtime error when run (unsupported constructs).
struct FailNode : Node {
  std::string message;
  Scalar eval(Machine&) override { throw RuntimeError{loc, message}; }
  void eval_vec(Machine&, Vec&) override { throw RuntimeError{loc, message}; }
  uint8_t* raw(Machine&, bool) override { throw RuntimeError{loc, message}; }
  uint64_t ptr(Machine&) override { throw RuntimeError{loc, message}; }
};

inline NodePtr make_fail(SourceLoc loc, std::string message) {
  auto n = std::make_unique<FailNode>();
  n->loc = loc;
  n->message = std::move(message);
  return n;
}

struct FailStmt : StmtNode {
  NodePtr n;
  Flow exec(Machine& m) override {
    n->eval(m);
    return Flow::normal;
  }
};

}  // namespace brook::interp
