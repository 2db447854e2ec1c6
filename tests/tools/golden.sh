#!/usr/bin/env bash
# golden.sh MODE BROOK PROG.br
#   MODE emit-plan:    `brook emit plan NAME.br` must print exactly NAME.plan.
#   MODE check:        `brook check NAME.br` must print exactly NAME.err on stderr, exit 1.
#   MODE run-BACKEND:  `brook run --backend BACKEND NAME.br` must print exactly NAME.out on
#                      stdout; stderr must equal NAME.err when it exists (else be empty);
#                      the exit status must equal NAME.status, else 1 with NAME.err, else 0.
# NAME.flags: brook options before the program (-I DIR); NAME.in: its stdin;
# NAME.units: more translation units of the program (file names, one line).
# The program runs from its own folder with a relative path, so diagnostics are stable.
set -u
mode=$1 brook=$2 prog=$3
dir=$(dirname "$prog"); base=$(basename "$prog" .br)
cd "$dir" || exit 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
if [ "$mode" = emit-plan ]; then
  timeout 20 "$brook" emit plan "$base.br" >"$tmp/out" 2>"$tmp/err"; status=$?
  if [ $status -ne 0 ]; then echo "expected exit status 0, got $status"; cat "$tmp/err"; fail=1; fi
  diff -u "$base.plan" "$tmp/out" || fail=1
elif [ "$mode" = check ]; then
  timeout 20 "$brook" check "$base.br" >"$tmp/out" 2>"$tmp/err"; status=$?
  if [ $status -ne 1 ]; then echo "expected exit status 1, got $status"; fail=1; fi
  if ! diff -u "$base.err" "$tmp/err"; then fail=1; fi
else
  backend=${mode#run-}
  args=()
  [ -f "$base.args" ] && read -r -a args < "$base.args"
  flags=()  # options before the program: -I DIR, -D NAME
  [ -f "$base.flags" ] && read -r -a flags < "$base.flags"
  units=()  # `brook run NAME.br more.c ... -- args`
  [ -f "$base.units" ] && read -r -a units < "$base.units"
  [ ${#units[@]} -gt 0 ] && units+=(--)
  if [ -f "$base.in" ]; then input="$base.in"; else input=/dev/null; fi
  timeout 120 "$brook" run --backend "$backend" "${flags[@]}" "$base.br" "${units[@]}" "${args[@]}" <"$input" >"$tmp/out" 2>"$tmp/err"; status=$?
  expected_status=0
  [ -f "$base.err" ] && expected_status=1
  [ -f "$base.status" ] && expected_status=$(cat "$base.status")
  if [ "$status" != "$expected_status" ]; then echo "expected exit status $expected_status, got $status"; fail=1; fi
  if ! diff -u "$base.out" "$tmp/out"; then fail=1; fi
  if [ -f "$base.err" ]; then
    diff -u "$base.err" "$tmp/err" || fail=1
  elif [ -s "$tmp/err" ]; then
    echo "unexpected stderr:"; cat "$tmp/err"; fail=1
  fi
fi
exit $fail
