// 8-bit images on disk: PNG (libpng) and binary PGM/PPM, chosen by the file's
// extension. What streamReadImage/streamWriteImage (LANGUAGE.md §4) convert
// streams to and from.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace brook {

struct Image {
  int64_t width = 0, height = 0;
  int channels = 1;             // 1 grey, 3 RGB, 4 RGBA
  std::vector<uint8_t> pixels;  // row-major, top row first, `channels` bytes each
};

// A file that cannot be read or written, or is not an image of a known kind;
// the message names the file.
struct ImageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class ImageFormat { png, pgm, ppm };
// From the extension (.png, .pgm, .ppm; any case); throws ImageError otherwise.
ImageFormat image_format(const std::string& path);

Image read_image_file(const std::string& path);
// PGM takes 1 channel, PPM 3 (a 4-channel image drops alpha, a grey one is
// replicated), PNG 1, 3 or 4.
void write_image_file(const std::string& path, const Image& image);

}  // namespace brook
