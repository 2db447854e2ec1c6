// Runs a function on a thread with a large stack, so that 10000 nested
// interpreted calls (each several C++ frames deep) cannot overflow it.
#pragma once

#include <cstddef>
#include <functional>

namespace brook {

inline constexpr std::size_t kInterpreterStackBytes = std::size_t{1} << 30;

// Runs f to completion on a fresh thread with `stack_bytes` of stack (address
// space reserved, committed as used); runs it inline if no thread can be made.
void run_with_big_stack(const std::function<void()>& f,
                        std::size_t stack_bytes = kInterpreterStackBytes);

}  // namespace brook
