#!/usr/bin/env python3
"""--profile accounts for the whole wall time (CLI.md), on one backend.

Runs saxpy_inplace.br with `brook run --profile` and checks, from the report:
- the kernel table counts what the program did (50 launches of saxpy, 1 of sum);
- the rows of "where the wall time went" add up to the reported wall time and
  none is negative (host code is the rest, so a row that over-counts shows as
  rows summing past the wall);
- the reported wall time is the process's wall time as measured from outside
  (within 5 % plus 25 ms: the process start is read from /proc in 10 ms
  ticks, and the exit after the report is not in it).
Then the same in the REPL: `:profile on`, launches, `:profile show`.

Usage: check_profile.py BROOK BACKEND
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "saxpy_inplace.br")
ROW = re.compile(r"^  (.*?)\s+(-?[0-9.]+) ms\s+(-?[0-9.]+) %$")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def parse(report):
    kernels, rows = {}, []
    section = None
    for line in report.splitlines():
        if line.startswith("kernel "):
            section = "kernels"
        elif line.startswith("where the wall time went"):
            section = "rows"
        elif section == "kernels" and line and not line.startswith(" "):
            f = line.split()
            kernels[f[0]] = {"compiles": int(f[1]), "cached": int(f[2]), "launches": int(f[4])}
        elif section == "rows" and (m := ROW.match(line)):
            rows.append((m.group(1), float(m.group(2))))
    return kernels, rows


def check_report(report, where, backend, measured_ms=None):
    kernels, rows = parse(report)
    check(kernels.get("saxpy", {}).get("launches") == 50, f"{where}: saxpy launched 50 times ({kernels})")
    check(kernels.get("sum", {}).get("launches") == 1, f"{where}: sum launched once ({kernels})")
    for name, k in kernels.items():
        if backend != "interp":  # the interpreter compiles nothing
            check(k["compiles"] + k["cached"] >= 1, f"{where}: {name} was compiled or loaded")
    check(len(rows) == 10, f"{where}: ten rows of wall time, got {len(rows)}")
    if len(rows) < 2:
        return
    parts, wall = rows[:-1], rows[-1][1]
    check(all(ms >= 0 for _, ms in parts), f"{where}: no negative row")
    total = sum(ms for _, ms in parts)
    check(abs(total - wall) <= 0.01 * wall + 0.05, f"{where}: rows sum to {total:.2f} ms, wall {wall:.2f} ms")
    if measured_ms is not None:
        check(abs(wall - measured_ms) <= 0.05 * measured_ms + 25,
              f"{where}: reported wall {wall:.1f} ms, measured {measured_ms:.1f} ms")


def main():
    brook, backend = sys.argv[1], sys.argv[2]
    env = dict(os.environ, NO_COLOR="1")
    t0 = time.monotonic()
    run = subprocess.run([brook, "run", "--backend", backend, "--profile", PROGRAM], env=env,
                         capture_output=True, text=True, timeout=300)
    measured = (time.monotonic() - t0) * 1000
    check(run.returncode == 0, f"run: exit status {run.returncode}: {run.stderr}")
    check(run.stdout.strip() == "319410", f"run: output {run.stdout!r}")
    check_report(run.stderr, "brook run", backend, measured)

    session = "\n".join([
        "#define N 4096",
        "#define REPS 50",
        f'#include "{PROGRAM}"',
        ":profile on",
        "main();",
        ":profile show",
        ":profile off",
        "main();",
        ":profile show",
    ]) + "\n"
    repl = subprocess.run([brook, "repl", "--backend", backend], input=session, env=env,
                          capture_output=True, text=True, timeout=300)
    out = repl.stdout
    check(out.startswith("profiling on\n319410\n0\nkernel "), f"repl: output starts {out[:60]!r}")
    check_report(out, "repl :profile show", backend)
    # Off keeps the rows: the second show reports the same launches.
    second = out[out.find("profiling off"):]
    check(second.count("kernel ") == 0, "repl: :profile show after :profile off shows no table")
    check("profiling is off" in repl.stderr, "repl: :profile show after off says profiling is off")
    # `brook repl --profile` reports at the end of the session.
    ended = subprocess.run([brook, "repl", "--backend", backend, "--profile"], input=session.replace(":profile on\n", "").replace(":profile off\n", ""),
                           env=env, capture_output=True, text=True, timeout=300)
    check("where the wall time went" in ended.stdout, "repl --profile: :profile show works")
    check("where the wall time went" in ended.stderr, "repl --profile: the report at the end")
    print(f"{backend}: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
