// Internals of the AST -> LLVM IR translation (jit/codegen.hpp). Split over
// codegen.cpp (functions, statements, entry points), codegen_expr.cpp
// (expressions) and codegen_builtins.cpp (the stdlib table).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "jit/codegen.hpp"
#include "lang/analysis.hpp"
#include "lang/ast.hpp"
#include "stdlib/builtins.hpp"
#include "stdlib/recipe.hpp"

namespace brook::jit {

struct GroupLayout;  // jit/groups.hpp

// A scalar, or the lanes of one component, of type `fs` converted to `ts`
// (`target` its LLVM type): C's conversions; an out-of-range float-to-int
// conversion gives some value, never poison. The scalar and the SPMD path
// both convert through it.
llvm::Value* convert_component(llvm::IRBuilder<>& b, llvm::Value* v, const Type* fs, const Type* ts,
                               llvm::Type* target);

// An evaluated expression: a register value for scalars and vectors (bool is
// i1), a pointer to C-layout memory for structs and arrays.
struct RV {
  llvm::Value* v = nullptr;
  const Type* t = nullptr;
};

// An assignable place: memory of type `t`, or some components of the vector
// stored at `ptr` (count > 0).
struct LV {
  llvm::Value* ptr = nullptr;
  const Type* t = nullptr;
  const Type* vec = nullptr;  // the whole vector, when count > 0
  std::array<uint8_t, 4> comps{};
  uint8_t count = 0;
};

class Codegen {
 public:
  Codegen(llvm::Module& m, bool fp_relaxed);

  // The body function of a kernel or reducer (emitted once per module).
  llvm::Function* body(const ast::FuncDecl& f);

  llvm::LLVMContext& ctx;
  llvm::Module& mod;
  llvm::IRBuilder<> b;
  bool relaxed;

  // ---- types and memory ----
  llvm::Type* reg_type(const Type* t);
  llvm::Type* mem_type(const Type* t);
  llvm::Type* scalar_reg(const Type* t);
  llvm::Value* load(llvm::Value* ptr, const Type* t);
  void store(llvm::Value* ptr, const RV& v);
  void copy(llvm::Value* dst, llvm::Value* src, const Type* t);
  llvm::Value* alloca_of(const Type* t, const char* name = "");
  llvm::Value* byte_gep(llvm::Value* ptr, int64_t offset);
  llvm::Value* byte_gep(llvm::Value* ptr, llvm::Value* offset);
  llvm::Value* i64(int64_t v) { return b.getInt64(static_cast<uint64_t>(v)); }
  llvm::Value* i32(int32_t v) { return b.getInt32(static_cast<uint32_t>(v)); }
  llvm::Value* load_i64(llvm::Value* base, int64_t offset);
  llvm::Value* const_of(const Type* t, double fv, int64_t iv);  // splatted for vectors

  // ---- expressions (codegen_expr.cpp) ----
  RV rvalue(const ast::Expr& e);
  LV lvalue(const ast::Expr& e);
  RV load_lv(const LV& lv);
  void store_lv(const LV& lv, const RV& v);
  llvm::Value* to_bool(const RV& v);  // i1
  llvm::Value* convert(llvm::Value* v, const Type* from, const Type* to);
  llvm::Value* binary(ast::BinaryOp op, llvm::Value* l, llvm::Value* r, const Type* t,
                      const Type* rt);
  RV cond_expr(const ast::ConditionalExpr& e);
  RV logical(const ast::BinaryExpr& e);
  RV assign(const ast::AssignExpr& e);
  RV incdec(const ast::UnaryExpr& e);
  RV construct(const ast::ConstructExpr& e);
  RV cast(const ast::CastExpr& e);
  RV swizzle(const ast::SwizzleExpr& e);
  RV gather(const ast::GatherExpr& e);
  llvm::Value* gather_ptr(const ast::GatherExpr& e);
  RV indexof(const ast::IndexofExpr& e);
  RV call(const ast::CallExpr& e);
  RV kernel_call(const ast::CallExpr& e);
  void init_memory(llvm::Value* ptr, const Type* t, const ast::Expr& init);

