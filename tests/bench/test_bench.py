#!/usr/bin/env python3
"""make bench's plumbing (mk/bench.mk).  Its base build (scripts/bench_speed.py
build_base) leaves this build alone: run the way mk/bench.mk runs it (a make
above it exporting BUILD, COV, ..., with MAKEFLAGS and its jobserver), against
a throwaway git repository whose Makefile is a stand-in for the base's
(`BUILD ?= build`, its output under $(BUILD)).  The step lists make demo,
bench, results and wave split on spaces hold one program or script per word.
TAP output (tests/sweep/tap.py)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
import tap  # noqa: E402

# the base's Makefile: what it builds into, and what it inherited
BASE_MK = """BUILD ?= build
build:
\tmkdir -p $(BUILD)
\techo "level=$(MAKELEVEL) build=$(origin BUILD) cov=$(origin COV) san=$(origin SAN) python=$(origin PYTHON)" \\
\t  >$(BUILD)/marker
{extra}
"""

# mk/bench.mk's `bench` in little: this build's BUILD exported and on the step's environment
OUTER_MK = """BUILD ?= build
export BUILD
COV ?=
export COV
PYTHON := python3
export PYTHON
bench:
\t@BUILD=$(abspath $(BUILD)) python3 -c 'import sys; sys.path.insert(0, "{scripts}"); import bench_speed; \\
\t  bench_speed.build_base("HEAD", "$(abspath $(BUILD))", "1", root=".")'
"""


def top_env():
    """The environment of a make run as the top make: nothing of the make running this test."""
    return {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}


class BaseBuildTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fg-bench-base-test.")
        self.repo = os.path.join(self.tmp, "repo")
        self.build = os.path.join(self.repo, "build")
        os.makedirs(self.build)
        self.git("init", "-q")
        with open(os.path.join(self.tmp, "outer.mk"), "w") as f:
            f.write(OUTER_MK.format(scripts=os.path.join(ROOT, "scripts")))
        # this build: a library and a program the base must not overwrite
        for name in ("libfg.a", "bin/fg_run"):
            os.makedirs(os.path.dirname(os.path.join(self.build, name)), exist_ok=True)
            with open(os.path.join(self.build, name), "w") as f:
                f.write("this build's " + name)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def git(self, *args):
        subprocess.run(["git", "-C", self.repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c",
                        "commit.gpgsign=false", *args], check=True, capture_output=True)

    def commit_base(self, extra=""):
        with open(os.path.join(self.repo, "Makefile"), "w") as f:
            f.write(BASE_MK.format(extra=extra))
        self.git("add", "Makefile")
        self.git("commit", "-q", "-m", "base")

    def snapshot(self):
        out = {}
        for d, dirs, files in os.walk(self.build):
            if d == self.build:
                dirs[:] = [x for x in dirs if x != "bench-base"]
            for f in files:
                p = os.path.join(d, f)
                with open(p) as fh:
                    out[os.path.relpath(p, self.build)] = (fh.read(), os.stat(p).st_mtime_ns)
        return out

    def bench(self, *make_args):
        return subprocess.run(["make", "-s", "-C", self.repo, "-f", "../outer.mk", "-j2", *make_args, "bench"],
                              capture_output=True, text=True, timeout=60, env=top_env())

    def check_isolated(self, *make_args):
        self.commit_base()
        before = self.snapshot()
        r = self.bench(*make_args)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(self.snapshot(), before, "the base's build changed this build")
        marker = os.path.join(self.build, "bench-base", "src", "build", "marker")
        self.assertTrue(os.path.exists(marker), "the base's build is not under bench-base/src/build")
        with open(marker) as f:
            got = f.read().split()
        # a make of its own (not a sub-make), BUILD from its command line, nothing else inherited
        self.assertEqual(got, ["level=0", "build=command", "line", "cov=undefined", "san=undefined",
                               "python=undefined"])

    def test_plain_make_bench(self):
        """`make bench` as README gives it: BUILD exported, absolute."""
        self.check_isolated()

    def test_command_line_variables(self):
        """`make bench BUILD=<abs> SAN=1`: MAKEFLAGS carries them to every make below."""
        self.check_isolated(f"BUILD={self.build}", "SAN=1")

    def test_guard(self):
        """A base whose build writes into this build anyway: the bench stops, naming the file."""
        self.commit_base(extra=f"\ttouch {self.build}/libfg.a")
        r = self.bench()
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("building the base changed 1 file(s) of this build", r.stderr)
        self.assertIn("libfg.a", r.stderr)


# the lists whose recipes run `$(foreach s,$(LIST),$(s);)`: one command per word
STEP_LISTS = ("DEMO_STEPS", "BENCH_STEPS", "RESULTS_STEPS", "WAVES")


class StepListTest(unittest.TestCase):
    def test_one_command_per_word(self):
        """Every word of a step list is a program of this build or a script of the tree."""
        shown = " ".join(f'"{v} $({v})"' for v in ("BUILD", "PROGRAMS") + STEP_LISTS)
        show = f"fg-show-steps: ; @printf '%s\\n' {shown}"
        r = subprocess.run(["make", "-s", "-C", ROOT, "--eval", show, "fg-show-steps"], capture_output=True,
                           text=True, env=top_env(), timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        var = {ln.split(" ", 1)[0]: ln.split()[1:] for ln in r.stdout.splitlines()}
        progs = {f"{var['BUILD'][0]}/bin/{p}" for p in var["PROGRAMS"]}
        for lst in STEP_LISTS:
            self.assertTrue(var[lst], f"{lst} is empty")
            for w in var[lst]:
                ok = w in progs or (os.path.isfile(os.path.join(ROOT, w)) and os.access(os.path.join(ROOT, w), os.X_OK))
                self.assertTrue(ok, f"{lst}: {w!r} is not a program of this build or a script of the tree "
                                    f"(one command per word: {' '.join(var[lst])})")


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
