#!/usr/bin/env python3
"""Shrink a Brook program on which backends disagree, delta-debugging style (issue 17).

The program is "still failing" when `brook check` accepts it and running it on
the backends gives the same kind of failure as the original: the same backends
differ from the reference (the first of --backends, interp by default) or crash,
time out or exit with a signal. Passes, repeated until nothing shrinks:
  1. delete chunks of lines (ddmin: halves, quarters, ... single lines), and whole
     brace-balanced blocks ({ ... } with their head line);
  2. simplify expressions: a parenthesised group or call becomes one of its
     operands or arguments, or a literal 0 / 1 / 0.0f.
The result is written to --out (default: stdout). Expression simplification can
in principle remove a guard the generator put there (a mask, a clamp); read the
reduced program before filing it and check it is still free of undefined
behaviour (or use --no-simplify).

usage: reduce_brook.py BROOK PROG.br [--backends interp,jit] [--out FILE] [--timeout S]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from diff_backends import built_backends, run_one  # noqa: E402


class Oracle:
    def __init__(self, brook, backends, timeout):
        self.brook, self.backends, self.timeout = brook, backends, timeout
        self.dir = tempfile.mkdtemp(prefix="brook-reduce-")
        self.path = os.path.join(self.dir, "prog.br")
        self.env = dict(os.environ)
        self.env.setdefault("POCL_CACHE_DIR", os.path.join(self.dir, "pocl"))
        self.tries = 0
        self.cache = {}

    def signature(self, text):
        """None when the program is invalid or all backends agree, else how they differ."""
        if text in self.cache:
            return self.cache[text]
        self.tries += 1
        with open(self.path, "w") as f:
            f.write(text)
        sig = None
        chk = subprocess.run([self.brook, "check", self.path], capture_output=True, timeout=60)
        if chk.returncode == 0:
            res = {b: run_one(self.brook, b, self.path, self.timeout, self.env) for b in self.backends}
            ref = res[self.backends[0]]
            kinds = []
            for b in self.backends:
                rc = res[b][0]
                if rc == "timeout":
                    kinds.append((b, "timeout"))
                elif rc < 0 or rc not in (0, 1):
                    kinds.append((b, f"crash {rc}"))
                elif res[b] != ref:
                    kinds.append((b, "differs"))
            sig = tuple(kinds) or None
        self.cache[text] = sig
        return sig


def ddmin_lines(lines, still_fails):
    n = 2
    while len(lines) >= 1:
        chunk = max(1, len(lines) // n)
        removed = False
        i = 0
        while i < len(lines):
            cand = lines[:i] + lines[i + chunk:]
            if cand and still_fails(cand):
                lines = cand
                removed = True
            else:
                i += chunk
        if removed:
            n = max(n - 1, 2)
        elif chunk == 1:
            break
        else:
            n = min(n * 2, len(lines))
    return lines


def blocks(lines):
    """(start, end) line ranges of brace-balanced blocks opened at a line's end."""
    out = []
    for i, line in enumerate(lines):
        if not line.rstrip().endswith("{"):
            continue
        depth = 0
        for j in range(i, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            if depth <= 0:
                out.append((i, j + 1))
                break
    return sorted(out, key=lambda r: r[0] - r[1])   # biggest first


def matching(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def split_top(s, sep):
    """Split s at top-level occurrences of the characters in sep."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if depth == 0 and ch in sep:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


BINOPS = re.compile(r"^(.*?)\s(\+|-|\*|/|%|<<|>>|&|\||\^|<|<=|>|>=|==|!=|&&|\|\|)\s(.*)$")


def candidates(text):
    """Smaller variants of text, each replacing one parenthesised group."""
    for m in re.finditer(r"[A-Za-z_]\w*\(|\(", text):
        i = m.end() - 1
        j = matching(text, i)
        if j < 0:
            continue
        inner = text[i + 1:j]
        start = m.start()
        is_call = m.group() != "("
        opts = []
        if is_call:
            opts += [f"({a})" for a in split_top(inner, ",")]
        else:
            bm = BINOPS.match(inner)
            if bm and "?" not in inner:
                opts += [f"({bm.group(1)})", f"({bm.group(3)})"]
            if "?" in inner:
                parts = split_top(inner.replace("?", "\x00").replace(":", "\x00"), "\x00")
                opts += [f"({p})" for p in parts[1:]]
        opts += ["0", "1", "0.0f"]
        for o in opts:
            if len(o) < j + 1 - start:
                yield text[:start] + o + text[j + 1:]


def simplify(text, still_fails):
    changed = True
    while changed:
        changed = False
        for line_no, line in enumerate(text.split("\n")):
            for cand_line in candidates(line):
                lines = text.split("\n")
                lines[line_no] = cand_line
                cand = "\n".join(lines)
                if still_fails(cand.split("\n")):
                    text = cand
                    changed = True
                    break
            if changed:
                break
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("brook")
    ap.add_argument("prog")
    ap.add_argument("--backends", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--no-simplify", action="store_true")
    a = ap.parse_args()
    brook = os.path.abspath(a.brook)
    backends = a.backends.split(",") if a.backends else built_backends(brook)
    oracle = Oracle(brook, backends, a.timeout)
    text = open(a.prog).read()
    target = oracle.signature(text)
    if target is None:
        print("reduce_brook: the program does not fail (all backends agree or it does not check)",
              file=sys.stderr)
        return 2
    print(f"reduce_brook: failure {target}", file=sys.stderr)

    def still_fails(lines):
        return oracle.signature("\n".join(lines)) == target

    lines = text.split("\n")
    while True:
        before = len("\n".join(lines))
        lines = ddmin_lines(lines, still_fails)
        for lo, hi in blocks(lines):
            if hi <= len(lines):
                cand = lines[:lo] + lines[hi:]
                if still_fails(cand):
                    lines = cand
        if not a.no_simplify:
            lines = simplify("\n".join(lines), still_fails).split("\n")
        if len("\n".join(lines)) >= before:
            break
    result = "\n".join(lines)
    print(f"reduce_brook: {len(text)} -> {len(result)} bytes in {oracle.tries} tries", file=sys.stderr)
    if a.out:
        with open(a.out, "w") as f:
            f.write(result)
    else:
        sys.stdout.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
