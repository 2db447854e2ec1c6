#!/usr/bin/env bash
# Cross-checks the runtime-error tests with gcc sanitizers: C must print exactly NAME.out
# before it fails. Prints one line per test.
G=$(cd "$(dirname "$0")" && pwd); H=$(dirname "$G"); T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for f in "$H"/err_*.br; do
  n=$(basename "$f" .br)
  [[ $n == err_top_level* ]] && continue   # top-level statements are not C
  gcc -x c -std=gnu11 -O0 -g -fwrapv -w -fsanitize=address,undefined -fno-sanitize-recover=all \
      -include "$G/prelude_san.h" "$f" -lm -o "$T/$n" || { echo "$n: COMPILE FAIL"; continue; }
  (cd "$H"; ASAN_OPTIONS=detect_stack_use_after_return=1 timeout 10 "$T/$n" >"$T/$n.out" 2>"$T/$n.err"); st=$?
  size=$(stat -c %s "$H/$n.out")
  if cmp -s "$H/$n.out" <(head -c "$size" "$T/$n.out"); then pm=prefix-ok; else pm=PREFIX-MISMATCH; fi
  echo "$n: status $st $pm $(grep -o "$n.br:[0-9]*" "$T/$n.err" | head -1)"
done
