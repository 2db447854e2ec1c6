// The AST. The parser builds it untyped; sema (lang/sema.hpp) resolves names,
// fills in every `type`, and makes every implicit conversion an explicit
// CastExpr, so backends read a fully typed tree and never re-derive types.
//
// Ownership: nodes own their children through unique_ptr. A Program owns its
// top-level items. Sema-resolved pointers (NameExpr::decl, CallExpr::func) are
// non-owning and point into the same or an earlier Program (REPL entries).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lang/source.hpp"
#include "lang/types.hpp"

namespace brook::ast {

struct Expr;
struct Stmt;
struct Decl;
struct StructDecl;
struct EnumDecl;
struct ParenDeclarator;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using DeclPtr = std::unique_ptr<Decl>;

// ---------------------------------------------------------------------------
// Type syntax: what the user wrote, resolved to a `const Type*` by sema.
// Declarators: base type, `*`s, name, `[dims]`, and in host code C's
// parenthesised declarator for pointers to functions and to arrays (`paren`).
struct TypeSyntax {
  enum class Base : uint8_t {
    Builtin,  // `builtin` holds the resolved scalar/vector type (int, float4, uchar, …)
    Named,    // a typedef name, in `name`
    Struct,   // `struct name`; `struct_def` set when this syntax defines it inline
    Enum,     // `enum name`; `enum_def` set when defined inline (enums are int)
    Typeof,   // gcc's `typeof(e)` / `typeof(T)`, in `typeof_of`
  };
  SourceLoc loc;
  Base base = Base::Builtin;
  const Type* builtin = nullptr;
  std::string name;
  StructDecl* struct_def = nullptr;  // owned by the DeclStmt/Program that declares it
  EnumDecl* enum_def = nullptr;
  int pointer_depth = 0;
  // Array dimensions after the declarator name, outermost first; a null entry
  // is `[]` (size from the initialiser, or a gather/parameter array).
  std::vector<ExprPtr> array_dims;
  bool is_const = false;
  bool is_union = false;  // Base::Struct written `union name` (tags share one namespace)
  // `R (*name[dims])(params)` or `E (*name)[n]`: the type written before the
  // parentheses (base and pointer_depth) is the function's return type R or
  // the array's element E; `paren` adds the function or array type, then its
  // own `*`s; array_dims (those inside the parentheses) apply last.
  std::shared_ptr<ParenDeclarator> paren;
  std::shared_ptr<struct TypeofSyntax> typeof_of;  // Base::Typeof (shared by its declarators)
};

// `typeof(e)`: e's type, e not evaluated; `typeof(T)`: T. Resolved once.
struct TypeofSyntax {
  ExprPtr expr;
  std::unique_ptr<TypeSyntax> type;
  const Type* resolved = nullptr;
  bool checked = false;
};

struct ParenDeclarator {
  int pointer_depth = 0;     // `*`s inside the parentheses; 0 for `typedef int fn(int);`
  bool is_function = false;  // else a pointer to an array of suffix_dims
  std::vector<TypeSyntax> params;  // parameter types as written (names dropped)
  bool variadic = false, no_prototype = false;
  std::vector<ExprPtr> suffix_dims;
};

// ---------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
  IntLit,
  FloatLit,
  BoolLit,
  StringLit,
  Name,
  Unary,
  Binary,
  Assign,
  Conditional,
  Comma,
  Call,
  Construct,    // float4(a, b, c, d), int(x): builtin scalar/vector constructors
  Cast,         // (T)e, and every implicit conversion sema inserts
  Index,        // a[i] on an array or pointer (host), or a local array (kernel)
  Gather,       // g[i], g[i][j], g[v] on a kernel gather parameter (made by sema from Index)
  Member,       // s.f, p->f
  Swizzle,      // v.xy, v.rgba
  Sizeof,       // sizeof(T), sizeof e: folded by sema into `value`
  Indexof,      // indexof x
  InitList,     // { a, b, { c } }
  Domain,       // s.domain(start, end)
  IterInit,     // iter(lo, hi): the initialiser of an iterator stream
  CompoundLit,  // (T){ … }: C99's compound literal (host code only)
  StmtExpr,     // ({ stmts; e; }): gcc's statement expression (host code only)
};

