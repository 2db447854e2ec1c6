#include "runtime/stream_files.hpp"

#include <cmath>
#include <cstring>
#include <fstream>

#include "runtime/image_codec.hpp"
#include "runtime/npy_format.hpp"

namespace brook {

namespace {

uint64_t element_count(const std::vector<int64_t>& extents) {
  uint64_t n = 1;
  for (int64_t e : extents) n *= static_cast<uint64_t>(e);
  return n;
}

std::string shape_text(const Type* elem, const std::vector<int64_t>& extents) {
  std::string s = elem->name() + "<";
  for (size_t i = 0; i < extents.size(); ++i) s += (i ? ", " : "") + std::to_string(extents[i]);
  return s + ">";
}

// Images: 2-D streams of uchar or float (grey) and uchar4 or float4 (RGBA).
struct PixelType {
  bool is_float = false;
  int channels = 1;
};

PixelType pixel_type(const std::string& path, const Type* elem,
                     const std::vector<int64_t>& extents) {
  const Type* s = elem->scalar_of();
  bool ok = (s->kind == TypeKind::UChar || s->kind == TypeKind::Float) &&
            (elem->is_scalar() || (elem->is_vector() && elem->count == 4));
  if (!ok) {
    throw StreamFileError(
        "'" + path +
        "': images are read into and written from streams of uchar, uchar4, float or "
        "float4, not " +
        elem->name());
  }
  if (extents.size() != 2) {
    throw StreamFileError("'" + path + "': an image needs a 2-D stream, not " +
                          shape_text(elem, extents));
  }
  return {s->kind == TypeKind::Float, static_cast<int>(elem->width())};
}

std::vector<std::byte> read_image(const std::string& path, const Type* elem,
                                  const std::vector<int64_t>& extents) {
  PixelType pt = pixel_type(path, elem, extents);
  Image img = read_image_file(path);
  if (img.height != extents[0] || img.width != extents[1]) {
    throw StreamFileError("'" + path + "' is " + std::to_string(img.width) + "x" +
                          std::to_string(img.height) + " pixels, but the stream " +
                          shape_text(elem, extents) + " holds " + std::to_string(extents[1]) + "x" +
                          std::to_string(extents[0]));
  }
  if (pt.channels == 1 && img.channels != 1) {
    throw StreamFileError("'" + path +
                          "' is a colour image; read it into a uchar4 or float4 stream");
  }
  const uint64_t n = element_count(extents);
  std::vector<std::byte> out(n * elem->size);
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t* p = &img.pixels[i * static_cast<uint64_t>(img.channels)];
    uint8_t c[4] = {p[0], p[0], p[0], 255};
    if (img.channels >= 3) c[1] = p[1], c[2] = p[2];
    if (img.channels == 4) c[3] = p[3];
    for (int k = 0; k < pt.channels; ++k) {
      if (pt.is_float) {
        float v = static_cast<float>(c[k]) / 255.0f;
        std::memcpy(&out[(i * pt.channels + k) * 4], &v, 4);
      } else {
        out[i * pt.channels + k] = std::byte{c[k]};
      }
    }
  }
  return out;
}

void write_image(const std::string& path, const Type* elem, const std::vector<int64_t>& extents,
                 std::span<const std::byte> bytes) {
  PixelType pt = pixel_type(path, elem, extents);
  image_format(path);  // an unknown extension fails before anything is made
  Image img;
  img.height = extents[0];
  img.width = extents[1];
  img.channels = pt.channels;
  const uint64_t n = element_count(extents) * static_cast<uint64_t>(pt.channels);
  img.pixels.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    if (pt.is_float) {
      float v;
      std::memcpy(&v, &bytes[i * 4], 4);
      // [0, 1] to 0..255, rounded and clamped; NaN is 0.
      float scaled = std::isnan(v) ? 0.0f : std::fmin(std::fmax(v * 255.0f, 0.0f), 255.0f);
      img.pixels[i] = static_cast<uint8_t>(std::lround(scaled));
    } else {
      img.pixels[i] = static_cast<uint8_t>(bytes[i]);
    }
  }
  write_image_file(path, img);
}

