// The parser's core (tokens, errors, recovery) and declaration specifiers:
// types, declarators' suffixes, structs, enums and typedefs.
#include "lang/parser.hpp"

#include <algorithm>

#include "lang/parser_impl.hpp"

namespace brook {

ParseResult parse(const std::vector<Token>& tokens, TypeContext& types, DiagnosticEngine& diags,
                  ParserState& state) {
  return parser_detail::Parser(tokens, types, diags, state).run();
}

namespace parser_detail {

using namespace ast;

namespace {
const Token& eof_token() {
  static const Token eof{};
  return eof;
}
}  // namespace

TypeSyntax copy_base(const TypeSyntax& ts) {
  TypeSyntax out;
  out.loc = ts.loc;
  out.base = ts.base;
  out.builtin = ts.builtin;
  out.name = ts.name;
  out.struct_def = ts.struct_def;
  out.enum_def = ts.enum_def;
  out.is_const = ts.is_const;
  out.is_union = ts.is_union;
  out.typeof_of = ts.typeof_of;
  return out;
}

Parser::Parser(const std::vector<Token>& tokens, TypeContext& types, DiagnosticEngine& diags,
               ParserState& state)
    : tokens_(tokens), types_(types), diags_(diags), state_(state) {}

ParseResult Parser::run() {
  ParseResult result;
  while (!at(Tok::eof)) {
    if (StmtPtr item = parse_top_level_item()) result.program.items.push_back(std::move(item));
  }
  result.incomplete = incomplete_;
  return result;
}

// ---------------------------------------------------------------------------
// Tokens and errors

const Token& Parser::tok(size_t ahead) const {
  if (tokens_.empty()) return eof_token();
  size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
  return tokens_[i];
}

const Token& Parser::advance() {
  const Token& t = tok();
  if (pos_ < tokens_.size() && t.kind != Tok::eof) ++pos_;
  return t;
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  advance();
  return true;
}

const Token& Parser::expect(Tok k) {
  if (!at(k)) fail_here("expected " + std::string(tok_description(k)));
  return advance();
}

void Parser::expect_semi(std::string_view after) {
  if (accept(Tok::semi)) return;
  SourceLoc loc = tok().loc;
  if (pos_ > 0 && pos_ <= tokens_.size()) {
    const Token& prev = tokens_[pos_ - 1];
    loc = prev.loc;
    loc.col += static_cast<uint32_t>(prev.text.size());
  }
  if (after.empty()) fail(loc, "expected ';' before " + std::string(tok_description(tok().kind)));
  fail(loc, "expected ';' after " + std::string(after));
}

void Parser::fail(SourceLoc loc, std::string message) {
  if (!any_error_) {
    any_error_ = true;
    incomplete_ = at(Tok::eof);
  }
  diags_.error(loc, std::move(message));
  throw SyntaxError{};
}

// Skips to just after the next ';' or to the end of the next balanced block,
// stopping before a '}' that closes an enclosing block.
void Parser::recover() {
  int depth = 0;
  const size_t began = pos_;
  while (!at(Tok::eof)) {
    switch (tok().kind) {
      case Tok::l_brace:
        ++depth;
        break;
      case Tok::r_brace:
        if (depth == 0) return;
        if (--depth == 0) {
          advance();
          accept(Tok::semi);
          return;
        }
        break;
      case Tok::semi:
        if (depth == 0) {
          advance();
          return;
        }
        break;
      case Tok::kw_typedef:
      case Tok::kw_kernel:
      case Tok::kw_reduce:
        // A line that starts a new declaration is not part of the broken one.
        if (depth == 0 && tok().at_line_start && pos_ > began) return;
        break;
      default:
        break;
    }
    advance();
  }
}

void Parser::recover_item(size_t start) {
  recover();
  int open = 0;
  for (size_t i = start; i < pos_ && i < tokens_.size(); ++i) {
    if (tokens_[i].kind == Tok::l_brace) ++open;
    if (tokens_[i].kind == Tok::r_brace) --open;
  }
  if (open <= 0 || !at(Tok::r_brace)) return;
  while (open-- > 0 && at(Tok::r_brace)) advance();
  recover();
}

Parser::DepthGuard::DepthGuard(Parser& parser) : p(parser) {
  // A throwing constructor runs no destructor, so undo the count first.
  if (++p.depth_ > kMaxDepth) {
    --p.depth_;
    p.fail_here("nesting too deep");
  }
}

// ---------------------------------------------------------------------------
// Type names

bool Parser::is_typedef_name(const std::string& name) const {
  return state_.typedef_names.count(name) != 0;
}

const Type* Parser::builtin_type_name(const Token& t) const {
  if (t.kind != Tok::identifier) return nullptr;
  return types_.builtin_by_name(t.text);
}

namespace {
bool is_brook_keyword(Tok k) {
  return k == Tok::kw_kernel || k == Tok::kw_reduce || k == Tok::kw_out || k == Tok::kw_iter ||
         k == Tok::kw_vout;
}
}  // namespace

bool Parser::brook_specifier_at(size_t ahead) const {
  if (!is_brook_keyword(tok(ahead).kind)) return false;
  // Bounded: each step looks one token further, and the token list is finite.
  for (size_t i = ahead + 1;; ++i) {
    Tok next = tok(i).kind;
    // `vout [N] T e<>` / `vout [] T e<>` (§12): skip the bound.
    if (next == Tok::l_square && tok(i - 1).kind == Tok::kw_vout) {
      while (tok(i).kind != Tok::r_square && tok(i).kind != Tok::eof) ++i;
      continue;
    }
    if (is_brook_keyword(next) || next == Tok::kw_static || next == Tok::kw_extern ||
        next == Tok::kw_inline || next == Tok::kw_typedef)
      continue;
    return starts_type_name(i);
  }
}

bool Parser::at_name() const {
  return at(Tok::identifier) || (is_brook_keyword(tok().kind) && !brook_specifier_at());
}

const Token& Parser::take_name() {
  return advance();
}

bool Parser::starts_type_name(size_t ahead) const {
  const Token& t = tok(ahead);
  switch (t.kind) {
    case Tok::kw_void:
    case Tok::kw_char:
    case Tok::kw_short:
    case Tok::kw_int:
    case Tok::kw_long:
    case Tok::kw_float:
    case Tok::kw_double:
    case Tok::kw_signed:
    case Tok::kw_unsigned:
    case Tok::kw_bool:
    case Tok::kw_struct:
    case Tok::kw_union:
    case Tok::kw_enum:
    case Tok::kw_const:
    case Tok::kw_volatile:
      return true;
    case Tok::identifier:
      return builtin_type_name(t) != nullptr || is_typedef_name(t.text) ||
             (is_typeof_word(t.text) && tok(ahead + 1).kind == Tok::l_paren);
    default:
      return false;
  }
}

bool Parser::starts_declaration(size_t ahead) const {
  switch (tok(ahead).kind) {
    case Tok::kw_static:
    case Tok::kw_extern:
    case Tok::kw_inline:
    case Tok::kw_typedef:
      return true;
    case Tok::kw_kernel:
    case Tok::kw_reduce:
    case Tok::kw_out:
    case Tok::kw_iter:
    case Tok::kw_vout:
      return brook_specifier_at(ahead);
    // `float4(1, 2, 3, 4).x;`, `int(x)`: a constructor expression, not a declaration.
    case Tok::kw_int:
    case Tok::kw_float:
    case Tok::kw_double:
    case Tok::kw_char:
    case Tok::kw_bool:
      // ... but `int (*f)(int)` declares a function pointer.
      return tok(ahead + 1).kind != Tok::l_paren || tok(ahead + 2).kind == Tok::star;
    case Tok::identifier:
      // A builtin type name starts a declaration only when a declarator
      // follows, so `half = n / 2;` still assigns a variable named half.
      if (builtin_type_name(tok(ahead))) {
        Tok next = tok(ahead + 1).kind;
        return next == Tok::identifier || next == Tok::star || next == Tok::kw_const ||
               is_brook_keyword(next) || (next == Tok::l_paren && tok(ahead + 2).kind == Tok::star);
      }
      if (is_typeof_word(tok(ahead).text)) return tok(ahead + 1).kind == Tok::l_paren;
      return is_typedef_name(tok(ahead).text);
    default:
      return starts_type_name(ahead);
  }
}

namespace {
struct KeywordCounts {
  int void_ = 0, bool_ = 0, char_ = 0, short_ = 0, int_ = 0, long_ = 0, float_ = 0, double_ = 0;
  int signed_ = 0, unsigned_ = 0;
  bool any() const {
    return void_ + bool_ + char_ + short_ + int_ + long_ + float_ + double_ + signed_ + unsigned_ >
           0;
  }
};

// C's keyword combinations → a scalar kind; Error when they do not combine.
TypeKind keyword_scalar(const KeywordCounts& k) {
  int bases = k.void_ + k.bool_ + k.char_ + k.float_ + k.double_;
  if (k.signed_ && k.unsigned_) return TypeKind::Error;
  if (k.signed_ + k.unsigned_ > 1 || k.int_ > 1 || k.short_ > 1 || k.long_ > 2)
    return TypeKind::Error;
  if (bases > 1 || (bases && k.int_)) return TypeKind::Error;
  bool sign = k.signed_ || k.unsigned_;
  if (k.void_ || k.bool_ || k.float_) {
    if (sign || k.short_ || k.long_) return TypeKind::Error;
    return k.void_ ? TypeKind::Void : k.bool_ ? TypeKind::Bool : TypeKind::Float;
  }
  if (k.double_) {
    if (sign || k.short_ || k.long_ > 1) return TypeKind::Error;
    return TypeKind::Double;  // `long double` is double here
  }
  if (k.char_) {
    if (k.short_ || k.long_) return TypeKind::Error;
    return k.unsigned_ ? TypeKind::UChar : TypeKind::Char;
  }
  if (k.short_) {
    if (k.long_) return TypeKind::Error;
    return k.unsigned_ ? TypeKind::UShort : TypeKind::Short;
  }
  if (k.long_) return k.unsigned_ ? TypeKind::ULong : TypeKind::Long;
  return k.unsigned_ ? TypeKind::UInt : TypeKind::Int;
}
}  // namespace

// BrookGPU also accepts the word order `void kernel f(…)`, `void reduce f(…)`.
bool Parser::kernel_after_type(bool type_seen) const {
  return type_seen && (at(Tok::kw_kernel) || at(Tok::kw_reduce)) &&
         tok(1).kind == Tok::identifier && tok(2).kind == Tok::l_paren;
}

const Type* Parser::unsigned_vector(const Type* t) const {
  if (!t || !t->is_vector()) return nullptr;
  switch (t->elem->kind) {
    case TypeKind::Int:
      return types_.vector(types_.scalar(TypeKind::UInt), t->count);
    case TypeKind::Char:
      return types_.vector(types_.scalar(TypeKind::UChar), t->count);
    case TypeKind::Short:
      return types_.vector(types_.scalar(TypeKind::UShort), t->count);
    default:
      return nullptr;
  }
}

DeclSpec Parser::parse_decl_specifiers(std::vector<DeclPtr>* defs) {
  DeclSpec spec;
  spec.type.loc = tok().loc;
  KeywordCounts k;
  for (;;) {
    const Token& t = tok();
    switch (t.kind) {
      case Tok::kw_const:
        spec.type.is_const = true;
        advance();
        continue;
      case Tok::kw_volatile:
      case Tok::kw_inline:
        advance();
        continue;
      case Tok::kw_static:
        spec.is_static = true;
        advance();
        continue;
      case Tok::kw_extern:
        spec.is_extern = true;
        advance();
        continue;
      case Tok::kw_typedef:
        spec.is_typedef = true;
        advance();
        continue;
      case Tok::kw_kernel:
      case Tok::kw_reduce:
      case Tok::kw_out:
      case Tok::kw_iter:
      case Tok::kw_vout:
        if (!brook_specifier_at() && !kernel_after_type(spec.has_type || k.any())) break;
        if (t.kind == Tok::kw_vout) {
          parse_vout_bound(spec);
          continue;
        }
        spec.is_kernel |= t.kind == Tok::kw_kernel;
        spec.is_reduce |= t.kind == Tok::kw_reduce;
        spec.is_out |= t.kind == Tok::kw_out;
        spec.is_iter |= t.kind == Tok::kw_iter;
        advance();
        continue;
      case Tok::kw_void:
        ++k.void_;
        advance();
        continue;
      case Tok::kw_bool:
        ++k.bool_;
        advance();
        continue;
      case Tok::kw_char:
        ++k.char_;
        advance();
        continue;
      case Tok::kw_short:
        ++k.short_;
        advance();
        continue;
      case Tok::kw_int:
        ++k.int_;
        advance();
        continue;
      case Tok::kw_long:
        ++k.long_;
        advance();
        continue;
      case Tok::kw_float:
        ++k.float_;
        advance();
        continue;
      case Tok::kw_double:
        ++k.double_;
        advance();
        continue;
      case Tok::kw_signed:
        ++k.signed_;
        advance();
        continue;
      case Tok::kw_unsigned:
        ++k.unsigned_;
        advance();
        continue;
      case Tok::kw_union:
      case Tok::kw_struct:
      case Tok::kw_enum: {
        if (spec.has_type || k.any()) fail_here("invalid combination of type specifiers");
        bool is_union = t.kind == Tok::kw_union;
        bool is_struct = t.kind == Tok::kw_struct || is_union;
        const char* keyword = is_union ? "union" : is_struct ? "struct" : "enum";
        spec.type.loc = t.loc;
        advance();
        bool packed = accept_packed();
        std::string tag;
        SourceLoc tag_loc = tok().loc;
        if (at(Tok::identifier)) tag = advance().text;
        packed |= accept_packed();
        spec.type.base = is_struct ? TypeSyntax::Base::Struct : TypeSyntax::Base::Enum;
        spec.type.name = tag;
        spec.type.is_union = is_union;
        spec.has_type = true;
        if (at(Tok::l_brace)) {
          const char* what = is_union ? "a union" : is_struct ? "a struct" : "an enum";
          if (!defs) fail_here(std::string(what) + " cannot be defined here");
          if (is_struct) {
            auto sd = std::make_unique<StructDecl>(tag.empty() ? t.loc : tag_loc);
            sd->name = tag;
            sd->is_definition = true;
            sd->is_union = is_union;
            parse_struct_body(*sd, defs);
            packed |= accept_packed();
            sd->max_align = packed ? 1 : pack_;
            spec.type.struct_def = sd.get();
            defs->push_back(std::move(sd));
          } else {
            auto ed = std::make_unique<EnumDecl>(tag.empty() ? t.loc : tag_loc);
            ed->name = tag;
            parse_enum_body(*ed);
            spec.type.enum_def = ed.get();
            defs->push_back(std::move(ed));
          }
        } else if (tag.empty()) {
          fail_here(std::string("expected a name or '{' after '") + keyword + "'");
        }
        continue;
      }
      case Tok::identifier:
        // gcc's typeof, of an expression or of a type name.
        if (!spec.has_type && !k.any() && is_typeof_word(t.text) && tok(1).kind == Tok::l_paren) {
          spec.type.loc = t.loc;
          advance();
          advance();
          auto of = std::make_shared<TypeofSyntax>();
          if (starts_type_name()) {
            of->type = std::make_unique<TypeSyntax>(parse_type_name());
          } else {
            of->expr = parse_expr();
          }
          expect(Tok::r_paren);
          spec.type.base = TypeSyntax::Base::Typeof;
          spec.type.typeof_of = std::move(of);
          spec.has_type = true;
          continue;
        }
        // Brook+ spells unsigned vectors `unsigned int4`, `unsigned char2`.
        if (!spec.has_type && k.unsigned_ == 1 &&
            k.void_ + k.bool_ + k.char_ + k.short_ + k.int_ + k.long_ + k.float_ + k.double_ +
                    k.signed_ ==
                0) {
          if (const Type* v = unsigned_vector(builtin_type_name(t))) {
            spec.type.loc = t.loc;
            spec.type.base = TypeSyntax::Base::Builtin;
            spec.type.builtin = v;
            spec.has_type = true;
            k.unsigned_ = 0;
            advance();
            continue;
          }
        }
        if (!spec.has_type && !k.any()) {
          if (const Type* b = builtin_type_name(t)) {
            spec.type.loc = t.loc;
            spec.type.base = TypeSyntax::Base::Builtin;
            spec.type.builtin = b;
            spec.has_type = true;
            advance();
            continue;
          }
          if (is_typedef_name(t.text)) {
            spec.type.loc = t.loc;
            spec.type.base = TypeSyntax::Base::Named;
            spec.type.name = t.text;
            if (unknown_types_.count(t.text)) {  // already reported: silent from here on
              spec.type.base = TypeSyntax::Base::Builtin;
              spec.type.builtin = types_.error_type();
            }
            spec.has_type = true;
            advance();
            continue;
          }
        }
        break;
      default:
        break;
    }
    break;
  }
  if (k.any()) {
    if (spec.has_type) fail(spec.type.loc, "invalid combination of type specifiers");
    TypeKind kind = keyword_scalar(k);
    if (kind == TypeKind::Error) fail(spec.type.loc, "invalid combination of type specifiers");
    spec.type.base = TypeSyntax::Base::Builtin;
    spec.type.builtin = types_.scalar(kind);
    spec.has_type = true;
  }
  if (!spec.has_type && at(Tok::identifier) &&
      (tok(1).kind == Tok::identifier || tok(1).kind == Tok::star)) {
    // `static foo_t x;`, `void f(foo_t* p)`: reported once, the declaration kept.
    unknown_type_name(tok());
    spec.type.loc = tok().loc;
    spec.type.base = TypeSyntax::Base::Builtin;
    spec.type.builtin = types_.error_type();
    spec.has_type = true;
    advance();
  }
  if (!spec.has_type && at(Tok::identifier) && tok(1).kind == Tok::l_paren) {
    // `main() { ... }`, `static twice(x) int x; { ... }`: C89's implicit int,
    // which gcc still accepts with this warning.
    diags_.warning(tok().loc, "return type of '" + tok().text + "' defaults to 'int'");
    spec.type.loc = tok().loc;
    spec.type.base = TypeSyntax::Base::Builtin;
    spec.type.builtin = types_.int_type();
    spec.has_type = true;
  }
  if (!spec.has_type) {
    if (at(Tok::identifier)) fail_here("unknown type name '" + tok().text + "'");
    fail_here("expected a type");
  }
  return spec;
}

bool Parser::at_implicit_int_definition() const {
  // NAME ( ... ) followed by a body or by K&R parameter declarations: a
  // definition, since a call statement would end in ';' instead.
  if (tok().kind != Tok::identifier || tok(1).kind != Tok::l_paren || builtin_type_name(tok()))
    return false;
  int depth = 0;
  for (size_t i = 1;; ++i) {
    const Tok k = tok(i).kind;
    if (k == Tok::eof) return false;
    if (k == Tok::l_paren) ++depth;
    if (k == Tok::r_paren && --depth == 0)
      return tok(i + 1).kind == Tok::l_brace || starts_declaration(i + 1);
  }
}

TypeSyntax Parser::parse_type_name() {
  DeclSpec spec = parse_decl_specifiers(nullptr);
  TypeSyntax ts = std::move(spec.type);
  while (accept(Tok::star)) {
    ++ts.pointer_depth;
    while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
    }
  }
  if (at_paren_declarator()) {
    if (const Token* name = parse_paren_declarator(ts))
      fail(name->loc, "a type name cannot declare '" + name->text + "'");
    return ts;
  }
  parse_array_dims(ts);
  return ts;
}

const Token* Parser::parse_paren_declarator(TypeSyntax& ts) {
  DepthGuard guard(*this);
  expect(Tok::l_paren);
  auto pd = std::make_shared<ParenDeclarator>();
  while (accept(Tok::star)) {
    ++pd->pointer_depth;
    while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
    }
  }
  if (at_paren_declarator())
    fail_here("nested declarators are not supported; name the inner type with a typedef");
  const Token* name = nullptr;
  if (at_name()) name = &take_name();
  if (at(Tok::l_paren)) {
    fail_here(
        "a function returning a function pointer must name its return type with a typedef: "
        "'typedef R (*fn_t)(…); fn_t " +
        (name ? name->text : std::string("f")) + "(…)'");
  }
  parse_array_dims(ts);  // `(*ops[4])`: an array of the pointers
  expect(Tok::r_paren);
  if (at(Tok::l_paren)) {
    pd->is_function = true;
    parse_function_suffix(*pd);
  } else if (at(Tok::l_square)) {
    TypeSyntax dims;
    parse_array_dims(dims);  // `(*p)[4]`: a pointer to the array
    pd->suffix_dims = std::move(dims.array_dims);
  } else {
    // `int (*p);` is `int *p;`.
    ts.pointer_depth += pd->pointer_depth;
    return name;
  }
  ts.paren = std::move(pd);
  return name;
}

