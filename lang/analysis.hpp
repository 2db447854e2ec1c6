// Facts about kernels that more than one backend needs, computed once
// (ARCHITECTURE.md: lang/analysis.*). So far: float counters, the float
// idiom's loop variables (`for (k = 0.0f; k < n; k += 1.0f) ... a[float2(k, y)]`).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "lang/ast.hpp"
#include "lang/types.hpp"

namespace brook::analysis {

// Below this magnitude every integer is a float (2^24).
inline constexpr int64_t kFloatExact = int64_t{1} << 24;

// A float counter is a scalar float local of a kernel whose only writes are
//   its initialiser and `k = L`    L an integral literal, |L| <= 2^24
//   `k += c`, `k -= c`, ++k, k--   c an integral literal, 0 < |c| <= 2^24,
//                                  every step in the same direction.
// Its `shadow` is a long local a backend may keep beside it, written where k
// is written with the exact (integer) value: L at a reset, shadow + step at
// a step, 0 when k has no initialiser (backends zero such locals).
//
// What makes the shadow usable as k's gather index (floor(k + 0.25), then the
// clamp to [0, extent), LANGUAGE.md §5):
//  - k is always an integral float (sums of integers round to integers), so
//    floor(k + 0.25) == k: adding 0.25 to an integer either is exact or
//    rounds back to it (ties to even), and floor returns it.
//  - while |shadow| <= 2^24, k == shadow exactly (every sum is exact).
//  - counting up, once shadow > 2^24, k >= 2^24 (rounding is monotone and
//    2^24 is a float; adding a positive step never lowers k); counting down,
//    symmetrically k <= -2^24 once shadow < -2^24.
// So clamp(shadow) == clamp(floor(k + 0.25)) whenever the clamped dimension
// has at most 2^24 + 1 elements (beyond 2^24 both clamp to the last
// element, below -2^24 both to 0). A backend must check that bound.
struct FloatCounter {
  const ast::VarDecl* var = nullptr;
  int direction = 0;  // +1 only stepped up, -1 only down, 0 never stepped
  std::unique_ptr<ast::VarDecl> shadow;
};

// A write to a counter, as its shadow sees it.
struct CounterWrite {
  bool reset = false;  // k = value; else k += value
  int64_t value = 0;
};

class FloatCounters {
 public:
  // The counters among the locals of `kernel`'s own body (not its callees').
  explicit FloatCounters(const ast::FuncDecl& kernel);
  FloatCounters(const FloatCounters&) = delete;
  FloatCounters& operator=(const FloatCounters&) = delete;

  const FloatCounter* find(const ast::Decl* d) const;
  // The counter `e` writes (an assignment or ++/-- of a counter's name) and
  // how; nullopt for anything else.
  std::optional<std::pair<const FloatCounter*, CounterWrite>> write(const ast::Expr& e) const;
  // The shadow's initial value.
  static int64_t initial(const ast::VarDecl& v);
  const Type* shadow_type() const { return &long_; }
  bool empty() const { return counters_.empty(); }

 private:
  Type long_;
  std::map<const ast::Decl*, FloatCounter> counters_;
};

}  // namespace brook::analysis