struct Expr {
  ExprKind kind;
  SourceLoc loc;
  const Type* type = nullptr;  // set by sema; never null afterwards
  bool is_lvalue = false;      // set by sema
  Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
  virtual ~Expr() = default;
  template <class T>
  T* as() { return kind == T::Kind ? static_cast<T*>(this) : nullptr; }
  template <class T>
  const T* as() const { return kind == T::Kind ? static_cast<const T*>(this) : nullptr; }
};

template <ExprKind K>
struct ExprOf : Expr {
  static constexpr ExprKind Kind = K;
  explicit ExprOf(SourceLoc l) : Expr(K, l) {}
};

// Type (set by sema) follows C: int, unsigned int, long, unsigned long by value
// and suffix; char literals are int.
struct IntLit : ExprOf<ExprKind::IntLit> {
  using ExprOf::ExprOf;
  uint64_t value = 0;
  bool is_unsigned = false, is_long = false, is_decimal = true, is_char = false;
};
struct FloatLit : ExprOf<ExprKind::FloatLit> {
  using ExprOf::ExprOf;
  double value = 0;
  bool is_float = false;  // 'f' suffix → float, else double
};
struct BoolLit : ExprOf<ExprKind::BoolLit> {
  using ExprOf::ExprOf;
  bool value = false;
};
// Type: char[N+1] (an lvalue array); sema wraps uses as values in an ArrayDecay cast.
struct StringLit : ExprOf<ExprKind::StringLit> {
  using ExprOf::ExprOf;
  std::string value;  // bytes after escapes; adjacent literals concatenated
};
// `decl` is a VarDecl, ParamDecl, FuncDecl or EnumConstDecl after sema.
struct NameExpr : ExprOf<ExprKind::Name> {
  using ExprOf::ExprOf;
  std::string name;
  Decl* decl = nullptr;
};

enum class UnaryOp : uint8_t { Plus, Neg, Not, BitNot, Deref, AddrOf, PreInc, PreDec, PostInc, PostDec };
// Plus/Neg/BitNot: operand already promoted, result same type. Not: result int
// (intN for a vector). Inc/Dec: operand is an lvalue, result its type.
struct UnaryExpr : ExprOf<ExprKind::Unary> {
  using ExprOf::ExprOf;
  UnaryOp op = UnaryOp::Plus;
  ExprPtr operand;
};

enum class BinaryOp : uint8_t {
  Mul, Div, Mod, Add, Sub, Shl, Shr, Lt, Gt, Le, Ge, Eq, Ne, BitAnd, BitXor, BitOr, LogAnd, LogOr
};
// The C spelling: "*", "<<", "&&", … (shared by diagnostics, dumps and printers).
const char* spelling(BinaryOp op);
// After sema, for arithmetic, bitwise and comparison operators both operands
// have the same type (usual arithmetic conversions, scalar broadcast to
// vectors), which is the result type except: comparisons give int (intN for
// vectors, 1 or 0 per component); shifts convert each side on its own
// (result = promoted lhs); pointer ± integer (result the pointer; the integer
// is converted to long); pointer - pointer (result long); && and || take any
// scalar or pointer operands as they are and give int.
struct BinaryExpr : ExprOf<ExprKind::Binary> {
  using ExprOf::ExprOf;
  BinaryOp op = BinaryOp::Add;
  ExprPtr lhs, rhs;
};

// `lhs = rhs` (op empty): rhs converted to lhs's type.
// `lhs op= rhs`: computed as lhs = (type of lhs)((op_type)lhs op rhs), with rhs
// converted to op_type (shifts: to its own promoted type; pointer += n: long).
struct AssignExpr : ExprOf<ExprKind::Assign> {
  using ExprOf::ExprOf;
  std::optional<BinaryOp> op;
  const Type* op_type = nullptr;  // set by sema for compound assignment
  ExprPtr lhs, rhs;
};

