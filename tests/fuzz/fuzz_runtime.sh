#!/usr/bin/env bash
# Mutation fuzzer for `brook run --backend interp`: no input may crash the runtime
# (issues 3 and 4). The driver is fuzz_runtime.py next to this script.
#   fuzz_runtime.sh BROOK SEED COUNT [--budget S] [--timeout S] [--keep DIR] ROOT...
# Exit 0 when no mutant crashed, 1 when one did (each failure is printed), 2 on misuse.
# Long hunts: build with -DBROOK_SANITIZE=ON and pass a large COUNT with --budget.
set -u
if ! command -v python3 >/dev/null 2>&1; then
  echo "fuzz_runtime.sh: python3 is required" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/fuzz_runtime.py" "$@"
