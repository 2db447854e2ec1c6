#!/usr/bin/env bash
# run_host_loop.sh [BUILD_DIR]: times bench/host_loop.br under `brook run` and
# the same loop compiled by g++ -O2 (target host_loop_baseline), checks that
# both print the same checksum, and prints the ratio. Times are CPU seconds
# (user + sys, best of 3, from wait4), which a shared machine disturbs less
# than wall time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
brook=$build/cli/brook
baseline=$build/bench/host_loop_baseline
if [ ! -x "$baseline" ]; then
  # bench/ not part of this build: compile the baseline as CMake would.
  baseline=$(mktemp -d)/host_loop_baseline
  g++ -O2 -std=c++20 -o "$baseline" "$here/host_loop_baseline.cpp"
fi
python3 - "$brook" "$here/host_loop.br" "$baseline" <<'PY'
import os, subprocess, sys

def best_cpu(cmd):
    best, out = None, None
    for _ in range(3):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE)
        out = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit(f"{cmd[0]} failed with status {status}")
        t = usage.ru_utime + usage.ru_stime
        best = t if best is None else min(best, t)
    return best, out

brook, program, baseline = sys.argv[1:4]
tb, out_b = best_cpu([brook, "run", program])
tc, out_c = best_cpu([baseline])
if out_b != out_c:
    sys.exit(f"checksums differ: brook {out_b!r} vs C++ {out_c!r}")
print(f"host_loop: brook {tb:.3f} s, g++ -O2 {tc:.3f} s (CPU), ratio {tb / max(tc, 1e-6):.1f}x")
PY
