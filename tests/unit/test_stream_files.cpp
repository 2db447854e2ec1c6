// runtime/stream_files: streams to and from images, raw files and .npy —
// round trips, every mismatch an error naming the file, and nothing written
// when the stream cannot go to the file asked for.
#include <doctest/doctest.h>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runtime/image_codec.hpp"
#include "runtime/npy_format.hpp"
#include "runtime/stream_files.hpp"

using namespace brook;

namespace {

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("brook_stream_files_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const StreamFileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("images round-trip and convert between grey and RGBA") {
  TypeContext types;
  TempDir dir;
  const Type* u4 = types.vector(types.scalar(TypeKind::UChar), 4);
  std::vector<std::byte> px(2 * 3 * 4);
  for (size_t i = 0; i < px.size(); ++i) px[i] = std::byte(i * 9);
  for (const char* ext : {"a.png", "a.ppm"}) {
    write_stream_file(StreamFileKind::image, dir.file(ext), u4, {2, 3}, px);
    std::vector<std::byte> back =
        read_stream_file(StreamFileKind::image, dir.file(ext), u4, {2, 3});
    for (size_t i = 0; i < px.size(); ++i) {
      bool alpha = i % 4 == 3;
      std::byte want = alpha && std::string(ext) == "a.ppm" ? std::byte{255} : px[i];
      CHECK(back[i] == want);
    }
  }
  const Type* f = types.float_type();
  float grey[2] = {0.5f, 2.0f};
  std::vector<std::byte> gb(sizeof grey);
  std::memcpy(gb.data(), grey, sizeof grey);
  write_stream_file(StreamFileKind::image, dir.file("g.pgm"), f, {1, 2}, gb);
  Image img = read_image_file(dir.file("g.pgm"));
  CHECK(img.channels == 1);
  CHECK(img.pixels == std::vector<uint8_t>{128, 255});  // 127.5 rounds up; 2.0 clamps
  std::vector<std::byte> rgba =
      read_stream_file(StreamFileKind::image, dir.file("g.pgm"), u4, {1, 2});
  CHECK(rgba[0] == std::byte{128});
  CHECK(rgba[2] == std::byte{128});
  CHECK(rgba[3] == std::byte{255});
}

TEST_CASE("a stream file that does not fit is an error, and nothing is written") {
  TypeContext types;
  TempDir dir;
  const Type* u4 = types.vector(types.scalar(TypeKind::UChar), 4);
  const Type* f4 = types.vector(types.float_type(), 4);
  const Type* i = types.int_type();
  std::vector<std::byte> px(2 * 3 * 4);
  write_stream_file(StreamFileKind::image, dir.file("a.png"), u4, {2, 3}, px);

  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::image, dir.file("a.png"), u4, {3, 2});
        }).find("is 3x2 pixels, but the stream uchar4<3, 2> holds 2x3") != std::string::npos);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::image, dir.file("a.png"), types.scalar(TypeKind::UChar),
                           {2, 3});
        }).find("is a colour image") != std::string::npos);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::image, dir.file("a.png"), i, {2, 3});
        }).find("not int") != std::string::npos);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::image, dir.file("missing.png"), u4, {2, 3});
        }).find("missing.png") != std::string::npos);

  // Writes that cannot be made leave no file behind.
  std::vector<std::byte> colour(2 * 2 * 16);
  CHECK(error_of([&] {
          write_stream_file(StreamFileKind::image, dir.file("c.pgm"), f4, {2, 2}, colour);
        }).find("a PGM file is grey") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.file("c.pgm")));
  CHECK(error_of([&] {
          write_stream_file(StreamFileKind::image, dir.file("c.jpg"), f4, {2, 2}, colour);
        }).find("ends in .png, .pgm or .ppm") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.file("c.jpg")));
  CHECK(error_of([&] {
          write_stream_file(StreamFileKind::image, dir.file("c.png"), f4, {2, 2, 1}, colour);
        }).find("needs a 2-D stream") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.file("c.png")));

  // Raw: the size must match exactly.
  std::vector<std::byte> six(6 * 4);
  write_stream_file(StreamFileKind::raw, dir.file("r.raw"), i, {2, 3}, six);
  CHECK(read_stream_file(StreamFileKind::raw, dir.file("r.raw"), i, {3, 2}).size() == 24);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::raw, dir.file("r.raw"), i, {7});
        }).find("holds 24 bytes, but the stream int<7> holds 28") != std::string::npos);
}

TEST_CASE(".npy files carry dtype and shape, both checked") {
  TypeContext types;
  TempDir dir;
  const Type* i = types.int_type();
  const Type* f2 = types.vector(types.float_type(), 2);
  std::vector<std::byte> data(6 * 4);
  for (size_t k = 0; k < data.size(); ++k) data[k] = std::byte(k);
  write_stream_file(StreamFileKind::npy, dir.file("a.npy"), i, {2, 3}, data);
  NpyHeader h = read_npy_header(dir.file("a.npy"));
  CHECK(h.descr == "<i4");
  CHECK(!h.fortran_order);
  CHECK(h.shape == std::vector<int64_t>{2, 3});
  CHECK(h.data_offset % 64 == 0);
  CHECK(read_stream_file(StreamFileKind::npy, dir.file("a.npy"), i, {2, 3}) == data);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::npy, dir.file("a.npy"), i, {3, 2});
        }).find("has shape (2, 3), but the stream int<3, 2> needs (3, 2)") != std::string::npos);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::npy, dir.file("a.npy"), types.float_type(), {2, 3});
        }).find("holds dtype '<i4'") != std::string::npos);
  write_stream_file(StreamFileKind::npy, dir.file("v.npy"), f2, {3}, std::vector<std::byte>(3 * 8));
  CHECK(read_npy_header(dir.file("v.npy")).shape == std::vector<int64_t>{3, 2});

  // A header as numpy 2 writes it for a 1-D array, and a Fortran-order one.
  auto write_header = [&](const std::string& name, const std::string& dict, size_t bytes) {
    std::string padded = dict;
    while ((10 + padded.size() + 1) % 64) padded += ' ';
    padded += '\n';
    std::ofstream out(dir.file(name), std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    out.put(static_cast<char>(padded.size() & 0xff));
    out.put(static_cast<char>(padded.size() >> 8));
    out << padded << std::string(bytes, '\0');
  };
  write_header("n.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", 16);
  CHECK(read_stream_file(StreamFileKind::npy, dir.file("n.npy"), i, {4}).size() == 16);
  write_header("f.npy", "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2), }", 16);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::npy, dir.file("f.npy"), i, {2, 2});
        }).find("Fortran order") != std::string::npos);
  write_header("t.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", 12);
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::npy, dir.file("t.npy"), i, {4});
        }).find("holds 12 bytes of data") != std::string::npos);
  std::ofstream(dir.file("x.npy")) << "not numpy";
  CHECK(error_of([&] {
          read_stream_file(StreamFileKind::npy, dir.file("x.npy"), i, {4});
        }).find("is not a .npy file") != std::string::npos);
}
