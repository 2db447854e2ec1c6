// Initialisers: scalars, vectors, arrays (multi-dimensional, brace elision,
// size completion, string literals) and structs. After sema a braced list is
// fully braced: each InitListExpr has the type of the object it initialises
// and at most as many elements as it has members, each converted to exactly
// the member's type (nested lists for aggregate members); missing trailing
// members are zero.
#include <algorithm>

#include "lang/sema_impl.hpp"

namespace brook {

using namespace ast;

namespace {

bool is_aggregate(const Type* t) {
  return t->is_array() || t->is_struct() || t->is_vector();
}

bool is_char_array(const Type* t) {
  return t->is_array() && (t->elem->kind == TypeKind::Char || t->elem->kind == TypeKind::UChar);
}

// Members of an aggregate in order; 0 count = unsized array (unbounded). A
// union's list initialises one member.
// An unnamed bit-field is no member for initialisation (C99 6.7.8p9): the
// k-th member of a struct's list is its k-th field that is not one.
bool initialisable(const FieldDecl& f) {
  return !(f.is_bitfield() && f.name.empty());
}

size_t member_count(const Type* t) {
  if (t->is_array()) return t->count;
  if (t->is_vector()) return t->count;
  if (t->decl->is_union) return t->decl->fields.empty() ? 0 : 1;
  size_t n = 0;
  for (const FieldDecl& f : t->decl->fields) n += initialisable(f);
  return n;
}

// The field of a struct's k-th member (see initialisable), or of a union's k-th.
const FieldDecl& member_field(const Type* t, size_t k) {
  if (t->decl->is_union) return t->decl->fields[k];
  for (const FieldDecl& f : t->decl->fields)
    if (initialisable(f) && k-- == 0) return f;
  return t->decl->fields[k];  // not reached: callers stay below member_count
}

// Sets Sema::Impl::designated_elems for one list and restores it on every exit.
struct Restore {
  const std::vector<bool>*& slot;
  const std::vector<bool>* saved;
  Restore(const std::vector<bool>*& s, const std::vector<bool>* value) : slot(s), saved(s) {
    slot = value;
  }
  ~Restore() { slot = saved; }
  Restore(const Restore&) = delete;
  Restore& operator=(const Restore&) = delete;
};

const Type* member_type(const Type* t, size_t i) {
  if (t->is_array() || t->is_vector()) return t->elem;
  const Type* ft = member_field(t, i).type;
  return ft ? ft : nullptr;
}

}  // namespace

const Type* Sema::Impl::check_compound_literal(CompoundLitExpr& c) {
  VarDecl& v = *c.object;
  const Type* t = resolve_type(v.type_syntax, true);
  if (!t) return v.type = err();
  if (in_kernel()) {
    // Kernels keep their values in registers on every backend; an unnamed
    // object that can outlive its expression is host memory.
    error(c.loc, "compound literal '(" + t->name() + "){…}' in " + func_desc() +
                     ": compound literals are host-only; declare a local variable");
    return v.type = err();
  }
  if (t->is_void() || t->is_function() || t->is_stream() ||
      (t->is_struct() && !t->decl->is_definition)) {
    error(c.loc, "a compound literal cannot have " +
                     std::string(t->is_struct() ? "incomplete " : "") + "type " + quoted(t));
    return v.type = err();
  }
  // Outside a function the object is static (C99 6.5.2.5p6): a global's
  // initialiser and Brook's top-level statements.
  v.is_global = func == nullptr;
  v.type = check_initializer(v.init, t);
  c.is_lvalue = true;
  return v.type;
}

std::vector<size_t> Sema::Impl::anonymous_path(const StructDecl& sd, std::string_view name) {
  if (sd.field_index(name) >= 0) return {};
  for (size_t i = 0; i < sd.fields.size(); ++i) {
    const FieldDecl& f = sd.fields[i];
    if (!f.anonymous || !f.type || !f.type->is_struct()) continue;
    const StructDecl& inner = *f.type->decl;
    if (inner.field_index(name) >= 0) return {i, static_cast<size_t>(inner.field_index(name))};
    std::vector<size_t> deeper = anonymous_path(inner, name);
    if (!deeper.empty()) {
      deeper.insert(deeper.begin(), i);
      return deeper;
    }
  }
  return {};
}

void Sema::Impl::expand_anonymous(std::vector<Designator>& chain, size_t at, const Type* type) {
  if (at >= chain.size() || chain[at].field.empty() || !type->is_struct()) return;
  std::vector<size_t> path = anonymous_path(*type->decl, chain[at].field);
  std::vector<Designator> through;
  const StructDecl* sd = type->decl;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    Designator d;
    d.loc = chain[at].loc;
    d.field = sd->fields[path[i]].name;
    through.push_back(std::move(d));
    sd = sd->fields[path[i]].type->decl;
  }
  chain.insert(chain.begin() + static_cast<std::ptrdiff_t>(at),
               std::make_move_iterator(through.begin()), std::make_move_iterator(through.end()));
}

