// Internals of the SPMD generator (jit/spmd.hpp): the entry, slots and the
// uniformity fixed point in spmd.cpp, stream and gather memory access in
// spmd_memory.cpp, statements and masks in spmd_stmt.cpp, expressions and
// inlined kernel calls in spmd_expr.cpp.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "jit/codegen_impl.hpp"
#include "lang/analysis.hpp"

namespace brook::jit::spmd {

// Counted loops of at most this many trips are unrolled fully (stencils up
// to 5x5; the bound keeps unrolled code, and its compile time, in check).
constexpr int64_t kUnrollTrips = 5;

// Thrown when the kernel leaves the SPMD subset: the scalar path is used.
struct NotInSubset {
  std::string why;
};
// Thrown when a local component turned out varying: generate again.
struct Restart {};

// (declaration, component) pairs known to vary between lanes.
using VaryingSet = std::set<std::pair<const ast::Decl*, int>>;
// Loops that must run masked: a break or continue under varying control.
using LoopSet = std::set<const ast::Stmt*>;

// A Brook value: one LLVM value per component, each a scalar (uniform) or a
// <W x T> vector (varying). Bools are i1.
struct SV {
  std::vector<llvm::Value*> c;
  const Type* t = nullptr;
};

// A local, parameter or output: one alloca per component.
struct Slot {
  const ast::Decl* decl = nullptr;
  const Type* t = nullptr;
  std::vector<llvm::Value*> ptr;
  std::vector<bool> varying;
  llvm::Value* written = nullptr;  // outputs: the lanes written so far
  // Local arrays: ptr[0] holds array_len elements of t->elem, component by
  // component; varying[0] holds for all of them.
  uint32_t array_len = 0;
  // The masked region it was declared in: only there may a uniform value be
  // stored to it for all lanes, since lanes outside the region never see it.
  int region = 0;
  // Read back for every lane at the end (outputs, an inlined call's out
  // parameters and result): lanes that returned must keep their value.
  bool read_by_all = false;
};

// Some components of a slot.
struct Place {
  Slot* slot = nullptr;
  std::vector<int> comps;
  const Type* t = nullptr;
  llvm::Value* index = nullptr;  // element of a local array (uniform i64)
};

// A stream or gather argument of the launch, its run-time data loaded once.
struct Arg {
  const ArgShape* shape = nullptr;
  const ast::ParamDecl* decl = nullptr;
  llvm::Value* base = nullptr;
  std::vector<llvm::Value*> stride, offset, num, den, extent;
  bool contiguous = false;         // the view's last dimension is the gang's
  bool read_before_write = false;  // outputs: load the current value first
  llvm::Value* index = nullptr;    // this gang's element index (first lane if contiguous)
};

class Gen {
 public:
  Gen(Codegen& cg, const ast::FuncDecl& kernel, const MapShape& shape, int width, VaryingSet& varying,
      LoopSet& masked_loops);
  void emit(const std::string& entry_name);

  Codegen& cg;
  llvm::IRBuilder<>& b;
  const ast::FuncDecl& kernel;
  const MapShape& shape;
  const int W;
  VaryingSet& varying;
  LoopSet& masked_loops;
  llvm::Function* fn = nullptr;
  bool has_loop = false;  // the kernel has a for/while/do
  // A uniform local turned out varying this round: generate again once the
  // round is done (the set `varying` holds all it found).
  bool restart_pending = false;
  // The kernel's float counters (lang/analysis.hpp): their exact shadows index gathers.
  const analysis::FloatCounters* counters = nullptr;
  // Floating locals that a real loop (not unrolled) folds into across its
  // iterations (`acc += a * b`): each lane's chain of dependent adds. If one
  // of them varies, a wider gang runs more independent chains at once.
  std::set<const ast::Decl*> accumulators;

 private:
  // lanes and masks
  llvm::Type* lane_type(llvm::Type* scalar) const;
  static bool is_lane(llvm::Value* v);
  llvm::Value* widen(llvm::Value* v);
  void unify(llvm::Value*& x, llvm::Value*& y);
  llvm::Value* any(llvm::Value* mask);
  llvm::Value* all(llvm::Value* mask);
  llvm::Value* no_lanes();
  llvm::Value* cur();
  void set_cur(llvm::Value* m);
  llvm::Value* iota64();
  llvm::Value* entry_alloca(llvm::Type* t);
  llvm::BasicBlock* block(const char* name);
  void branch_to(llvm::BasicBlock* bb);
  [[noreturn]] static void outside(const std::string& why);
  bool divergent() const { return divergence > 0 || after_return; }

  // types
  const Type* check_type(const Type* t);
  llvm::Type* reg(const Type* scalar);
  llvm::Type* mem(const Type* scalar);
  llvm::Type* shaped(llvm::Type* scalar, llvm::Value* like);
  llvm::Value* conv(llvm::Value* v, const Type* from, const Type* to);
  SV conv(const SV& v, const Type* to);
  llvm::Value* truth(const SV& v);

  // slots
  Slot& make_slot(const ast::Decl* d, const Type* t, bool force_varying);
  llvm::Value* comp_ptr(const Slot& s, int k, llvm::Value* index);
  llvm::Value* load_comp(const Slot& s, int k, llvm::Value* index = nullptr);
  void store_comp(Slot& s, int k, llvm::Value* v, llvm::Value* index = nullptr);
  Place place(const ast::Expr& e);
  SV load_place(const Place& p);
  void store_place(const Place& p, const SV& v);