void Parser::parse_function_suffix(ParenDeclarator& pd) {
  FuncDecl fn(tok().loc);
  push_scope();
  try {
    parse_params(fn);
  } catch (const SyntaxError&) {
    pop_scope();
    throw;
  }
  pop_scope();
  for (auto& p : fn.params) {
    if (p->pkind != ParamKind::Value || p->stream_pointer)
      fail(p->loc, "a function pointer's parameters cannot be streams");
    pd.params.push_back(std::move(p->type_syntax));
  }
  pd.variadic = fn.is_variadic;
  pd.no_prototype = fn.no_prototype;
}

void Parser::parse_array_dims(TypeSyntax& ts) {
  while (at(Tok::l_square)) {
    advance();
    // `int a[static 3]`, `int a[const]` (C99 6.7.5.3p7): a parameter's array
    // is a pointer anyway; the promises change nothing brook checks.
    if (ts.array_dims.empty())
      while (accept(Tok::kw_static) || accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
      }
    if (accept(Tok::r_square)) {
      ts.array_dims.push_back(nullptr);
      continue;
    }
    ts.array_dims.push_back(parse_assign());
    expect(Tok::r_square);
  }
}

// Nested definitions (`struct A { struct B { … } b; }`) go to `defs` ahead
// of the enclosing struct, which is added after its body is complete.
void Parser::parse_struct_body(StructDecl& sd, std::vector<DeclPtr>* defs) {
  DepthGuard guard(*this);
  expect(Tok::l_brace);
  while (!at(Tok::r_brace)) {
    if (at(Tok::eof)) fail_here("expected '}' at end of struct");
    size_t start = pos_;
    try {
      DeclSpec spec = parse_decl_specifiers(defs);
      if (at(Tok::semi) && spec.type.base == TypeSyntax::Base::Struct && spec.type.struct_def &&
          spec.type.name.empty()) {
        // `union { float v[3]; struct { float x, y, z; }; };`: an anonymous member (C11).
        FieldDecl field;
        field.loc = spec.type.loc;
        field.anonymous = true;
        field.name = "__anon" + std::to_string(sd.fields.size());
        field.type_syntax = copy_base(spec.type);
        sd.fields.push_back(std::move(field));
        advance();
        continue;
      }
      do {
        FieldDecl field;
        field.type_syntax = copy_base(spec.type);
        while (accept(Tok::star)) {
          ++field.type_syntax.pointer_depth;
          while (accept(Tok::kw_const) || accept(Tok::kw_volatile)) {
          }
        }
        if (at(Tok::colon) && field.type_syntax.pointer_depth == 0) {
          field.loc = tok().loc;  // an unnamed bit-field: `int : 3;`, `unsigned : 0;`
        } else if (at_paren_declarator()) {
          SourceLoc at = tok().loc;
          const Token* name = parse_paren_declarator(field.type_syntax);
          if (!name) fail(at, "expected a field name");
          field.loc = name->loc;
          field.name = name->text;
        } else {
          if (!at_name()) fail_here("expected a field name");
          field.loc = tok().loc;
          field.name = take_name().text;
          parse_array_dims(field.type_syntax);
        }
        if (accept(Tok::colon)) field.bit_width_expr = parse_conditional();
        sd.fields.push_back(std::move(field));
      } while (accept(Tok::comma));
      expect_semi("struct field");
    } catch (const SyntaxError&) {
      recover_item(start);
    }
  }
  advance();
}

