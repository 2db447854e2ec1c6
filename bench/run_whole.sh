#!/usr/bin/env bash
# run_whole.sh [BUILD_DIR] [RUNS]: whole-process benchmarks (bench/whole/).
# Times `brook run --backend B bench/whole/NAME.br` against the C++ program
# doing the same (bench/whole/baseline_whole.cpp, -O3 -march=native -fopenmp;
# black_scholes with -ffast-math too, so that it calls libmvec),
# alternating runs, median of RUNS (5), and prints ratio = C++ s / brook s
# (1.0 = as fast as C++) with both checksums. Then the launch benchmark: one
# 1,000-element kernel launched 100,000 times, minus the same program with 0
# launches, per launch. Each program runs once untimed first (warm kernel cache).
#   BACKENDS="jit opencl" (default)   ONLY="saxpy sgm_path" (default: all nine)
#   IDIOMS="float int" (default): bench/whole/ is BrookGPU's float idiom (float
#   counters and gather indices, in-place updates), bench/whole_int/ the same
#   programs with int counters and int gathers; both print the same checksum.
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
# black_scholes's C++ calls glibc's vector math (libmvec: _ZGVdN8v_expf and
# logf), which GCC uses only under -ffast-math; the other workloads keep the
# IEEE build above (-ffast-math would reassociate sum's fold, for one).
baseline_libmvec=$build/bench_whole_baseline_libmvec
if [ ! -x "$baseline_libmvec" ] || [ "$here/whole/baseline_whole.cpp" -nt "$baseline_libmvec" ]; then
  ${CXX:-g++} -std=c++20 -O3 -march=native -fopenmp -ffast-math -I"$here" \
    "$here/whole/baseline_whole.cpp" "$here/baselines/baselines.cpp" -o "$baseline_libmvec" -lpthread || exit 2
fi
backends=${BACKENDS:-jit opencl}
workloads=${ONLY:-saxpy sum blur3x3 mandelbrot sgemm black_scholes invert_grey winograd sgm_path}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# "wall cpu" seconds of one run of "$@" (stdout saved to $tmp/last); CPU time
# (user + sys) is what to compare when the machine is shared.
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/last" 2>"$tmp/err" || { echo "failed: $*" >&2; cat "$tmp/err" >&2; }
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc -l) $(awk '{print $1 + $2}' "$tmp/time")"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

idioms=${IDIOMS:-float int}
echo "load: $(uptime)"
printf "%-14s %-6s %-7s %8s %8s %7s %8s %9s %7s   %s\n" workload idiom backend "C++ s" "brook s" ratio "C++ cpu" \
  "brook cpu" "cpu rat" "checksums (C++ | brook)"
for w in $workloads; do
  for idiom in $idioms; do
  dir=$here/whole; [ "$idiom" = int ] && dir=$here/whole_int
  for b in $backends; do
    : >"$tmp/c"; : >"$tmp/k"
    # One untimed run first, as run_opencl_whole.sh does: the timed runs find
    # the kernels in brook's disk cache, as every run after a program's first
    # does (with RUNS=1 the one timed run would otherwise include compiling).
    "$brook" run --backend "$b" "$dir/$w.br" >/dev/null 2>&1
    for ((i = 0; i < runs; i++)); do
      cpp=$baseline; [ "$w" = black_scholes ] && cpp=$baseline_libmvec
      seconds "$cpp" "$w" >>"$tmp/c"; cp "$tmp/last" "$tmp/c.out"
      seconds "$brook" run --backend "$b" "$dir/$w.br" >>"$tmp/k"; cp "$tmp/last" "$tmp/k.out"
    done
    c=$(cut -d' ' -f1 <"$tmp/c" | median); k=$(cut -d' ' -f1 <"$tmp/k" | median)
    cc=$(cut -d' ' -f2 <"$tmp/c" | median); kc=$(cut -d' ' -f2 <"$tmp/k" | median)
    printf "%-14s %-6s %-7s %8.3f %8.3f %7.3f %8.2f %9.2f %7.3f   %s | %s\n" "$w" "$idiom" "$b" "$c" "$k" \
      "$(echo "$c / $k" | bc -l)" "$cc" "$kc" "$(echo "$cc / $kc" | bc -l)" \
      "$(tr -d '\n' <"$tmp/c.out")" "$(tr -d '\n' <"$tmp/k.out")"
  done
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
  f=$(cut -d' ' -f1 <"$tmp/full" | median); n=$(cut -d' ' -f1 <"$tmp/none" | median)
  printf "%-14s %-7s %12.2f\n" launch_small "$b" "$(echo "($f - $n) * 1000000 / 100000" | bc -l)"
done
