#!/usr/bin/env bash
# Builds and runs the JIT benchmark (bench/jit_bench.cpp): each workload in
# bench/workloads on the JIT backend against its C++ baseline in
# bench/baselines, 2 threads unless BROOK_THREADS says otherwise.
#   bench/run_bench.sh [BUILD_DIR] [reps]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-bench}
reps=${2:-5}
cmake -S "$here/.." -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBROOK_WITH_OPENCL=OFF >/dev/null
cmake --build "$build" -j2 --target brook_jit_bench >/dev/null
BROOK_THREADS=${BROOK_THREADS:-2} "$build/jit/brook_jit_bench" "$here" "$reps"
