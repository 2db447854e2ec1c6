#!/usr/bin/env bash
# example.sh BROOK PROG.br BACKEND [REFERENCE_BACKEND]
# Runs an example from a scratch folder (mandelbrot writes an image there): it must
# exit 0 and print a line containing "OK". With REFERENCE_BACKEND, the program's
# stdout must also be byte-identical to the reference backend's.
set -u
brook=$1 prog=$2 backend=$3 reference=${4:-}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cd "$d" || exit 2
timeout 300 "$brook" run --backend "$backend" "$prog" >out 2>err; status=$?
cat out err
if [ $status -ne 0 ]; then echo "exit status $status"; exit 1; fi
grep -q OK out || { echo "no OK line"; exit 1; }
if [ -n "$reference" ]; then
  timeout 300 "$brook" run --backend "$reference" "$prog" >ref 2>/dev/null
  diff -u ref out || { echo "stdout differs from the $reference backend"; exit 1; }
fi
exit 0
