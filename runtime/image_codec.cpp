// PNG through libpng's simplified API (png_image), which converts any PNG
// (palette, 16-bit, grey+alpha) to the 8-bit layout asked for; PGM/PPM (P5/P6,
// maxval 255) by hand.
#include "runtime/image_codec.hpp"

#include <png.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>

namespace brook {

namespace {

std::string lower_extension(const std::string& path) {
  size_t dot = path.find_last_of('.');
  size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

Image read_png(const std::string& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw ImageError("cannot read '" + path + "' as a PNG: " + png.message);
  Image img;
  img.width = png.width;
  img.height = png.height;
  bool colour = png.format & PNG_FORMAT_FLAG_COLOR;
  bool alpha = png.format & PNG_FORMAT_FLAG_ALPHA;
  img.channels = colour ? (alpha ? 4 : 3) : 1;
  png.format = colour ? (alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB) : PNG_FORMAT_GRAY;
  if (!colour && alpha) {  // grey+alpha: keep the alpha as RGBA
    png.format = PNG_FORMAT_RGBA;
    img.channels = 4;
  }
  img.pixels.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, img.pixels.data(), 0, nullptr)) {
    std::string why = png.message;
    png_image_free(&png);
    throw ImageError("cannot read '" + path + "' as a PNG: " + why);
  }
  return img;
}

void write_png(const std::string& path, const Image& img) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(img.width);
  png.height = static_cast<png_uint_32>(img.height);
  png.format = img.channels == 4   ? PNG_FORMAT_RGBA
               : img.channels == 3 ? PNG_FORMAT_RGB
                                   : PNG_FORMAT_GRAY;
  if (!png_image_write_to_file(&png, path.c_str(), 0, img.pixels.data(), 0, nullptr))
    throw ImageError("cannot write '" + path + "': " + png.message);
}

// The next header field of a PNM file: digits after whitespace and comments.
bool pnm_field(std::istream& in, int64_t& value) {
  int c = in.get();
  while (c != EOF) {
    if (c == '#') {
      while (c != EOF && c != '\n') c = in.get();
    } else if (!std::isspace(c)) {
      break;
    }
    c = in.get();
  }
  if (c == EOF || !std::isdigit(c)) return false;
  value = 0;
  while (c != EOF && std::isdigit(c)) {
    if (value > (int64_t{1} << 40)) return false;
    value = value * 10 + (c - '0');
    c = in.get();
  }
  return true;  // `c`, one whitespace byte, ends the field
}

Image read_pnm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageError("cannot open '" + path + "'");
  char magic[2] = {};
  in.read(magic, 2);
  if (!in || magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6'))
    throw ImageError("'" + path + "' is not a binary PGM or PPM file (P5 or P6)");
  Image img;
  img.channels = magic[1] == '5' ? 1 : 3;
  int64_t maxval = 0;
  if (!pnm_field(in, img.width) || !pnm_field(in, img.height) || !pnm_field(in, maxval) ||
      img.width < 1 || img.height < 1)
    throw ImageError("'" + path + "' has a malformed header");
  if (maxval != 255)
    throw ImageError("'" + path + "' has maxval " + std::to_string(maxval) + "; only 255 is read");
  img.pixels.resize(static_cast<size_t>(img.width * img.height * img.channels));
  in.read(reinterpret_cast<char*>(img.pixels.data()),
          static_cast<std::streamsize>(img.pixels.size()));
  if (static_cast<size_t>(in.gcount()) != img.pixels.size())
    throw ImageError("'" + path + "' is truncated");
  return img;
}

void write_pnm(const std::string& path, const Image& img, bool colour) {
  const int64_t n = img.width * img.height;
  std::vector<uint8_t> out(static_cast<size_t>(n * (colour ? 3 : 1)));
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* p = &img.pixels[static_cast<size_t>(i * img.channels)];
    if (colour) {
      for (int c = 0; c < 3; ++c)
        out[static_cast<size_t>(3 * i + c)] = img.channels == 1 ? p[0] : p[c];
    } else {
      out[static_cast<size_t>(i)] = p[0];
    }
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw ImageError("cannot write '" + path + "'");
  f << (colour ? "P6\n" : "P5\n") << img.width << ' ' << img.height << "\n255\n";
  f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  if (!f) throw ImageError("cannot write '" + path + "'");
}

}  // namespace

ImageFormat image_format(const std::string& path) {
  std::string ext = lower_extension(path);
  if (ext == "png") return ImageFormat::png;
  if (ext == "pgm") return ImageFormat::pgm;
  if (ext == "ppm") return ImageFormat::ppm;
  throw ImageError("'" + path + "': an image file name ends in .png, .pgm or .ppm");
}

Image read_image_file(const std::string& path) {
  return image_format(path) == ImageFormat::png ? read_png(path) : read_pnm(path);
}

void write_image_file(const std::string& path, const Image& image) {
  switch (image_format(path)) {
    case ImageFormat::png:
      return write_png(path, image);
    case ImageFormat::pgm:
      if (image.channels != 1)
        throw ImageError("'" + path +
                         "': a PGM file is grey; write a colour stream as .ppm or .png");
      return write_pnm(path, image, false);
    case ImageFormat::ppm:
      return write_pnm(path, image, true);
  }
}

}  // namespace brook
