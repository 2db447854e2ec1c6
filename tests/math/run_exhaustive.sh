#!/usr/bin/env bash
# run_exhaustive.sh [BUILD_DIR] [FUNCS]: the proof of stdlib/MATH.md. Builds
# check_math and runs every float function of stdlib/brook_math.h (or FUNCS,
# e.g. "exp,log") over all 2^32 inputs on every core, then glibc's pow and
# atan2 on hard cases and random pairs for comparison. Exit 1 when any brook
# result is not correctly rounded.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
funcs=${2:-exp,exp2,log,log2,log10,sinh,cosh,tanh,atan,asin,acos}
cmake --build "$build" --target check_math >/dev/null
status=0
time "$build/tests/math/check_math" --lib brook --func "$funcs" --threads "$(nproc)" --list 20 || status=1
"$build/tests/math/check_math" --binary pow --lib glibc --pairs 20000000 --threads "$(nproc)" --list 5 || true
"$build/tests/math/check_math" --binary atan2 --lib glibc --pairs 20000000 --threads "$(nproc)" --list 5 || true
exit $status