const Type* Sema::Impl::check_initializer(ExprPtr& init, const Type* type) {
  if (type->is_error()) return type;
  if (auto* list = init->as<InitListExpr>()) {
    if (type->is_struct() && !type->decl->is_definition) {
      error(init->loc, "cannot initialise incomplete type " + quoted(type));
      return err();
    }
    if (is_char_array(type) && list->elems.size() == 1 && list->designators.empty() &&
        list->elems[0]->kind == ExprKind::StringLit) {
      // `char s[] = {"abc"};`: the braces may surround the string (C99 6.7.8p14).
      ExprPtr inner = std::move(list->elems[0]);
      init = std::move(inner);
      return check_initializer(init, type);
    }
    if (!is_aggregate(type)) {
      // `int x = {5};` is C.
      if (!list->designators.empty() && !list->designators[0].empty()) {
        error(list->designators[0][0].loc, "designator in an initialiser of " + quoted(type) +
                                               ", which has no members");
        return err();
      }
      if (list->elems.size() != 1 || list->elems[0]->kind == ExprKind::InitList) {
        error(init->loc, "a " + quoted(type) + " needs a single initialiser, not a list");
        return err();
      }
      ExprPtr inner = std::move(list->elems[0]);
      init = std::move(inner);
      return check_initializer(init, type);
    }
    init_aggregate(*list, type);
    return list->type;
  }
  if (is_char_array(type) && init->kind == ExprKind::StringLit) {
    size_t len = init->as<StringLit>()->value.size();
    if (type->count == 0)
      type = types.array(type->elem, static_cast<uint32_t>(len + 1));
    else if (len > type->count) {
      error(init->loc, "initialiser string is too long for " + quoted(type));
      return type;
    }
    init->type = type;
    init->is_lvalue = true;
    return type;
  }
  if (type->is_array()) {
    const Type* t = check_value(init);
    if (!t->is_error())
      error(init->loc, "an array must be initialised with a braced list, not " + quoted(t));
    return type->count ? type : err();
  }
  const Type* t = check_value(init, "initialised; use streamRead");
  if (!t->is_error()) convert(init, type, "in initialisation");
  return type;
}

void Sema::Impl::init_aggregate(InitListExpr& list, const Type* type) {
  if (!list.designators.empty()) return init_designated(list, type);
  Restore restore(designated_elems, nullptr);  // this list's elements have no designators
  std::vector<ExprPtr> elems = std::move(list.elems);
  list.elems.clear();
  size_t limit = member_count(type);
  size_t pos = 0;
  while (pos < elems.size() && (limit == 0 ? type->is_array() : list.elems.size() < limit)) {
    const Type* mt = member_type(type, list.elems.size());
    if (!mt || mt->is_error()) return void(list.type = type);
    ExprPtr leaf = take_initializer(elems, pos, mt, list.loc);
    if (!leaf) break;
    list.elems.push_back(std::move(leaf));
  }
  if (pos < elems.size()) error(elems[pos]->loc, "too many initialisers for " + quoted(type));
  if (type->is_array() && type->count == 0)
    type = types.array(type->elem, static_cast<uint32_t>(std::max<size_t>(list.elems.size(), 1)));
  list.type = type;
}