// Branches converted to a common type; cond is any scalar or pointer, or (in
// kernels) a vector whose width is the result's: then every component is
// selected on its own (cond[i] != 0), and both branches are evaluated.
// then_expr is null for gcc's `a ?: b` (a, evaluated once, when nonzero).
struct ConditionalExpr : ExprOf<ExprKind::Conditional> {
  using ExprOf::ExprOf;
  ExprPtr cond, then_expr, else_expr;
};
struct CommaExpr : ExprOf<ExprKind::Comma> {
  using ExprOf::ExprOf;
  ExprPtr lhs, rhs;
};

enum class CallTarget : uint8_t {
  Unresolved,
  Function,  // a host function (FuncDecl, fkind Host)
  Kernel,    // a kernel: from the host a launch, from a kernel a subroutine call
  Reduce,    // a reduce function: from the host a reduction launch
  Builtin,   // stdlib entry `builtin` (math, printf, streamRead, …)
  Pointer,   // through a function pointer: `callee_expr` (host code only)
};
// Function and Builtin calls: args converted to the parameter types (variadic
// extras get C's default promotions). Kernel/Reduce calls: stream arguments are
// stream-typed expressions (names, Domain), constants are converted to the
// parameter type, gather arguments are streams or host arrays.
struct CallExpr : ExprOf<ExprKind::Call> {
  using ExprOf::ExprOf;
  std::string callee;  // the name as written; empty when callee_expr is written
  SourceLoc callee_loc;
  // Pointer calls: the pointer to a function, as written (`(*f)`, `ops[i]`) or
  // made by sema from a name that holds one.
  ExprPtr callee_expr;
  std::vector<ExprPtr> args;
  CallTarget target = CallTarget::Unresolved;
  struct FuncDecl* func = nullptr;  // Function, Kernel, Reduce
  uint16_t builtin = 0;             // stdlib::Builtin when target == Builtin
};

// `T(args)` for a builtin scalar or vector type T (type = T). After sema every
// argument is a scalar or vector of T's component type, and the total of their
// widths is T's width, or exactly one scalar argument (broadcast).
struct ConstructExpr : ExprOf<ExprKind::Construct> {
  using ExprOf::ExprOf;
  TypeSyntax target;
  std::vector<ExprPtr> args;
};

enum class CastKind : uint8_t {
  Convert,      // arithmetic: scalar→scalar, vector→vector of equal width
  Broadcast,    // scalar → vector (the operand already has the component type)
  ArrayDecay,   // T[N] → T*
  PointerCast,  // pointer → pointer, or integer 0 → pointer, or pointer → integer
  ToBool,       // scalar or pointer → bool (nonzero)
  ToVoid,       // (void)e
};
struct CastExpr : ExprOf<ExprKind::Cast> {
  using ExprOf::ExprOf;
  CastKind cast = CastKind::Convert;
  bool implicit = false;
  TypeSyntax target;  // explicit casts only
  ExprPtr operand;
};

// base: an array lvalue or a pointer; index converted to long by sema.
struct IndexExpr : ExprOf<ExprKind::Index> {
  using ExprOf::ExprOf;
  ExprPtr base, index;
};

// A read of a gather parameter. `param` is the NameExpr of the gather
// parameter. indices: one scalar (1-D), two scalars (row, column), or one
// vector (x = column, y = row). Types left as written: an integer index is
// exact, a float one selects floor(f + 0.25); every index clamps (§5).
struct GatherExpr : ExprOf<ExprKind::Gather> {
  using ExprOf::ExprOf;
  ExprPtr param;
  std::vector<ExprPtr> indices;
};

struct MemberExpr : ExprOf<ExprKind::Member> {
  using ExprOf::ExprOf;
  ExprPtr base;  // a struct (.), or a pointer to one (->)
  std::string field;
  bool arrow = false;
  int field_index = -1;  // into StructDecl::fields, set by sema
};

