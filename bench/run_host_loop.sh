#!/usr/bin/env bash
# run_host_loop.sh [BUILD_DIR]: times bench/host_loop.br under `brook run` and
# the same loop compiled by g++ -O2 (target host_loop_baseline), checks that
# both print the same checksum, and prints the ratio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
brook=$build/cli/brook
baseline=$build/bench/host_loop_baseline
if [ ! -x "$baseline" ]; then
  # Not built by CMake (bench/ not added to the build): compile it directly.
  baseline=$(mktemp -d)/host_loop_baseline
  g++ -O2 -std=c++20 -o "$baseline" "$here/host_loop_baseline.cpp"
fi
now() { date +%s.%N; }
t0=$(now); out_brook=$("$brook" run "$here/host_loop.br"); t1=$(now)
out_c=$("$baseline"); t2=$(now)
if [ "$out_brook" != "$out_c" ]; then
  echo "checksums differ: brook '$out_brook' vs C++ '$out_c'" >&2
  exit 1
fi
awk -v b="$(echo "$t1 - $t0" | bc)" -v c="$(echo "$t2 - $t1" | bc)" 'BEGIN {
  printf "host_loop: brook %.3f s, g++ -O2 %.3f s, ratio %.1fx\n", b, c, b / c }'