// C99 6.7.8p17-19: a designator moves the position within the object; the
// elements after it continue from there (brace elision included); a later
// initialiser of a member overrides an earlier one; members left out are
// zero. The result is the positional, fully braced form the backends read,
// with explicit zeros in the gaps.
void Sema::Impl::init_designated(InitListExpr& list, const Type* type) {
  std::vector<ExprPtr> elems = std::move(list.elems);
  std::vector<std::vector<Designator>> desig = std::move(list.designators);
  list.elems.clear();
  list.designators.clear();
  const bool is_union = type->is_struct() && type->decl->is_union;
  const bool unsized = type->is_array() && type->count == 0;
  // Members in order, grown as far as the largest one initialised (a sparse
  // `[999] = 1` costs its gap's zeros, as the object does).
  std::vector<ExprPtr> slots;
  std::vector<bool> designated(elems.size());
  for (size_t i = 0; i < elems.size(); ++i) designated[i] = i < desig.size() && !desig[i].empty();
  auto grow = [&](size_t n) {
    if (slots.size() < n) slots.resize(n);
  };
  size_t k = 0, pos = 0;
  Restore restore(designated_elems, designated_elems);
  while (pos < elems.size()) {
    if (designated[pos]) {
      std::vector<Designator>& chain = desig[pos];
      expand_anonymous(chain, 0, type);
      Designator& d = chain.front();
      std::optional<size_t> at = designator_index(d, type);
      if (!at) {
        ++pos;
        continue;
      }
      k = *at;
      grow(k + 1);
      if (is_union) list.union_member = static_cast<int>(k);
      const Type* mt = member_type(type, k);
      if (!mt || mt->is_error()) return void(list.type = type);
      designated[pos] = false;  // its value is taken like a positional one, where it points
      if (chain.size() > 1) {
        // `.a.b = v`: into member a's list, keeping what a already holds (as
        // gcc does); the elements after it continue inside a, after b.
        if (!slots[k]) slots[k] = zero_initializer(mt, d.loc);
        size_t start = pos;
        designated_elems = &designated;
        designate_into(slots[k], mt, chain, 1, elems, pos);
        designated_elems = restore.saved;
        if (pos == start) ++pos;  // not taken after an error
        ++k;
        continue;
      }
    } else if (!unsized && (is_union ? k != 0 : k >= member_count(type))) {
      // A union takes one positional initialiser, for its first member.
      error(elems[pos]->loc, "too many initialisers for " + quoted(type));
      break;
    }
    grow(k + 1);
    const Type* mt = member_type(type, k);
    if (!mt || mt->is_error()) return void(list.type = type);
    designated_elems = &designated;
    slots[k] = take_initializer(elems, pos, mt, list.loc);
    designated_elems = restore.saved;
    ++k;
  }
  if (unsized) type = types.array(type->elem, static_cast<uint32_t>(std::max<size_t>(slots.size(), 1)));
  if (is_union) {
    size_t chosen = static_cast<size_t>(list.union_member);
    if (chosen < slots.size() && slots[chosen]) list.elems.push_back(std::move(slots[chosen]));
  } else {
    size_t used = slots.size();
    while (used > 0 && !slots[used - 1]) --used;
    for (size_t i = 0; i < used; ++i)
      list.elems.push_back(slots[i] ? std::move(slots[i]) : zero_initializer(member_type(type, i), list.loc));
  }
  list.type = type;
}

