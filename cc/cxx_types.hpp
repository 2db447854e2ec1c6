// Brook types as C++ spells them in a `brook cc` header: scalars as they are,
// vectors and .br structs as standard-layout structs of the same layout
// (defined once per program by include guards), so a C++ caller's values and
// streams have exactly the bytes brook's kernels read.
#pragma once

#include <map>
#include <set>
#include <string>

#include "lang/types.hpp"

namespace brook::cc {

class CxxTypes {
 public:
  // The C++ declaration of `name` with type `t` ("float4 k", "int m[4]"), or
  // "" when `t` has no C++ spelling here (pointers, streams, unions,
  // anonymous structs): such a function gets no typed wrapper.
  std::string declare(const Type* t, const std::string& name);
  // What C++ calls type `t` ("float4", "Particle"), or "" as above.
  std::string spell(const Type* t) { return declare(t, ""); }

  // `typedef struct { ... } Pair;`: the anonymous struct `t` is spelled by
  // its typedef name (BrookGPU's programs name their structs so), in C++ and
  // in Brook (brook_cc::element<Pair>::name is "Pair").
  void name_anonymous(const Type* t, const std::string& typedef_name) {
    anonymous_.emplace(t, typedef_name);
  }

  // `typedef struct tag { ... } Name;`: Name too, after tag's definition
  // (BrookGPU programs make streams of Name). Nothing when `t` has no C++
  // spelling or is spelled `name` already.
  void add_typedef(const Type* t, const std::string& name);

  // BrookGPU's element type list for struct `t` (getStreamType's
  // specialization, as brcc generated it): one code per field, when every
  // field is a float, float2..4, double or double2; "" otherwise, or when `t`
  // has no C++ spelling.
  std::string brookgpu_type_list(const Type* t);

  // Definitions of every vector and struct type spelled so far, each behind
  // its own guard, dependencies first; plus brook_cc::element<T> naming each
  // for brook_cc::stream<T>().
  std::string definitions() const { return definitions_; }

 private:
  void define(const Type* t);
  // The struct's name in C++ and in Brook: its own, or its typedef name.
  std::string struct_name(const Type* t) const;
  std::set<const Type*> defined_;
  std::map<const Type*, std::string> anonymous_;
  std::string definitions_;
};

}  // namespace brook::cc
