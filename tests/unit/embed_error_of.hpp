// The embedding tests' one helper: what a call throws as brook::Error.
#pragma once

#include <brook/brook.hpp>

#include <functional>
#include <string>

namespace embed_test {

// The diagnostic text `f` throws, or "<no error>".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const brook::Error& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace embed_test
