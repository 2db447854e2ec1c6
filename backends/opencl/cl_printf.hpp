// printf inside kernels: kernels append records to a device buffer (see
// ClPrinter::printf_call); after the launch the host formats them with the
// same C-exact formatter host printf uses, in row-major element order.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "backends/opencl/cl_module.hpp"

namespace brook::opencl {

// The text of the records in `words` (word 0 is the fill count). Throws
// Unsupported (at the printf's location) for a format that does not match
// its arguments.
std::string format_printf_records(const ClModule& module, std::span<const uint32_t> words);

}  // namespace brook::opencl
