#!/usr/bin/env bash
# Per-launch cost of a 1,000-element kernel, whole process: the median of
# REPS runs of `brook run launch_small.br N` minus the median with 1 launch
# (start-up, compilation, host code), divided by N - 1.
#   bench/launch/run_launch.sh [BROOK] [N] [REPS] [BACKENDS...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
brook=${1:-$here/../../build/cli/brook}
n=${2:-100000}
reps=${3:-5}
shift $(( $# > 3 ? 3 : $# ))
backends=${*:-jit opencl}
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
timed() {  # seconds of one whole-process run
  local s e
  s=$(date +%s.%N)
  "$brook" run --backend "$1" "$here/launch_small.br" "$2" >/dev/null
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}
for be in $backends; do
  full=$(for _ in $(seq "$reps"); do timed "$be" "$n"; done | median)
  base=$(for _ in $(seq "$reps"); do timed "$be" 1; done | median)
  us=$(echo "($full - $base) * 1000000 / ($n - 1)" | bc -l)
  printf '%-7s %d launches: %.3f s, 1 launch: %.3f s => %.2f us per launch\n' "$be" "$n" "$full" "$base" "$us"
done