// comps[i] is the component index (x/r = 0, y/g = 1, z/b = 2, w/a = 3) of
// result component i. Type: the component scalar when count == 1, else a vector.
// An lvalue when the base is one and no component repeats.
struct SwizzleExpr : ExprOf<ExprKind::Swizzle> {
  using ExprOf::ExprOf;
  ExprPtr base;
  std::string spelling;
  std::array<uint8_t, 4> comps{};
  uint8_t count = 0;
};

// sizeof(T) (operand null, `target` set) or sizeof e. Type unsigned long.
// C11's _Alignof(T) (GCC: also of an expression) is the same node with
// `alignment` set: `value` is then the type's alignment.
struct SizeofExpr : ExprOf<ExprKind::Sizeof> {
  using ExprOf::ExprOf;
  std::optional<TypeSyntax> target;
  ExprPtr operand;
  bool alignment = false;
  uint64_t value = 0;  // set by sema
};

// indexof x, x a stream parameter of the enclosing kernel. Type float4.
struct IndexofExpr : ExprOf<ExprKind::Indexof> {
  using ExprOf::ExprOf;
  ExprPtr operand;  // a NameExpr
};

// { a, b, { c } }: only as an initialiser; sema checks it against the declared
// type and converts the leaves. Nested lists may be brace-elided as in C.
// C99 designators (6.7.8): `.field` or `[index]`, chained as in `.a[2].b = v`.
struct Designator {
  SourceLoc loc;
  std::string field;  // empty for `[index]`
  ExprPtr index;
};
struct InitListExpr : ExprOf<ExprKind::InitList> {
  using ExprOf::ExprOf;
  std::vector<ExprPtr> elems;
  // As parsed: the designators of each element (empty when positional), or
  // empty when no element has one. Sema resolves them into the positional,
  // fully braced form and clears this.
  std::vector<std::vector<Designator>> designators;
  // After sema, a union's list initialises this member (C: the first unless designated).
  int union_member = 0;
};

// stream.domain(start, end): a view; type = the stream's type. start/end are
// int (1-D) or int2 (column, row) etc., converted by sema to intN of the rank.
struct DomainExpr : ExprOf<ExprKind::Domain> {
  using ExprOf::ExprOf;
  ExprPtr stream, start, end;
};

// iter(lo, hi) initialising `iter T s<…>`; lo/hi converted to T.
struct IterInitExpr : ExprOf<ExprKind::IterInit> {
  using ExprOf::ExprOf;
  ExprPtr lo, hi;
};

// `(T){ init }` (C99 6.5.2.5): an unnamed object of type T (an unsized array
// completed from the list), an lvalue. In a function it has automatic storage
// for the enclosing block and is initialised anew each time evaluation
// reaches it; outside one (a global's initialiser, top-level statements) it
// is static. `object` is that object as a declaration (type_syntax, init),
// so sema and the interpreter treat it as the local or global it is.
// `({ stmts; e; })` (gcc): the statements run in a block of their own, then
// e (the last statement, taken out of `body` by the parser) is the value;
// without a final expression the value is void.
struct CompoundStmt;
struct StmtExprExpr : ExprOf<ExprKind::StmtExpr> {
  using ExprOf::ExprOf;
  std::unique_ptr<CompoundStmt> body;
  ExprPtr result;  // may be null
  ~StmtExprExpr() override;
};

struct VarDecl;
struct CompoundLitExpr : ExprOf<ExprKind::CompoundLit> {
  using ExprOf::ExprOf;
  std::unique_ptr<VarDecl> object;
  ~CompoundLitExpr() override;
};

// ---------------------------------------------------------------------------
// Declarations

enum class DeclKind : uint8_t { Var, Param, Func, Struct, Typedef, Enum, EnumConst };

struct Decl {
  DeclKind kind;
  SourceLoc loc;  // of the name
  std::string name;
  Decl(DeclKind k, SourceLoc l) : kind(k), loc(l) {}
  virtual ~Decl() = default;
  template <class T>
  T* as() { return kind == T::Kind ? static_cast<T*>(this) : nullptr; }
  template <class T>
  const T* as() const { return kind == T::Kind ? static_cast<const T*>(this) : nullptr; }
};
template <DeclKind K>
struct DeclOf : Decl {
  static constexpr DeclKind Kind = K;
  explicit DeclOf(SourceLoc l) : Decl(K, l) {}
};