  // ---- builtins (codegen_builtins.cpp) ----
  RV builtin(const ast::CallExpr& e);
  llvm::Value* component_builtin(stdlib::Builtin id, std::vector<llvm::Value*> args,
                                 const Type* scalar, const Type* arg_scalar);
  llvm::Value* libm(std::string_view name, std::vector<llvm::Value*> args, llvm::Type* t);
  // A brook_math.h function on whole gangs (<N x float>, one per argument)
  // through its gang form (stdlib/brook_math_gang.cpp), one call per gang.
  llvm::Value* gang_call(std::string_view gang_symbol, std::string_view inline_symbol,
                         llvm::ArrayRef<llvm::Value*> xs);
  // A composed builtin (stdlib/recipe.hpp) over its arguments' components:
  // values of type `comp`, each a scalar or (SPMD) a gang of lanes. Returns
  // the result's components, of type `result_comp`. `same_shape` makes
  // operands alike before an operation combines them (SPMD widens a uniform
  // one to lanes; the scalar path has nothing to do). codegen_recipe.cpp.
  std::vector<llvm::Value*> recipe(
      const stdlib::Recipe& r, const std::vector<std::vector<llvm::Value*>>& args, const Type* comp,
      const Type* result_comp,
      llvm::function_ref<void(llvm::MutableArrayRef<llvm::Value*>)> same_shape);
  int libm_calls = 0;  // how many libm() lowerings so far (jit/spmd.cpp picks paths by it)
  int gang_calls = 0;  // how many gang_call() lowerings so far (jit/spmd.cpp picks widths by it)
  RV printf_call(const ast::CallExpr& e);

  // ---- statements (codegen.cpp) ----
  void stmt(const ast::Stmt& s);
  void decl_stmt(const ast::DeclStmt& s);
  void switch_stmt(const ast::SwitchStmt& s);
  // Ctrl-C (jit/abi.hpp Launch::interrupt): i1, true once the flag is set.
  llvm::Value* interrupted(llvm::Value* launch);
  // At a kernel loop's condition: an interrupt ends the loop as if it were done.
  void leave_loop_if_interrupted(llvm::BasicBlock* end);
  void branch_to(llvm::BasicBlock* bb);  // unless the block is already terminated
  void start_block(llvm::BasicBlock* bb);
  [[noreturn]] void unsupported(SourceLoc loc, const std::string& what);

  llvm::Value* string_constant(const std::string& s);

  // ---- per-function state ----
  struct Fn {
    const ast::FuncDecl* decl = nullptr;
    llvm::Function* fn = nullptr;
    llvm::Value* ctx = nullptr;  // invocation context (jit/abi.hpp)
    llvm::Value* ret = nullptr;  // where `return e` stores
    std::map<const ast::Decl*, llvm::Value*> ptrs;  // locals and parameters
    std::map<const ast::Decl*, llvm::Value*> idx;   // float4 indexof of stream params
    std::vector<llvm::BasicBlock*> breaks, continues;
    llvm::BasicBlock* alloca_block = nullptr;
    // Its float counters (lang/analysis.hpp); their shadows live in `ptrs`.
    std::unique_ptr<analysis::FloatCounters> counters;
    // A work-group kernel's body (jit/groups.hpp): where its top-level locals
    // and shared arrays live.
    std::shared_ptr<const GroupLayout> group;
    llvm::Value* group_frame = nullptr;
    llvm::Value* group_shared = nullptr;
  };
  Fn* fn = nullptr;
  // Rank of the array behind each gather parameter (from the launch shape);
  // parameters passed through kernel calls map to the caller's.
  std::map<const ast::Decl*, int> gather_ranks;
  int gather_rank(const ast::Decl* d) const {
    auto it = gather_ranks.find(d);
    return it == gather_ranks.end() ? 1 : it->second;
  }
  // Gather parameters whose extents let a float counter's shadow index them
  // (ArgShape::counter_exact); passed through kernel calls like the ranks.
  std::set<const ast::Decl*> counter_exact;
  void write_shadow(const ast::Expr& e);
  llvm::Value* counter_index(const ast::Expr& e, int comp);  // i64, or null
  std::map<const ast::FuncDecl*, llvm::Function*> bodies;
  std::map<std::string, llvm::Value*> strings;
  const TypeContext* types = nullptr;
};

}  // namespace brook::jit
