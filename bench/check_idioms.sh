#!/usr/bin/env bash
# check_idioms.sh BROOK [BACKEND]: each bench/whole/NAME.br (BrookGPU's float
# idiom) and bench/whole_int/NAME.br (the int idiom) print the same checksum,
# with one repetition (-DREPS=1), so the two forms the benchmarks compare are
# the same computation. Exit 1 on the first mismatch.
set -u
brook=$1
backend=${2:-jit}
here=$(cd "$(dirname "$0")" && pwd)
status=0
for float_form in "$here"/whole/*.br; do
  name=$(basename "$float_form")
  int_form=$here/whole_int/$name
  [ -f "$int_form" ] || continue
  a=$("$brook" run --backend "$backend" -DREPS=1 "$float_form" 2>&1)
  b=$("$brook" run --backend "$backend" -DREPS=1 "$int_form" 2>&1)
  if [ "$a" != "$b" ] || [ -z "$a" ]; then
    echo "MISMATCH $name: float idiom '$a', int idiom '$b'"
    status=1
  else
    echo "ok $name: $a"
  fi
done
exit $status
