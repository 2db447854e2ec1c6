#!/usr/bin/env bash
# run_whole.sh [BUILD_DIR] [RUNS]: whole-process benchmarks (bench/whole/).
# Times `brook run --backend B bench/whole/NAME.br` against the C++ program
# doing the same (bench/whole/baseline_whole.cpp, -O3 -march=native -fopenmp),
# alternating runs, median of RUNS (5), and prints ratio = C++ s / brook s
# (1.0 = as fast as C++) with both checksums. Then the launch benchmark: one
# 1,000-element kernel launched 100,000 times, minus the same program with 0
# launches, per launch.
#   BACKENDS="jit opencl" (default)   ONLY="saxpy sgm_path" (default: all nine)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
runs=${2:-5}
brook=$build/cli/brook
[ -x "$brook" ] || { echo "no brook at $brook (build it first)"; exit 2; }
baseline=$build/bench_whole_baseline
if [ ! -x "$baseline" ] || [ "$here/whole/baseline_whole.cpp" -nt "$baseline" ]; then
  ${CXX:-g++} -std=c++20 -O3 -march=native -fopenmp -ffp-contract=off -I"$here" \
    "$here/whole/baseline_whole.cpp" "$here/baselines/baselines.cpp" -o "$baseline" -lpthread || exit 2
fi
backends=${BACKENDS:-jit opencl}
workloads=${ONLY:-saxpy sum blur3x3 mandelbrot sgemm black_scholes invert_grey winograd sgm_path}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Wall seconds of one run of "$@" (stdout saved to $tmp/last).
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$tmp/last" 2>"$tmp/err" || { echo "failed: $*" >&2; cat "$tmp/err" >&2; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf "%-14s %-7s %10s %10s %8s   %s\n" workload backend "C++ s" "brook s" ratio "checksums (C++ | brook)"
for w in $workloads; do
  for b in $backends; do
    : >"$tmp/c"; : >"$tmp/k"
    for ((i = 0; i < runs; i++)); do
      seconds "$baseline" "$w" >>"$tmp/c"; cp "$tmp/last" "$tmp/c.out"
      seconds "$brook" run --backend "$b" "$here/whole/$w.br" >>"$tmp/k"; cp "$tmp/last" "$tmp/k.out"
    done
    c=$(median <"$tmp/c"); k=$(median <"$tmp/k")
    printf "%-14s %-7s %10.3f %10.3f %8.3f   %s | %s\n" "$w" "$b" "$c" "$k" "$(echo "$c / $k" | bc -l)" \
      "$(tr -d '\n' <"$tmp/c.out")" "$(tr -d '\n' <"$tmp/k.out")"
  done
done

echo
printf "%-14s %-7s %12s\n" launch backend "us/launch"
for b in $backends; do
  : >"$tmp/full"; : >"$tmp/none"
  for ((i = 0; i < runs; i++)); do
    seconds "$brook" run --backend "$b" "$here/whole/launch_small.br" >>"$tmp/full"
    seconds "$brook" run --backend "$b" -DLAUNCHES=0 "$here/whole/launch_small.br" >>"$tmp/none"
  done
  f=$(median <"$tmp/full"); n=$(median <"$tmp/none")
  printf "%-14s %-7s %12.2f\n" launch_small "$b" "$(echo "($f - $n) * 1000000 / 100000" | bc -l)"
done
