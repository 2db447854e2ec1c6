// Private to sema (sema*.cpp): the checker's state and the operations the
// files share. Split by concern: sema.cpp (scopes, driver), sema_decl.cpp
// (types, declarations), sema_struct.cpp (structs, unions, enums, layout),
// sema_init.cpp (initialisers), sema_stmt.cpp,
// sema_expr.cpp (operators, conversions), sema_access.cpp (names, members,
// indexing, gathers), sema_call.cpp (user functions, kernels, reductions),
// sema_builtins.cpp (the stdlib table, printf formats, stream operations),
// sema_const.cpp (constant folding).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lang/ast.hpp"
#include "lang/sema.hpp"
#include "stdlib/builtins.hpp"

namespace brook {

// Quotes a type for a message: 'float4'.
std::string quoted(const Type* t);

struct Sema::Impl {
  Impl(TypeContext& t, DiagnosticEngine& d, SemaOptions o);

  TypeContext& types;
  DiagnosticEngine& diags;
  SemaOptions options;

  // ---- scopes (sema.cpp)
  struct Scope {
    std::unordered_map<std::string, ast::Decl*>
        names;  // variables, functions, typedefs, enum constants
    std::unordered_map<std::string, ast::Decl*> tags;  // struct and enum tags
  };
  std::vector<Scope> scopes;  // scopes[0] is the global scope; it persists across check()
  void push_scope() { scopes.emplace_back(); }
  void pop_scope() { scopes.pop_back(); }
  ast::Decl* lookup(std::string_view name) const;
  ast::Decl* lookup_tag(std::string_view name) const;
  // "; did you mean 'count'?" for a misspelt name in scope (lang/suggest.hpp).
  enum class NameKind { value, function, type };
  std::string suggestion(std::string_view name, NameKind kind) const;
  // Declares in the innermost scope; reports a redefinition and returns false.
  bool declare(ast::Decl& d);
  void declare_tag(ast::Decl& d) { scopes.back().tags[d.name] = &d; }
  bool at_global_scope() const { return scopes.size() == 1; }
  // The same declaration read again from the same place of the same header
  // by another translation unit (`brook run a.br b.c` with both including
  // "t.h"): it is the earlier declaration, as a C linker would see it. In the
  // REPL and the embedding API (allow_redefinition), loading a file again
  // replaces what it defined, unless the file is unchanged: then it is the
  // same declaration too, which is what makes a header's typedef'd struct
  // one type across the .br files of a `brook cc` program.
  bool reread(SourceLoc earlier, SourceLoc now) const {
    const SourceManager& s = diags.sources();
    if (!now.valid() || earlier.file == now.file || earlier.line != now.line ||
        earlier.col != now.col || !s.same_file(earlier.file, now.file))
      return false;
    return !options.allow_redefinition || s.text(earlier.file) == s.text(now.file);
  }

  // ---- the function being checked
  ast::FuncDecl* func = nullptr;
  int loop_depth = 0;
  struct SwitchContext {
    const Type* type = nullptr;
    std::map<int64_t, SourceLoc> cases;
    bool has_default = false;
  };
  std::vector<SwitchContext> switches;
  // True while checking the direct children of a switch body (labels allowed).
  bool labels_allowed = false;
  bool in_kernel() const { return func && func->fkind != ast::FuncKind::Host; }
  ast::ExprPtr stream_assignment(ast::AssignExpr& a);
  // Set by check_assign for the `a[i]` of `a[i] = v`: the one place a scatter
  // output (§12) may appear; check_gather consumes it.
  bool scatter_target = false;
  // "kernel 'k'" or "reduce function 'sum'", for messages.
  std::string func_desc() const;

  // Kernel-to-kernel calls, to reject recursion once the program is known.
  struct KernelCall {
    ast::FuncDecl* caller;
    ast::FuncDecl* callee;
    SourceLoc loc;
  };
  std::vector<KernelCall> kernel_calls;
  void check_recursion();

  // Every declaration of each global function name, so a definition can be
  // linked to the prototypes before it.
  std::map<std::string, std::vector<ast::FuncDecl*>> function_decls;

  // Host globals the runtime provides: stdout, stderr (void*).
  std::vector<std::unique_ptr<ast::VarDecl>> predeclared;
  // The predeclared globals a program may declare as its own (getopt's: a C
  // program that does not include <unistd.h> may name a variable optind);
  // such a declaration replaces the library's in the program's scope.
  std::vector<const ast::Decl*> yielding_globals;
  bool yields(const ast::Decl* d) const {
    return std::find(yielding_globals.begin(), yielding_globals.end(), d) != yielding_globals.end();
  }

