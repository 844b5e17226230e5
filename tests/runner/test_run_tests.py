#!/usr/bin/env python3
"""make test's runner (scripts/run_tests.sh) and make demo's step runner
(scripts/run_steps.sh) say what finished as it finishes: one line per test
or step (name, result, seconds) while the others still run, on a terminal
also a progress line (done / total, ETA), and the runner's last line stays
"N passed, N failed" (CI parses it).  TAP output (tests/sweep/tap.py)."""
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
import tap  # noqa: E402


def read_timed(fd, timeout=60):
    """(seconds since start, line) for each line read from fd until EOF."""
    t0, buf, out = time.monotonic(), b"", []
    while time.monotonic() - t0 < timeout:
        if not select.select([fd], [], [], 1)[0]:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # a pty's EOF
            break
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            out.append((time.monotonic() - t0, line.decode(errors="replace")))
    if buf:
        out.append((time.monotonic() - t0, buf.decode(errors="replace")))
    return out


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fg-runner-test.")
        self.env = dict(os.environ, BUILD=os.path.join(self.tmp, "build"), TERM="xterm")
        self.progs = {}
        for name, body in (("fast_ok.sh", "echo hi"), ("slow_ok.sh", "sleep 4"),
                           ("tap_bad.sh", "echo 1..2; echo ok 1 - a; echo not ok 2 - b")):
            p = os.path.join(self.tmp, name)
            with open(p, "w") as f:
                f.write(f"#!/bin/sh\n{body}\n")
            os.chmod(p, 0o755)
            self.progs[name] = p

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def cmd(self):
        return [os.path.join(ROOT, "scripts", "run_tests.sh"), "2",
                self.progs["slow_ok.sh"], self.progs["fast_ok.sh"], self.progs["tap_bad.sh"]]

    def test_line_per_test_as_it_finishes(self):
        p = subprocess.Popen(self.cmd(), cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = read_timed(p.stdout.fileno())
        p.wait(timeout=30)
        end = lines[-1][0]
        text = "\n".join(t for _, t in lines)
        self.assertNotIn("\r", text, "a progress line without a terminal")
        fast = [t for t, line in lines if "fast_ok.sh" in line]
        self.assertTrue(fast, text)
        self.assertLess(fast[0], end - 2, "fast_ok.sh's line came only at the end:\n" + text)
        self.assertRegex(text, r"PASS +fast_ok\.sh .* \d+s")
        self.assertRegex(text, r"FAIL +tap_bad\.sh .* \d+s")
        self.assertEqual(lines[-1][1], "3 passed, 1 failed", text)
        self.assertEqual(p.returncode, 1)

    def test_progress_on_terminal(self):
        master, slave = pty.openpty()
        p = subprocess.Popen(self.cmd(), cwd=ROOT, env=self.env, stdout=slave, stderr=slave)
        os.close(slave)
        lines = read_timed(master)
        p.wait(timeout=30)
        os.close(master)
        text = "\n".join(t for _, t in lines)
        self.assertRegex(text, r"\d+/3 done", text)
        self.assertIn("ETA", text)
        last = re.sub(r".*\r(\x1b\[K)?", "", lines[-1][1].rstrip("\r")) if lines else ""
        self.assertEqual(last, "3 passed, 1 failed", repr(text[-300:]))

    def test_demo_steps_line_each(self):
        p = subprocess.Popen([os.path.join(ROOT, "scripts", "run_steps.sh"), "demo",
                              self.progs["fast_ok.sh"], self.progs["slow_ok.sh"]],
                             cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = read_timed(p.stdout.fileno())
        p.wait(timeout=30)
        text = "\n".join(t for _, t in lines)
        self.assertEqual(p.returncode, 0, text)
        self.assertRegex(text, r"demo: step 1/2 fast_ok\.sh ok \(\d+ s, ")
        self.assertRegex(text, r"demo: step 2/2 slow_ok\.sh ok \([4-9] s, ")
        # a failing step ends the run with its status, naming it
        p = subprocess.run([os.path.join(ROOT, "scripts", "run_steps.sh"), "demo", self.progs["tap_bad.sh"],
                            "false", self.progs["fast_ok.sh"]], cwd=ROOT, env=self.env, capture_output=True,
                           text=True, timeout=30)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("demo: step 2/3 false FAILED (exit status 1", p.stdout + p.stderr)
        self.assertNotIn("step 3/3", p.stdout + p.stderr)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
