#!/usr/bin/env bash
# Pipes NAME.in into `brook repl` (stdout and stderr together, as a user sees
# them) and compares with NAME.out. Timings vary, so `time: X ms` is masked.
# Kernels run on $BROOK_BACKEND (default interp): every backend must print the same.
# A transcript may start with comment lines that the harness reads:
#   // needs: jit opencl      registered by tests/CMakeLists.txt only when built
#   // env: NAME=VALUE ...    extra environment for this run
# Usage: run_transcript.sh BROOK NAME.in        (UPDATE=1 rewrites NAME.out)
set -u
brook=$1
input=$2
expected=${input%.in}.out
dir=$(dirname "$input")
read -r -a extra_env <<< "$(sed -n 's|^// env: ||p' "$input" | head -n 1)"
actual=$(cd "$dir" && env HOME=/nonexistent BROOK_HISTORY= NO_COLOR=1 BROOK_BACKEND=${BROOK_BACKEND:-interp} \
  "${extra_env[@]}" timeout 60 "$brook" repl < "$(basename "$input")" 2>&1 | sed -E 's/time: [0-9.]+ ms/time: N ms/')
if [[ "${UPDATE:-0}" == 1 ]]; then
  printf '%s\n' "$actual" > "$expected"
  exit 0
fi
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
  echo "transcript $input: output differs (above: - expected, + actual)"
  exit 1
fi
exit 0