  // Structs declared only by use (`struct S* p;` before any `struct S`).
  std::vector<std::unique_ptr<ast::StructDecl>> implicit_structs;

  void error(SourceLoc loc, std::string message) { diags.error(loc, std::move(message)); }
  const Type* err() const { return types.error_type(); }

  // ---- types and declarations (sema_decl.cpp)
  // The type a TypeSyntax names, with pointers; array dimensions too when
  // `with_dims`. nullptr after reporting an error.
  const Type* resolve_type(ast::TypeSyntax& ts, bool with_dims = true);
  const Type* resolve_base(ast::TypeSyntax& ts);
  // The function or array type of a parenthesised declarator around `inner`.
  const Type* resolve_paren(ast::TypeSyntax& ts, const Type* inner);
  const Type* apply_dims(ast::TypeSyntax& ts, const Type* base, bool allow_unsized_outer);
  // While a host function's parameters are resolved: `double a[n]` (n an
  // earlier parameter) is `double a[]`, as C99 6.7.5.3 makes it (a pointer).
  bool resolving_host_params = false;
  void lay_out_bitfield(ast::FieldDecl& f, bool in_union, uint64_t& bits, uint64_t& size,
                        uint64_t& align);
  void define_struct(ast::StructDecl& sd);
  void define_enum(ast::EnumDecl& ed);
  void check_decl_stmt(ast::DeclStmt& ds);
  void check_var(ast::VarDecl& v);
  void check_stream_var(ast::VarDecl& v);
  void check_typedef(ast::TypedefDecl& td);
  void check_func(ast::FuncDecl& f);
  bool check_params(ast::FuncDecl& f);
  const Type* host_stream_param(ast::ParamDecl& p, const Type* elem);
  void check_kernel_signature(ast::FuncDecl& f);
  // Brook+ work-groups (sema_group.cpp), after the body is checked.
  void check_work_groups(ast::FuncDecl& f);
  void check_reduce_signature(ast::FuncDecl& f);
  void check_main_signature(ast::FuncDecl& f);
  bool same_signature(const ast::FuncDecl& a, const ast::FuncDecl& b) const;
  bool is_stream_element(const Type* t) const;
  // "union" or "bit-field" when t is or holds one (host-only parts), else null.
  static const char* host_only_part(const Type* t);

  // ---- initialisers (sema_init.cpp)
  // Checks `init` against `type`; returns the type with an unsized outer
  // array completed from the initialiser.
  const Type* check_initializer(ast::ExprPtr& init, const Type* type);
  void init_aggregate(ast::InitListExpr& list, const Type* type);
  void init_designated(ast::InitListExpr& list, const Type* type);
  ast::ExprPtr zero_initializer(const Type* type, SourceLoc loc);
  // The member a designator names in `type` (checked), or nullopt after an error.
  std::optional<size_t> designator_index(ast::Designator& d, const Type* type);
  // Applies chain[at…] to `slot`, taking its value from elems[pos] (pos
  // moves past what it and the positional elements after it consume).
  // False after reporting an error.
  bool designate_into(ast::ExprPtr& slot, const Type* type, std::vector<ast::Designator>& chain,
                      size_t at, std::vector<ast::ExprPtr>& elems, size_t& pos);
  // `(T){ … }` (C99 6.5.2.5), host code only.
  const Type* check_compound_literal(ast::CompoundLitExpr& c);
  const Type* check_omitted_middle(ast::ConditionalExpr& c);
  // The fields leading to member `name` of `sd` through anonymous struct and
  // union members (C11), outermost first, ending at the member; empty when
  // `name` is a direct member or no member at all.
  static std::vector<size_t> anonymous_path(const ast::StructDecl& sd, std::string_view name);
  // Spells a designator `.x` naming a member of an anonymous member of
  // `type` as the chain through it (`.__anon0.x`).
  static void expand_anonymous(std::vector<ast::Designator>& chain, size_t at, const Type* type);
  // While a designated list is read: which of its elements carry a designator
  // (brace elision stops at them).
  const std::vector<bool>* designated_elems = nullptr;
  // Consumes elements of `elems` from `pos` to fill one object of `type`
  // (brace elision); returns the converted or nested leaf.
  ast::ExprPtr take_initializer(std::vector<ast::ExprPtr>& elems, size_t& pos, const Type* type,
                                SourceLoc list_loc);

