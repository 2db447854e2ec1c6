#!/usr/bin/env python3
"""Drives `brook repl` in a real terminal (a pty): history recall across
sessions, tab completion, Ctrl-C interrupting an infinite loop and clearing a
half-typed line, Ctrl-D leaving. Usage: repl_pty.py BROOK"""
import os
import pty
import re
import select
import sys
import tempfile
import time

BROOK = sys.argv[1]
UP, TAB, CTRL_C, CTRL_D = "\x1b[A", "\t", "\x03", "\x04"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


class Session:
    def __init__(self, history):
        # Kernels poll for Ctrl-C on the interpreter; compiled backends do not (yet).
        env = dict(os.environ, BROOK_HISTORY=history, TERM="xterm", NO_COLOR="1", HOME=os.path.dirname(history),
                   BROOK_BACKEND="interp")
        env.pop("INPUTRC", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(BROOK, [BROOK, "repl"], env)
        self.seen = ""  # everything read so far, escape sequences removed

    def read_until(self, pattern, timeout=10.0):
        deadline = time.time() + timeout
        regex = re.compile(pattern)
        while True:
            m = regex.search(self.seen)
            if m:
                self.seen = self.seen[m.end():]
                return m
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; got {self.seen[-400:]!r}")
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    data = os.read(self.fd, 4096).decode(errors="replace")
                except OSError:
                    data = ""
                if not data:
                    raise AssertionError(f"brook ended while waiting for {pattern!r}; got {self.seen[-400:]!r}")
                self.seen += ANSI.sub("", data)

    def send(self, text):
        os.write(self.fd, text.encode())

    def prompt(self):
        self.read_until(r"(^|\n)> ")

    def finish(self):
        self.send(CTRL_D)
        deadline = time.time() + 10
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                select.select([self.fd], [], [], 0.1)
                os.read(self.fd, 4096)
            except OSError:
                pass
        os.kill(self.pid, 9)
        raise AssertionError("brook did not exit on Ctrl-D")


def main():
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        history = os.path.join(tmp, "history")

        # Session 1: a declaration goes into the history file.
        s = Session(history)
        s.prompt()
        s.send("int recalled_value = 1234;\r")
        s.prompt()
        assert s.finish() == 0, "Ctrl-D should exit with status 0"
        with open(history) as f:
            assert "int recalled_value = 1234;" in f.read(), "history file lacks the entry"
        checks += 2

        # Session 2: Up recalls it from the file; Tab completes names and commands.
        s = Session(history)
        s.prompt()
        s.send(UP)
        s.read_until(r"int recalled_value = 1234;")
        s.send("\r")
        s.prompt()
        s.send("recalled_va" + TAB)
        s.read_until(r"recalled_value")
        s.send("\r")
        s.read_until(r"\n1234\n")
        checks += 2
        s.prompt()
        s.send(":str" + TAB)
        s.read_until(r":streams")
        s.send("\r")
        s.read_until(r"no live streams")
        checks += 1

        # Ctrl-C stops an infinite host loop; the session and its state survive.
        s.prompt()
        s.send("int spins = 0;\r")
        s.prompt()
        s.send("while (1) { spins++; }\r")
        time.sleep(0.7)
        s.send(CTRL_C)
        s.read_until(r"interrupted")
        s.prompt()
        s.send("spins > 0\r")
        s.read_until(r"\n1\n")
        checks += 1

        # ... and a kernel stuck in a loop.
        s.prompt()
        s.send("kernel void stuck(out float y<>) { while (1) { y += 1.0f; } }\r")
        s.prompt()
        s.send("float ys<8>;\r")
        s.prompt()
        s.send("stuck(ys);\r")
        time.sleep(0.7)
        s.send(CTRL_C)
        s.read_until(r"interrupted")
        s.prompt()
        s.send("6 * 7\r")
        s.read_until(r"\n42\n")
        checks += 1

        # Ctrl-C at the prompt drops a half-typed entry, multi-line ones too.
        s.prompt()
        s.send("int half = (")
        time.sleep(0.2)
        s.send("\r")
        s.read_until(r"\.\.\. ")
        s.send(CTRL_C)
        s.prompt()
        s.send("recalled_value + 1\r")
        s.read_until(r"\n1235\n")
        checks += 1
        assert s.finish() == 0
    print(f"repl_pty: {checks} checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"repl_pty: FAILED: {e}")
        sys.exit(1)
