// What a map launch's compiled variant may assume, decided on the host per
// launch and spelled into the variant key (cl_launch.hpp's map_key), so a
// launch that breaks an assumption compiles another variant instead of
// computing something else.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/opencl/cl_bounds.hpp"
#include "backends/plan.hpp"

namespace brook::opencl {

// What the variant decisions learn by walking a kernel's AST, kept for the
// backend's lifetime (the kernels' ASTs outlive it, as the variant keys'
// pointers assume): winograd's 6,000 launches walked its kernels 6,000
// times, 7 % of the process's time on the host thread PoCL's workers share
// the cores with.
class KernelFacts {
 public:
  // Whether the kernel, or a kernel function it calls, reads its position:
  // indexof, instance(), or printf and push (whose order follows positions).
  bool uses_position(const ast::FuncDecl& kernel);
  bool uses_instance(const ast::FuncDecl& kernel);
  // cl_bounds.hpp's gather_accesses, by kernel and launch facts.
  const std::vector<GatherAccess>& gather_accesses(const ast::FuncDecl& kernel,
                                                   bool exact_positions, const LaunchFacts& facts);

 private:
  struct Walked {
    bool position = false, instance = false;
  };
  const Walked& walked(const ast::FuncDecl& kernel);
  std::map<const ast::FuncDecl*, Walked> walked_;
  std::map<std::string, std::vector<GatherAccess>> accesses_;
};

// Every buffer of the launch is under 2 GiB: index arithmetic in int.
bool narrow_ok(const MapPlan& plan);
// Every extent of the launch is at most 2^24: float positions are exact (cl_exact.cpp).
bool exact_ok(const MapPlan& plan);
// A power of two above every position indexof can give at this launch (the
// domain's and every stream argument's extents), at most 2^24: the bound
// cl_exact.cpp's integer arithmetic proves its results exact with. Part of
// the variant key.
int64_t position_limit(const MapPlan& plan);
// One linear range: every stream is laid out like the domain and the kernel
// never reads its position; the NDRange is then element_count(domain) wide.
bool flat_ok(const MapPlan& plan, KernelFacts& facts);
// The kernel's provable gather indices (cl_bounds.hpp), each with whether it
// stays inside its array at this launch (then it is printed without a clamp).
std::vector<std::pair<GatherAccess, bool>> unclamped_accesses(const MapPlan& plan,
                                                              KernelFacts& facts);

// A gather argument's logical dimensions (the gather parameter's rank): the
// view's dimensions, leading extent-1 ones dropped, contiguous leading ones
// folded or missing ones added as extent 1; base offset and strides in
// elements. nullopt when the view cannot be folded to that rank.
struct GatherShape {
  int64_t base = 0;
  std::vector<int64_t> ext, str;
};
std::optional<GatherShape> gather_shape(const Extents& view_ext, const Extents& stream_ext,
                                        const Extents& offset, int rank);

// instance()'s offset (backends/instance.hpp) when the kernel or a kernel it
// calls uses instance(), else zero: the offset is compiled into the variant,
// and a kernel that never reads it must not compile one variant per view
// (sgm_path writes a new column view at each of its 640 launches).
std::array<int32_t, 4> variant_instance_offset(const MapPlan& plan, KernelFacts& facts);

// The kernel's float constant parameters whose value at this launch is an
// integer of magnitude below 2^12, by parameter index: BrookGPU's programs
// pass loop counters so (`path_step(..., (float)x, ...)`), and a gather at
// `x * 64.0f + d` is then an exact integer index (cl_exact.cpp). Part of the
// variant key: a launch with x = 0.5 compiles another variant.
std::vector<int> small_integral_constants(const MapPlan& plan);

// A launch's first dimension rounded up to whole work-groups, 64 work-items
// (8 below 256, where 64 would waste most of a small launch); the extra ones
// return at once. The driver picks a work-group size that divides the global
// size: sum's 16,777 fold chunks (19 x 883) gave PoCL groups of 19, and saxpy
// over 16,777,213 elements (a prime) ran 10x slower than over 16,777,216.
// A multiple of 8 is left as it is: the driver then has a divisor of 8 or
// more, and padding launch_small's 1,000 to 1,024 cost 1.2 us per launch.
size_t padded_extent(int64_t n);
// Whether a map launch's NDRange is padded (padded_extent), so that its
// variant must end the extra work-items. Part of the variant key: the guard
// costs where no work-item is extra (PoCL's in-place saxpy over 2^24
// elements: 0.95-0.98 s with it, 0.83-0.85 without, hand-written 0.76-0.84).
bool map_padded(const MapPlan& plan, KernelFacts& facts);

// 'p' pinned to 0, 'i' identity, 's' scaled (num/den) in long, 'n' scaled in
// int. At a launch over `domain`, a scaled index that is 0 at every position
// (a <480, 1> stream read over a <480, 64> domain) is pinned, and one whose
// products stay below 2^31 is scaled in int: no 64-bit division per element.
char map_kind(const DimMap& m, const std::vector<int64_t>& domain);

}  // namespace brook::opencl
