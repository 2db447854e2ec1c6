#!/usr/bin/env bash
# --max-memory and --time-limit (CLI.md) on every backend, in `brook run` and
# in the REPL: each case is a command, the exit status it must give, and
# fragments its output (stdout + stderr) must contain.
# Usage: limits.sh BROOK SOURCE_DIR BACKEND...
set -u
brook=$1 src=$2; shift 2
here=$src/tests/limits
fails=0 passes=0
check() {  # check STATUS "FRAGMENT|FRAGMENT" SECONDS_AT_MOST -- command...
  local want=$1 fragments=$2 most=$3; shift 4
  local out status t0 t1 frag ok=1
  t0=$(date +%s.%N)
  out=$("$@" 2>&1 </dev/null); status=$?
  t1=$(date +%s.%N)
  [ "$status" = "$want" ] || ok=0
  IFS='|' read -ra parts <<<"$fragments"
  for frag in "${parts[@]}"; do [[ "$out" == *"$frag"* ]] || ok=0; done
  if (( $(echo "$t1 - $t0 > $most" | bc -l) )); then ok=0; echo "  took $(echo "$t1 - $t0" | bc -l) s"; fi
  if [ $ok = 1 ]; then passes=$((passes + 1)); else
    echo "FAIL: $* -> status $status (want $want), output:"; echo "$out" | head -8
    echo "  (wanted: $fragments)"; fails=$((fails + 1))
  fi
}
for b in "$@"; do
  run=("$brook" run --backend "$b")
  check 1 "two streams fit|memory_streams.br:7:11: runtime error: out of memory: stream 'c' <1024, 1024> needs 4 MiB, past the memory limit of 10 MiB (8 MiB in use; --max-memory)" 60 \
    -- "${run[@]}" --max-memory 10M "$here/memory_streams.br"
  check 0 "190.0" 120 -- "${run[@]}" --max-memory=10M "$here/memory_reuse.br"
  check 1 "block 1|memory_heap.br:6:24: runtime error: out of memory: a heap block needs 4 MiB, past the memory limit of 10 MiB (8 MiB in use" 60 \
    -- "${run[@]}" --max-memory 10M "$here/memory_heap.br"
  check 0 "two streams fit|not reached" 60 -- "${run[@]}" "$here/memory_streams.br"
  check 1 "before|runtime error: the time limit of 1 s was reached (--time-limit)" 30 \
    -- "${run[@]}" --time-limit 1 "$here/time_kernel.br"
  check 1 "before|runtime error: the time limit of 1.5 s was reached" 30 \
    -- env BROOK_TIME_LIMIT=1.5 "${run[@]}" "$here/time_host.br"
  check 1 "before|runtime error: the time limit of 1 s was reached" 15 \
    -- "${run[@]}" --time-limit 1 "$here/time_sleep.br"
  if [ "$b" = interp ]; then
    check 1 "before|runtime error: the time limit of 0.3 s was reached" 10 \
      -- "${run[@]}" --time-limit 0.3 "$here/time_one_launch.br"
  fi
  check 0 "2 4 6 8" 60 -- "${run[@]}" --time-limit 30 --max-memory 1G "$here/within_limits.br"
  # The REPL reports the limit and keeps the session: later entries run.
  out=$(printf 'float big<1024, 1024>;\nfloat more<1024, 1024>;\nkernel void spin(float a<>, out float b<>) { float x = a; while (x >= 0.0f) x += 1.0f; b = x; }\nfloat q<8>;\nspin(q, q);\nint i = 0;\nwhile (1) i++;\nprintf("still here %%d\\n", i > 0);\n' |
        "$brook" repl --backend "$b" --max-memory 6M --time-limit 1 2>&1)
  for frag in "stream 'more' <1024, 1024> needs 4 MiB, past the memory limit of 6 MiB" \
              "the time limit of 1 s was reached" "still here 1"; do
    if [[ "$out" == *"$frag"* ]]; then passes=$((passes + 1)); else
      echo "FAIL: repl on $b lacks: $frag"; echo "$out" | head -12; fails=$((fails + 1)); fi
  done
  n=$(grep -c 'the time limit of 1 s was reached' <<<"$out")
  if [ "$n" = 2 ]; then passes=$((passes + 1)); else echo "FAIL: repl on $b: $n time-limit errors (want 2)"; fails=$((fails + 1)); fi
done
# Sizes and durations are checked like every option.
check 2 "needs a size such as 512M" 10 -- "$brook" run --max-memory lots "$src/examples/hello.br"
check 2 "needs a positive number of seconds, not '0'" 10 -- "$brook" run --time-limit 0 "$src/examples/hello.br"
check 2 "BROOK_MAX_MEMORY needs a size" 10 -- env BROOK_MAX_MEMORY=12Q "$brook" run "$src/examples/hello.br"
check 0 "--max-memory SIZE" 10 -- "$brook" run --help
echo "limits: $passes passed, $fails failed"
[ "$fails" = 0 ]