// A variable: global (top level) or local; plain or stream.
// Streams: `float a<n, m>` has `extents` {n, m} and type Stream(float, 2);
// `iter float s<100> = iter(0.0f, 1.0f)` additionally is_iter with an IterInit init.
struct VarDecl : DeclOf<DeclKind::Var> {
  using DeclOf::DeclOf;
  TypeSyntax type_syntax;
  const Type* type = nullptr;  // set by sema (array sizes completed from initialisers)
  ExprPtr init;                // may be null
  std::vector<ExprPtr> extents;
  bool is_stream = false;
  bool is_iter = false;
  bool is_global = false;  // declared at top level
  bool is_static = false;
  bool is_extern = false;
  // Brook+ `shared T name[N]` in a work-group kernel: one array per group
  // (lang/analysis.hpp: GroupFacts).
  bool is_shared = false;
  // A repeated declaration of one object (`extern int n;` … `int n = 3;`):
  // the first declaration, which owns the storage; null otherwise (sema).
  const VarDecl* same_as = nullptr;
};
inline CompoundLitExpr::~CompoundLitExpr() = default;
inline StmtExprExpr::~StmtExprExpr() = default;

enum class ParamKind : uint8_t {
  Value,   // host function parameter (arrays decay to pointers)
  Input,   // kernel `T x<>`
  Iter,    // kernel `iter T x<>`
  Out,     // kernel `out T x<>`
  Const,   // kernel `T c`
  Gather,  // kernel `T g[]`, `T g[][]`, `T g[N][M]`
  Reduce,  // reduce function `reduce T r<>`
};

// For stream kinds (Input, Iter, Out, Reduce) `type` is the ELEMENT type (what
// the name means inside the body); for Gather the element type with
// `gather_rank` dimensions; for Value/Const the parameter's type.
struct ParamDecl : DeclOf<DeclKind::Param> {
  using DeclOf::DeclOf;
  ParamKind pkind = ParamKind::Value;
  TypeSyntax type_syntax;
  const Type* type = nullptr;
  int gather_rank = 0;
  int index = 0;  // position in the parameter list
  // A host function's stream parameter `float s<4,3>` (type: the stream) or
  // pointer to a stream `float (*o)<4,3>` (type: pointer to the stream, whose
  // value is the caller's stream handle): the declared extents, checked
  // against the argument's at each call (empty: any shape).
  std::vector<ExprPtr> extents;
  bool stream_pointer = false;
  // A variable output (§12), pkind Out: `vout [N]` gives N, `vout []` 0; -1 otherwise.
  int vout_bound = -1;
  // Brook+'s scatter output `out T a[]` (§12): pkind Gather, written by the kernel.
  bool scatter = false;
};

// How many components of a vector index `g[v]` address dimensions (§5): the
// gather array's declared rank, and at least two (x and y), so a float4 index
// into a 2-D array reads (x, y) and into a 4-D one (x, y, z, w).
inline uint32_t gather_vector_components(const GatherExpr& e) {
  const auto* n = e.param ? e.param->as<NameExpr>() : nullptr;
  const auto* p = n && n->decl ? n->decl->as<ParamDecl>() : nullptr;
  const uint32_t rank = p && p->gather_rank > 2 ? static_cast<uint32_t>(p->gather_rank) : 2;
  const uint32_t count =
      e.indices.size() == 1 && e.indices[0]->type ? e.indices[0]->type->width() : 1;
  return count < rank ? count : rank;
}

enum class FuncKind : uint8_t { Host, Kernel, Reduce };

