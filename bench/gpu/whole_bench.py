#!/usr/bin/env python3
"""whole_bench.py BUILD RUNS [WORKLOADS...]: bench/run_opencl_whole.sh without
bc or /usr/bin/time, for machines that have neither (a lent GPU machine).

Times `brook run --backend opencl bench/whole{,_int}/NAME.br` against the
hand-written `brook_opencl_whole NAME` on the same OpenCL device, whole
processes, alternating, one untimed warm-up run of each (kernel caches), and
prints the median wall and CPU seconds of RUNS runs, ratio = hand / brook, and
both checksum lines, in run_opencl_whole.sh's columns.
`whole_bench.py --launch BUILD N REPS` is bench/launch/run_launch.sh's per-launch
cost on the OpenCL backend, beside the hand-written loop's
(`brook_opencl_whole launch_small N`).
"""
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ALL = "saxpy sum blur3x3 mandelbrot sgemm black_scholes invert_grey winograd sgm_path".split()


def timed(cmd):
    """(wall s, cpu s, stdout) of one run of cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        print(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}", file=sys.stderr)
    return wall, cpu, p.stdout.replace("\n", " ").strip()


def launch(build, n, reps):
    """bench/launch/run_launch.sh's measure: (median of n launches - median of 1) / (n - 1)."""
    prog = os.path.join(BENCH, "launch", "launch_small.br")
    cmd = [os.path.join(build, "cli", "brook"), "run", "--backend", "opencl", prog]
    hand = [os.path.join(build, "backends", "opencl", "brook_opencl_whole"), "launch_small"]
    for name, c in (("brook", cmd), ("hand", hand)):
        timed(c + ["2"])  # warm the kernel caches
        full = statistics.median(timed(c + [str(n)])[0] for _ in range(reps))
        base = statistics.median(timed(c + ["1"])[0] for _ in range(reps))
        print(f"{name:<6} {n} launches: {full:.3f} s, 1 launch: {base:.3f} s => "
              f"{(full - base) * 1e6 / (n - 1):.2f} us per launch", flush=True)


def main():
    if sys.argv[1] == "--launch":
        return launch(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    build, runs = sys.argv[1], int(sys.argv[2])
    workloads = sys.argv[3:] or ALL
    brook = os.path.join(build, "cli", "brook")
    hand = os.path.join(build, "backends", "opencl", "brook_opencl_whole")
    print(f"{'workload':<14} {'idiom':<6} {'hand s':>8} {'brook s':>8} {'ratio':>7} "
          f"{'hand cpu':>8} {'brook cpu':>9} {'cpu rat':>7}   checksums (hand | brook)", flush=True)
    ratios = []
    for w in workloads:
        for idiom, folder in (("float", "whole"), ("int", "whole_int")):
            prog = os.path.join(BENCH, folder, w + ".br")
            hand_cmd, brook_cmd = [hand, w], [brook, "run", "--backend", "opencl", prog]
            timed(hand_cmd), timed(brook_cmd)  # warm the kernel caches
            h, k = [], []
            for _ in range(runs):
                h.append(timed(hand_cmd))
                k.append(timed(brook_cmd))
            hw, kw = statistics.median(x[0] for x in h), statistics.median(x[0] for x in k)
            hc, kc = statistics.median(x[1] for x in h), statistics.median(x[1] for x in k)
            ratios.append(hw / kw)
            print(f"{w:<14} {idiom:<6} {hw:8.3f} {kw:8.3f} {hw / kw:7.3f} {hc:8.2f} {kc:9.2f} "
                  f"{hc / kc:7.3f}   {h[-1][2]} | {k[-1][2]}", flush=True)
    print(f"geo-mean ratio {statistics.geometric_mean(ratios):.3f} over {len(ratios)}")


if __name__ == "__main__":
    main()
