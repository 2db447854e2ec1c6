#!/usr/bin/env python3
"""Mutation fuzzer for `brook run --backend interp` (issues 3 and 4: no input crashes).

Takes every .br under the given roots, applies token-level mutations that keep programs
compiling far more often than byte flips do, keeps mutants that pass `brook check`, and
runs them. A run FAILS when it dies by a signal, prints a sanitizer report, or prints
"internal interpreter error". Timeouts (user infinite loops) are fine.

usage: fuzz_runtime.py BROOK SEED COUNT [--budget SECONDS] [--keep DIR] ROOT...
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time

TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|[A-Za-z_]\w*|\d+\.\d*(?:[eE][-+]?\d+)?f?|'
                   r'\d+(?:[eE][-+]?\d+)?f?|0[xX][0-9a-fA-F]+|<<=|>>=|<<|>>|[-+*/%<>=!&|^]=|&&|\|\||'
                   r'\+\+|--|->|\S')
INT_REPLACEMENTS = ["0", "-1", "1", "2", "3", "7", "2147483647", "-2147483648", "(-2147483647-1)",
                    "1000000000", "65536", "4294967295", "-100", "100000"]
OPS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"]
FAILURE_MARKERS = ["==ERROR: AddressSanitizer", "SUMMARY: UndefinedBehaviorSanitizer",
                   "SUMMARY: AddressSanitizer", "internal interpreter error",
                   "runtime error: load of", "runtime error: signed integer overflow",
                   "LeakSanitizer"]


def split_tokens(text):
    """Tokens with the whitespace before each, so joining gives back the text."""
    out, pos = [], 0
    for m in TOKEN.finditer(text):
        out.append([text[pos:m.start()], m.group()])
        pos = m.end()
    out.append([text[pos:], ""])
    return out


def join(tokens):
    return "".join(ws + tok for ws, tok in tokens)


def is_int(tok):
    return re.fullmatch(r"\d+|0[xX][0-9a-fA-F]+", tok) is not None


def int_value(tok):
    # C's spelling: a leading 0 is octal (`0377`), which Python's int(tok, 0)
    # rejects; digits after a 0 that are not octal (`2,098` in a comment) are
    # read as decimal.
    if re.fullmatch(r"0[0-7]+", tok):
        return int(tok, 8)
    if re.fullmatch(r"0\d+", tok):
        return int(tok, 10)
    return int(tok, 0)


def mutate_tokens(rng, text):
    toks = split_tokens(text)
    kind = rng.randrange(9)
    idx = [i for i, (_, t) in enumerate(toks) if t]
    if not idx:
        return text
    if kind in (0, 1):  # integer literal -> edge value
        cands = [i for i in idx if is_int(toks[i][1])]
        if cands:
            toks[rng.choice(cands)][1] = rng.choice(INT_REPLACEMENTS)
    elif kind == 2:  # shrink an array size / stream extent: a literal inside <...> or [...]
        cands = [i for i in idx if is_int(toks[i][1]) and i > 0 and toks[i - 1][1] in ("[", "<", ",")]
        if cands:
            i = rng.choice(cands)
            toks[i][1] = str(rng.choice([0, 1, 2, max(0, int_value(toks[i][1]) // 2), int_value(toks[i][1]) + 1]))
    elif kind == 3:  # swap an arithmetic operator
        cands = [i for i in idx if toks[i][1] in OPS]
        if cands:
            toks[rng.choice(cands)][1] = rng.choice(["/", "%", "*", "-", "<<", ">>"])
    elif kind == 4:  # change an index: x[i] -> x[i+k] / x[-1] / x[huge]
        cands = [i for i in idx if toks[i][1] == "["]
        if cands:
            i = rng.choice(cands)
            toks[i][1] = "[" + rng.choice(["-1+", "1+", "100+", "2147483647-", "-2147483647+", "0*"])
    elif kind == 5:  # swap two arguments of a call
        cands = [i for i in idx if toks[i][1] == "," ]
        if cands:
            i = rng.choice(cands)
            j = i - 1
            k = i + 1
            while k < len(toks) and not toks[k][1]:
                k += 1
            if j >= 0 and k < len(toks) and toks[j][1] not in "()[]{};" and toks[k][1] not in "()[]{};":
                toks[j][1], toks[k][1] = toks[k][1], toks[j][1]
    elif kind == 6:  # replace a float literal
        cands = [i for i in idx if re.fullmatch(r"\d+\.\d*(?:[eE][-+]?\d+)?f?", toks[i][1])]
        if cands:
            toks[rng.choice(cands)][1] = rng.choice(["0.0f", "-1.0f", "1e38f", "3e9", "-3e9", "1e300"])
    elif kind == 7:  # replace an identifier with another from the program
        names = sorted({t for _, t in toks if re.fullmatch(r"[A-Za-z_]\w*", t)})
        cands = [i for i in idx if re.fullmatch(r"[A-Za-z_]\w*", toks[i][1])]
        if cands and names:
            toks[rng.choice(cands)][1] = rng.choice(names)
    else:  # a literal anywhere -> huge or negative
        cands = [i for i in idx if is_int(toks[i][1])]
        if cands:
            toks[rng.choice(cands)][1] = rng.choice(["-5", "1073741824", "2147483647"])
    return join(toks)


def mutate_lines(rng, text):
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        if lines[i].rstrip().endswith(";"):
            del lines[i]  # delete a statement
    else:
        lines.insert(i, lines[i])  # duplicate a line
    return "\n".join(lines)


def mutate(rng, text):
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = mutate_lines(rng, text) if rng.random() < 0.2 else mutate_tokens(rng, text)
    return text


def sources(roots):
    out = []
    for root in roots:
        for dirpath, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith(".br"):
                    out.append(os.path.join(dirpath, f))
    return sorted(out)


def run(cmd, cwd, timeout, env, stdin=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=stdin or subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brook")
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--keep", default="")
    ap.add_argument("roots", nargs="+")
    a = ap.parse_args()
    a.brook = os.path.abspath(a.brook)  # mutants run from their source's folder
    if not os.access(a.brook, os.X_OK):
        print(f"fuzz_runtime: {a.brook} is not an executable", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    progs = sources(a.roots)
    if not progs:
        print("fuzz_runtime: no programs found", file=sys.stderr)
        return 2
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    start = time.time()
    stats = {"tried": 0, "checked": 0, "ran": 0, "timeouts": 0, "errors": 0}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(a.count):
            if a.budget and time.time() - start > a.budget:
                break
            prog = rng.choice(progs)
            with open(prog, encoding="utf-8", errors="replace") as f:
                text = f.read()
            mutant = mutate(rng, text)
            stats["tried"] += 1
            if mutant == text:
                continue
            # Run from the program's folder so .in / data files resolve; write the mutant next door.
            path = os.path.join(tmp, "m.br")
            with open(path, "w") as f:
                f.write(mutant)
            cwd = os.path.dirname(os.path.abspath(prog))
            rc, _, err = run([a.brook, "check", path], cwd, a.timeout, env)
            bad = rc is not None and rc < 0 or any(m in err for m in FAILURE_MARKERS)
            if not bad:
                if rc != 0:
                    continue
                stats["checked"] += 1
                base = prog[:-3]
                args = []
                if os.path.exists(base + ".args"):
                    args = open(base + ".args").read().split()
                stdin = open(base + ".in", "rb") if os.path.exists(base + ".in") else None
                rc, out, err = run([a.brook, "run", "--backend", "interp", path] + args, cwd, a.timeout, env, stdin)
                if stdin:
                    stdin.close()
                stats["ran"] += 1
                if rc is None:
                    stats["timeouts"] += 1
                    continue
                if rc == 1:
                    stats["errors"] += 1
                bad = rc < 0 or any(m in err or m in out for m in FAILURE_MARKERS)
                # Exit 1 with text on stderr but no diagnostic is a runtime failure
                # that forgot its message. A mutant's main may also return 1 after
                # the front end warned (stderr then holds only warnings): that is
                # the program's own status, not a failure.
                # Programs that write to stderr themselves (fprintf(stderr),
                # perror, getopt's messages) are exempt: their text is theirs.
                writes_stderr = any(w in text for w in ("stderr", "perror", "getopt", "psignal"))
                if (not bad and rc == 1 and err and "error:" not in err and "warning:" not in err
                        and not writes_stderr):
                    bad = True
            if bad:
                failures += 1
                print(f"FAIL #{n} from {prog} (status {rc})")
                print("\n".join(err.splitlines()[:12]))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    keep = os.path.join(a.keep, f"crash_{a.seed}_{n}.br")
                    with open(keep, "w") as f:
                        f.write(mutant)
                    print(f"  kept as {keep} (run from {cwd})")
    print(f"fuzz_runtime: seed {a.seed}: {stats}, failures {failures}, {time.time() - start:.0f}s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
