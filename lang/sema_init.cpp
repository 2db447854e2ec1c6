// Initialisers: scalars, vectors, arrays (multi-dimensional, brace elision,
// size completion, string literals) and structs. After sema a braced list is
// fully braced: each InitListExpr has the type of the object it initialises
// and at most as many elements as it has members, each converted to exactly
// the member's type (nested lists for aggregate members); missing trailing
// members are zero.
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

// Members of an aggregate in order; 0 count = unsized array (unbounded).
size_t member_count(const Type* t) {
  if (t->is_array()) return t->count;
  if (t->is_vector()) return t->count;
  return t->decl->fields.size();
}

const Type* member_type(const Type* t, size_t i) {
  if (t->is_array() || t->is_vector()) return t->elem;
  const Type* ft = t->decl->fields[i].type;
  return ft ? ft : nullptr;
}

}  // namespace

const Type* Sema::Impl::check_initializer(ExprPtr& init, const Type* type) {
  if (type->is_error()) return type;
  if (auto* list = init->as<InitListExpr>()) {
    if (type->is_struct() && !type->decl->is_definition) {
      error(init->loc, "cannot initialise incomplete type " + quoted(type));
      return err();
    }
    if (!is_aggregate(type)) {
      // `int x = {5};` is C.
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

ExprPtr Sema::Impl::take_initializer(std::vector<ExprPtr>& elems, size_t& pos, const Type* type,
                                     SourceLoc list_loc) {
  ExprPtr& cur = elems[pos];
  if (is_aggregate(type)) {
    if (auto* nested = cur->as<InitListExpr>()) {
      ++pos;
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
           elems[pos]->kind != ExprKind::InitList) {
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
