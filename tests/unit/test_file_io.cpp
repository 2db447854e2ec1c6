// [ext] file I/O in the host library: fopen/fputs/fprintf/fwrite/fclose and
// reading back with fgetc/fread; misuse is a runtime error, not a crash.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <string>

#include "runtime/engine.hpp"

using namespace brook;

namespace {

struct Run {
  int status = -1;
  std::string out, err;
};

Run run_program(const std::string& source, const std::string& path) {
  Engine engine;
  Run r;
  engine.set_output([&](int stream, std::string_view text) {
    (stream == 2 ? r.err : r.out).append(text);
  });
  REQUIRE(engine.compile_source("files.br", source));
  std::vector<std::string> argv{"files.br", path};
  r.status = engine.run(argv);
  return r;
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("brook-test-") + std::to_string(::getpid()) + "-" + name))
      .string();
}

}  // namespace

TEST_CASE("file io: write with fputs/fprintf/fputc/fwrite, read back with fgetc/fread") {
  std::string path = temp_path("io.txt");
  Run r = run_program(R"(
int main(int argc, char** argv) {
  void* f = fopen(argv[1], "w");
  if (f == 0) { printf("open failed\n"); return 1; }
  fputs("line one\n", f);
  fprintf(f, "%d %s\n", 42, "two");
  fputc('!', f);
  char bytes[3] = {'a', 'b', 'c'};
  fwrite(bytes, 1, 3, f);
  fclose(f);
  void* g = fopen(argv[1], "r");
  char buf[64];
  unsigned long n = fread(buf, 1, 63, g);
  buf[n] = 0;
  printf("%lu [%s]\n", n, buf);
  fclose(g);
  g = fopen(argv[1], "r");
  int c1 = fgetc(g);
  int c2 = fgetc(g);
  printf("%c%c\n", c1, c2);
  fclose(g);
  printf("%d\n", fopen("/nonexistent-dir/x", "w") == 0);
  return 0;
}
)", path);
  CHECK(r.status == 0);
  CHECK(r.out == "20 [line one\n42 two\n!abc]\nli\n1\n");
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "line one\n42 two\n!abc");
  std::filesystem::remove(path);
}

TEST_CASE("file io: closed files and stdout reads are runtime errors") {
  std::string path = temp_path("closed.txt");
  Run r = run_program(R"(
int main(int argc, char** argv) {
  void* f = fopen(argv[1], "w");
  fclose(f);
  fputs("late\n", f);
  return 0;
}
)", path);
  CHECK(r.status == 1);
  CHECK(r.err.find("runtime error: not a file opened by fopen, or already closed") !=
        std::string::npos);
  r = run_program("int main() { return fgetc(stdout); }", path);
  CHECK(r.status == 1);
  CHECK(r.err.find("runtime error: cannot read from stdout or stderr") != std::string::npos);
  std::filesystem::remove(path);
}
