#!/bin/sh
# Runs every example and checks that its report ends in "NAME: OK".
# Usage: examples/run_examples.sh [path/to/brook] [extra brook run options...]
# Exit status: the number of examples that failed (0 when all passed).
here=$(cd "$(dirname "$0")" && pwd)
brook=${1:-"$here/../build/cli/brook"}
[ $# -gt 0 ] && shift
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
failed=0
for program in "$here"/*.br; do
  name=$(basename "$program" .br)
  args=""
  [ "$name" = mandelbrot ] && args="$scratch/mandelbrot.pgm"
  # shellcheck disable=SC2086 # args is one word or none
  "$brook" run "$@" "$program" $args >"$scratch/out" 2>&1
  status=$?
  last=$(tail -n 1 "$scratch/out")
  case "$last" in
    "$name: OK"*)
      if [ $status -eq 0 ]; then echo "$last"; continue; fi ;;
  esac
  echo "$name: FAILED (exit status $status)"
  sed 's/^/    /' "$scratch/out" | tail -n 8
  failed=$((failed + 1))
done
exit $failed