void Parser::parse_enum_body(EnumDecl& ed) {
  expect(Tok::l_brace);
  while (!at(Tok::r_brace)) {
    if (!at_name()) fail_here("expected an enumerator name");
    auto c = std::make_unique<EnumConstDecl>(tok().loc);
    c->name = take_name().text;
    if (accept(Tok::equal)) c->value_expr = parse_conditional();
    ed.constants.push_back(std::move(c));
    if (accept(Tok::comma)) continue;
    if (!at(Tok::r_brace)) fail_here("expected ',' or '}' after enumerator");
  }
  advance();
}

void Parser::declare_typedef(const std::string& name) {
  bool added = state_.typedef_names.insert(name).second;
  if (added && !scopes_.empty()) scopes_.back().push_back(name);
}

void Parser::pop_scope() {
  if (scopes_.empty()) return;
  for (const std::string& name : scopes_.back()) state_.typedef_names.erase(name);
  scopes_.pop_back();
}

ExprPtr Parser::parse_initializer() {
  if (!at(Tok::l_brace)) return parse_assign();
  DepthGuard guard(*this);
  auto list = std::make_unique<InitListExpr>(advance().loc);
  while (!at(Tok::r_brace)) {
    // C99 designators: `.field`, `[index]`, chained, then `=`.
    std::vector<Designator> chain;
    while (at(Tok::period) || at(Tok::l_square)) {
      Designator d;
      d.loc = tok().loc;
      if (accept(Tok::period)) {
        if (!at(Tok::identifier)) fail_here("expected a member name after '.' in a designator");
        d.loc = tok().loc;
        d.field = advance().text;
      } else {
        advance();
        d.index = parse_conditional();
        expect(Tok::r_square);
      }
      chain.push_back(std::move(d));
    }
    if (!chain.empty()) expect(Tok::equal);
    list->elems.push_back(parse_initializer());
    if (!chain.empty() || !list->designators.empty()) list->designators.resize(list->elems.size());
    if (!chain.empty()) list->designators.back() = std::move(chain);
    if (!accept(Tok::comma)) break;
  }
  expect(Tok::r_brace);
  return list;
}

}  // namespace parser_detail
}  // namespace brook
