#!/usr/bin/env bash
# conformance.sh BROOK CXX INCLUDE_DIR LIB_DIR PROG.br BACKEND...
# `brook cc PROG.br` + one C++ compile + a run per backend must print exactly
# what `brook run` must (tests/tools/golden.sh's rules): NAME.out on stdout,
# NAME.err on stderr when it exists (else nothing), the exit status of
# NAME.status, else 1 with NAME.err, else 0. Program arguments (NAME.args)
# and stdin (NAME.in) as there.
set -u
brook=$1 cxx=$2 include=$3 libdir=$4 prog=$5
shift 5
dir=$(dirname "$prog"); base=$(basename "$prog" .br)
cd "$dir" || exit 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
flags=()
[ -f "$base.flags" ] && read -r -a flags < "$base.flags"
"$brook" cc "${flags[@]}" -o "$tmp/gen/$base" "$base.br" || { echo "brook cc failed"; exit 1; }
# -O0: the generated code only forwards to libbrook; compile time is what counts.
"$cxx" -std=c++20 -O0 -I "$include" "$tmp/gen/$base.cpp" -o "$tmp/prog" -L "$libdir" -lbrook \
  -Wl,-rpath,"$libdir" || { echo "the generated C++ does not compile"; exit 1; }
args=()
[ -f "$base.args" ] && read -r -a args < "$base.args"
if [ -f "$base.in" ]; then input="$base.in"; else input=/dev/null; fi
expected_status=0
[ -f "$base.err" ] && expected_status=1
[ -f "$base.status" ] && expected_status=$(cat "$base.status")
fail=0
for backend in "$@"; do
  BROOK_BACKEND=$backend timeout 120 "$tmp/prog" "${args[@]}" <"$input" >"$tmp/out" 2>"$tmp/err"; status=$?
  if [ "$status" != "$expected_status" ]; then echo "$backend: expected exit status $expected_status, got $status"; fail=1; fi
  diff -u "$base.out" "$tmp/out" | sed "s/^/$backend: /" || true
  cmp -s "$base.out" "$tmp/out" || fail=1
  if [ -f "$base.err" ]; then
    cmp -s "$base.err" "$tmp/err" || { echo "$backend: stderr differs"; diff -u "$base.err" "$tmp/err"; fail=1; }
  elif [ -s "$tmp/err" ]; then
    echo "$backend: unexpected stderr:"; cat "$tmp/err"; fail=1
  fi
done
exit $fail
