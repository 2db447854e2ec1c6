#!/usr/bin/env python3
"""Drives `brook repl` in a real terminal (a pty): history recall across
sessions, tab completion, Ctrl-C interrupting an infinite loop and clearing a
half-typed line, Ctrl-D leaving; then, for each backend named after BROOK,
Ctrl-C stopping a kernel that never ends, after `:backend` moved the session's
streams there. Usage: repl_pty.py BROOK [BACKEND...]"""
import faulthandler
import os
import pty
import re
import select
import sys
import tempfile
import time

BROOK = sys.argv[1]
BACKENDS = sys.argv[2:]
UP, TAB, CTRL_C, CTRL_D = "\x1b[A", "\t", "\x03", "\x04"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")
SESSIONS = []  # every brook started, killed at the end if still running
STEP = ["start"]  # what the test was doing, for the failure message


def step(what):
    STEP[0] = what


class Session:
    def __init__(self, history):
        # Sessions start on the interpreter; `:backend` moves them elsewhere.
        env = dict(os.environ, BROOK_HISTORY=history, TERM="xterm", NO_COLOR="1", HOME=os.path.dirname(history),
                   BROOK_BACKEND="interp")
        env.pop("INPUTRC", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(BROOK, [BROOK, "repl"], env)
        SESSIONS.append(self)
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
        # Keys typed before readline takes the terminal can be flushed, so
        # Ctrl-D is sent again while brook is still there.
        self.send(CTRL_D)
        deadline = time.time() + 10
        resend = time.time() + 2
        while time.time() < deadline:
            if time.time() > resend:
                self.send(CTRL_D)
                resend = time.time() + 2
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                if select.select([self.fd], [], [], 0.1)[0]:
                    os.read(self.fd, 4096)
            except OSError:
                pass
        os.kill(self.pid, 9)
        raise AssertionError("brook did not exit on Ctrl-D")

    def kill(self):
        try:
            if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                os.kill(self.pid, 9)
                deadline = time.time() + 10
                while time.time() < deadline and os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                    time.sleep(0.05)
        except (ChildProcessError, ProcessLookupError):
            pass


def interrupt_until_stopped(s, timeout=60.0):
    """Ctrl-C, repeated every few seconds: compiling a kernel (PoCL's first
    build especially) may take a while, and Ctrl-C must stop the launch."""
    deadline = time.time() + timeout
    while True:
        s.send(CTRL_C)
        try:
            s.read_until(r"interrupted", timeout=3.0)
            return
        except AssertionError:
            if time.time() > deadline:
                raise


def interrupt_kernels(history):
    """Ctrl-C inside `spin` on each compiled backend; the session and the
    streams it moved there stay usable."""
    checks = 0
    step("kernels spinning on compiled backends")
    s = Session(history)
    s.prompt()
    s.send("kernel void spin(float a<>, out float b<>) { while (true) {} b = a; }\r")
    s.prompt()
    s.send("kernel void inc(float a<>, out float b<>) { b = a + 1.0f; }\r")
    s.prompt()
    s.send("float xs<64>, ys<64>; float zeros[64];\r")
    s.prompt()
    for backend in BACKENDS:
        if backend == "interp":
            continue  # the `stuck` kernel above already ran there
        step(f"Ctrl-C in a kernel on {backend}")
        # On the interpreter: xs all 0, ys all 1.
        s.send("streamRead(xs, zeros); inc(xs, ys);\r")
        s.prompt()
        s.send(f":backend {backend}\r")
        s.read_until(rf"backend: {backend} \(2 streams moved from interp\)")
        s.prompt()
        for _ in range(2):  # the kernel can be stopped again and again
            s.send("spin(xs, ys);\r")
            # Ctrl-C flushes the terminal's unread input: send it only once
            # readline has taken the whole line (its echo ends the line).
            s.read_until(r"spin\(xs, ys\);\n")
            interrupt_until_stopped(s)
            s.prompt()
        # xs, only read by the interrupted launches, still holds 0.
        s.send("inc(xs, ys); ys.domain(0, 3)\r")
        s.read_until(r"\nfloat<3>\r?\n\[1, 1, 1\]\r?\n")
        s.prompt()
        s.send("inc(ys, xs); xs.domain(61, 64)\r")
        s.read_until(r"\nfloat<3>\r?\n\[2, 2, 2\]\r?\n")
        s.prompt()
        s.send(":backend interp\r")
        s.read_until(r"backend: interp \(2 streams moved")
        s.prompt()
        checks += 2
    assert s.finish() == 0
    return checks


def main():
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        history = os.path.join(tmp, "history")

        # Session 1: a declaration goes into the history file.
        step("history: first session")
        s = Session(history)
        s.prompt()
        s.send("int recalled_value = 1234;\r")
        s.prompt()
        assert s.finish() == 0, "Ctrl-D should exit with status 0"
        with open(history) as f:
            assert "int recalled_value = 1234;" in f.read(), "history file lacks the entry"
        checks += 2

        # Session 2: Up recalls it from the file; Tab completes names and commands.
        step("history recall and completion")
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
        step("Ctrl-C in a host loop")
        s.prompt()
        s.send("int spins = 0;\r")
        s.prompt()
        # The loop says when it runs, so Ctrl-C is sent only then (no sleeps:
        # on a busy machine a fixed delay can fire before the loop starts).
        s.send("while (1) { if (spins++ == 0) printf(\"%d spins\\n\", spins); }\r")
        s.read_until(r"1 spins")
        interrupt_until_stopped(s)
        s.prompt()
        s.send("spins > 0\r")
        s.read_until(r"\n1\n")
        checks += 1

        # ... and a kernel stuck in a loop.
        step("Ctrl-C in a kernel on interp")
        s.prompt()
        s.send("kernel void stuck(out float y<>) { printf(\"%d looping\\n\", 7); while (1) { y += 1.0f; } }\r")
        s.prompt()
        s.send("float ys<8>;\r")
        s.prompt()
        s.send("stuck(ys);\r")
        s.read_until(r"7 looping")
        interrupt_until_stopped(s)
        s.prompt()
        s.send("6 * 7\r")
        s.read_until(r"\n42\n")
        checks += 1

        # Ctrl-C at the prompt drops a half-typed entry, multi-line ones too.
        step("Ctrl-C at the prompt")
        s.prompt()
        s.send("int half = (\r")
        s.read_until(r"\.\.\. ")
        # The "... " prompt is printed a moment before readline takes the
        # terminal back; a Ctrl-C in that gap is not seen, so repeat it.
        for attempt in range(10):
            s.send(CTRL_C)
            try:
                s.read_until(r"(^|\n)> ", timeout=2.0)
                break
            except AssertionError:
                if attempt == 9:
                    raise
        s.send("recalled_value + 1\r")
        s.read_until(r"\n1235\n")
        s.prompt()
        checks += 1
        assert s.finish() == 0

        checks += interrupt_kernels(history)
        checks += multiline_history(os.path.join(tmp, "history2"))
    print(f"repl_pty: {checks} checks passed")


def multiline_history(history):
    """A multi-line entry is one history item, also across sessions."""
    step("multi-line history: first session")
    s = Session(history)
    s.prompt()
    s.send("int twice(int k) {\r")
    s.read_until(r"\.\.\. ")
    s.send("  return 2 * k;\r")
    s.read_until(r"\.\.\. ")
    s.send("}\r")
    s.prompt()
    assert s.finish() == 0
    step("multi-line history: recalled whole")
    s = Session(history)
    s.prompt()
    s.send(UP)
    s.read_until(r"return 2 \* k;")
    s.send("\r")
    s.prompt()
    # Defined only if Up brought back all three lines.
    s.send("twice(21)\r")
    s.read_until(r"\n42\r?\n")
    s.prompt()
    step("completion of command arguments and .domain")
    s.send(":backend " + TAB + TAB)
    s.read_until(r"interp\s+jit\s+opencl")
    s.send("in" + TAB + "\r")
    s.read_until(r"backend: interp\r?\n")
    s.prompt()
    s.send("float wide<4>;\r")
    s.prompt()
    s.send("wide.do" + TAB)
    s.read_until(r"wide\.domain\(")
    s.send("1, 3)\r")
    s.read_until(r"float<2>\r?\n\[0, 0\]")
    s.prompt()
    assert s.finish() == 0
    return 3


if __name__ == "__main__":
    # A hang shows where it happened before ctest's timeout kills us silently.
    faulthandler.dump_traceback_later(150, exit=True)
    try:
        main()
    except AssertionError as e:
        print(f"repl_pty: FAILED ({STEP[0]}): {e}")
        sys.exit(1)
    finally:
        for session in SESSIONS:
            session.kill()