  // ---- statements (sema_stmt.cpp)
  void check_stmt(ast::Stmt& s);
  void check_compound(ast::CompoundStmt& c, bool new_scope);
  void check_condition(ast::ExprPtr& cond, const char* construct);
  void check_switch(ast::SwitchStmt& s);
  // Repeated declarations (sema_decl.cpp): links `v` to an earlier declaration
  // of the same object and returns true, or returns false to declare it anew.
  bool link_redeclaration(ast::VarDecl& v);
  std::set<const ast::VarDecl*> defined_globals;  // first declarations with an initialiser
  bool declares_library_function(const std::string& name);
  // Fills in a C library struct (timeval, timespec, timezone, tm); false for others.
  bool library_struct(ast::StructDecl& sd);
  // The one type of C library struct `name` where the program defines none
  // (also the result type of localtime), or null for other names.
  const Type* library_struct_type(const std::string& name, SourceLoc loc);
  std::map<std::string, const Type*> library_struct_types;
  // goto and labels (sema_stmt.cpp): the labels of the function being
  // checked, its gotos with the compounds enclosing each, resolved at its end.
  struct PendingGoto {
    ast::GotoStmt* stmt;
    std::vector<const ast::Stmt*> enclosing;
  };
  std::map<std::string, ast::LabelStmt*> labels;
  std::vector<PendingGoto> gotos;
  std::vector<const ast::Stmt*> open_blocks;  // compounds being checked, outermost first
  void check_label(ast::LabelStmt& l);
  void check_goto(ast::GotoStmt& g);
  void resolve_gotos();
  // Marks the labels heading `s` as direct children of `owner`.
  static void own_labels(ast::Stmt& s, const ast::Stmt* owner);
  void check_case(ast::CaseStmt& c);
  void check_return(ast::ReturnStmt& r);

  // ---- expressions (sema_expr.cpp)
  // Nesting of check_expr: long operator chains build deep trees without deep
  // parser recursion, and checking them must not overflow the stack.
  static constexpr int kMaxExprDepth = 2000;
  int expr_depth = 0;
  bool depth_reported = false;  // once per outermost expression
  // Types `e` (possibly replacing it: swizzles, gathers). Arrays stay arrays.
  const Type* check_expr(ast::ExprPtr& e);
  // check_expr, then array/string decay; streams on the host are rejected
  // with "streams cannot be <what>".
  const Type* check_value(ast::ExprPtr& e, std::string_view what = "used as values on the host");
  // Decays an array-typed expression to a pointer (ArrayDecay cast).
  void decay(ast::ExprPtr& e);
  // Implicit conversion as in assignment. `context` completes
  // "cannot convert 'A' to 'B' <context>". False after reporting.
  bool convert(ast::ExprPtr& e, const Type* to, std::string_view context);
  // Whether convert() would succeed (no diagnostics).
  bool convertible(const ast::Expr& e, const Type* to) const;
  // Wraps `e` in an implicit cast to `to` (no check).
  void cast_to(ast::ExprPtr& e, const Type* to, ast::CastKind kind);
  // Arithmetic conversion (scalar→scalar, scalar→vector, vector→vector).
  void arith_convert(ast::ExprPtr& e, const Type* to);
  // Keeps the first `count` components of vector `e` (a swizzle .x, .xy, .xyz):
  // BrookGPU's narrowing of a larger vector to a smaller one (LANGUAGE.md §12).
  void narrow(ast::ExprPtr& e, uint32_t count);
  const Type* promote(const Type* t) const;  // integer promotions (vectors unchanged)
  // Usual arithmetic conversions incl. broadcast; nullptr when widths clash.
  const Type* common_arith(const Type* a, const Type* b) const;
  const Type* int_vector(uint32_t width) const;
  bool is_null_constant(const ast::Expr& e) const;
  bool reject_stream(const ast::Expr& e, std::string_view what);

  const Type* check_unary(ast::UnaryExpr& u);
  const Type* check_binary(ast::BinaryExpr& b);
  const Type* binary_result(ast::BinaryOp op, ast::ExprPtr& lhs, ast::ExprPtr& rhs, SourceLoc loc,
                            const Type** op_type);
  const Type* check_assign(ast::AssignExpr& a);
  const Type* check_conditional(ast::ConditionalExpr& c);
  const Type* check_cast(ast::CastExpr& c);
  const Type* check_construct(ast::ConstructExpr& c);
  const Type* check_sizeof(ast::SizeofExpr& s);
  const Type* check_init_list_misuse(ast::InitListExpr& l);
  // Reports why `e` cannot be assigned ("assign to", "increment"); false then.
  bool check_modifiable(const ast::Expr& e, std::string_view action);

