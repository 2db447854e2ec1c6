#include "lang/analysis.hpp"

#include "lang/kernel_walk.hpp"

#include <cmath>
#include <functional>
#include <set>

namespace brook::analysis {

using namespace ast;

namespace {

// An integral literal of magnitude at most 2^24 (float or int; an implicit
// conversion around it is looked through).
std::optional<int64_t> integral_literal(const Expr* e) {
  while (e && e->kind == ExprKind::Cast && e->as<CastExpr>()->cast == CastKind::Convert)
    e = e->as<CastExpr>()->operand.get();
  if (!e) return std::nullopt;
  if (const auto* f = e->as<FloatLit>()) {
    double v = f->value;
    if (!(std::fabs(v) <= static_cast<double>(kFloatExact)) || v != std::floor(v)) return std::nullopt;
    return static_cast<int64_t>(v);
  }
  if (const auto* i = e->as<IntLit>()) {
    if (i->value > static_cast<uint64_t>(kFloatExact)) return std::nullopt;
    return static_cast<int64_t>(i->value);
  }
  if (const auto* u = e->as<UnaryExpr>(); u && u->op == UnaryOp::Neg) {
    if (auto v = integral_literal(u->operand.get())) return -*v;
  }
  return std::nullopt;
}

bool is_float_scalar(const Type* t) { return t && t->kind == TypeKind::Float; }

const Decl* name_of(const Expr* e) {
  const auto* n = e ? e->as<NameExpr>() : nullptr;
  return n ? n->decl : nullptr;
}

// The write `e` makes to the float local it names directly, when it has a
// counter's form.
std::optional<CounterWrite> counter_form(const Expr& e) {
  if (const auto* a = e.as<AssignExpr>()) {
    auto v = integral_literal(a->rhs.get());
    if (!v) return std::nullopt;
    if (!a->op) return CounterWrite{true, *v};
    if (*v == 0) return std::nullopt;
    if (*a->op == BinaryOp::Add) return CounterWrite{false, *v};
    if (*a->op == BinaryOp::Sub) return CounterWrite{false, -*v};
    return std::nullopt;
  }
  if (const auto* u = e.as<UnaryExpr>()) {
    if (u->op == UnaryOp::PreInc || u->op == UnaryOp::PostInc) return CounterWrite{false, 1};
    if (u->op == UnaryOp::PreDec || u->op == UnaryOp::PostDec) return CounterWrite{false, -1};
  }
  return std::nullopt;
}

bool writes(const Expr& e) {
  if (e.kind == ExprKind::Assign) return true;
  if (const auto* u = e.as<UnaryExpr>()) {
    return u->op == UnaryOp::PreInc || u->op == UnaryOp::PostInc || u->op == UnaryOp::PreDec ||
           u->op == UnaryOp::PostDec || u->op == UnaryOp::AddrOf;
  }
  return false;
}

const Expr* written(const Expr& e) {
  if (const auto* a = e.as<AssignExpr>()) return a->lhs.get();
  if (const auto* u = e.as<UnaryExpr>()) return u->operand.get();
  return nullptr;
}

}  // namespace

FloatCounters::FloatCounters(const FuncDecl& kernel) {
  long_.kind = TypeKind::Long;
  long_.size = 8;
  long_.align = 8;
  const FuncDecl& f = kernel.defined();
  if (!f.body) return;
  std::set<const Decl*> out;  // disqualified
  std::map<const Decl*, int> dir;
  walk(
      f.body.get(),
      [&](const Expr& e) {
        if (writes(e)) {
          const Decl* root = root_of(written(e));
          if (!root) return;
          auto form = counter_form(e);
          if (!form || name_of(written(e)) != root) {
            out.insert(root);
            return;
          }
          if (form->reset) return;
          int d = form->value > 0 ? 1 : -1;
          auto [it, fresh] = dir.emplace(root, d);
          if (!fresh && it->second != d) out.insert(root);
          return;
        }
        // An out parameter of a kernel called with the variable may change it.
        if (const auto* c = e.as<CallExpr>()) {
          for (const auto& a : c->args)
            if (const Decl* root = root_of(a.get())) {
              if (c->target != CallTarget::Builtin) out.insert(root);
            }
        }
      },
      [&](const Stmt& st) {
        const auto* ds = st.as<DeclStmt>();
        if (!ds) return;
        for (const auto& d : ds->decls) {
          const auto* v = d->as<VarDecl>();
          if (!v || !is_float_scalar(v->type) || v->is_static || v->is_global || v->is_stream) continue;
          if (v->init && !integral_literal(v->init.get())) continue;
          FloatCounter c;
          c.var = v;
          counters_.emplace(v, std::move(c));
        }
      });
  for (auto it = counters_.begin(); it != counters_.end();) {
    if (out.count(it->first)) {
      it = counters_.erase(it);
      continue;
    }
    FloatCounter& c = it->second;
    auto d = dir.find(it->first);
    c.direction = d == dir.end() ? 0 : d->second;
    c.shadow = std::make_unique<VarDecl>(c.var->loc);
    c.shadow->name = c.var->name + ".int";
    c.shadow->type = &long_;
    ++it;
  }
}

const FloatCounter* FloatCounters::find(const Decl* d) const {
  auto it = counters_.find(d);
  return it == counters_.end() ? nullptr : &it->second;
}

std::optional<std::pair<const FloatCounter*, CounterWrite>> FloatCounters::write(const Expr& e) const {
  if (!writes(e)) return std::nullopt;
  const FloatCounter* c = find(name_of(written(e)));
  if (!c) return std::nullopt;
  auto form = counter_form(e);
  if (!form) return std::nullopt;
  return std::make_pair(c, *form);
}

int64_t FloatCounters::initial(const VarDecl& v) {
  auto x = integral_literal(v.init.get());
  return x ? *x : 0;
}

}  // namespace brook::analysis
