// The bindings Brook+'s brcc wrote for a .br file (BROOKPLUS.md §2), for
// `brook cc --brookplus`: NAME.h declares one functor per top-level kernel and
// reduction taking brook::Stream<T> (include/brook/Stream.h), NAME.cpp embeds
// the Brook source and launches through brook::plus::Launch at run time.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "lang/ast.hpp"

namespace brook::cc {

struct BrookSource {
  std::string name;  // as diagnostics name it ("hello.br")
  std::string text;
};

struct BrookPlusFiles {
  std::string header;  // NAME.h
  std::string source;  // NAME.cpp
};

// `programs`: the checked ASTs of `sources`, in order; `base`: NAME, which
// gives the include guard _NAME_AUTO_GENERATED_H_ and NAME.cpp's #include.
BrookPlusFiles brookplus_bindings(std::span<const ast::Program* const> programs,
                                  std::span<const BrookSource> sources, std::string_view base);

// The same bindings for the Brook+ half of a default-mode header (`brook cc`
// without --brookplus): the struct definitions and functor classes with
// their launches inline, over the Brook source in `source_symbol` (a char
// array) named by `name_symbol`, which the generated .cpp defines.
std::string brookplus_inline_bindings(std::span<const ast::Program* const> programs,
                                      const std::string& source_symbol,
                                      const std::string& name_symbol);

}  // namespace brook::cc
