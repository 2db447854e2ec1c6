// did_you_mean (lang/suggest.hpp): the nearest known name, or nothing.
#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "lang/suggest.hpp"

using namespace brook;

TEST_CASE("suggest: a swap, a dropped letter and a wrong letter are one edit") {
  std::vector<std::string_view> names{"float", "count", "sqrt", "streamRead"};
  CHECK(did_you_mean("flaot", names) == "; did you mean 'float'?");
  CHECK(did_you_mean("cout", names) == "; did you mean 'count'?");
  CHECK(did_you_mean("sqr", names) == "; did you mean 'sqrt'?");
  CHECK(did_you_mean("streamRaed", names) == "; did you mean 'streamRead'?");
}

TEST_CASE("suggest: nothing when no name is near, or the name itself") {
  std::vector<std::string_view> names{"float", "count"};
  CHECK(did_you_mean("zebra", names).empty());
  CHECK(did_you_mean("x", names).empty());
  CHECK(did_you_mean("float", std::vector<std::string_view>{"float"}).empty());
  // Two edits in a three-letter name is too far (limit: a third of the length).
  CHECK(did_you_mean("fot", std::vector<std::string_view>{"float"}).empty());
}

TEST_CASE("suggest: hidden and internal names are never offered") {
  std::vector<std::string_view> names{"<repl:1>", "__brook_api_1"};
  CHECK(did_you_mean("__brook_api_2", names).empty());
}

TEST_CASE("suggest: the built-in type spellings include the vectors") {
  CHECK(did_you_mean("flaot4", builtin_type_spellings()) == "; did you mean 'float4'?");
  CHECK(did_you_mean("unsinged", builtin_type_spellings()) == "; did you mean 'unsigned'?");
}
