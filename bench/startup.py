#!/usr/bin/env python3
"""Start-up of whole `brook run` processes, two brook executables side by side.

usage: bench/startup.py BROOK_A BROOK_B [PROGRAM] [RUNS] [BACKEND]

Runs `BROOK run PROGRAM` (default examples/hello.br) RUNS times (default 150)
for each executable, alternating A and B so that a noisy machine hurts both
alike, after one untimed run each (warm disk cache of compiled kernels). Prints
the median, the 25th percentile and the minimum wall time of each, and B's
median over A's. Used for #15: the JIT moved into a plugin loaded at first use
(compare a build before it with one after).
"""
import os
import statistics
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    a, b = sys.argv[1], sys.argv[2]
    program = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, "..", "examples", "hello.br")
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 150
    backend = sys.argv[5] if len(sys.argv) > 5 else "jit"
    env = dict(os.environ, BROOK_BACKEND=backend)
    times = {a: [], b: []}
    for exe in (a, b):
        first = subprocess.run([exe, "run", program], env=env, capture_output=True)
        if first.returncode != 0:
            print(f"{exe} run {program} failed: {first.stderr.decode()}", file=sys.stderr)
            return 1
    for i in range(runs):
        for exe in (a, b) if i % 2 == 0 else (b, a):
            start = time.perf_counter()
            subprocess.run([exe, "run", program], env=env, capture_output=True)
            times[exe].append(time.perf_counter() - start)
    medians = {}
    for label, exe in (("A", a), ("B", b)):
        t = sorted(times[exe])
        medians[exe] = statistics.median(t)
        print(f"{label} {exe}: median {medians[exe] * 1e3:.2f} ms, p25 {t[runs // 4] * 1e3:.2f} ms, "
              f"min {t[0] * 1e3:.2f} ms ({runs} runs, {backend})")
    print(f"B / A (median): {medians[b] / medians[a]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