  // memory (spmd_memory.cpp)
  llvm::Value* view_index(const Arg& a, const std::vector<llvm::Value*>& p, std::vector<llvm::Value*>* ids);
  SV load_elems(llvm::Value* base, llvm::Value* index, const Type* t, llvm::Value* mask, bool contiguous);
  void store_elems(llvm::Value* base, llvm::Value* index, const SV& v, llvm::Value* mask, bool contiguous);
  SV load_lanes(llvm::Value* base, llvm::Value* row, llvm::Value* last, const Type* elem, llvm::Value* mask);
  void load_streams();
  void store_outputs();

  // statements (spmd_stmt.cpp)
  void stmt(const ast::Stmt& s);
  void if_stmt(const ast::IfStmt& s);
  void array_decl(Slot& slot, const ast::Expr* init);
  void loop(const ast::Stmt& loop_stmt, const ast::Stmt* init, const ast::Expr* cond, const ast::Expr* step, const ast::Stmt& body,
            bool test_first);
  void poll_interrupt(llvm::BasicBlock* exit);

  // expressions (spmd_expr.cpp)
  SV rvalue(const ast::Expr& e);
  SV binary(const ast::BinaryExpr& e);
  SV assign(const ast::AssignExpr& e);
  SV incdec(const ast::UnaryExpr& e);
  SV construct(const ast::ConstructExpr& e);
  SV gather(const ast::GatherExpr& e);
  SV builtin(const ast::CallExpr& e);
  SV kernel_call(const ast::CallExpr& e);
  SV select(llvm::Value* cond, const SV& t, const SV& f);
  llvm::Value* gather_index(llvm::Value* v, const Type* t, llvm::Value* extent);
  // Component `comp` of a gather index as a float counter's shadow (i64), or null.
  llvm::Value* counter_index(const ast::Expr& e, int comp);
  // After `e` wrote a float counter: the same write to its shadow.
  void write_shadow(const ast::Expr& e);
  void init_shadow(const ast::VarDecl& v);
  std::optional<std::pair<llvm::Value*, llvm::Value*>> consecutive_column(llvm::Value* v, const Type* t, llvm::Value* extent);
  // spmd_exact.cpp: component `comp` of a float gather index as an exact
  // i64 position (MapShape::exact_positions), or null.
  llvm::Value* exact_index(const ast::Expr& e, int comp);
  llvm::Value* position(const ast::Expr& e, int comp, int depth);
  llvm::Value* integral(const ast::Expr& e, int comp, int depth);
  llvm::Value* offset(const ast::Expr& e, int comp);
  bool never_assigned(const ast::Decl* d);
  // (int)P of exact positions P, component by component, as the integers P
  // were converted from (no float round trip), or nothing.
  std::optional<SV> exact_cast(const ast::CastExpr& c);
  // An integer expression that is an exact position converted to an integer
  // type (through never-assigned locals): its i64 position, or null.
  llvm::Value* int_position(const ast::Expr& e, int depth);
  // Component `comp` of an integer gather index as rvalue computes it, its
  // first lane recorded in consecutive_ when it is the lanes' column plus a
  // uniform offset; null when it is not of that form. `e` must be speculable.
  llvm::Value* exact_int_index(const ast::Expr& e, int comp);
  static bool lane_stride_is_one(llvm::Value* v);  // spmd_memory.cpp

  llvm::BasicBlock* alloca_block = nullptr;
  llvm::Value* mask_slot = nullptr;  // the execution mask
  llvm::Value* ret_slot = nullptr;   // lanes that returned
  llvm::Value* launch_ptr = nullptr;
  llvm::Value* gang_mask = nullptr;  // the tail mask of this gang
  llvm::Value* gang_full = nullptr;  // scalar: every lane of this gang is in the row
  llvm::Value* gang_start = nullptr;
  llvm::Value* lanes = nullptr;      // <W x i64> column of each lane
  std::vector<llvm::Value*> pos;     // domain position; the last is per lane
  std::map<const ast::Decl*, Slot> slots;
  std::map<const ast::Decl*, Arg*> gathers;
  std::map<const ast::Decl*, SV> indexof_;
  // indexof's components as the i64 view positions they convert (null: 0).
  std::map<const ast::Decl*, std::vector<llvm::Value*>> indexof_ids_;
  // exact_index values that are the lanes' columns plus a uniform d: their
  // first lane's value (gang_start + d). They step by one by construction.
  std::map<llvm::Value*, llvm::Value*> consecutive_;
  std::map<const ast::Decl*, bool> never_assigned_;
  std::vector<Arg> args_;
  // The enclosing loops: a masked one collects continuing lanes in
  // `cont_slot`; a real one branches to `brk` / `cont` (uniform jumps only).
  struct LoopCtx {
    const ast::Stmt* stmt = nullptr;
    llvm::Value* cont_slot = nullptr;
    llvm::BasicBlock* brk = nullptr;
    llvm::BasicBlock* cont = nullptr;
    int divergence = 0;
  };
  std::vector<LoopCtx> loops;
  void jump(bool is_break);
  Slot* ret_value = nullptr;  // inside an inlined kernel call with a result
  std::vector<const ast::FuncDecl*> calls;  // the inlined calls in progress
  int divergence = 0;      // > 0 inside varying control flow
  int region = 0;          // the current masked region (0: the kernel body)
  int next_region = 0;
  bool after_return = false;
};

// Safe to evaluate on every lane whatever the mask (both arms of a ?:, the
// right side of && / ||, a loop condition): no effects (lang/kernel_walk.hpp)
// and none of the forms this generator only evaluates under a branch.
bool speculable(const ast::Expr& e);

}  // namespace brook::jit::spmd
