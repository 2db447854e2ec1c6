// numpy's .npy format (versions 1.0 to 3.0 read, 1.0 written): a magic
// string, a Python-literal header dict giving dtype, order and shape, then
// the array's bytes in C order. What streamReadNpy/streamWriteNpy use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace brook {

struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NpyHeader {
  std::string descr;  // e.g. "<f4", "|u1"
  bool fortran_order = false;
  std::vector<int64_t> shape;  // () for a scalar
  uint64_t data_offset = 0;    // where the array's bytes start in the file
};

// Reads the header of `path`; throws NpyError naming the file.
NpyHeader read_npy_header(const std::string& path);
// The whole array's bytes after the header, checked to be exactly `bytes` long.
std::vector<std::byte> read_npy_data(const std::string& path, const NpyHeader& h, uint64_t bytes);
void write_npy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape,
               const std::byte* data, uint64_t bytes);
// "(4, 6)" or "(3,)" as numpy prints a shape.
std::string npy_shape_text(const std::vector<int64_t>& shape);

}  // namespace brook