  // ---- names, members, indexing (sema_access.cpp)
  const Type* check_name(ast::NameExpr& n);
  const Type* check_member(ast::ExprPtr& e);
  const Type* check_index(ast::ExprPtr& e);
  const Type* vector_component(ast::ExprPtr& e);  // `v[i]` on a vector
  // Rewrites the Index chain `e` rooted at gather parameter `param` into a GatherExpr.
  const Type* check_gather(ast::ExprPtr& e, ast::ParamDecl& param, ast::NameExpr& name);
  const Type* check_indexof(ast::IndexofExpr& ix);
  const Type* check_domain(ast::DomainExpr& d);
  // The parameter a NameExpr names, when it is a parameter of the current kernel.
  ast::ParamDecl* kernel_param(const ast::Expr& e) const;

  // ---- calls (sema_call.cpp)
  const Type* check_call(ast::CallExpr& c);
  const Type* check_host_call(ast::CallExpr& c, ast::FuncDecl& f);
  // A call through a function pointer: c.callee_expr (§9, C99 6.5.2.2).
  const Type* check_pointer_call(ast::CallExpr& c);
  // Top-level host functions of the program being checked (the first
  // declaration of each name): the signature pre-pass behind C89 implicit
  // declarations, resolved when that declaration is checked.
  std::map<std::string, ast::FuncDecl*> later_functions;
  std::set<std::string> implicit_reported;  // warned once per name, as gcc does
  // Calls made without a prototype in scope (sema_unprototyped.cpp): C89's
  // implicit `int f()` before any declaration, or a K&R `f();` declaration or
  // K&R definition. Arguments get the default promotions and are checked
  // against the definition's parameters (else C's undefined behaviour).
  struct UnprototypedCall {
    ast::CallExpr* call;
    bool implicit;   // no declaration at all was in scope
    bool discarded;  // the value is unused (a whole expression statement)
  };
  std::map<std::string, std::vector<UnprototypedCall>> pending_calls;
  const ast::Expr* discarded_expr = nullptr;  // the expression statement being checked
  bool stream_echo = false;                   // Sema::set_stream_echo
  const Type* check_unprototyped_call(ast::CallExpr& c, ast::FuncDecl& f, bool implicit);
  // At the first declaration with parameters of a name with pending calls.
  void resolve_pending_calls(ast::FuncDecl& f);
  void check_unprototyped_args(ast::CallExpr& c, const ast::FuncDecl& f);
  const Type* default_promoted(const Type* t) const;
  const Type* check_kernel_launch(ast::CallExpr& c, ast::FuncDecl& f);
  bool stream_param_arg(ast::CallExpr& c, size_t i, ast::ParamDecl& p);
  const Type* check_kernel_subcall(ast::CallExpr& c, ast::FuncDecl& f);
  const Type* check_reduce_call(ast::CallExpr& c, ast::FuncDecl& f);
  void check_va_arg_type(ast::CallExpr& c);
  bool check_arity(ast::CallExpr& c, size_t expected, bool variadic, std::string_view what);
  // A stream-valued host argument (stream or view): its type or nullptr after an error.
  const Type* stream_arg(ast::ExprPtr& arg, std::string_view what);
  void check_args_only(ast::CallExpr& c);

  // ---- builtins (sema_builtins.cpp)
  const Type* check_builtin(ast::CallExpr& c, const stdlib::BuiltinName& b);
  const Type* check_math_builtin(ast::CallExpr& c, const stdlib::BuiltinInfo& info,
                                 bool force_float);
  const Type* check_prototype_builtin(ast::CallExpr& c, const stdlib::BuiltinInfo& info);
  const Type* check_stream_builtin(ast::CallExpr& c, const stdlib::BuiltinInfo& info);
  void check_format(ast::CallExpr& c, size_t format_index);
  const Type* float_of(const Type* t, bool force_float) const;
  struct Prototype {
    const Type* result = nullptr;
    std::vector<const Type*> params;
    bool variadic = false;
  };
  std::map<stdlib::Builtin, Prototype> prototypes;
  const Prototype& prototype_of(const stdlib::BuiltinInfo& info);
  const Type* parse_c_type(std::string_view text);

  // ---- C library functions as values (sema_library_pointers.cpp)
  // The host function that stands for library function `name` where its
  // address is taken; nullptr after reporting why it has none.
  ast::FuncDecl* library_function(const std::string& name, SourceLoc loc);
  std::map<std::string, std::unique_ptr<ast::FuncDecl>> library_wrappers;

  // ---- constants (sema_const.cpp)
  std::optional<int64_t> fold(const ast::Expr& e) const;
  // Folds a checked integer constant expression or reports "<what> must be an
  // integer constant".
  std::optional<int64_t> require_constant(const ast::Expr& e, std::string_view what);
};

}  // namespace brook
