// One OpenCL C translation unit under construction: the struct definitions,
// helper functions and kernel functions a launch needs, each emitted once and
// in dependency order. The printer and the launch generators add to it; the
// runtime compiles source().
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lang/source.hpp"
#include "lang/types.hpp"

namespace brook::opencl {

// A construct the OpenCL backend cannot express (a host-only construct that
// reached a kernel, an unsupported form): reported as a runtime error at loc.
struct Unsupported {
  SourceLoc loc;
  std::string message;
};

// Capacity of the printf record buffer, in 32-bit words (word 0 is the fill count).
inline constexpr uint32_t kPrintfWords = 1u << 22;

class ClModule {
 public:
  // The OpenCL spelling of a value type in private memory: scalars (bool is
  // uchar), native vectors, generated structs. Registers struct definitions.
  std::string type_name(const Type* t);
  // A declaration of `name` with type `t`, arrays included: "float m[4][2]".
  std::string declare(const Type* t, const std::string& name);

  // Functions reading / writing one element of type `t` in C layout (tightly
  // packed vectors, natural alignment) at a `__global uchar*`:
  //   T brook_ld_X(__global const uchar* p);  void brook_st_X(__global uchar* p, T v);
  std::string load_fn(const Type* t);
  std::string store_fn(const Type* t);
  // The same for a value inside a struct, where vectors may be unaligned.
  std::string field_load_fn(const Type* t);
  std::string field_store_fn(const Type* t);

  // A helper function named `name`, defined by make() the first time.
  const std::string& helper(const std::string& name, const std::function<std::string()>& make);
  bool has_helper(const std::string& name) const { return helpers_.count(name) != 0; }
  // The project's math library pasted in (stdlib/brook_math.h, and for a
  // double function brook_math_double.h after it); its functions compute in
  // double, so the program enables cl_khr_fp64.
  void use_brook_math(bool with_double);
  void add_function(std::string text) { functions_.push_back(std::move(text)); }

  bool uses_double = false;
  // Index arithmetic in int (brook_i) when every buffer of the launch is
  // under 2 GiB: it halves the width of vectorised address math.
  bool narrow_index = false;
  bool uses_printf = false;
  // Some loop polls the stop word (it may not end by itself): the host waits
  // for such a launch at once, watching for Ctrl-C.
  bool polls = false;
  // A work-group kernel with syncGroup() inside control flow votes on the
  // decisions around it (cl_groups.hpp): the launch takes a divergence word
  // (`__global int* brook_diverged`) as its last argument.
  bool group_votes = false;
  // A shape-specialised brook_map (cl_launch.hpp's map_source_for_shape): its
  // shape arguments are constants in its body, not parameters, and the host
  // does not pass them (PoCL copies every argument at every launch).
  bool shape_baked = false;
  // Every extent of the launch is at most 2^24, so float positions are exact
  // integers and the printer may use their int twins (cl_exact.cpp).
  bool exact_positions = false;
  // Every position is below this (cl_variant.hpp's position_limit).
  int64_t position_limit = int64_t{1} << 24;
  // Gather indices (the GatherExpr as an Expr*, logical dimension) and local
  // array indices (the IndexExpr, 0) that provably stay inside their array at
  // this launch (cl_bounds.hpp): printed without a clamp.
  std::set<std::pair<const void*, int>> unclamped;
  // The launched kernel's float constant parameters whose value at this
  // launch is an integer of magnitude below 2^12 (cl_variant.hpp): exact
  // integers to the printer (cl_exact.cpp).
  std::set<const void*> integral_params;

  // The whole translation unit.
  std::string source() const;

  // A C identifier naming the type ("float4", "int_a3", a struct's name).
  std::string tag(const Type* t);

  // printf inside kernels: each call site, with what its arguments are, so
  // the host can format the records kernels append (see cl_printf.hpp).
  struct PrintfSite {
    SourceLoc loc;
    std::string format;
    std::vector<char> kinds;  // per argument: 'i' int, 'u' uint, 'l' long, 'L' ulong, 'f' float, 'd' double, 's' string
    std::vector<std::string> strings;  // string literal arguments, by index
    // push(e) (§12) shares the record buffer: a vout site carries the
    // parameter and the element's bytes instead of printf arguments.
    int vout_param = -1;
    uint32_t vout_size = 0;
  };
  std::vector<PrintfSite> printf_sites;

  // `#line K "brook.br"` marks in kernel bodies: K is a counter standing for
  // the statement at line_locs[K - 1], so a driver error maps back to the .br.
  std::string mark_line(SourceLoc loc);
  // The statement a driver diagnostic at brook.br:K names (invalid if none).
  SourceLoc statement_at(uint32_t k) const;

 private:
  std::map<const Type*, std::string> struct_names_;
  std::vector<std::string> struct_defs_;
  std::map<std::string, std::string> helpers_;
  std::vector<std::string> helper_order_;
  std::vector<std::string> functions_;
  std::vector<SourceLoc> line_locs_;
};

// The C type name of a scalar kind ("uint", "ulong", bool → "uchar").
std::string scalar_name(const Type* t);
// Spelling of a value as an OpenCL literal of type `t` (scalar): "1.5f", "(int)3".
std::string float_literal(double v, bool is_float);
// An identifier safe from OpenCL C's reserved words and our own brook_ names.
std::string safe_name(const std::string& name);

}  // namespace brook::opencl
