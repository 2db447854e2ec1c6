// printf inside kernels: kernels append records to a device buffer (see
// ClPrinter::printf_call); after the launch the host formats them with the
// same C-exact formatter host printf uses, in row-major element order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>
#include <span>
#include <string>

#include "backends/opencl/cl_module.hpp"

namespace brook::opencl {

// The text of the records in `words` (word 0 is the fill count). Throws
// Unsupported (at the printf's location) for a format that does not match
// its arguments.
std::string format_printf_records(const ClModule& module, std::span<const uint32_t> words);

// The push records (§12) for the vout parameters `params`, each in row-major
// invocation order and push order. When an invocation pushed more than its
// bound (`bounds`, 0 = any) to a vout, returns nothing and sets `error` to
// the index of that vout in `params`.
std::vector<std::vector<std::byte>> vout_records(const ClModule& module, std::span<const uint32_t> words,
                                                 std::span<const int> params, std::span<const int> bounds,
                                                 std::string& error);

}  // namespace brook::opencl
