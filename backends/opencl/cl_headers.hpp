// The Khronos C++ bindings, configured once for the whole backend
// (OpenCL 3.0 headers, 2.0 minimum: the pair the Debian header accepts).
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif

#pragma GCC system_header
#include <CL/opencl.hpp>
