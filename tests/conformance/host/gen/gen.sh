#!/usr/bin/env bash
# gen.sh NAME...: regenerate the expectations of host conformance tests with gcc.
# Compiles NAME.br (or gen/eq/NAME.c, a hand-written C equivalent, when it exists) and
# records stdout (.out), non-empty stderr (.err) and a non-zero status (.status).
# Not for err_* tests: those come from mkerr.py.
set -u
G=$(cd "$(dirname "$0")" && pwd); H=$(dirname "$G"); T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for n in "$@"; do
  src=$H/$n.br
  [ -f "$G/eq/$n.c" ] && src=$G/eq/$n.c
  flags=()
  [ -f "$H/$n.flags" ] && read -r -a flags < "$H/$n.flags"
  units=()  # NAME.units: the program's other translation units
  [ -f "$H/$n.units" ] && read -r -a units < "$H/$n.units"
  (cd "$H" && gcc "${flags[@]}" -x c -std=gnu11 -O0 -fwrapv -ffp-contract=off -Wall -Werror=format -Wno-unused \
      -Wno-format-truncation -include "$G/prelude.h" "$src" "${units[@]}" -lm -o "$T/$n") || { echo "COMPILE FAIL $n"; continue; }
  args=()
  [ -f "$H/$n.args" ] && read -r -a args < "$H/$n.args"
  in=/dev/null
  [ -f "$H/$n.in" ] && in=$H/$n.in
  (cd "$H" && exec -a "$n.br" "$T/$n" "${args[@]}" >"$T/$n.stdout" 2>"$T/$n.stderr" <"$in"); st=$?
  cp "$T/$n.stdout" "$H/$n.out"
  [ -s "$T/$n.stderr" ] && cp "$T/$n.stderr" "$H/$n.err"
  if [ $st -ne 0 ]; then echo $st > "$H/$n.status"; elif [ -s "$T/$n.stderr" ]; then echo 0 > "$H/$n.status"; fi
  echo "$n: status $st"
done
