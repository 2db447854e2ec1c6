// Entry kernels for the three kinds of plan. One OpenCL program per distinct
// (kernel, roles, element types, ranks, index-map kinds): extents, offsets,
// strides and resampling ratios are kernel arguments, so a new shape reuses
// the compiled program (a shape launched again and again also gets a variant
// with them as constants, map_source_for_shape). The argument order each
// generator documents is the one opencl_backend.cpp sets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/opencl/cl_args.hpp"
#include "backends/opencl/cl_module.hpp"
#include "backends/opencl/cl_variant.hpp"
#include "backends/plan.hpp"

namespace brook::opencl {

// Every entry kernel that runs Brook code takes, after pbuf, `volatile
// __global int* stop`: the host sets *stop to end kernels on an interrupt
// (loops that may not end poll it, cl_printer.cpp).
//
// Map kernel `brook_map`. Arguments:
//   __global uint* pbuf, volatile __global int* stop, long d0, d1, d2, d3 (domain extents, slowest first, 1-padded);
//   per plan arg, in parameter order:
//     Input/Iter: __global const uchar* buf, long base, long4 stride, long4 num, long4 den
//     Output:     __global uchar* buf, long base, long4 stride
//     Gather:     __global const uchar* buf, long base, long4 ext, long4 stride
//     Constant:   a scalar by value (bool as uchar); anything else as a
//                 __global const uchar* holding its C-layout bytes
std::string map_key(const MapPlan& plan, KernelFacts& facts);
std::string map_source(const MapPlan& plan, ClModule& m, KernelFacts& facts);

// A launch's shape: the values of map_args' shape arguments (extents,
// strides, resampling ratios; not view origins), as text for a variant key.
std::string map_shape(const ClArgs& args);
// brook_map compiled for one shape: the same kernel, its parameter list
// unchanged, with those arguments shadowed by constants, so the driver's
// compiler sees `input[(g * 66 + y) * 66 + x]` as a hand-written kernel has
// it and can fold, unroll and vectorise by it (winograd's tiles run 1.5x as
// fast on PoCL). opencl_backend.cpp decides when a shape has repeated
// enough to be worth the compile.
std::string map_source_for_shape(const MapPlan& plan, const ClArgs& args, ClModule& m,
                                 KernelFacts& facts);

// Reduction kernels over contiguous partials of the element type T:
//   brook_reduce_first(pbuf, stop, __global const uchar* src, long base, long4 ext, long4 stride,
//                      long4 oext, long4 block, long G, long nchunks, long B,
//                      __global uchar* dst, <extras as in map>)
//     item (j, o): folds block elements [j*G, min((j+1)*G, B)) of output o into dst[o*nchunks+j]
//   brook_reduce_next(pbuf, stop, __global const uchar* src, long n, long G, long nchunks,
//                     __global uchar* dst, <extras>)
//     item (j, o): folds src[o*n + [j*G, min((j+1)*G, n))] into dst[o*nchunks+j]
//   brook_reduce_store(__global const uchar* src, __global uchar* out, long base, long4 ext, long4 stride)
//     item o: out view element o (row-major) = src[o]
// Views are described by 4-component ext/stride vectors, right-aligned
// (s3 is the last dimension), leading entries ext 1, stride 0.
std::string reduce_key(const ReducePlan& plan);
std::string reduce_source(const ReducePlan& plan, ClModule& m);

// streamGatherOp / streamScatterOp, one work-item in row-major order:
//   brook_gs(pbuf, stop, vals, long vbase, long4 vext, long4 vstr,
//            idx, long ibase, long4 iext, long4 istr,
//            arr, long abase, long4 aext, long4 astr, long n, __global long* err)
// aext/astr are the array's canonical dimensions, right-aligned. err[0] is
// set to the first element whose index lies outside the array (nothing is
// written then), else left at -1.
std::string gs_key(const GatherScatterPlan& plan);
std::string gs_source(const GatherScatterPlan& plan, ClModule& m);


}  // namespace brook::opencl
