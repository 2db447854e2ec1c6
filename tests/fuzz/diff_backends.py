#!/usr/bin/env python3
"""Differential testing of brook's backends on random programs (issue 17).

For each seed, tests/fuzz/gen_brook.py makes a valid program; it runs with
`brook run --backend B` on every built backend (interp is the reference) and the
run stops at the first seed whose stdout, stderr or exit status differ between
backends, or that dies by a signal or times out on any of them. It prints the
seed and the commands to reproduce.

usage: diff_backends.py BROOK [--seeds A:B] [--budget S] [--timeout S] [--keep DIR]
                        [--backends interp,jit,opencl] [--without F,..] [--size S]
                        [--thin opencl=5] [--keep-going]
Exit status: 0 no difference, 1 a difference or crash, 2 misuse.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_brook  # noqa: E402


def built_backends(brook):
    p = subprocess.run([brook, "--version"], capture_output=True, text=True, timeout=60)
    for line in p.stdout.splitlines():
        if line.startswith("backends:"):
            return line.split(":", 1)[1].split()
    return ["interp"]


def run_one(brook, backend, path, timeout, env):
    cmd = [brook, "run", "--backend", backend, "--no-cache", path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env,
                           cwd=os.path.dirname(path), stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr.replace(path.encode(), b"PROG")
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def describe(res):
    rc, out, err = res
    if rc == "timeout":
        return "timed out"
    if isinstance(rc, int) and rc < 0:
        return f"killed by signal {-rc}"
    return f"exit {rc}"


def first_diff(a, b):
    al, bl = a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else "<end>"
        y = bl[i] if i < len(bl) else "<end>"
        if x != y:
            return i + 1, x, y
    return None


def check(brook, backends, path, timeout, env):
    """None when all backends agree, else a text that says how they differ."""
    results = {b: run_one(brook, b, path, timeout, env) for b in backends}
    for b in backends:   # a busy machine is not a hang: one retry with twice the time
        if results[b][0] == "timeout":
            results[b] = run_one(brook, b, path, 2 * timeout, env)
    ref = backends[0]
    problems = []
    for b in backends:
        rc = results[b][0]
        if rc == "timeout" or (isinstance(rc, int) and rc < 0) or rc not in (0, 1):
            problems.append(f"{b}: {describe(results[b])}")
        elif b != ref and results[b] != results[ref]:
            r0, rb = results[ref], results[b]
            if r0[0] != rb[0]:
                problems.append(f"{b}: exit {rb[0]}, {ref}: exit {r0[0]}")
            for what, i in (("stdout", 1), ("stderr", 2)):
                d = first_diff(r0[i], rb[i])
                if d:
                    problems.append(f"{b} vs {ref}: {what} line {d[0]}: {b} '{d[2]}', {ref} '{d[1]}'")
    if problems:
        return "\n".join("  " + p for p in problems), results
    return None, results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("brook")
    ap.add_argument("--seeds", default="1:200", help="A:B runs seeds A..B-1")
    ap.add_argument("--budget", type=float, default=0, help="stop starting seeds after this many seconds")
    ap.add_argument("--timeout", type=float, default=30, help="per run of one backend")
    ap.add_argument("--keep", default="", help="save each failing program (and all outputs) here")
    ap.add_argument("--backends", default="", help="default: every backend `brook --version` lists")
    ap.add_argument("--without", default="", help="generator features to leave out (known bugs)")
    ap.add_argument("--size", default="medium", choices=["small", "medium", "large"])
    ap.add_argument("--thin", default="", help="B=K runs backend B on every K-th seed only (opencl=5: "
                    "its compiler is the slow part); several as B=K,C=L")
    ap.add_argument("--progress", type=int, default=0, help="say so every N seeds")
    ap.add_argument("--keep-going", action="store_true", help="report every failing seed, not only the first")
    a = ap.parse_args()
    brook = os.path.abspath(a.brook)
    if not os.access(brook, os.X_OK):
        print(f"diff_backends: {brook} is not an executable", file=sys.stderr)
        return 2
    backends = a.backends.split(",") if a.backends else built_backends(brook)
    if "interp" in backends:   # the reference first
        backends.remove("interp")
        backends.insert(0, "interp")
    lo, hi = (int(x) for x in a.seeds.split(":"))
    thin = {k: int(v) for k, v in (t.split("=") for t in a.thin.split(",") if t)}
    feats = gen_brook.features_from(a.without)
    env = dict(os.environ)
    tmp = tempfile.mkdtemp(prefix="brook-diff-")
    env.setdefault("POCL_CACHE_DIR", os.path.join(tmp, "pocl"))   # don't fill the user's cache
    start = time.monotonic()
    ran, failed = 0, []
    try:
        for seed in range(lo, hi):
            if a.budget and time.monotonic() - start > a.budget:
                print(f"diff_backends: budget of {a.budget:.0f} s spent after {ran} seeds")
                break
            path = os.path.join(tmp, f"seed{seed}.br")
            with open(path, "w") as f:
                f.write(gen_brook.generate(seed, feats, a.size))
            these = [b for b in backends if seed % thin.get(b, 1) == 0]
            why, results = check(brook, these, path, a.timeout, env)
            ran += 1
            if a.progress and ran % a.progress == 0:
                print(f"diff_backends: {ran} seeds, {time.monotonic() - start:.0f} s", flush=True)
            if why is None:
                continue
            failed.append(seed)
            gen = f"python3 {os.path.join(HERE, 'gen_brook.py')} {seed}" + \
                  (f" --without {a.without}" if a.without else "") + \
                  (f" --size {a.size}" if a.size != "medium" else "") + f" > seed{seed}.br"
            print(f"FAIL seed {seed}:\n{why}\n  reproduce: {gen}")
            for b in backends:
                print(f"             {brook} run --backend {b} seed{seed}.br")
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copy(path, os.path.join(a.keep, f"seed{seed}.br"))
                for b, (rc, out, err) in results.items():
                    with open(os.path.join(a.keep, f"seed{seed}.{b}.out"), "wb") as f:
                        f.write(out + err + f"\n[{describe((rc, out, err))}]\n".encode())
            if not a.keep_going:
                break
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    secs = time.monotonic() - start
    print(f"diff_backends: {ran} seeds on {','.join(backends)} in {secs:.0f} s, "
          f"{len(failed)} failing{': ' + ' '.join(map(str, failed)) if failed else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
