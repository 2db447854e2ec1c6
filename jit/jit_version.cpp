// The LLVM version line of `brook --version`; LLVM's headers stay in jit/.
#include <llvm/Config/llvm-config.h>

#include "jit/jit_backend.hpp"

namespace brook {

std::string jit_llvm_version() {
  return LLVM_VERSION_STRING;
}

}  // namespace brook
