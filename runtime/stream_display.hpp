// How the REPL shows a stream (REPL.md "Streams"): numpy's layout with
// brook's types. `streamPrint` keeps BrookGPU's format (LANGUAGE.md §4); this
// is only for the REPL's echo of a stream and `:show`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "interp/memory.hpp"
#include "lang/types.hpp"

namespace brook {

struct StreamDisplay {
  size_t width = 100;        // characters per line before columns are elided
  int64_t threshold = 1000;  // more elements than this: every long dimension is elided
  int64_t edge = 3;          // elements kept at each end of an elided dimension
};

// A header `float<4, 6>` and the elements, row-major, in nested brackets:
// values as the host prints them (shortest round-trip; ints as ints), vectors
// as `(x, y, z, w)`, structs as `{.a = 1, .b = 2}`; an elided run says how
// many it hides ("... 94 more ..."). Ends in a newline.
std::string display_stream(const Type* elem, std::span<const int64_t> extents,
                           std::span<const std::byte> bytes, interp::Memory& memory,
                           const StreamDisplay& how = {});

}  // namespace brook