std::optional<size_t> Sema::Impl::designator_index(Designator& d, const Type* type) {
  if (!d.field.empty()) {
    int f = type->is_struct() ? type->decl->field_index(d.field) : -1;
    if (!type->is_struct())
      error(d.loc, "field designator '." + d.field + "' in an initialiser of " + quoted(type) +
                       ", which has no members");
    else if (f < 0)
      error(d.loc, quoted(type) + " has no member named '" + d.field + "'");
    else if (type->decl->is_union)
      return static_cast<size_t>(f);
    else {
      size_t k = 0;  // its position among the members a list initialises
      for (int i = 0; i < f; ++i) k += initialisable(type->decl->fields[static_cast<size_t>(i)]);
      return k;
    }
    return std::nullopt;
  }
  if (!type->is_array()) {
    error(d.loc, (is_aggregate(type) ? "array designator in an initialiser of non-array type "
                                     : "designator goes into ") +
                     quoted(type) + (is_aggregate(type) ? "" : ", which has no members"));
    return std::nullopt;
  }
  const Type* it = check_value(d.index);
  if (it->is_error()) return std::nullopt;
  if (!it->is_integer()) {
    error(d.index->loc, "array designator must be an integer, not " + quoted(it));
    return std::nullopt;
  }
  auto v = require_constant(*d.index, "array designator");
  if (!v) return std::nullopt;
  if (*v < 0 || (type->count != 0 && static_cast<uint64_t>(*v) >= type->count)) {
    error(d.index->loc, "array designator index " + std::to_string(*v) + " is outside " + quoted(type));
    return std::nullopt;
  }
  return static_cast<size_t>(*v);
}

// Applies chain[at…] = value inside `slot`, an already resolved initialiser
// of `type` (a fully braced list): C99 6.7.8p19's override of one subobject.
bool Sema::Impl::designate_into(ExprPtr& slot, const Type* type, std::vector<Designator>& chain,
                                size_t at, std::vector<ExprPtr>& elems, size_t& pos) {
  expand_anonymous(chain, at, type);
  Designator& d = chain[at];  // valid until the recursion below expands the chain further
  const SourceLoc loc = d.loc;
  auto* list = slot->as<InitListExpr>();
  if (!is_aggregate(type)) {
    error(d.loc, "designator goes into " + quoted(type) + ", which has no members");
    return false;
  }
  if (!list || list->type != type) {
    error(d.loc, "a designator cannot change part of a member initialised by a whole value");
    return false;
  }
  std::optional<size_t> k = designator_index(d, type);
  if (!k) return false;
  const Type* mt = member_type(type, *k);
  if (!mt || mt->is_error()) return false;
  size_t index = *k;
  if (type->is_struct() && type->decl->is_union) {
    if (list->union_member != static_cast<int>(*k)) list->elems.clear();
    list->union_member = static_cast<int>(*k);
    index = 0;
  }
  while (list->elems.size() <= index)
    list->elems.push_back(zero_initializer(member_type(type, type->decl && type->decl->is_union
                                                                 ? *k
                                                                 : list->elems.size()),
                                           d.loc));
  if (at + 1 < chain.size()) {
    if (!designate_into(list->elems[index], mt, chain, at + 1, elems, pos)) return false;
  } else {
    list->elems[index] = take_initializer(elems, pos, mt, loc);
  }
  // C99 6.7.8p17: the elements after the designated one, up to the next
  // designator, initialise the members after it (here, then in the enclosing
  // object once this one is full). A union holds its one member.
  if (type->is_struct() && type->decl->is_union) return true;
  auto designated = [&](size_t i) {
    return designated_elems && i < designated_elems->size() && (*designated_elems)[i];
  };
  for (size_t next = index + 1; next < member_count(type) && pos < elems.size() && !designated(pos);
       ++next) {
    const Type* nt = member_type(type, next);
    if (!nt || nt->is_error()) return false;
    while (list->elems.size() <= next)
      list->elems.push_back(zero_initializer(member_type(type, list->elems.size()), loc));
    list->elems[next] = take_initializer(elems, pos, nt, loc);
  }
  return true;
}