struct CompoundStmt;
struct FuncDecl : DeclOf<DeclKind::Func> {
  using DeclOf::DeclOf;
  FuncKind fkind = FuncKind::Host;
  TypeSyntax return_syntax;
  const Type* return_type = nullptr;
  std::vector<std::unique_ptr<ParamDecl>> params;
  std::unique_ptr<CompoundStmt> body;  // null for a prototype
  bool is_variadic = false;
  // K&R `f()`: parameters unspecified, compatible with any prototype (C99 6.7.5.3).
  bool no_prototype = false;
  // A K&R definition `int f(a, b) int a; float b; { … }` (C89): no prototype,
  // so calls pass default-promoted arguments, converted on entry to the
  // declared parameter types.
  bool old_style = false;
  bool is_static = false;  // `static`: visible only in its translation unit
  // The definition this declaration refers to (itself when it has a body);
  // set by sema so calls through a prototype reach the body.
  FuncDecl* definition = nullptr;
  // What calls reach: the definition, or this declaration while there is none.
  const FuncDecl& defined() const { return definition ? *definition : *this; }
  FuncDecl& defined() { return definition ? *definition : *this; }
  // Host functions: the function type (what the name designates), set by sema.
  const Type* type = nullptr;
  // Brook+ `Attribute[GroupSize(x, y, z)]` before a kernel: the sizes as
  // written (missing ones 1); all 0 when the kernel is not a group kernel.
  std::array<int64_t, 3> group_size{0, 0, 0};
  SourceLoc group_loc;
};

struct FieldDecl {
  SourceLoc loc;
  // An anonymous struct or union member (C11, gcc's gnu99) is named
  // `__anonN` (N its position), so printers emit valid code; its members are
  // found through it (sema rewrites `s.x` to `s.__anonN.x`).
  std::string name;
  bool anonymous = false;
  TypeSyntax type_syntax;
  const Type* type = nullptr;  // set by sema
  uint64_t offset = 0;         // set by sema; a bit-field's: its storage unit's
  // A bit-field (`unsigned flags : 3;`, C99 6.7.2.1): the width as written,
  // and from sema its width and its first bit in the storage unit of
  // type->size bytes at `offset` (x86-64 SysV layout, as gcc lays it out).
  // An unnamed bit-field has an empty name and is never initialised.
  ExprPtr bit_width_expr;
  int bit_width = -1;  // -1: not a bit-field
  uint32_t bit_offset = 0;
  bool is_bitfield() const { return bit_width_expr != nullptr; }
};
struct StructDecl : DeclOf<DeclKind::Struct> {
  using DeclOf::DeclOf;  // name may be empty (anonymous struct in a typedef)
  std::vector<FieldDecl> fields;
  bool is_definition = false;  // has a { body }
  bool is_union = false;       // every field at offset 0; size of the largest
  // The largest alignment a member gets (0: its own): 1 under
  // `__attribute__((packed))`, N under `#pragma pack(N)`.
  uint32_t max_align = 0;
  const Type* type = nullptr;  // set by sema
  int field_index(std::string_view field) const {
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == field) return static_cast<int>(i);
    return -1;
  }
};

// The bit-field a member expression names (checked by sema), or null.
const FieldDecl* bitfield_member(const Expr& e);

struct TypedefDecl : DeclOf<DeclKind::Typedef> {
  using DeclOf::DeclOf;
  TypeSyntax type_syntax;
  const Type* type = nullptr;
};

struct EnumConstDecl : DeclOf<DeclKind::EnumConst> {
  using DeclOf::DeclOf;
  ExprPtr value_expr;  // may be null (previous + 1)
  int64_t value = 0;   // set by sema
};
struct EnumDecl : DeclOf<DeclKind::Enum> {
  using DeclOf::DeclOf;
  std::vector<std::unique_ptr<EnumConstDecl>> constants;
};

// ---------------------------------------------------------------------------
// Statements

enum class StmtKind : uint8_t {
  Compound, Expr, Decl, If, For, While, Do, Switch, Case, Default, Break, Continue, Return, Empty,
  Label, Goto  // host code only (sema rejects them in kernels)
};

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
  virtual ~Stmt() = default;
  template <class T>
  T* as() { return kind == T::Kind ? static_cast<T*>(this) : nullptr; }
  template <class T>
  const T* as() const { return kind == T::Kind ? static_cast<const T*>(this) : nullptr; }
};
template <StmtKind K>
struct StmtOf : Stmt {
  static constexpr StmtKind Kind = K;
  explicit StmtOf(SourceLoc l) : Stmt(K, l) {}
};

