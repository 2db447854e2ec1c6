// The environment variables brook's backends honour, read in one place. The
// backend registry reads them when it makes a backend, into that backend's
// options; code under a backend never calls getenv, so one process can hold
// engines with different settings (tests, embedders).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace brook::environment {

// The variable's value when it is set and not empty.
std::optional<std::string> text(const char* name);

// "1" is true and "0" false; unset or anything else is `fallback`. (The CLI
// rejects other values of the variables it documents before this is asked.)
bool flag(const char* name, bool fallback);

// A non-negative decimal number; nullopt when unset, empty or not a number.
std::optional<long> number(const char* name);

// Where compiled code persists between runs: $XDG_CACHE_HOME/brook/SUB, else
// ~/.cache/brook/SUB (SUB empty: .../brook); empty when neither variable is
// set or $BROOK_CACHE is 0.
std::string cache_dir(std::string_view sub);

}  // namespace brook::environment
