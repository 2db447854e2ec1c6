#include "interp/compiler.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "interp/builders.hpp"
#include "interp/setjmp_nodes.hpp"
#include "interp/stmt_nodes.hpp"

namespace brook::interp {

using namespace ast;

void enter_frame(Machine& m, const CompiledFunction& f) {
  for (const auto& e : f.escaping) {
    uint32_t id = m.memory.allocate(e.size, ObjectKind::local, e.loc, e.name);
    uint8_t* data = m.memory.data(id);
    if (e.param_offset >= 0) std::memcpy(data, m.fp + e.param_offset, e.size);
    store_as<uint8_t*>(m.fp + e.slot, data);
    store_as<uint32_t>(m.fp + e.slot + 8, id);
  }
}

void leave_frame(Machine& m, const CompiledFunction& f) {
  for (const auto& e : f.escaping) m.memory.kill(load_as<uint32_t>(m.fp + e.slot + 8));
}

Compiler::Compiler(Machine& machine, const SourceManager& sources, HostHooks* host,
                   KernelHooks* kernel)
    : machine_(machine), sources_(sources), host_(host), kernel_(kernel) {}

Compiler::~Compiler() = default;

uint32_t Compiler::frame_slot(uint64_t size, uint64_t align) {
  CompiledFunction* f = current_->fn;
  if (align < 1) align = 1;
  uint64_t off = (f->frame_size + align - 1) / align * align;
  uint64_t end = off + std::max<uint64_t>(size, 1);
  if (end > kMaxObjectSize) throw RuntimeError{{}, "stack frame too large"};
  f->frame_size = static_cast<uint32_t>(end);
  return static_cast<uint32_t>(off);
}

Compiler::Local Compiler::declare_local(const Decl* d, const Type* t) {
  Local l;
  if (current_->address_taken.count(d)) {
    l.offset = frame_slot(16, 8);
    l.escaping = true;
    current_->fn->escaping.push_back({l.offset, t->size, -1, d->name, d->loc});
  } else {
    l.offset = frame_slot(t->size, std::max<uint64_t>(t->align, 1));
    l.escaping = false;
  }
  current_->locals[d] = l;
  return l;
}

uint32_t Compiler::global_object(const VarDecl* v, SourceLoc loc) {
  if (v->same_as) v = v->same_as;  // `extern int n;` and `int n;` are one object
  auto it = globals_.find(v);
  if (it != globals_.end()) return it->second;
  uint64_t size = v->is_stream ? std::max<uint64_t>(v->type->size, 8) : v->type->size;
  uint32_t id = machine_.memory.allocate(size, ObjectKind::global, v->loc.valid() ? v->loc : loc, v->name);
  globals_[v] = id;
  return id;
}

uint64_t Compiler::function_address(const FuncDecl* decl, SourceLoc loc) {
  CompiledFunction* fn = function(decl);
  auto [it, fresh] = function_objects_.emplace(fn, 0);
  if (fresh) {
    it->second = machine_.memory.allocate(0, ObjectKind::function, loc);
    machine_.functions[it->second] = fn;
  }
  return make_pointer(it->second, 0);
}

// ---------------------------------------------------------------------------
// Which locals have their address taken: they need memory objects of their own.

namespace {
const Decl* root_variable(const Expr* e) {
  while (e) {
    if (auto* n = e->as<NameExpr>()) return n->decl;
    if (auto* c = e->as<CompoundLitExpr>()) return c->object.get();
    if (auto* m = e->as<MemberExpr>()) {
      if (m->arrow) return nullptr;
      e = m->base.get();
    } else if (auto* i = e->as<IndexExpr>()) {
      if (!i->base->type || !i->base->type->is_array()) return nullptr;
      e = i->base.get();
    } else if (auto* s = e->as<SwizzleExpr>()) {
      e = s->base.get();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

void walk_expr(const Expr* e, std::unordered_set<const Decl*>& out);
void walk_stmt(const Stmt& s, std::unordered_set<const Decl*>& out);

void walk_exprs(const std::vector<ExprPtr>& v, std::unordered_set<const Decl*>& out) {
  for (auto& e : v) walk_expr(e.get(), out);
}

void walk_expr(const Expr* e, std::unordered_set<const Decl*>& out) {
  if (!e) return;
  switch (e->kind) {
    case ExprKind::Unary: {
      auto* u = e->as<UnaryExpr>();
      if (u->op == UnaryOp::AddrOf) {
        if (const Decl* d = root_variable(u->operand.get())) out.insert(d);
      }
      walk_expr(u->operand.get(), out);
      break;
    }
    case ExprKind::Cast: {
      auto* c = e->as<CastExpr>();
      if (c->cast == CastKind::ArrayDecay) {
        if (const Decl* d = root_variable(c->operand.get())) out.insert(d);
      }
      walk_expr(c->operand.get(), out);
      break;
    }
    case ExprKind::Binary: {
      auto* b = e->as<BinaryExpr>();
      walk_expr(b->lhs.get(), out);
      walk_expr(b->rhs.get(), out);
      break;
    }
    case ExprKind::Assign: {
      auto* a = e->as<AssignExpr>();
      walk_expr(a->lhs.get(), out);
      walk_expr(a->rhs.get(), out);
      break;
    }
    case ExprKind::Conditional: {
      auto* c = e->as<ConditionalExpr>();
      walk_expr(c->cond.get(), out);
      walk_expr(c->then_expr.get(), out);
      walk_expr(c->else_expr.get(), out);
      break;
    }
    case ExprKind::Comma: {
      auto* c = e->as<CommaExpr>();
      walk_expr(c->lhs.get(), out);
      walk_expr(c->rhs.get(), out);
      break;
    }
    case ExprKind::Call:
      walk_expr(e->as<CallExpr>()->callee_expr.get(), out);
      walk_exprs(e->as<CallExpr>()->args, out);
      break;
    case ExprKind::Construct: walk_exprs(e->as<ConstructExpr>()->args, out); break;
    case ExprKind::Index: {
      auto* i = e->as<IndexExpr>();
      // A flexible array member is indexed through its object's address.
      if (i->base->type && i->base->type->is_array() && i->base->type->count == 0)
        if (const Decl* d = root_variable(i->base.get())) out.insert(d);
      walk_expr(i->base.get(), out);
      walk_expr(i->index.get(), out);
      break;
    }
    case ExprKind::Gather: {
      auto* g = e->as<GatherExpr>();
      walk_expr(g->param.get(), out);
      walk_exprs(g->indices, out);
      break;
    }
    case ExprKind::Member: walk_expr(e->as<MemberExpr>()->base.get(), out); break;
    case ExprKind::Swizzle: walk_expr(e->as<SwizzleExpr>()->base.get(), out); break;
    case ExprKind::InitList: walk_exprs(e->as<InitListExpr>()->elems, out); break;
    case ExprKind::Domain: {
      auto* d = e->as<DomainExpr>();
      walk_expr(d->stream.get(), out);
      walk_expr(d->start.get(), out);
      walk_expr(d->end.get(), out);
      break;
    }
    case ExprKind::CompoundLit:
      walk_expr(e->as<CompoundLitExpr>()->object->init.get(), out);
      break;
    case ExprKind::StmtExpr:
      walk_stmt(*e->as<StmtExprExpr>()->body, out);
      walk_expr(e->as<StmtExprExpr>()->result.get(), out);
      break;
    case ExprKind::IterInit: {
      auto* it = e->as<IterInitExpr>();
      walk_expr(it->lo.get(), out);
      walk_expr(it->hi.get(), out);
      break;
    }
    default: break;
  }
}

void walk_stmt(const Stmt& s, std::unordered_set<const Decl*>& out) {
  switch (s.kind) {
    case StmtKind::Compound:
      for (auto& c : s.as<CompoundStmt>()->body) walk_stmt(*c, out);
      break;
    case StmtKind::Expr: walk_expr(s.as<ExprStmt>()->expr.get(), out); break;
    case StmtKind::Decl:
      for (auto& d : s.as<DeclStmt>()->decls) {
        if (auto* v = d->as<VarDecl>()) {
          walk_expr(v->init.get(), out);
          walk_exprs(v->extents, out);
        }
      }
      break;
    case StmtKind::If: {
      auto* i = s.as<IfStmt>();
      walk_expr(i->cond.get(), out);
      walk_stmt(*i->then_stmt, out);
      if (i->else_stmt) walk_stmt(*i->else_stmt, out);
      break;
    }
    case StmtKind::For: {
      auto* f = s.as<ForStmt>();
      if (f->init) walk_stmt(*f->init, out);
      walk_expr(f->cond.get(), out);
      walk_expr(f->step.get(), out);
      walk_stmt(*f->body, out);
      break;
    }
    case StmtKind::While: {
      auto* w = s.as<WhileStmt>();
      walk_expr(w->cond.get(), out);
      walk_stmt(*w->body, out);
      break;
    }
    case StmtKind::Do: {
      auto* d = s.as<DoStmt>();
      walk_expr(d->cond.get(), out);
      walk_stmt(*d->body, out);
      break;
    }
    case StmtKind::Switch: {
      auto* w = s.as<SwitchStmt>();
      walk_expr(w->cond.get(), out);
      walk_stmt(*w->body, out);
      break;
    }
    case StmtKind::Return: walk_expr(s.as<ReturnStmt>()->value.get(), out); break;
    case StmtKind::Label:
      walk_stmt(*s.as<LabelStmt>()->stmt, out);
      break;
    default: break;
  }
}
}  // namespace

void Compiler::find_address_taken(const Stmt& s, std::unordered_set<const Decl*>& out) {
  walk_stmt(s, out);
}

// ---------------------------------------------------------------------------
// Functions

CompiledFunction* Compiler::function(const FuncDecl* decl) {
  const FuncDecl* def = &decl->defined();
  auto it = functions_.find(def);
  if (it != functions_.end()) return it->second.get();
  return compile_function(def, false);
}

CompiledFunction* Compiler::compile_body(const FuncDecl* decl) {
  auto it = functions_.find(decl);
  if (it != functions_.end()) return it->second.get();
  return compile_function(decl, true);
}

void Compiler::redefine(const FuncDecl* old_def, const FuncDecl* new_def) {
  auto it = functions_.find(old_def);
  if (old_def == new_def || it == functions_.end() || functions_.count(new_def)) return;
  bool same = old_def->return_type == new_def->return_type &&
              old_def->params.size() == new_def->params.size();
  for (size_t i = 0; same && i < old_def->params.size(); ++i) {
    same = old_def->params[i]->type == new_def->params[i]->type &&
           old_def->params[i]->pkind == new_def->params[i]->pkind;
  }
  if (!same) return;
  // Compile into the old object: call nodes hold its address.
  std::unique_ptr<CompiledFunction> fn = std::move(it->second);
  functions_.erase(it);
  *fn = CompiledFunction{};
  functions_[new_def] = std::move(fn);
  compile_function(new_def, false);
}

CompiledFunction* Compiler::compile_function(const FuncDecl* def, bool) {
  std::unique_ptr<CompiledFunction>& slot = functions_[def];
  if (!slot) slot = std::make_unique<CompiledFunction>();  // redefine() pre-seeds it
  CompiledFunction* fn = slot.get();
  fn->decl = def;
  fn->name = def->name;
  if (!def->body) return fn;

  FunctionState state;
  state.fn = fn;
  find_address_taken(*def->body, state.address_taken);
  FunctionState* outer = current_;
  current_ = &state;
  try {
    for (auto& p : def->params) {
      const Type* t = p->type;
      uint32_t off = frame_slot(t->size, std::max<uint64_t>(t->align, 1));
      fn->param_offsets.push_back(off);
      fn->param_types.push_back(t);
      if (state.address_taken.count(p.get())) {
        uint32_t slot = frame_slot(16, 8);
        fn->escaping.push_back({slot, t->size, off, p->name, p->loc});
        state.locals[p.get()] = {slot, true};
      } else {
        state.locals[p.get()] = {off, false};
      }
    }
    if (def->is_variadic) fn->va_offset = frame_slot(8, 8);
    fn->body = statement(*def->body);
  } catch (...) {
    current_ = outer;
    throw;
  }
  current_ = outer;
  return fn;
}

CompiledFunction* Compiler::compile_toplevel(const Program& program) {
  toplevels_.emplace_back();
  CompiledFunction* fn = &toplevels_.back();
  fn->name = "<top level>";
  FunctionState state;
  state.fn = fn;
  for (auto& item : program.items) {
    if (item->kind != StmtKind::Decl) find_address_taken(*item, state.address_taken);
  }
  FunctionState* outer = current_;
  current_ = &state;
  auto block = std::make_unique<BlockNode>();
  try {
    for (auto& item : program.items) {
      if (auto* ds = item->as<DeclStmt>()) {
        for (auto& d : ds->decls) {
          auto* v = d->as<VarDecl>();
          if (!v) continue;
          if (v->is_stream) {
            // A top-level stream lives for the whole program; its handle is
            // a global, so functions reach it too.
            uint32_t id = global_object(v, v->loc);
            if (host_) block->body.push_back(host_->stream_decl(*v, make_object(machine_.memory, id), *this));
            continue;
          }
          if (!v->type || v->type->is_void()) continue;
          uint32_t id = global_object(v, v->loc);
          if (v->init) block->body.push_back(initializer(make_object(machine_.memory, id), v->type, *v->init));
        }
      } else {
        block->body.push_back(statement(*item));
      }
    }
  } catch (...) {
    current_ = outer;
    throw;
  }
  current_ = outer;
  fn->body = std::move(block);
  return fn;
}

// ---------------------------------------------------------------------------
// Statements

StmtNodePtr Compiler::statement(const Stmt& s) {
  // A setjmp may sit in this statement's own expression (an expression
  // statement, a return, the condition of if/switch/while), not deeper.
  const SetjmpPlace here = std::exchange(setjmp_place_, {});
  auto with_setjmp = [&](auto compile) {
    setjmp_place_ = here;
    auto n = compile();
    setjmp_place_ = {};
    return n;
  };
  switch (s.kind) {
    case StmtKind::Compound: {
      const auto& items = s.as<CompoundStmt>()->body;
      bool has_labels = std::any_of(items.begin(), items.end(),
                                    [](auto& c) { return c->kind == StmtKind::Label; });
      std::unique_ptr<BlockNode> b;
      LabelBlockNode* jumps = nullptr;
      if (has_labels) {
        auto lb = std::make_unique<LabelBlockNode>();
        jumps = lb.get();
        b = std::move(lb);
      } else {
        b = std::make_unique<BlockNode>();
      }
      std::vector<std::pair<const void*, size_t>> setjmp_sites;
      for (auto& item : items) {
        const Stmt* c = item.get();
        while (auto* l = c->as<LabelStmt>()) {
          jumps->labels.push_back({l, b->body.size()});
          c = l->stmt.get();
        }
        if (auto* ds = c->as<DeclStmt>()) {
          for (auto& d : ds->decls) {
            auto* v = d->as<VarDecl>();
            setjmp_place_ = {&setjmp_sites, b->body.size()};
            if (v && v->is_stream && !v->is_global && !v->is_static) {
              if (StmtNodePtr n = declaration(*v)) b->body.push_back(std::move(n));
              // The stream is freed when its block ends, however it ends.
              if (host_) {
                uint32_t slot = current_->locals.at(v).offset;
                b->at_exit.push_back(host_->stream_release(make_local(v->type, slot), *this));
              }
              continue;
            }
            if (v) {
              if (StmtNodePtr n = declaration(*v)) b->body.push_back(std::move(n));
            }
          }
          setjmp_place_ = {};
          continue;
        }
        setjmp_place_ = {&setjmp_sites, b->body.size()};
        b->body.push_back(statement(*c));
        setjmp_place_ = {};
      }
      if (setjmp_sites.empty()) return b;
      auto sb = std::make_unique<SetjmpBlockNode>();
      sb->body = std::move(b->body);
      sb->at_exit = std::move(b->at_exit);
      if (jumps) sb->labels = std::move(jumps->labels);
      sb->sites = std::move(setjmp_sites);
      return sb;
    }
    case StmtKind::Expr:
      return with_setjmp([&] { return expression_statement(*s.as<ExprStmt>()->expr); });
    case StmtKind::Decl: {
      auto b = std::make_unique<BlockNode>();
      for (auto& d : s.as<DeclStmt>()->decls) {
        if (auto* v = d->as<VarDecl>()) {
          if (StmtNodePtr n = declaration(*v)) b->body.push_back(std::move(n));
        }
      }
      return b;
    }
    case StmtKind::If: {
      auto* i = s.as<IfStmt>();
      auto n = std::make_unique<IfNode>();
      n->cond = with_setjmp([&] { return condition(*i->cond); });
      n->then_s = statement(*i->then_stmt);
      if (i->else_stmt) n->else_s = statement(*i->else_stmt);
      return n;
    }
    case StmtKind::For: {
      auto* f = s.as<ForStmt>();
      auto n = std::make_unique<ForNode>();
      if (f->init) n->init = statement(*f->init);
      if (f->cond) n->cond = condition(*f->cond);
      if (f->step) n->step = expression_statement(*f->step);
      n->body = statement(*f->body);
      return n;
    }
    case StmtKind::While: {
      auto* w = s.as<WhileStmt>();
      auto n = std::make_unique<ForNode>();
      n->cond = with_setjmp([&] { return condition(*w->cond); });
      n->body = statement(*w->body);
      return n;
    }
    case StmtKind::Do: {
      auto* d = s.as<DoStmt>();
      auto n = std::make_unique<DoNode>();
      n->body = statement(*d->body);
      n->cond = condition(*d->cond);
      return n;
    }
    case StmtKind::Switch: {
      auto* w = s.as<SwitchStmt>();
      auto n = std::make_unique<SwitchNode>();
      n->cond = with_setjmp([&] { return value(*w->cond); });
      const Stmt* body = w->body.get();
      std::vector<const Stmt*> items;
      if (auto* c = body->as<CompoundStmt>()) {
        for (auto& x : c->body) items.push_back(x.get());
      } else {
        items.push_back(body);
      }
      for (const Stmt* x : items) {
        while (auto* l = x->as<LabelStmt>()) {
          n->labels.push_back({l, n->body.size()});
          x = l->stmt.get();
        }
        if (auto* cs = x->as<CaseStmt>()) {
          for (int64_t v = cs->folded; v <= cs->folded_high; ++v)
            n->cases.push_back({v, n->body.size()});
        } else if (x->as<DefaultStmt>()) {
          n->default_index = n->body.size();
        } else if (auto* ds = x->as<DeclStmt>()) {
          for (auto& d : ds->decls) {
            if (auto* v = d->as<VarDecl>()) {
              if (StmtNodePtr dn = declaration(*v)) n->body.push_back(std::move(dn));
            }
          }
        } else {
          n->body.push_back(statement(*x));
        }
      }
      std::stable_sort(n->cases.begin(), n->cases.end(),
                       [](auto& a, auto& b) { return a.first < b.first; });
      return n;
    }
    case StmtKind::Case:
    case StmtKind::Default:
    case StmtKind::Empty: return std::make_unique<EmptyNode>();
    // A label not directly in a block (sema lets no goto reach it).
    case StmtKind::Label: return statement(*s.as<LabelStmt>()->stmt);
    case StmtKind::Goto: {
      auto n = std::make_unique<GotoNode>();
      n->label = s.as<GotoStmt>()->target;
      return n;
    }
    case StmtKind::Break: {
      auto n = std::make_unique<JumpNode>();
      n->flow = Flow::brk;
      return n;
    }
    case StmtKind::Continue: {
      auto n = std::make_unique<JumpNode>();
      n->flow = Flow::cont;
      return n;
    }
    case StmtKind::Return: {
      auto* r = s.as<ReturnStmt>();
      setjmp_place_ = here;  // return setjmp(b): cleared again by the next statement
      if (!r->value || r->value->type->is_void()) {
        if (r->value) {
          auto b = std::make_unique<BlockNode>();
          auto e = std::make_unique<ScalarExprStmt>();
          e->e = value(*r->value);
          b->body.push_back(std::move(e));
          auto j = std::make_unique<JumpNode>();
          j->flow = Flow::ret;
          b->body.push_back(std::move(j));
          return b;
        }
        auto n = std::make_unique<JumpNode>();
        n->flow = Flow::ret;
        return n;
      }
      const Type* t = r->value->type;
      if (t->is_vector()) {
        auto n = std::make_unique<ReturnVec>();
        n->e = value(*r->value);
        return n;
      }
      if (t->is_struct() || t->is_array()) {
        auto n = std::make_unique<ReturnAggregate>();
        n->e = value(*r->value);
        n->size = t->size;
        return n;
      }
      auto n = std::make_unique<ReturnScalar>();
      n->e = value(*r->value);
      return n;
    }
  }
  return std::make_unique<EmptyNode>();
}

StmtNodePtr Compiler::expression_statement(const Expr& e) {
  if (e.type->is_scalar() || e.type->is_pointer() || e.type->is_void()) {
    auto n = std::make_unique<ScalarExprStmt>();
    n->e = value(e);
    return n;
  }
  auto n = std::make_unique<ExprStmtNode>();
  n->e = value(e);
  n->type = e.type;
  return n;
}

StmtNodePtr Compiler::declaration(const VarDecl& v) {
  if (!v.type || v.type->is_void()) return nullptr;
  if (v.is_stream) {
    NodePtr slot;
    if (v.is_global || v.is_static) {
      slot = make_object(machine_.memory, global_object(&v, v.loc));
    } else {
      // A handle in the frame; streams never have their address taken.
      uint32_t off = frame_slot(8, 8);
      current_->locals[&v] = {off, false};
      slot = make_local(v.type, off);
    }
    if (!host_) {
      auto f = std::make_unique<FailStmt>();
      f->n = make_fail(v.loc, "streams are not supported here");
      return f;
    }
    return host_->stream_decl(v, std::move(slot), *this);
  }
  if (v.is_global || v.is_static || v.is_shared) {  // shared: one per group, kernel_groups.cpp
    uint32_t id = global_object(&v, v.loc);
    if (!v.init) return nullptr;
    auto once = std::make_unique<OnceNode>();
    once->s = initializer(make_object(machine_.memory, id), v.type, *v.init);
    if (v.is_global) return std::move(once->s);
    return once;
  }
  Local l = declare_local(&v, v.type);
  if (!v.init) {
    if (l.escaping) return nullptr;
    // A declaration executed again (in a loop) starts from zero, as the frame did.
    auto n = std::make_unique<InitNode>();
    n->place = make_local(v.type, l.offset);
    n->size = v.type->size;
    if (v.type->size > 64) return nullptr;  // large arrays: zeroed once, with the frame
    return n;
  }
  NodePtr p = l.escaping ? make_escaping_local(l.offset) : make_local(v.type, l.offset);
  return initializer(std::move(p), v.type, *v.init);
}

namespace {
// A string literal initialising a char array, possibly wrapped in its decay.
const StringLit* string_of(const Expr& e) {
  if (auto* c = e.as<CastExpr>(); c && c->cast == CastKind::ArrayDecay) {
    return c->operand->as<StringLit>();
  }
  return e.as<StringLit>();
}

struct InitBuilder {
  Compiler& c;
  std::vector<InitNode::Item>& items;

  void store(uint64_t off, const Type* t, const Expr& e) {
    if (const StringLit* lit = string_of(e); lit && t->is_array()) {
      // Copy no more than the array holds (C drops the NUL when it does not fit).
      items.push_back({off, c.value(*lit), lit->type->size <= t->size ? lit->type : t});
      return;
    }
    items.push_back({off, c.convert(c.value(e), e.type, t, e.loc), t});
  }
  // Consumes elements of `list` from `i` for an object of type t (brace elision).
  // `own`: `list` is the braced list of this object (a union's names its member).
  void fill(const Type* t, uint64_t off, const InitListExpr& list, size_t& i, bool own = false) {
    if (t->is_struct() && t->decl->is_union) {
      size_t member = own ? static_cast<size_t>(list.union_member) : 0;
      if (member < t->decl->fields.size() && i < list.elems.size())
        place(t->decl->fields[member].type, off, list, i);
    } else if (t->is_array()) {
      for (uint32_t k = 0; (t->count == 0 || k < t->count) && i < list.elems.size(); ++k) {
        place(t->elem, off + k * t->elem->size, list, i);
      }
    } else if (t->is_struct()) {
      for (auto& f : t->decl->fields) {
        if (i >= list.elems.size()) break;
        if (f.is_bitfield()) {
          if (!f.name.empty())
            bitfield(f, off, list, i);  // unnamed ones are no members (C99 6.7.8p9)
          continue;
        }
        place(f.type, off + f.offset, list, i);
      }
    } else if (t->is_vector()) {
      for (uint32_t k = 0; k < t->count && i < list.elems.size(); ++k) {
        place(t->elem, off + k * t->elem->size, list, i);
      }
    } else if (i < list.elems.size()) {
      place(t, off, list, i);
    }
  }
  // A bit-field's initialiser is a scalar (in braces or not, C99 6.7.8p11).
  void bitfield(const ast::FieldDecl& f, uint64_t off, const InitListExpr& list, size_t& i) {
    const Expr* e = list.elems[i++].get();
    while (auto* sub = e->as<InitListExpr>()) {
      if (sub->elems.empty()) return;
      e = sub->elems[0].get();
    }
    InitNode::Item item{off + f.offset, c.convert(c.value(*e), e->type, f.type, e->loc), f.type};
    item.is_bitfield = true;
    item.bits = bitfield_spec(f);
    items.push_back(std::move(item));
  }
  void place(const Type* t, uint64_t off, const InitListExpr& list, size_t& i) {
    const Expr& e = *list.elems[i];
    if (auto* sub = e.as<InitListExpr>()) {
      ++i;
      size_t j = 0;
      fill(t, off, *sub, j, true);
      return;
    }
    bool aggregate = t->is_array() || t->is_struct() || t->is_vector();
    if (!aggregate || e.type == t || (t->is_array() && string_of(e))) {
      ++i;
      store(off, t, e);
      return;
    }
    fill(t, off, list, i);
  }
};
}  // namespace

StmtNodePtr Compiler::initializer(NodePtr place, const Type* t, const Expr& init) {
  auto n = std::make_unique<InitNode>();
  n->size = t->size;
  InitBuilder b{*this, n->items};
  if (auto* list = init.as<InitListExpr>()) {
    size_t i = 0;
    if (t->is_scalar() || t->is_pointer()) {
      if (!list->elems.empty()) b.place(t, 0, *list, i);
    } else {
      b.fill(t, 0, *list, i, true);
    }
  } else {
    b.store(0, t, init);
  }
  n->place = std::move(place);
  return n;
}

}  // namespace brook::interp