std::vector<std::byte> read_raw(const std::string& path, uint64_t need, const std::string& what) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw StreamFileError("cannot open '" + path + "'");
  uint64_t size = static_cast<uint64_t>(in.tellg());
  if (size != need) {
    throw StreamFileError("'" + path + "' holds " + std::to_string(size) +
                          " bytes, but the stream " + what + " holds " + std::to_string(need));
  }
  std::vector<std::byte> data(need);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(need));
  if (!in) throw StreamFileError("cannot read '" + path + "'");
  return data;
}

void write_raw(const std::string& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw StreamFileError("cannot write '" + path + "'");
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw StreamFileError("cannot write '" + path + "'");
}

// numpy's dtype of a scalar kind (little-endian, as on x86-64).
std::string npy_descr(const std::string& path, const Type* elem) {
  switch (elem->scalar_of()->kind) {
    case TypeKind::Bool:
      return "|b1";
    case TypeKind::Char:
      return "|i1";
    case TypeKind::UChar:
      return "|u1";
    case TypeKind::Short:
      return "<i2";
    case TypeKind::UShort:
      return "<u2";
    case TypeKind::Int:
      return "<i4";
    case TypeKind::UInt:
      return "<u4";
    case TypeKind::Long:
      return "<i8";
    case TypeKind::ULong:
      return "<u8";
    case TypeKind::Float:
      return "<f4";
    case TypeKind::Double:
      return "<f8";
    default:
      break;
  }
  throw StreamFileError("'" + path + "': streams of " + elem->name() + " have no .npy dtype");
}

// A stream's .npy shape: its extents, and a last axis for vector elements.
std::vector<int64_t> npy_shape(const Type* elem, const std::vector<int64_t>& extents) {
  std::vector<int64_t> shape = extents;
  if (elem->is_vector()) shape.push_back(elem->count);
  return shape;
}

std::vector<std::byte> read_npy(const std::string& path, const Type* elem,
                                const std::vector<int64_t>& extents) {
  std::string descr = npy_descr(path, elem);
  NpyHeader h = read_npy_header(path);
  std::string have = h.descr;
  if (have.size() == 3 && have[0] == '=') have[0] = '<';  // native is little-endian here
  if (have.size() == 3 && (have[1] == 'u' || have[1] == 'i' || have[1] == 'b') && have[2] == '1')
    have[0] = '|';
  if (have != descr) {
    throw StreamFileError("'" + path + "' holds dtype '" + h.descr + "', but the stream " +
                          shape_text(elem, extents) + " needs '" + descr + "'");
  }
  if (h.fortran_order)
    throw StreamFileError("'" + path + "' is in Fortran order; save it in C order");
  std::vector<int64_t> want = npy_shape(elem, extents);
  if (h.shape != want) {
    throw StreamFileError("'" + path + "' has shape " + npy_shape_text(h.shape) +
                          ", but the stream " + shape_text(elem, extents) + " needs " +
                          npy_shape_text(want));
  }
  return read_npy_data(path, h, element_count(extents) * elem->size);
}

}  // namespace

std::vector<std::byte> read_stream_file(StreamFileKind kind, const std::string& path,
                                        const Type* elem, const std::vector<int64_t>& extents) {
  try {
    switch (kind) {
      case StreamFileKind::image:
        return read_image(path, elem, extents);
      case StreamFileKind::raw:
        return read_raw(path, element_count(extents) * elem->size, shape_text(elem, extents));
      case StreamFileKind::npy:
        return read_npy(path, elem, extents);
    }
  } catch (const ImageError& e) {
    throw StreamFileError(e.what());
  } catch (const NpyError& e) {
    throw StreamFileError(e.what());
  }
  return {};
}

void write_stream_file(StreamFileKind kind, const std::string& path, const Type* elem,
                       const std::vector<int64_t>& extents, std::span<const std::byte> bytes) {
  try {
    switch (kind) {
      case StreamFileKind::image:
        return write_image(path, elem, extents, bytes);
      case StreamFileKind::raw:
        return write_raw(path, bytes);
      case StreamFileKind::npy:
        return write_npy(path, npy_descr(path, elem), npy_shape(elem, extents), bytes.data(),
                         bytes.size());
    }
  } catch (const ImageError& e) {
    throw StreamFileError(e.what());
  } catch (const NpyError& e) {
    throw StreamFileError(e.what());
  }
}

}  // namespace brook
