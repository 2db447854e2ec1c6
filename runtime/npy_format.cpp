#include "runtime/npy_format.hpp"

#include <cctype>
#include <fstream>

namespace brook {

namespace {

constexpr char kMagic[] = "\x93NUMPY";

// The value after `'key':` in the header dict, up to the next top-level ','
// or '}' (a tuple's commas are inside its parentheses).
std::string dict_value(const std::string& dict, const std::string& key, const std::string& path) {
  size_t k = dict.find("'" + key + "'");
  if (k == std::string::npos) k = dict.find("\"" + key + "\"");
  if (k == std::string::npos)
    throw NpyError("'" + path + "': the .npy header has no '" + key + "'");
  size_t colon = dict.find(':', k);
  if (colon == std::string::npos) throw NpyError("'" + path + "': malformed .npy header");
  size_t i = colon + 1, depth = 0, start = i;
  for (; i < dict.size(); ++i) {
    char c = dict[i];
    if (c == '(') ++depth;
    if (c == ')' && depth) --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
  }
  std::string v = dict.substr(start, i - start);
  size_t a = v.find_first_not_of(" \t"), b = v.find_last_not_of(" \t");
  return a == std::string::npos ? "" : v.substr(a, b - a + 1);
}

}  // namespace

std::string npy_shape_text(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

NpyHeader read_npy_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError("cannot open '" + path + "'");
  char magic[8] = {};
  in.read(magic, 8);
  if (!in || std::string(magic, 6) != std::string(kMagic, 6))
    throw NpyError("'" + path + "' is not a .npy file (no \\x93NUMPY magic)");
  int major = static_cast<unsigned char>(magic[6]);
  uint64_t len = 0, prefix = 0;
  if (major == 1) {
    unsigned char b[2];
    in.read(reinterpret_cast<char*>(b), 2);
    len = b[0] | (b[1] << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    in.read(reinterpret_cast<char*>(b), 4);
    len = b[0] | (b[1] << 8) | (uint64_t(b[2]) << 16) | (uint64_t(b[3]) << 24);
    prefix = 12;
  } else {
    throw NpyError("'" + path + "' is .npy version " + std::to_string(major) +
                   "; versions 1 to 3 are read");
  }
  if (!in || len > (1u << 20)) throw NpyError("'" + path + "' has a malformed .npy header");
  std::string dict(len, '\0');
  in.read(dict.data(), static_cast<std::streamsize>(len));
  if (!in) throw NpyError("'" + path + "' is truncated in its .npy header");
  NpyHeader h;
  h.data_offset = prefix + len;
  std::string descr = dict_value(dict, "descr", path);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"') ||
      descr.back() != descr.front())
    throw NpyError("'" + path + "': its dtype " + descr +
                   " is not a plain type (structured dtypes are not read)");
  h.descr = descr.substr(1, descr.size() - 2);
  std::string order = dict_value(dict, "fortran_order", path);
  if (order != "False" && order != "True")
    throw NpyError("'" + path + "': malformed fortran_order " + order);
  h.fortran_order = order == "True";
  std::string shape = dict_value(dict, "shape", path);
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    throw NpyError("'" + path + "': malformed shape " + shape);
  for (size_t i = 1; i + 1 < shape.size();) {
    while (i + 1 < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i + 1 >= shape.size()) break;
    int64_t v = 0;
    size_t digits = 0;
    while (i + 1 < shape.size() && std::isdigit(static_cast<unsigned char>(shape[i]))) {
      if (v > (int64_t{1} << 50))
        throw NpyError("'" + path + "': shape " + shape + " is too large");
      v = v * 10 + (shape[i++] - '0');
      ++digits;
    }
    if (!digits) throw NpyError("'" + path + "': malformed shape " + shape);
    h.shape.push_back(v);
  }
  return h;
}

std::vector<std::byte> read_npy_data(const std::string& path, const NpyHeader& h, uint64_t bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw NpyError("cannot open '" + path + "'");
  uint64_t size = static_cast<uint64_t>(in.tellg());
  if (size != h.data_offset + bytes) {
    throw NpyError("'" + path + "' holds " + std::to_string(size - h.data_offset) +
                   " bytes of data, but shape " + npy_shape_text(h.shape) + " of " + h.descr +
                   " needs " + std::to_string(bytes));
  }
  std::vector<std::byte> data(bytes);
  in.seekg(static_cast<std::streamoff>(h.data_offset));
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(bytes));
  if (!in) throw NpyError("cannot read '" + path + "'");
  return data;
}

void write_npy(const std::string& path, const std::string& descr, const std::vector<int64_t>& shape,
               const std::byte* data, uint64_t bytes) {
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, 'shape': " + npy_shape_text(shape) + ", }";
  // Version 1.0: magic, version, a 2-byte length; the header ends in '\n'
  // and pads the data's start to a multiple of 64 bytes.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw NpyError("cannot write '" + path + "'");
  out.write(kMagic, 6);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const char len[2] = {static_cast<char>(dict.size() & 0xff), static_cast<char>(dict.size() >> 8)};
  out.write(len, 2);
  out << dict;
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!out) throw NpyError("cannot write '" + path + "'");
}

}  // namespace brook
