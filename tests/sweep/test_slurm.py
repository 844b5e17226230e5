#!/usr/bin/env python3
"""The sweep runner on Slurm: starts a single-node cluster on this machine
(scripts/slurm_cluster.sh), submits the tiny launch-latency sweep
(tests/sweep/tiny_launch.ini) through `sbatch --array`, checks the collected
results equal the local runner's for the same points, that a second run
submits nothing, that a failing array task is reported with its log and that
a run after `--no-wait` waits for the submitted jobs instead of submitting
them again; the cluster is always stopped.  TAP output (tests/sweep/tap.py)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(ROOT, "scripts", "sweep.py")
CLUSTER = os.path.join(ROOT, "scripts", "slurm_cluster.sh")
TINY = os.path.join(HERE, "tiny_launch.ini")
sys.path.insert(0, HERE)
import tap  # noqa: E402

TIMING = {"wall_seconds", "cpu_seconds"}


def strip_timing(o):
    if isinstance(o, dict):
        return {k: strip_timing(v) for k, v in o.items() if k not in TIMING}
    if isinstance(o, list):
        return [strip_timing(v) for v in o]
    return o


class SlurmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="fg-slurm-test.")
        cls.t0 = time.monotonic()
        cls.env = dict(os.environ)
        r = subprocess.run([CLUSTER, "start", os.path.join(cls.tmp, "cluster")], capture_output=True, text=True,
                           timeout=60)
        if r.returncode:
            shutil.rmtree(cls.tmp, ignore_errors=True)
            raise RuntimeError(f"single-node cluster did not start:\n{r.stderr}")
        cls.env["SLURM_CONF"] = os.path.join(cls.tmp, "cluster", "slurm.conf")
        cls.up = time.monotonic() - cls.t0

    @classmethod
    def tearDownClass(cls):
        subprocess.run([CLUSTER, "stop", os.path.join(cls.tmp, "cluster")], timeout=30)
        shutil.rmtree(cls.tmp, ignore_errors=True)
        print(f"# cluster up in {cls.up:.1f} s; whole Slurm test {time.monotonic() - cls.t0:.1f} s")

    def sweep(self, results, *args):
        return subprocess.run([sys.executable, SWEEP, "run", "--results", os.path.join(self.tmp, results),
                               "--poll", "0.3", "--fs-grace", "2", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=120)

    def test_1_cluster_answers(self):
        r = subprocess.run(["sinfo", "-h", "-o", "%P %a %D %t"], env=self.env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("debug* up 1 idle", r.stdout)

    def test_2_slurm_equals_local(self):
        loc = self.sweep("local", "-j", "2", TINY)
        self.assertEqual(loc.returncode, 0, loc.stderr)
        slu = self.sweep("slurm", "--slurm", TINY)
        self.assertEqual(slu.returncode, 0, slu.stderr)
        self.assertIn("submitted 4 point(s) as Slurm job array", slu.stderr)
        with open(os.path.join(self.tmp, "local", "tiny_launch.json")) as f:
            a = json.load(f)
        with open(os.path.join(self.tmp, "slurm", "tiny_launch.json")) as f:
            b = json.load(f)
        self.assertEqual(len(b["points"]), 4)
        self.assertEqual(strip_timing(a), strip_timing(b))
        # the seeds really differ, and every point was an array task
        self.assertNotEqual(b["points"][0]["result"]["baseline"], b["points"][1]["result"]["baseline"])
        outs = os.listdir(os.path.join(self.tmp, "slurm", "sweeps", "tiny_launch", "slurm"))
        self.assertEqual(len([o for o in outs if o.endswith(".out")]), 4, outs)
        again = self.sweep("slurm", "--slurm", TINY)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertNotIn("submitted", again.stderr)
        self.assertIn("0 run, 4 already done", again.stderr)

    def test_3_failing_task_reported(self):
        exp = os.path.join(self.tmp, "fail.ini")
        with open(exp, "w") as f:
            f.write("[experiment]\nprogram = tests/sweep/fake_point.py\n[axis a]\nok = fake.a=1\nbad = fake.fail=1\n")
        r = self.sweep("fail", "--slurm", exp)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("FAILED fail a=bad: exit status 3", r.stderr)
        self.assertIn("boom (as asked)", r.stderr)
        self.assertIn("1 run", r.stderr)

    def test_4_no_wait_then_attach(self):
        """--no-wait submits and returns; the next run waits for those jobs instead of submitting again."""
        r = self.sweep("nowait", "--slurm", "--no-wait", TINY)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("submitted 4 point(s)", r.stderr)
        r = self.sweep("nowait", "--slurm", TINY)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("submitted 4", r.stderr)
        with open(os.path.join(self.tmp, "nowait", "tiny_launch.json")) as f:
            self.assertEqual(len(json.load(f)["points"]), 4)


if __name__ == "__main__":
    if os.geteuid() != 0 or not shutil.which("slurmctld"):
        print("1..0 # SKIP needs root and slurm-wlm (scripts/deps.sh)")
        sys.exit(0)
    tap.main(sys.modules[__name__])
