// The C-style printer: typed kernel AST → OpenCL C. The statement and
// expression structure is plain C; what OpenCL spells differently is kept in
// a few places: address spaces and hidden parameters (function signatures,
// cl_printer.cpp), vector literals, conversions and comparisons
// (cl_printer_expr.cpp), builtins and printf (cl_builtins.cpp).
//
// Calling convention of a printed Brook kernel or reduce function
// `brook_k_NAME`:
//   (int4 brook_pos, __global uint* brook_pbuf, volatile __global int* brook_stop, per parameter:
//      input/iter  T x, float4 brook_ix_x, int4 brook_jx_x   (value, indexof, the same as ints)
//      out/reduce  __private T* x, float4 brook_ix_x, int4 brook_jx_x
//      constant    T x
//      gather      __global const uchar* x, long4 brook_ge_x, long4 brook_gs_x
//                  (element base, extents and strides of its logical dimensions))
// brook_pos is the invocation's position (x = last dimension), the value of
// instance(); brook_pbuf receives printf records; loops that may not end
// leave when the host sets *brook_stop (an interrupt).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/opencl/cl_module.hpp"
#include "lang/analysis.hpp"
#include "lang/ast.hpp"
#include "stdlib/recipe.hpp"

namespace brook::opencl {

class ClPrinter {
 public:
  explicit ClPrinter(ClModule& module) : m_(module) {}

  // Prints `f` (a kernel or reduce function) and every kernel it calls into
  // the module, callees first; returns its OpenCL name. Throws Unsupported.
  std::string function(const ast::FuncDecl& f);
  static std::string function_name(const ast::FuncDecl& f);

  // Whether the kernel body may read output parameter `out` before writing it
  // (then the launch must load the element's current value first).
  static bool reads_before_write(const ast::FuncDecl& f, const ast::ParamDecl& out);

 private:
  // Statements (cl_printer.cpp)
  void stmt(const ast::Stmt& s, int indent, std::string& out);
  void local_decl(const ast::VarDecl& v, int indent, std::string& out);
  // `guard` (when not empty) must also hold for an iteration to poll.
  void loop_body(const ast::Stmt& body, int indent, bool poll, std::string& out,
                 const std::string& guard = {});
  // How a `for` over a float counter polls (cl_exact.cpp): nullopt when it is
  // not one (poll every iteration), "" when it ends on its own, else the
  // condition under which it may be stuck and must poll.
  std::optional<std::string> float_loop_poll(const ast::ForStmt& f);
  struct SteppedCounter {
    const analysis::FloatCounter* counter;
    bool up;
    const ast::BinaryExpr* cmp;  // the condition, casts around it stripped
  };
  std::optional<SteppedCounter> stepped_counter(const ast::ForStmt& f);
  // A float counter's loop toward a bound held in a float the loop never
  // writes, as an integer loop (cl_exact.cpp): `fits` (the bound is within
  // ±2^24) and the shadow's condition; nullopt when the loop is not one.
  struct IntegerBound {
    std::string bound, fits, cond;
  };
  std::optional<IntegerBound> float_loop_integer_bound(const ast::ForStmt& f);
  // How many times the body of `f` runs when that is a known constant: an
  // int counted loop between constants (cl_bounds.hpp) or a float counter's
  // loop from a literal start toward a literal bound (cl_exact.cpp).
  std::optional<int64_t> constant_trip_count(const ast::ForStmt& f);
  // `#pragma unroll` before a loop of a few known iterations (cl_printer.cpp).
  std::string unroll_hint(const ast::ForStmt& f, int indent);
  std::string init_list(const ast::Expr& e, const Type* t);

  // Expressions (cl_printer_expr.cpp)
 public:
  std::string expr(const ast::Expr& e);
 private:
  std::string name_ref(const ast::NameExpr& e);
  std::string vector_select(const ast::ConditionalExpr& c);
  std::string unary(const ast::UnaryExpr& e);
  std::optional<std::string> swizzled_compare(const ast::SwizzleExpr& sw, const std::string& comps);
  std::string binary(const ast::BinaryExpr& e);
  std::string arith(ast::BinaryOp op, const std::string& l, const std::string& r, const Type* t);
  std::string assign(const ast::AssignExpr& e);
  std::string cast(const ast::CastExpr& e);
  std::string gather(const ast::GatherExpr& e);
  // The element's address (`g + offset * size`) after index clamping.
  std::string gather_addr(const ast::GatherExpr& e);
  std::string gather_index_helper(const Type* index_type);
  std::string kernel_call(const ast::CallExpr& e);
  std::string construct_from_parts(const ast::ConstructExpr& c);
  std::string index_of(const ast::IndexofExpr& e);
  const ast::ParamDecl* stream_param(const ast::Expr& e) const;