struct CompoundStmt : StmtOf<StmtKind::Compound> {
  using StmtOf::StmtOf;
  std::vector<StmtPtr> body;
};
struct ExprStmt : StmtOf<StmtKind::Expr> {
  using StmtOf::StmtOf;
  ExprPtr expr;
};
// Declarations in statement position (and at top level): variables, functions,
// kernels, structs, typedefs, enums. `struct S { … } a, b;` gives a StructDecl
// followed by two VarDecls.
struct DeclStmt : StmtOf<StmtKind::Decl> {
  using StmtOf::StmtOf;
  std::vector<DeclPtr> decls;
};
struct IfStmt : StmtOf<StmtKind::If> {
  using StmtOf::StmtOf;
  ExprPtr cond;
  StmtPtr then_stmt, else_stmt;  // else may be null
};
struct ForStmt : StmtOf<StmtKind::For> {
  using StmtOf::StmtOf;
  StmtPtr init;  // DeclStmt, ExprStmt or null
  ExprPtr cond;  // may be null (true)
  ExprPtr step;  // may be null
  StmtPtr body;
};
struct WhileStmt : StmtOf<StmtKind::While> {
  using StmtOf::StmtOf;
  ExprPtr cond;
  StmtPtr body;
};
struct DoStmt : StmtOf<StmtKind::Do> {
  using StmtOf::StmtOf;
  StmtPtr body;
  ExprPtr cond;
};
// The body is a CompoundStmt whose direct children include Case/Default labels
// (sema rejects labels anywhere else). cond is promoted to int/long.
struct SwitchStmt : StmtOf<StmtKind::Switch> {
  using StmtOf::StmtOf;
  ExprPtr cond;
  StmtPtr body;
};
// A label inside a switch body; the statements after it follow in the body.
struct CaseStmt : StmtOf<StmtKind::Case> {
  using StmtOf::StmtOf;
  ExprPtr value;
  ExprPtr high;        // gcc's `case lo ... hi:` (host code only); null for one value
  int64_t folded = 0;  // set by sema
  int64_t folded_high = 0;  // == folded for one value; below it for an empty range
};
struct DefaultStmt : StmtOf<StmtKind::Default> {
  using StmtOf::StmtOf;
};
struct BreakStmt : StmtOf<StmtKind::Break> {
  using StmtOf::StmtOf;
};
struct ContinueStmt : StmtOf<StmtKind::Continue> {
  using StmtOf::StmtOf;
};
struct ReturnStmt : StmtOf<StmtKind::Return> {
  using StmtOf::StmtOf;
  ExprPtr value;  // converted to the function's return type by sema
};
// `;`, or C11's `_Static_assert(cond, "message");` (gcc takes it in C99
// too): sema checks cond, and nothing runs.
struct EmptyStmt : StmtOf<StmtKind::Empty> {
  using StmtOf::StmtOf;
  ExprPtr static_assert_cond;
  std::string static_assert_message;
};
// `name: stmt` (C's labeled statement). `owner` (set by sema) is the compound
// whose direct child the label is, possibly through other labels; null
// elsewhere (an `if` body without braces), where goto cannot reach it.
struct LabelStmt : StmtOf<StmtKind::Label> {
  using StmtOf::StmtOf;
  std::string name;
  StmtPtr stmt;
  const Stmt* owner = nullptr;
};
struct GotoStmt : StmtOf<StmtKind::Goto> {
  using StmtOf::StmtOf;
  std::string label;
  SourceLoc label_loc;
  const LabelStmt* target = nullptr;  // set by sema
};

// A parsed file or REPL entry: top-level declarations and statements, in order.
// Function/kernel/struct/typedef/enum definitions and global variables appear
// as DeclStmts; top-level statements run in order (LANGUAGE.md §1).
struct Program {
  std::vector<StmtPtr> items;
  std::vector<std::string> pragmas;  // e.g. "brook fp_relaxed"
};

}  // namespace brook::ast
