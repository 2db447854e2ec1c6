// Brook types as C++ spells them in a `brook cc` header: scalars as they are,
// vectors and .br structs as standard-layout structs of the same layout
// (defined once per program by include guards), so a C++ caller's values and
// streams have exactly the bytes brook's kernels read.
#pragma once

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

  // Definitions of every vector and struct type spelled so far, each behind
  // its own guard, dependencies first; plus brook_cc::element<T> naming each
  // for brook_cc::stream<T>().
  std::string definitions() const { return definitions_; }

 private:
  void define(const Type* t);
  std::set<const Type*> defined_;
  std::string definitions_;
};

}  // namespace brook::cc
