#!/usr/bin/env python3
"""make fpga's top flow (scripts/fpga_top.py, docs/FPGA.md "Building") with
stand-in tools: what results/fpga.json says for each way a run can end
(routed, missed clock, over capacity, nextpnr error, nextpnr stopped at its
time limit), that the per-block entries of the file survive, that synthesis
is skipped when its inputs are unchanged and that a BUILD the WebAssembly
tools cannot write to is refused.  Seconds, no Yosys or nextpnr: the real
flow is `make fpga`.  TAP output (tests/sweep/tap.py)."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
import tap  # noqa: E402

# One stand-in for all three tools, chosen by its name; FAKE_PNR picks how
# nextpnr ends.  The packed-design table is in nextpnr's log format.
FAKE = r'''#!/usr/bin/env python3
import json, os, re, signal, sys, time
tool, args = os.path.basename(sys.argv[0]), sys.argv[1:]
def arg(name):
    return args[args.index(name) + 1]
if tool == "yosys":
    script = arg("-p")
    with open(os.environ["FAKE_COUNT"], "a") as f:
        f.write("yosys\n")
    open(re.search(r"write_json (\S+)", script).group(1), "w").write("{}")
    open(re.search(r"-o (\S+) stat", script).group(1), "w").write("     LUT4     5000\n     LUT4      100\n")
elif tool == "ecppack":
    open(args[-1], "w").write("bits")
elif args == ["--version"]:
    print('"nextpnr" -- Next Generation Place and Route (Version nextpnr-fake)', file=sys.stderr)
else:
    mode = os.environ["FAKE_PNR"]
    if mode in ("crash", "term"):  # crash: dies of SIGBUS at its first start; term: stopped by SIGTERM
        with open(os.environ["FAKE_COUNT"], "a") as f:
            f.write("pnr\n")
        if mode == "term" or open(os.environ["FAKE_COUNT"]).read().count("pnr") == 1:
            os.kill(os.getpid(), signal.SIGBUS if mode == "crash" else signal.SIGTERM)
    comb = 90000 if mode == "over" else 55000
    with open(arg("--log"), "w") as f:
        f.write(f"Info: Device utilisation:\nInfo: \t        TRELLIS_FF:   17000/  83640    20%\n"
                f"Info: \t      TRELLIS_COMB:   {comb}/  83640    71%\nInfo: \t     DP16KD:     1/  208     0%\n")
    if mode == "error":
        open(arg("--log"), "a").write("ERROR: Unable to find legal placement for cell 'x'\n")
        sys.exit(1)
    if mode == "hang":
        open(os.environ["FAKE_COUNT"], "a").write(f"pid {os.getpid()}\n")
        time.sleep(60)
    fmax = 40.0 if mode == "slow" else 57.5
    util = {"TRELLIS_COMB": {"used": comb, "available": 83640},
            "TRELLIS_FF": {"used": 17000, "available": 83640}, "DP16KD": {"used": 1, "available": 208}}
    json.dump({"utilization": util, "fmax": {"$glbnet$clk_25mhz": {"achieved": 300.0, "constraint": 25.0},
                                              "$glbnet$clk": {"achieved": fmax, "constraint": 50.0}}},
              open(arg("--report"), "w"))
    open(arg("--textcfg"), "w").write("cfg")
'''


class FlowTest(unittest.TestCase):
    def setUp(self):
        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        # below the working directory, as the real tools need
        self.build = tempfile.mkdtemp(prefix="fpga-flow-test.", dir=os.path.join(ROOT, "build"))
        self.tools = os.path.join(self.build, "tools")
        os.makedirs(self.tools)
        for t in ("yosys", "nextpnr", "ecppack"):
            p = os.path.join(self.tools, t)
            with open(p, "w") as f:
                f.write(FAKE)
            os.chmod(p, 0o755)
        self.count = os.path.join(self.build, "count")
        self.json = os.path.join(self.build, "fpga.json")
        self.record = os.path.join(self.build, "top_timing.json")
        self.src = os.path.join(self.build, "top.sv")
        with open(self.src, "w") as f:
            f.write("module finegrain_ulx3s; endmodule\n")

    def tearDown(self):
        shutil.rmtree(self.build, ignore_errors=True)

    def env(self, mode, **env):
        """The flow's environment with the stand-in tools, nextpnr ending as `mode` says."""
        return dict(os.environ, BUILD=os.path.relpath(self.build, ROOT), FPGA_JSON=self.json,
                    YOSYS=os.path.join(self.tools, "yosys"), NEXTPNR=os.path.join(self.tools, "nextpnr"),
                    ECPPACK=os.path.join(self.tools, "ecppack"), NICE="", FPGA_WAIT_S="0",
                    FAKE_PNR=mode, FAKE_COUNT=self.count, FPGA_TOP_RECORD=self.record, **env)

    def flow(self, mode, mhz="50", **env):
        r = subprocess.run([sys.executable, "scripts/fpga_top.py", "--mhz", mhz, self.src], cwd=ROOT,
                           env=self.env(mode, **env), capture_output=True, text=True, timeout=60)
        top = json.load(open(self.json))["top"] if os.path.exists(self.json) else None
        return r, top

    def check_record(self, **env):
        """scripts/fpga_top.py --check-record on the test's source (make fpga-netlists)."""
        return subprocess.run([sys.executable, "scripts/fpga_top.py", "--check-record", self.src], cwd=ROOT,
                              env=self.env("ok", **env), capture_output=True, text=True, timeout=60)

    def test_routed_keeps_blocks(self):
        with open(self.json, "w") as f:
            json.dump({"blocks": {"edge_ekt": {"fmax_mhz": 101.0}}}, f)
        r, top = self.flow("ok")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(top["status"], "routed")
        self.assertEqual(top["fmax_mhz"], 57.5)      # the design clock, not the 25 MHz input
        self.assertEqual(top["target_mhz"], 50.0)
        self.assertTrue(top["meets_clock"])
        self.assertEqual((top["lut4"], top["ff"], top["dp16kd"], top["yosys_lut4"]), (55000, 17000, 1, 5100))
        self.assertTrue(top["within_70pct"])          # 55000 <= 0.7 * 83640
        self.assertTrue(os.path.exists(top["bitstream"]))
        self.assertEqual(json.load(open(self.json))["blocks"], {"edge_ekt": {"fmax_mhz": 101.0}})
        self.assertIn("Fmax 57.5 MHz", r.stdout)
        # each seed's figures with the commit, in the JSON file and the committed record
        # (by design clock, then seed: a run at another clock keeps this one's)
        seeds = json.load(open(self.json))["top_seeds"]["50"]
        self.assertEqual(seeds["1"]["fmax_mhz"], 57.5)
        self.assertEqual(seeds["1"]["status"], "routed")
        self.assertTrue(seeds["1"]["commit"])
        # which nextpnr build routed it (NEXTPNR may name another than YoWASP's)
        self.assertTrue(seeds["1"]["tools"]["nextpnr_version"].endswith("(Version nextpnr-fake)"))
        self.assertEqual(json.load(open(self.record))["targets"]["50"]["1"]["fmax_mhz"], 57.5)
        self.flow("slow", FPGA_SEED="2")
        self.flow("slow", mhz="75")
        rec = json.load(open(self.record))["targets"]
        self.assertEqual((rec["50"]["1"]["status"], rec["50"]["2"]["status"], rec["75"]["1"]["status"]),
                         ("routed", "missed_clock", "missed_clock"))

    def test_missed_clock_fails(self):
        r, top = self.flow("slow")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(top["status"], "missed_clock")
        self.assertFalse(top["meets_clock"])
        self.assertIn("misses its clock", r.stdout)

    def test_over_capacity_fails(self):
        r, top = self.flow("over")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(top["status"], "over_capacity")
        self.assertFalse(top["within_70pct"])

    def test_nextpnr_error_recorded(self):
        r, top = self.flow("error")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(top["status"], "pnr_failed")
        self.assertIn("Unable to find legal placement", top["pnr_error"])
        self.assertIsNone(top["fmax_mhz"])
        self.assertIsNone(top["bitstream"])
        self.assertEqual(top["lut4"], 55000)          # from the packed design in nextpnr's log

    def test_nextpnr_time_limit(self):
        t0 = time.monotonic()
        r, top = self.flow("hang", FPGA_PNR_TIMEOUT_S="1")
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(top["status"], "pnr_timeout")
        self.assertIn("FPGA_PNR_TIMEOUT_S", top["pnr_error"])
        pid = int(open(self.count).read().split("pid ")[1].split()[0])
        time.sleep(0.2)
        self.assertFalse(os.path.exists(f"/proc/{pid}"), "nextpnr left running")

    def test_crash_retried_once(self):
        # a crash (the cold YoWASP cache's SIGBUS) is a tool failure: one more run, said so
        r, top = self.flow("crash")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("killed by SIGBUS", r.stdout)
        self.assertIn("retried once", r.stdout)
        self.assertEqual(open(self.count).read().count("pnr"), 2)
        self.assertEqual(top["status"], "routed")

    def test_stopped_tool_not_rerun(self):
        # a nextpnr stopped on purpose (SIGTERM) is not started again for hours more
        r, top = self.flow("term")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(open(self.count).read().count("pnr"), 1)
        self.assertIn("stopped by SIGTERM (not a crash: not run again)", r.stdout)
        self.assertEqual(top["status"], "pnr_failed")

    def test_stopping_flow_stops_nextpnr(self):
        # nextpnr runs in its own session (so a time limit stops all of it): stopping
        # the flow must stop it too, not leave it running
        p = subprocess.Popen([sys.executable, "scripts/fpga_top.py", self.src], cwd=ROOT, env=self.env("hang"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        while "pid " not in (open(self.count).read() if os.path.exists(self.count) else ""):
            self.assertLess(time.monotonic() - t0, 30, "nextpnr did not start")
            time.sleep(0.05)
        pid = int(open(self.count).read().split("pid ")[1].split()[0])
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM)
        self.assertIn("stopped with it", err)
        time.sleep(0.2)
        self.assertFalse(os.path.exists(f"/proc/{pid}"), "nextpnr left running")

    def test_synthesis_skipped_when_current(self):
        self.flow("ok")
        r, top = self.flow("ok")
        self.assertIn("synthesis skipped", r.stdout)
        self.assertIsNone(top["seconds"]["synth"])  # no synthesis time for a reused netlist (not 0 s)
        with open(self.src, "a") as f:
            f.write("// changed\n")
        r, _ = self.flow("ok")
        self.assertNotIn("synthesis skipped", r.stdout)
        self.assertEqual(open(self.count).read().count("yosys"), 2)

    def test_constraints_only_routed_again(self):
        # the board's constraints are read by place and route only: an edit of
        # them leaves the netlist current but the recorded route stale
        lpf = os.path.join(self.build, "board.lpf")
        shutil.copy(os.path.join(ROOT, "constraints", "ulx3s.lpf"), lpf)
        self.flow("ok", FPGA_LPF=lpf)
        with open(lpf, "a") as f:
            f.write("# an edit\n")
        c = self.check_record(FPGA_LPF=lpf)
        self.assertEqual(c.returncode, 1, c.stdout)
        self.assertIn("STALE top at 50 MHz, seed 1", c.stdout)
        r, _ = self.flow("ok", FPGA_LPF=lpf)
        self.assertIn("synthesis skipped", r.stdout)
        self.assertEqual(open(self.count).read().count("yosys"), 1)

    def test_record_checked_against_sources(self):
        # make fpga-netlists: a recorded route describes the sources it was made from, byte for byte
        r, _ = self.flow("ok")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertTrue(json.load(open(self.record))["targets"]["50"]["1"]["sources_sha"])
        c = self.check_record()
        self.assertEqual(c.returncode, 0, c.stdout + c.stderr)
        self.assertIn("1 of 1 runs describe the top's sources", c.stdout)
        with open(self.src, "a") as f:
            f.write("// a comment only\n")
        c = self.check_record()
        self.assertEqual(c.returncode, 1, c.stdout)
        self.assertIn("STALE top at 50 MHz, seed 1", c.stdout)

    def test_build_outside_tree_refused(self):
        r = subprocess.run([sys.executable, "scripts/fpga_top.py", self.src], cwd=ROOT, capture_output=True,
                           text=True, env=dict(os.environ, BUILD=tempfile.gettempdir()), timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("must be below the working directory", r.stderr)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
