#!/usr/bin/env python3
"""The sweep runner's local behaviour (scripts/sweep.py, docs/SWEEPS.md):
collection, resumability, failure reports, parallelism, progress, and a real
experiment program's --point / --merge.  TAP output (tests/sweep/tap.py)."""
import glob
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(ROOT, "scripts", "sweep.py")
sys.path.insert(0, HERE)
import tap  # noqa: E402

FAKE = "tests/sweep/fake_point.py"


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="fg-sweep-test.")
        self.count = os.path.join(self.tmp, "count")
        self.env = dict(os.environ, FAKE_COUNT=self.count)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def exp(self, body, name="t", header=""):
        path = os.path.join(self.tmp, name + ".ini")
        with open(path, "w") as f:
            f.write(f"[experiment]\nprogram = {FAKE}\n{header}\n{body}")
        return path

    def run_sweep(self, *args, **kw):
        return subprocess.run([sys.executable, SWEEP, *args[:1], "--results", os.path.join(self.tmp, "res"),
                               *args[1:]], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120, **kw)

    def runs(self):
        try:
            with open(self.count) as f:
                return [json.loads(line) for line in f]
        except FileNotFoundError:
            return []

    def result(self, name="t"):
        with open(os.path.join(self.tmp, "res", name + ".json")) as f:
            return json.load(f)

    def test_collects_points_in_order(self):
        e = self.exp("[axis size]\nsmall = fake.n=1\nbig = fake.n=2 fake.m=x\n", header="seeds = 1-2\nseed_key = fake.seed")
        r = self.run_sweep("run", e, "-j", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        res = self.result()
        self.assertEqual([p["id"] for p in res["points"]],
                         ["size=small,seed=1", "size=small,seed=2", "size=big,seed=1", "size=big,seed=2"])
        self.assertEqual(res["axes"], ["size", "seed"])
        big2 = res["points"][3]
        self.assertEqual(big2["values"], {"size": "big"})
        self.assertEqual(big2["overrides"], ["fake.n=2", "fake.m=x", "fake.seed=2"])
        self.assertEqual(big2["result"]["values"], {"n": "2", "m": "x", "seed": "2"})

    def test_result_names_the_points_sources(self):
        """The result carries the points' sources fingerprint; points of two simulations make it "mixed"."""
        e = self.exp("[axis a]\nx = fake.sources=aaa\ny = fake.sources=aaa\n")
        self.assertEqual(self.run_sweep("run", e).returncode, 0)
        self.assertEqual(self.result()["sources"], "aaa")
        e = self.exp("[axis a]\nx = fake.sources=aaa\ny = fake.sources=bbb\n", name="m")
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 different simulations", r.stderr)
        self.assertEqual(self.result("m")["sources"], "mixed")
        self.assertEqual(self.result("m")["sources_of_points"], ["aaa", "bbb"])

    def test_extra_points_beyond_the_axes(self):
        e = self.exp("[axis m]\nx = fake.m=1\ny = fake.m=2\n[points alone]\nbg = fake.m=0 fake.alone=bg\n",
                     header="seeds = 1-2\nseed_key = fake.seed")
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 0, r.stderr)
        res = self.result()
        self.assertEqual([p["id"] for p in res["points"]],
                         ["m=x,seed=1", "m=x,seed=2", "m=y,seed=1", "m=y,seed=2", "alone=bg,seed=1", "alone=bg,seed=2"])
        self.assertEqual(res["points"][5]["values"], {"alone": "bg"})
        self.assertEqual(res["points"][5]["overrides"], ["fake.m=0", "fake.alone=bg", "fake.seed=2"])
        only = self.exp("[points p]\na = fake.a=1\nb = fake.a=2\n", name="only")
        self.assertEqual(self.run_sweep("run", only).returncode, 0)
        self.assertEqual([p["id"] for p in self.result("only")["points"]], ["p=a", "p=b"])

    def test_second_run_runs_nothing(self):
        e = self.exp("[axis a]\nx = fake.a=1\ny = fake.a=2\nz = fake.a=3\n")
        self.assertEqual(self.run_sweep("run", e).returncode, 0)
        self.assertEqual(len(self.runs()), 3)
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(self.runs()), 3, "a finished point ran again")
        self.assertIn("0 run, 3 already done", r.stderr)
        # a changed input makes the points stale: they run again
        inp = os.path.join(self.tmp, "input.txt")
        with open(inp, "w") as f:
            f.write("1")
        e2 = self.exp("[axis a]\nx = fake.a=1\n", name="u", header=f"inputs = {inp}")
        self.run_sweep("run", e2)
        self.run_sweep("run", e2)
        self.assertEqual(len(self.runs()), 4)
        with open(inp, "w") as f:
            f.write("2")
        self.run_sweep("run", e2)
        self.assertEqual(len(self.runs()), 5, "a point whose input changed did not run again")

    def test_failed_point_reported_others_finish(self):
        e = self.exp("[axis a]\np1 = fake.a=1\nbad = fake.fail=1\np3 = fake.a=3\np4 = fake.a=4\n")
        r = self.run_sweep("run", e, "-j", "1")
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAILED t a=bad: exit status 3", r.stderr)
        self.assertIn("command: tests/sweep/fake_point.py --set fake.fail=1 --point --out", r.stderr)
        self.assertIn("boom (as asked)", r.stderr, "log tail missing")
        self.assertIn("last words", r.stderr, "stderr of the point missing from its log")
        self.assertIn("3 run", r.stderr)
        self.assertEqual(len(self.runs()), 4, "the points after the failing one did not run")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "res", "t.json")), "collected despite a failure")
        # running again retries the failed point only
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(self.runs()), 5)
        st = self.run_sweep("status", e)
        self.assertIn("4 points: 3 done, 1 failed", st.stdout)

    def test_status_point_time(self):
        """status sums the done points' recorded run times per experiment, and over all of them; a failed
        point's time is not counted.  The recorded times are set by hand so the sums tell them apart."""
        a = self.exp("[axis a]\np1 = fake.a=1\np2 = fake.a=2\nbad = fake.fail=1\n", name="a")
        b = self.exp("[axis a]\nq = fake.a=3\n", name="b")
        self.run_sweep("run", a, b, "-j", "1")
        secs = {("a", "a=p1"): 100.0, ("a", "a=p2"): 20.0, ("a", "a=bad"): 4000.0, ("b", "a=q"): 3.0}
        for (exp, pid), t in secs.items():
            path = os.path.join(self.tmp, "res", "sweeps", exp, "points", pid + ".meta")
            with open(path) as f:
                m = json.load(f)
            self.assertEqual(m["rc"] != 0, pid == "a=bad")
            m["seconds"] = t
            with open(path, "w") as f:
                json.dump(m, f)
        st = self.run_sweep("status", a, b)
        self.assertIn("a: 3 points: 2 done, 1 failed, 0 stale, 0 todo; 120 s of point time (0.03 h)", st.stdout)
        self.assertIn("b: 1 points: 1 done, 0 failed, 0 stale, 0 todo; 3 s of point time", st.stdout)
        self.assertIn("all 2 experiments: 123 s of point time", st.stdout)

    def test_merge_failure_keeps_collecting(self):
        """An experiment whose merge fails is reported; the experiments after it are still collected."""
        bad = self.exp("[axis a]\nx = fake.a=1\n", name="bad", header="args = --set fake.merge_fail=1\ncollect = program")
        good = self.exp("[axis a]\nx = fake.a=1\n", name="good", header="collect = program")
        for cmd in ("run", "collect"):
            r = self.run_sweep(cmd, bad, good)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("bad: merging failed", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "res", "bad.json")))
            self.assertEqual(len(self.result("good")["merged"]), 1, f"{cmd}: the good experiment was not collected")
            os.remove(os.path.join(self.tmp, "res", "good.json"))

    def test_runs_points_in_parallel(self):
        # (2 s a point: the wall time also holds the sweep's start and its --check-config pass)
        e = self.exp("[axis a]\n" + "".join(f"p{i} = fake.sleep=2 fake.i={i}\n" for i in range(4)))
        t0 = time.monotonic()
        r = self.run_sweep("run", e, "-j", "4")
        wall = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        pts = [p["result"] for p in self.result()["points"]]
        most = max(sum(1 for q in pts if q["start"] < p["end"] and p["start"] < q["end"]) for p in pts)
        self.assertGreaterEqual(most, 3, "points did not overlap in time")
        self.assertLess(wall, sum(p["end"] - p["start"] for p in pts), "no faster than one at a time")

    def test_progress_on_terminal_quiet_otherwise(self):
        e = self.exp("[axis a]\n" + "".join(f"p{i} = fake.sleep=0.7 fake.i={i}\n" for i in range(3)))
        r = self.run_sweep("run", e, "-j", "1")
        self.assertEqual(r.returncode, 0)
        self.assertNotIn("ETA", r.stderr)
        self.assertNotIn("\r", r.stderr)
        # one line as the experiment's last point finishes (make demo runs several), summary, "wrote"
        self.assertEqual(len(r.stderr.strip().splitlines()), 3, r.stderr)
        self.assertRegex(r.stderr.splitlines()[0], r"^sweep: t: 3 points finished, 0 failed \(0:0[1-9]\)$")
        shutil.rmtree(os.path.join(self.tmp, "res"))
        master, slave = pty.openpty()
        p = subprocess.Popen([sys.executable, SWEEP, "run", "--results", os.path.join(self.tmp, "res"), "-j", "1", e],
                             cwd=ROOT, env=dict(self.env, TERM="xterm"), stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        out = b""
        while True:
            if select.select([master], [], [], 30)[0]:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            else:
                break
        p.wait(timeout=30)
        os.close(master)
        text = out.decode(errors="replace")
        self.assertIn("ETA", text)
        self.assertIn("running", text)
        self.assertIn("ok   t a=p0", text)

    def procs_under_tmp(self):
        """pids of the processes whose command line names this test's directory (the points)."""
        pids = []
        for d in os.listdir("/proc"):
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if self.tmp.encode() in f.read() and int(d) != os.getpid():
                        pids.append(int(d))
            except (OSError, ValueError):
                pass
        return pids

    def wait_for(self, what, timeout=30):
        t0 = time.monotonic()
        while not what():
            self.assertLess(time.monotonic() - t0, timeout, "timed out")
            time.sleep(0.1)

    def test_sigterm_sighup_stop_points(self):
        """SIGTERM / SIGHUP (a Slurm time-out, a closed terminal) are handled as Ctrl-C: the running
        points are stopped (no orphans), their partial files removed, one line says so."""
        for sig in (signal.SIGTERM, signal.SIGHUP):
            e = self.exp("[axis a]\n" + "".join(f"p{i} = fake.sleep=60 fake.partial=1 fake.i={i}\n"
                                                for i in range(3)), name=f"s{sig.value}")
            p = subprocess.Popen([sys.executable, SWEEP, "run", "--results", os.path.join(self.tmp, "res"),
                                  "-j", "2", e], cwd=ROOT, env=self.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            parts = os.path.join(self.tmp, "res", "sweeps", f"s{sig.value}", "points")
            self.wait_for(lambda: len(glob.glob(os.path.join(parts, "*.json.part"))) == 2)
            p.send_signal(sig)
            out, err = p.communicate(timeout=30)
            self.assertEqual(p.returncode, 128 + sig.value, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(f"sweep: {sig.name}: stopped 2 running point(s), removed their partial files", err)
            self.wait_for(lambda: not self.procs_under_tmp(), 5)
            self.assertEqual(glob.glob(os.path.join(parts, "*.part")), [])

    def test_exec_sigterm(self):
        """The Slurm array task (`sweep.py exec`) on SIGTERM (Slurm's time-out, scancel): stops its point,
        removes the partial file, records the point as failed with the reason, one line."""
        d = os.path.join(self.tmp, "pts")
        os.makedirs(d)
        base = os.path.join(d, "x")
        argv = [FAKE, "--set", "fake.sleep=60", "--set", "fake.partial=1", "--point", "--out", base + ".json.part"]
        entry = {"id": "x", "argv": argv, "json": base + ".json", "part": base + ".json.part",
                 "log": base + ".log", "meta": base + ".meta", "key": "k"}
        man = os.path.join(self.tmp, "manifest.json")
        with open(man, "w") as f:
            json.dump({"root": ROOT, "build": "build", "points": [entry]}, f)
        p = subprocess.Popen([sys.executable, SWEEP, "exec", man, "0"], cwd=ROOT, env=self.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.wait_for(lambda: os.path.exists(entry["part"]))
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM.value, out + err)
        self.assertEqual(len((out + err).strip().splitlines()), 1, out + err)
        self.assertIn("x: stopped by SIGTERM", out + err)
        self.wait_for(lambda: not self.procs_under_tmp(), 5)
        self.assertFalse(os.path.exists(entry["part"]))
        with open(entry["meta"]) as f:
            meta = json.load(f)
        self.assertNotEqual(meta["rc"], 0)
        self.assertIn("SIGTERM", meta["error"])

    def test_description_errors(self):
        r = self.run_sweep("run", self.exp("[axis a]\nx = fake.a=1\n", header="colect = list"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown key(s) colect", r.stderr)
        r = self.run_sweep("run", self.exp("[axis a]\nx = a=1\n", name="v"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("'a=1' is not section.key=value", r.stderr)

    def test_bad_numbers_one_line(self):
        """seeds / time limits that are not whole numbers: one line, exit 2, no traceback, nothing run."""
        for i, (hdr, want) in enumerate([
                ("seeds = 5-1\nseed_key = fake.seed", "ends before it starts"),
                ("seeds = 1-x\nseed_key = fake.seed", "expected a whole number"),
                ("seeds = 010\nseed_key = fake.seed", "leading zero"),
                ("time_limit_minutes = ten", "time_limit_minutes 'ten'"),
                ("memory_mb = 1e3", "memory_mb '1e3'")]):
            r = self.run_sweep("run", self.exp("[axis a]\nx = fake.a=1\n", name=f"n{i}", header=hdr))
            self.assertEqual(r.returncode, 2, hdr)
            self.assertIn(want, r.stderr, hdr)
            self.assertNotIn("Traceback", r.stderr, hdr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        r = self.run_sweep("run", self.exp("[axis a]\nx = fake.a=1\n", name="j"), "-j", "2x")
        self.assertEqual(r.returncode, 2)
        self.assertIn("'2x'", r.stderr)
        self.assertEqual(self.runs(), [])

    def test_every_point_checked_before_any_runs(self):
        """one point's overrides refused by the program's --check-config: no point runs, no result."""
        e = self.exp("[axis a]\np0 = fake.a=0\np1 = fake.a=1\np2 = fake.a=2 fake.bad=1\n")
        r = self.run_sweep("run", e, "-j", "1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("not running anything: t point a=p2: fake_point: --set fake.bad=1: refused", r.stderr)
        self.assertEqual(self.runs(), [])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "res", "t.json")))
        os.remove(self.count + ".checks")
        r = self.run_sweep("run", self.exp("[axis a]\np0 = fake.a=0\np1 = fake.a=1\n", name="ok"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.count + ".checks") as f:
            self.assertEqual(len(f.readlines()), 2)

    def test_real_program_refuses_unread_section(self):
        """preemption_latency's --check-config refuses [preemt]: the sweep runs nothing."""
        e = self.exp("[axis a]\nx = preemt.enable=0\n", header="name = pl\nargs = --set preemption_latency.size=test")
        with open(e) as f:
            text = f.read().replace(f"program = {FAKE}", "program = preemption_latency")
        with open(e, "w") as f:
            f.write(text)
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("does not read section [preemt]", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "res", "pl.json")))

    def test_program_point_and_merge(self):
        """launch_latency as a one-point experiment: --point, then --merge prints the figures."""
        e = self.exp("", header="name = ll\nargs = --config configs/edge.ini --impl c --set launch_latency.events=2 "
                                "--set launch_latency.e2e_events=2\ncollect = program")
        with open(e) as f:
            text = f.read().replace(f"program = {FAKE}", "program = launch_latency")
        with open(e, "w") as f:
            f.write(text)
        r = self.run_sweep("run", e)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("Event-kernel launch latency", r.stdout)
        self.assertIn("End-to-end", r.stdout)
        res = self.result("ll")
        self.assertEqual(res["experiment"], "launch-latency")
        self.assertEqual(res["events"], 2)
        self.assertGreater(res["speedup"], 1)
        self.assertEqual(res["packets_wrong"], 0)
        # the simulator stamps its sources fingerprint into the point, and the result keeps it
        fp = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "provenance.py"), "fingerprint"],
                            capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(res["sources"], fp)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
