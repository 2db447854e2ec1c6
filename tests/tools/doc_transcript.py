#!/usr/bin/env python3
"""Checks the REPL sessions in a Markdown file (REPL.md, README.md) against brook.

Every fenced block whose first line starts with "> " is a piece of one REPL
session, run in order: lines starting with "> " or "... " are typed, every
other line is what brook must print. `time: N ms` values are masked. A block
right after a line `<!-- doc-test: skip -->` is not run (Ctrl-C examples: the
pty test tests/tools/repl_pty.py covers those); an empty entry `;` stands in
for each of its entries, so the `<repl:N>` names of later entries still match.
Usage: doc_transcript.py BROOK FILE.md   (exit 1 and a diff on a mismatch)
"""
import difflib
import os
import re
import subprocess
import sys


def sessions(text):
    typed, expected, in_block, block, skip, previous = [], [], False, [], False, ""
    for line in text.splitlines():
        if line.startswith("```"):
            if not in_block:
                skip = previous.strip() == "<!-- doc-test: skip -->"
            if in_block and skip and block and block[0].startswith("> "):
                typed.extend(";" for b in block if b.startswith("> "))
            if in_block and not skip and block and block[0].startswith("> "):
                for b in block:
                    if b.startswith("> ") or b == ">":
                        typed.append(b[2:])
                    elif b.startswith("... ") or b == "...":
                        typed.append(b[4:])
                    else:
                        expected.append(b)
            in_block, block = not in_block, []
            continue
        if in_block:
            block.append(line)
        previous = line
    return typed, expected


def main():
    brook, doc = sys.argv[1], sys.argv[2]
    with open(doc, encoding="utf-8") as f:
        typed, expected = sessions(f.read())
    if not typed:
        print(f"{doc}: no REPL session found")
        return 1
    env = dict(os.environ, HOME="/nonexistent", BROOK_HISTORY="", NO_COLOR="1")
    env.setdefault("BROOK_BACKEND", "interp")
    run = subprocess.run([brook, "repl"], input="\n".join(typed) + "\n", stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env,
                         cwd=os.path.dirname(os.path.abspath(doc)), timeout=120)
    mask = lambda lines: [re.sub(r"time: [0-9.]+ ms", "time: N ms", l) for l in lines]
    actual = mask(run.stdout.splitlines())
    want = mask(expected)
    if actual != want:
        sys.stdout.writelines(difflib.unified_diff([w + "\n" for w in want], [a + "\n" for a in actual],
                                                   f"{doc} (documented)", "brook repl (actual)"))
        print(f"{doc}: the REPL sessions differ from what brook prints (above: - documented, + actual)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
