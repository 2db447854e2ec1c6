// Feeds every shipped program (examples, conformance and error tests) through
// thousands of random byte-level mutations and truncations, running the whole
// front end (preprocess, parse, check) on each. The test passes when every
// input ends in a clean result or diagnostics: a crash, a sanitizer report or a
// hang (ctest's timeout) fails it. Deterministic: a fixed seed per run.
//
// usage: brook_fuzz_frontend ROOT [MUTATIONS] [SEED]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lang/frontend.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> collect_programs(const fs::path& root) {
  std::vector<std::string> texts;
  for (const char* dir : {"examples", "tests/errors", "tests/conformance"}) {
    fs::path base = root / dir;
    if (!fs::exists(base)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(base)) {
      if (entry.is_regular_file() && entry.path().extension() == ".br") files.push_back(entry);
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      texts.push_back(ss.str());
    }
  }
  return texts;
}

// Pieces of Brook that make mutations reach deeper than random bytes would.
const char* const kFragments[] = {
    "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", "kernel ", "reduce ", "out ", "iter ",
    "float4 ", "int ", "struct ", "typedef ", "#define X(a) a##a\n", "#if 1\n", "#endif\n",
    "#include \"x.br\"\n", "\"", "'", "/*", "*/", "//", "\\", ".xyzw", "->", "indexof ",
    "sizeof(", "streamRead(", "domain(", "0x", "1e", "...", "?", ":", "=", "++", "\n", "\0",
};

std::string mutate(std::string text, std::mt19937& rng) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  int edits = 1 + static_cast<int>(pick(4));
  for (int e = 0; e < edits; ++e) {
    size_t pos = pick(text.size() + 1);
    switch (pick(6)) {
      case 0:  // flip a byte
        if (!text.empty()) text[pick(text.size())] = static_cast<char>(pick(256));
        break;
      case 1:  // delete a range
        if (!text.empty()) text.erase(pos < text.size() ? pos : 0, 1 + pick(16));
        break;
      case 2:  // insert a fragment
        text.insert(pos, kFragments[pick(std::size(kFragments))]);
        break;
      case 3:  // duplicate a range
        if (!text.empty()) {
          size_t from = pick(text.size());
          text.insert(pos, text.substr(from, 1 + pick(40)));
        }
        break;
      case 4:  // truncate
        text.resize(pick(text.size() + 1));
        break;
      default:  // swap two bytes
        if (text.size() > 1) std::swap(text[pick(text.size())], text[pick(text.size())]);
        break;
    }
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: brook_fuzz_frontend ROOT [MUTATIONS] [SEED]\n";
    return 2;
  }
  const int mutations = argc > 2 ? std::atoi(argv[2]) : 4000;
  const unsigned seed = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 20261130u;
  std::vector<std::string> programs = collect_programs(argv[1]);
  if (programs.empty()) {
    std::cerr << "no programs found under " << argv[1] << "\n";
    return 1;
  }
  std::mt19937 rng(seed);
  auto start = std::chrono::steady_clock::now();
  size_t rejected = 0;
  for (int i = 0; i < mutations; ++i) {
    const std::string& original = programs[static_cast<size_t>(i) % programs.size()];
    std::string input = mutate(original, rng);
    brook::FrontEnd fe;
    brook::FrontEnd::Unit unit = fe.load_source("fuzz.br", input);
    (void)fe.diagnostics().format_all();
    if (unit.status != brook::FrontEnd::Status::ok) {
      ++rejected;
      if (!fe.diagnostics().has_errors()) {
        std::cerr << "mutation " << i << ": rejected without an error diagnostic\n";
        return 1;
      }
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << mutations << " mutations of " << programs.size() << " programs, " << rejected
            << " rejected with diagnostics, " << seconds << " s\n";
  return 0;
}
