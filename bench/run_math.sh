#!/usr/bin/env bash
# run_math.sh [BUILD_DIR [FUNC...]]: throughput per core of brook's float functions
# (scalar and gang forms) against glibc's scalar and libmvec AVX2 versions
# (bench/math/throughput.cpp). Needs the build's libbrook_stdlib.a, an x86-64
# CPU with AVX2, and glibc's libmvec.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
lib=$build/stdlib/libbrook_stdlib.a
[ -f "$lib" ] || { echo "no $lib (build brook first)"; exit 2; }
bin=$build/bench_math_throughput
${CXX:-g++} -std=c++20 -O2 -mavx2 -I"$here/.." "$here/math/throughput.cpp" "$lib" -o "$bin" -lmvec -lm
echo "load: $(uptime)"
shift $(( $# > 0 ? 1 : 0 ))
"$bin" "$@"