ExprPtr Sema::Impl::zero_initializer(const Type* type, SourceLoc loc) {
  if (is_aggregate(type)) {
    // An empty braced list: every backend zero-fills what a list leaves out.
    auto l = std::make_unique<InitListExpr>(loc);
    l->type = type;
    return l;
  }
  auto zero = std::make_unique<IntLit>(loc);
  zero->type = types.int_type();
  ExprPtr e = std::move(zero);
  if (!type->is_error()) convert(e, type, "in initialisation");
  return e;
}

ExprPtr Sema::Impl::take_initializer(std::vector<ExprPtr>& elems, size_t& pos, const Type* type,
                                     SourceLoc list_loc) {
  ExprPtr& cur = elems[pos];
  if (is_aggregate(type)) {
    if (auto* nested = cur->as<InitListExpr>()) {
      ++pos;
      if (is_char_array(type) && nested->elems.size() == 1 && nested->designators.empty() &&
          nested->elems[0]->kind == ExprKind::StringLit) {
        ExprPtr s = std::move(nested->elems[0]);  // `{"abc"}` for a char array member
        check_initializer(s, type);
        return s;
      }
      if (type->is_struct() && !type->decl->is_definition) {
        error(cur->loc, "cannot initialise incomplete type " + quoted(type));
        nested->type = err();
        return std::move(cur);
      }
      init_aggregate(*nested, type);
      return std::move(cur);
    }
    if (is_char_array(type) && cur->kind == ExprKind::StringLit) {
      ++pos;
      ExprPtr s = std::move(cur);
      check_initializer(s, type);
      return s;
    }
    // A whole struct or vector value initialises the member as it is.
    const Type* t = check_value(cur, "initialised; use streamRead");
    if (t->is_error()) {
      ++pos;
      return std::move(cur);
    }
    if ((type->is_struct() && t == type) || (type->is_vector() && t->is_vector())) {
      ++pos;
      convert(cur, type, "in initialisation");
      return std::move(cur);
    }
    // Brace elision: the following scalars fill the member.
    if (type->is_struct() && !type->decl->is_definition) {
      ++pos;
      error(cur->loc, "cannot initialise incomplete type " + quoted(type));
      return std::move(cur);
    }
    auto sub = std::make_unique<InitListExpr>(cur->loc);
    size_t limit = member_count(type);
    while (pos < elems.size() && sub->elems.size() < limit &&
           elems[pos]->kind != ExprKind::InitList &&
           !(designated_elems && pos < designated_elems->size() && (*designated_elems)[pos])) {
      const Type* mt = member_type(type, sub->elems.size());
      if (!mt || mt->is_error()) break;
      ExprPtr leaf = take_initializer(elems, pos, mt, list_loc);
      if (!leaf) break;
      sub->elems.push_back(std::move(leaf));
    }
    sub->type = type;
    return sub;
  }
  if (auto* nested = cur->as<InitListExpr>()) {
    ++pos;
    if (!nested->designators.empty() && !nested->designators[0].empty()) {
      error(nested->designators[0][0].loc, "designator in an initialiser of " + quoted(type) +
                                                ", which has no members");
      nested->type = err();
      return std::move(cur);
    }
    if (nested->elems.size() != 1 || nested->elems[0]->kind == ExprKind::InitList) {
      error(cur->loc, "a " + quoted(type) + " needs a single initialiser, not a list");
      nested->type = err();
      return std::move(cur);
    }
    ExprPtr inner = std::move(nested->elems[0]);
    check_initializer(inner, type);
    return inner;
  }
  ++pos;
  const Type* t = check_value(cur, "initialised; use streamRead");
  if (!t->is_error()) convert(cur, type, "in initialisation");
  return std::move(cur);
}

}  // namespace brook
