// Streams to and from files (LANGUAGE.md §4): images (PNG, PGM, PPM), raw
// row-major elements, and numpy's .npy. Each checks the file against the
// stream's element type and declared extents before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/types.hpp"

namespace brook {

enum class StreamFileKind { image, raw, npy };

// A mismatch or an I/O failure; the message names the file.
struct StreamFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bytes for a stream of `elem` with `extents` (declared rank, slowest
// first) read from `path`.
std::vector<std::byte> read_stream_file(StreamFileKind kind, const std::string& path,
                                        const Type* elem, const std::vector<int64_t>& extents);
void write_stream_file(StreamFileKind kind, const std::string& path, const Type* elem,
                       const std::vector<int64_t>& extents, std::span<const std::byte> bytes);

}  // namespace brook