 public:
  // Conversion of `text` (of type `from`) to `to`, OpenCL-spelled.
  std::string convert(const std::string& text, const Type* from, const Type* to);

 private:
  // Integral positions (cl_exact.cpp): int texts for float expressions that
  // are exact integers under ClModule::exact_positions, or nullopt.
  std::optional<std::string> position(const ast::Expr& e, int comp, int depth);
  std::optional<std::string> integral(const ast::Expr& e, int comp, int depth);
  bool integral_param(const ast::Expr& e);
  // A bound on the magnitude of component `comp` of an integral() value:
  // literals, small integral constants (below 2^12) and their products.
  std::optional<double> integral_bound(const ast::Expr& e, int comp, int depth);
  // Component `comp` of a float gather index as a long, when it provably
  // selects the same element as floor(f + 0.25) would.
  std::optional<std::string> exact_index(const ast::Expr& e, int comp);
  // Whether exact_index's value is a position, an integral value below
  // 2^24 (integral_bound) or one plus or minus the other: then it lies within ±2^25 and
  // clamps in int, which PoCL vectorises (a long clamp takes AVX2 four
  // instructions per comparison).
  bool narrow_exact(const ast::Expr& e, int comp);
  std::optional<std::string> offset(const ast::Expr& e, int comp);
  // A float comparison printed on integers when both sides are exact
  // (cl_exact.cpp): a float counter against an integral literal, or two
  // ranged() values. PoCL then counts loops such as `for (dy = -3.0f; dy <=
  // 0.0f; dy += 1.0f)` and folds `dy == 0.0f` in each unrolled copy.
  std::optional<std::string> exact_compare(const ast::BinaryExpr& e);
  // `(int)P` for an exact position P.
  std::optional<std::string> exact_int_cast(const ast::CastExpr& e);
  // BrookGPU's integer arithmetic in float (cl_exact.cpp): component `comp`
  // of a float expression built from positions, integral values, + - *,
  // floor(X / C) and fmod(X, C), as an int text with bounds, when every
  // float operation in it is exact (all values integers below 2^24).
  struct Ranged {
    std::string text;
    double lo = 0, hi = 0;
  };
  std::optional<Ranged> ranged(const ast::Expr& e, int comp, int depth);
  // floor(X / C) or fmod(X, C) (`mod`) with X ranged and non-negative and C an
  // integral literal from 1 to 2^24.
  std::optional<Ranged> ranged_division(const ast::CallExpr& c, int depth);
  // `floor(call)` printed from its int value, when ranged.
  std::optional<std::string> exact_builtin(const ast::CallExpr& c);
  bool never_assigned(const ast::VarDecl& v);
  // The initialiser of a local that `e` names and nothing writes after it
  // (of the local's own type), or null: its value wherever it is read.
  const ast::Expr* local_value(const ast::Expr& e);
  // Float counters of the function being printed (lang/analysis.hpp): each
  // has a long `brook_ci_NAME` beside it, written with it, that exact gather
  // indices use.
  const analysis::FloatCounters& counters();
  std::optional<std::string> counter_text(const ast::Expr& e, int comp);
  std::string with_shadow(const ast::Expr& e, const std::string& text);

  // Builtins (cl_builtins.cpp)
  std::string builtin(const ast::CallExpr& e);
  std::string componentwise(const std::string& fname, const Type* result,
                            const std::vector<const Type*>& args,
                            const std::string& scalar_body);
  std::string printf_call(const ast::CallExpr& e);
  // The helper computing a composed builtin from its recipe, for these
  // argument types (cl_recipe.cpp); the call passes the arguments in order.
  std::string recipe_call(const stdlib::Recipe& r, const ast::CallExpr& e,
                          const std::vector<const Type*>& types);

  // A decision's condition as printed: a group vote (cl_groups.hpp) where
  // `votes_` holds the statement; `integer` keeps a switch's value.
  std::string decision(const ast::Stmt& s, const ast::Expr& cond, bool integer = false);

  ClModule& m_;
  const ast::FuncDecl* current_ = nullptr;
  bool voting_ = false;               // the kernel being printed votes (cl_groups.hpp)
  bool counts_polls_ = false;         // the function being printed declares brook_polls
  std::set<const ast::Stmt*> votes_;  // its decisions that vote
  std::set<const ast::FuncDecl*> in_progress_;
  std::map<const ast::VarDecl*, bool> assigned_;
  std::set<const ast::VarDecl*> no_zero_;  // arrays written in full before any read
  std::map<const ast::FuncDecl*, std::unique_ptr<analysis::FloatCounters>> counters_;
  int64_t unrolled_ = 1;  // the product of the trip counts of the enclosing unrolled loops
};

}  // namespace brook::opencl
