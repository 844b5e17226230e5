#!/usr/bin/python3
# (Debian's python3: python3-matplotlib, which scripts/deps.sh installs, for the figures' test)
"""The CM experiments' metrics (scripts/cm_figs.py; CM Sec. 5: WS_CPU, SU_GPU,
harmonic mean, OSS) against values computed by hand, their merges on small
made-up points, the point program's argument handling (scripts/cm_point.py), and a tiny sweep of
the real CM machine (experiments/cm_tiny.ini) through scripts/sweep.py.  TAP
output (tests/sweep/tap.py)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cm_figs as cf  # noqa: E402
import cm_point as cp  # noqa: E402
import tap  # noqa: E402


def point(mix, gpu, label, core_ipc=None, gpu_ipc=0.0, instrs=10000, stall_mc=0.0, stall_gpu=(0.0,), intervals=(),
          overrides=None):
    """A point file as cm_figs.py --point writes it (only the fields the merges read)."""
    return {"point": {"mix": mix, "gpu": gpu, "label": label, "warmup": 20000, "instrs": instrs,
                      "overrides": overrides or ({"cmbal.scheme": label} if label != "baseline" else {})},
            "blocks": {"cm_bal_monitor": "rtl", "fe_sched_queues": "rtl"}, "interval": 1024,
            "run": {"core_ipc": list(core_ipc or []), "ipc_sum": sum(core_ipc or []), "gpu_ipc": gpu_ipc,
                    "stall_mc_per_cycle": stall_mc, "stall_net_per_cycle": 0.0,
                    "stall_gpu_per_cycle": list(stall_gpu), "gpu_cycles": 1000},
            "intervals": list(intervals)}


def two_workloads():
    """Workload A (L1 + bp, 2 cores) and B (H2 + iix), baseline and cm_cpu; see test_merge_figs."""
    return [point("L1", "none", "baseline", [1.0, 0.5]), point("H2", "none", "baseline", [0.5, 0.5]),
            point("none", "bp", "baseline", gpu_ipc=10.0), point("none", "iix", "baseline", gpu_ipc=4.0),
            point("L1", "bp", "baseline", [0.5, 0.25], 8.0, stall_mc=2.0, stall_gpu=(0.8, 0.8)),
            point("L1", "bp", "cm_cpu", [0.8, 0.4], 6.0, stall_mc=1.0, stall_gpu=(1.2, 1.2)),
            point("H2", "iix", "baseline", [0.25, 0.25], 2.0),
            point("H2", "iix", "cm_cpu", [0.3, 0.2], 3.0)]


class Metrics(unittest.TestCase):
    def test_weighted_speedup(self):
        # 0.5 / 1.0 + 0.3 / 0.6 = 1.0
        self.assertAlmostEqual(cf.weighted_speedup([0.5, 0.3], [1.0, 0.6]), 1.0)
        self.assertAlmostEqual(cf.weighted_speedup([0.2, 0.9, 0.4], [0.4, 0.9, 0.8]), 0.5 + 1.0 + 0.5)
        with self.assertRaises(cf.CmError):
            cf.weighted_speedup([0.5], [1.0, 0.6])
        with self.assertRaises(cf.CmError):
            cf.weighted_speedup([0.5], [0.0])

    def test_gpu_speedup(self):
        self.assertAlmostEqual(cf.gpu_speedup(3.0, 4.0), 0.75)
        with self.assertRaises(cf.CmError):
            cf.gpu_speedup(3.0, 0.0)

    def test_hmean(self):
        # 3 / (1 + 1/2 + 1/4) = 12 / 7
        self.assertAlmostEqual(cf.hmean([1, 2, 4]), 12 / 7)
        self.assertAlmostEqual(cf.hmean([0.75, 1.5]), 1.0)
        with self.assertRaises(cf.CmError):
            cf.hmean([1, 0])
        with self.assertRaises(cf.CmError):
            cf.hmean([])

    def test_oss(self):
        # 0.75 * 0.5 + 0.25 * 0.8
        self.assertAlmostEqual(cf.oss(0.5, 0.8, 0.25), 0.575)
        self.assertAlmostEqual(cf.oss(0.5, 0.8, 0.0), 0.5)
        self.assertAlmostEqual(cf.oss(0.5, 0.8, 1.0), 0.8)
        with self.assertRaises(cf.CmError):
            cf.oss(0.5, 0.8, 1.5)

    def test_alone_ipc_window(self):
        # the alone run's first floor(window / 1024) intervals: (10 + 20) / 2 over a 2.5-interval window
        iv = [{"gpu_ipc": x} for x in (10.0, 20.0, 60.0)]
        p = point("none", "bp", "baseline", gpu_ipc=30.0, intervals=iv)
        self.assertEqual(cf.alone_ipc(p, 2560), (15.0, 2048))
        self.assertEqual(cf.alone_ipc(p, 3072), (30.0, 3072))
        with self.assertRaises(cf.CmError):  # a window longer than the alone run
            cf.alone_ipc(p, 4096)
        # no intervals (a hand-made point): the whole run
        self.assertEqual(cf.alone_ipc(point("none", "bp", "baseline", gpu_ipc=7.0), 5000), (7.0, 1000))


class Merges(unittest.TestCase):
    def test_merge_figs(self):
        """By hand: A: WS 1.0 -> 1.6 (cpu_rel 1.6), SU 0.8 -> 0.6 (gpu_rel 0.75); B: WS 1.0 -> 1.0, SU 0.5 ->
        0.75 (gpu_rel 1.5).  GPU: hmean(0.75, 1.5) = 1; CPU: hmean(1.6, 1) = 16/13.  OSS(0.5) with WS/2:
        A (0.5 + 0.8) / 2 = 0.65 -> (0.8 + 0.6) / 2 = 0.7; B 0.5 -> 0.625; hmean(0.7/0.65, 1.25)."""
        r = cf.merge_figs(two_workloads())
        s = r["schemes"]["cm_cpu"]
        self.assertEqual(list(r["schemes"]), ["cm_cpu"])
        self.assertAlmostEqual(s["gpu_speedup"], 1.0)
        self.assertAlmostEqual(s["cpu_ws_speedup"], 16 / 13)
        self.assertAlmostEqual(s["oss"][0], 16 / 13)       # alpha 0: the CPU alone
        self.assertAlmostEqual(s["oss"][-1], 1.0)          # alpha 1: the GPU alone
        self.assertAlmostEqual(s["oss"][5], 2 / (0.65 / 0.7 + 1 / 1.25))
        self.assertEqual(sorted(s["per_type"]), ["H/L", "L/H"])
        self.assertAlmostEqual(s["per_type"]["H/L"]["gpu_speedup"], 0.75)
        self.assertAlmostEqual(s["per_type"]["H/L"]["cpu_ws_speedup"], 1.6)
        self.assertAlmostEqual(s["per_type"]["H/L"]["stall_mc_rel"], 0.5)
        # stallGPU per instruction: (1.2 + 1.2) / 6 over (0.8 + 0.8) / 8
        self.assertAlmostEqual(s["per_type"]["H/L"]["stall_gpu_per_instr_rel"], 0.4 / 0.2)
        self.assertIsNone(s["per_type"]["L/H"]["stall_mc_rel"])   # no stall in the baseline: no ratio
        self.assertEqual(r["types"], ["H/L", "L/H"])
        self.assertEqual(r["blocks"], {"cm_bal_monitor": "rtl", "fe_sched_queues": "rtl"})
        pts = two_workloads()
        pts[0]["blocks"] = {"cm_bal_monitor": "none", "fe_sched_queues": "rtl"}
        pts[-1]["blocks"] = {"cm_bal_monitor": "c", "fe_sched_queues": "rtl"}
        self.assertEqual(cf.merge_figs(pts)["blocks"], {"cm_bal_monitor": "rtl/c", "fe_sched_queues": "rtl"})
        a = r["workloads"][0]["schemes"]
        self.assertAlmostEqual(a["baseline"]["ws_norm"], 0.5)
        self.assertAlmostEqual(a["cm_cpu"]["su"], 0.6)

    def test_merge_figs_needs_alone_and_baseline(self):
        pts = two_workloads()
        with self.assertRaisesRegex(cf.CmError, "mix H2 alone"):
            cf.merge_figs([p for p in pts if not (p["point"]["mix"] == "H2" and p["point"]["gpu"] == "none")])
        with self.assertRaisesRegex(cf.CmError, "iix alone"):
            cf.merge_figs([p for p in pts if p["point"]["gpu"] != "iix" or p["point"]["mix"] != "none"])
        with self.assertRaisesRegex(cf.CmError, "baseline"):
            cf.merge_figs([p for p in pts if p["point"]["label"] != "baseline" or p["point"]["gpu"] == "none"
                           or p["point"]["mix"] == "none"])
        with self.assertRaisesRegex(cf.CmError, "without a point"):
            cf.merge_figs(pts[:-1])

    def test_classify(self):
        c = cf.classify({1: 5, 2: 6, 4: 8, 6: 9, 8: 9.5, 16: 10, 24: 10, 48: 10})
        self.assertEqual((c["class"], c["opt_tlp"], c["near_opt"]), ("H", 16, "16-48"))
        c = cf.classify({1: 2, 4: 11, 8: 10.2, 48: 10})
        self.assertEqual((c["class"], c["opt_tlp"], c["near_opt"]), ("L", 4, "4"))
        c = cf.classify({1: 9, 4: 10.1, 8: 10, 48: 10})   # within 5 % everywhere from 4 up: insensitive
        self.assertEqual(c["class"], "M")

    def test_calibrate(self):
        # bins of 0.25: 1.0, 1.0, 0.95, 0.79, 0.6, 0.6 -> span 0.4; 10 % lost at 0.5, 50 % at 0.75
        ys = [1.0, 1.0, 0.95, 0.79, 0.6, 0.6]
        s = [(0.25 * k + 0.1, y) for k, y in enumerate(ys) for _ in range(5)]
        t, curve = cf.calibrate(s)
        self.assertEqual(t, {"t_high": 0.75, "t_low": 0.5})
        self.assertEqual(len(curve), 6)
        # a bin of fewer than 5 intervals is ignored
        t, _ = cf.calibrate(s + [(3.0, 0.0)] * 4)
        self.assertEqual(t, {"t_high": 0.75, "t_low": 0.5})
        # no CPU loss with congestion: nothing to calibrate
        t, _ = cf.calibrate([(0.25 * k, 1.0) for k in range(8) for _ in range(5)])
        self.assertIsNone(t)

    def test_merge_tlp(self):
        iv = [{"stall_mc": 0, "stall_net": 100, "cpu_ipc": [0.5, 0.5]}] * 5
        pts = [point("H2", "none", "baseline", [1.0, 1.0])]
        for t, g in ((1, 2.0), (4, 11.0), (48, 10.0)):
            pts.append(point("H2", "mum", f"static{t}" if t != 48 else "baseline", [0.5, 0.5], g, intervals=iv,
                             overrides={"cmbal.scheme": "static", "cmbal.static_warps": str(t)} if t != 48 else {}))
        r = cf.merge_tlp(pts)
        m = r["apps"]["mum"]
        self.assertEqual((m["class"], m["opt_tlp"], m["paper_class"], m["paper_opt_tlp"]), ("L", 4, "L", "4"))
        self.assertEqual(r["cpu_vs_congestion"], [{"stall": 0.0, "cpu_perf": 0.5, "intervals": 15}])
        with self.assertRaisesRegex(cf.CmError, "48-warp"):
            cf.merge_tlp(pts[:-1])

    def test_class_rule_best(self):
        """BFS (paper M) 15 % faster at 6 warps and SSSP (paper L) 10 % faster at 4: a gain bound above
        1.15 makes BFS M but SSSP M too, one at or below 1.10 makes both L: no bounds put both in class."""
        bfs = {1: 0.5, 4: 1.0, 6: 1.15, 8: 1.0, 48: 1.0}
        sssp = {1: 0.5, 4: 1.10, 6: 1.0, 8: 1.0, 48: 1.0}
        self.assertEqual(cf.classify(bfs)["class"], "L")
        self.assertEqual(cf.classify(bfs, gain=1.16)["class"], "M")
        self.assertEqual(cf.classify(sssp, gain=1.16)["class"], "M")
        self.assertEqual(cf.class_rule_best({"bfs": bfs, "sssp": sssp}),
                         {"in_class": 1, "of": 2, "gain": 1.0, "loss": 0.5})
        self.assertEqual(cf.class_rule_best({"bfs": bfs})["in_class"], 1)

    def test_merge_double(self):
        pts = two_workloads()
        more = []
        for p in pts:
            if p["point"]["mix"] != "none":
                q = json.loads(json.dumps(p))
                q["point"]["instrs"] = 20000
                more.append(q)
        r = cf.merge_double(pts + more)
        self.assertEqual(r["same_order"], {"cpu": True, "gpu": True, "oss_0.5": True})
        self.assertEqual(sorted(r["windows"]), ["10000", "20000"])
        with self.assertRaisesRegex(cf.CmError, "two sizes"):
            cf.merge_double(pts)


def brk_points():
    """Two breakdown points (cm_run's memory object, the fields the merge reads): MUM at two machines."""
    pts = []
    for label, req in (("baseline", 91.0), ("fast", 30.0)):
        p = point("H2", "mum", label, [0.5, 0.5], 2.0)
        stages = {"responses": 100, "request_network": req, "l2_pipeline": 500.0, "to_reply": 0.0,
                  "reply_network": 35.0, "at_requester": 0.0, "total": req + 535.0}
        miss = dict(stages, miss_queue=202.0, mc_queues=2.0, dram=70.0, fill_to_reply=1.0, to_reply=275.0,
                    total=req + 810.0)
        p["run"]["memory"] = {"l2_hit_rate": 0.92, "dram_bus_util": 0.08,
                              "breakdown_cycles": {"gpu": {"hit": stages, "miss": miss}, "cpu": {"miss": miss}},
                              "full_fraction": {"l2_head_waits_reply_network": 0.59, "l2_head_waits_mshr": 0.02,
                                                "l2_head_waits_miss_queue": 0.0, "l2_head_waits_other": 0.0,
                                                "l2_pipeline_full_request_waiting": 0.21, "mc_stall": 0.0,
                                                "mc_to_dram_queue_full": 0.001, "reply_network_stall": 0.29}}
        pts.append(p)
    return pts


def window_points(ipcs):
    """two_workloads() at windows 10 k, 20 k, 40 k ...: cm_cpu's GPU IPC beside H2 + iix at each is ipcs[i]."""
    pts = two_workloads()
    out = [p for p in pts if p["point"]["mix"] == "none"]
    for i, g in enumerate(ipcs):
        for p in pts:
            if p["point"]["mix"] != "none":
                q = json.loads(json.dumps(p))
                q["point"]["instrs"] = 10000 << i
                if q["point"]["gpu"] == "iix" and q["point"]["label"] == "cm_cpu":
                    q["run"]["gpu_ipc"] = g
                out.append(q)
    return out


class Window(unittest.TestCase):
    def test_merge_window(self):
        # cm_cpu's GPU IPC beside iix: 3.0, then 2.0, 2.05, 2.06: the 10 k -> 20 k doubling moves the figures
        # by more than 3 %, the later ones by less: converged from 20 k
        r = cf.merge_window(window_points([3.0, 2.0, 2.05, 2.06]))
        self.assertEqual(r["converged_window"], 20000)
        self.assertEqual(sorted(r["windows"], key=int), ["10000", "20000", "40000", "80000"])
        ch = r["max_change_per_doubling"]
        self.assertGreater(ch["20000"], 0.03)
        self.assertTrue(0 < ch["80000"] < ch["40000"] < 0.03)
        f20 = cf.merge_figs([p for p in window_points([3.0, 2.0]) if p["point"]["instrs"] in (20000, 0)
                             or p["point"]["mix"] == "none"])
        self.assertAlmostEqual(r["windows"]["20000"]["gpu"]["cm_cpu"], f20["schemes"]["cm_cpu"]["gpu_speedup"])
        self.assertIn("from a window of 20000 instructions", cf.table_window(r))
        r = cf.merge_window(window_points([3.0, 2.0, 2.2]))  # the last doubling still moves 10 %
        self.assertIsNone(r["converged_window"])
        self.assertIn("No window here", cf.table_window(r))
        with self.assertRaisesRegex(cf.CmError, "two sizes"):
            cf.merge_window(window_points([3.0]))


class Breakdown(unittest.TestCase):
    def test_merge_breakdown(self):
        r = cf.merge_breakdown(brk_points())
        self.assertEqual([w["label"] for w in r["workloads"]], ["baseline", "fast"])
        self.assertEqual(r["window"], [{"warmup_instrs": 20000, "instrs": 10000}])
        t = cf.table_breakdown(r)
        self.assertIn("| H2 + MUM | GPU miss | 100 | 91 | 500 | 202 | 2 | 70 | 1 | 35 | 0 | 901 |", t)
        self.assertIn("| H2 + MUM (fast) | GPU hit | 100 | 30 | 500 |  |  |  |  | 35 | 0 | 565 |", t)
        self.assertIn("| H2 + MUM | 92% | 8% | 0.00 | 0.00 | 0% | 21% | 59% | 2% | 0% | 0% | 2.00 | 1.000 |", t)


class Figures(unittest.TestCase):
    def test_calibrated_thresholds_checked(self):
        """The *_cal schemes must have run at the thresholds the static-TLP sweep printed; else the table
        is refused (their figures are stale)."""
        pts = two_workloads()
        for p in pts:
            if p["point"]["label"] == "cm_cpu":
                p["point"]["label"] = "cm_cpu_cal"
                p["point"]["overrides"] = {"cmbal.t_high": "1.5", "cmbal.t_low": "0.25"}
        figs = cf.merge_figs(pts)
        # BP measured Type-H as in CM Table II, IIX measured Type-H against the paper's L: the in-class
        # figures are BP's alone (A of test_merge_figs: GPU 0.75, CPU 1.6)
        tlp = {"calibrated_thresholds": {"t_high": 1.5, "t_low": 0.25},
               "apps": {"bp": {"class": "H"}, "iix": {"class": "H"}}}
        t = cf.table_figs(dict(figs, _also={"cm_tlp.json": tlp}))
        self.assertIn("tH 1.5, tL 0.25", t)
        self.assertIn("Over the 1 workloads whose application the static-TLP sweep puts in CM Table II's class (BP)", t)
        self.assertIn("| CM-CPU (cal.) | -25.0 % | - | +60.0 % | - |", t)
        self.assertIn("not checked", cf.table_figs(dict(figs, _also={"cm_tlp.json": None})))
        tlp["calibrated_thresholds"]["t_high"] = 2.75
        with self.assertRaisesRegex(cf.CmError, "cm_cpu_cal ran at"):
            cf.table_figs(dict(figs, _also={"cm_tlp.json": tlp}))
        tlp["calibrated_thresholds"] = None  # nothing calibrated: a calibrated row cannot be current
        with self.assertRaisesRegex(cf.CmError, "printed None"):
            cf.table_figs(dict(figs, _also={"cm_tlp.json": tlp}))
        self.assertIn("printed no calibration", cf.table_figs(dict(cf.merge_figs(two_workloads()),
                                                                   _also={"cm_tlp.json": tlp})))

    def test_figures_and_tables(self):
        """Every figure draws and every docs table renders from the merges' output."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        figs = cf.merge_figs(two_workloads())
        iv = [{"stall_mc": 0, "stall_net": 100 * t, "cpu_ipc": [0.5, 0.5]} for t in range(4)] * 5
        tlp = [point("H2", "none", "baseline", [1.0, 1.0])] + [
            point("H2", "mum", f"static{t}", [0.5, 0.5], g, intervals=iv,
                  overrides={"cmbal.scheme": "static", "cmbal.static_warps": str(t)}) for t, g in ((1, 2.0), (4, 11.0))]
        tlp.append(point("H2", "mum", "baseline", [0.5, 0.5], 10.0, intervals=iv))
        tlp = cf.merge_tlp(tlp)
        pts = two_workloads()
        more = [json.loads(json.dumps(p)) for p in pts if p["point"]["mix"] != "none"]
        for q in more:
            q["point"]["instrs"] = 20000
        double = cf.merge_double(pts + more)
        for e in cf.FIGURES:
            d = {"cm_figs": figs, "cm_tlp": tlp, "cm_double": double, "cm_paper_window": double,
                 "cm_breakdown": cf.merge_breakdown(brk_points()),
                 "cm_window": cf.merge_window(window_points([3.0, 2.0, 2.05])),
                 "cm_tlp_cause": cause_points()}[e["json"].split(".")[0].replace("_demo", "")]
            if e["plot"]:
                plt.close(e["plot"](d, plt))
            for name, fn in e["tables"].items():
                self.assertIn("|", fn(d), name)
        self.assertIn("CM-CPU | 1 / 0.25 | rtl | +0.0 % | -11.0 % | +23.1 % | +24.0 %", cf.table_figs(figs))


def cause_points():
    """experiments/cm_tlp_cause.ini's result as sweep.py lists it: PVC on the default machine at 4, 6 and
    48 warps (IPC 2.2, 1.0, 2.0; 100 requests in 1000 cycles of each), the 64 KB L1 at 48 warps only."""
    def pt(machine, tlp, ipc):
        run = {"gpu_ipc": ipc, "gpu_cycles": 1000, "gpu_requests": 100, "memory": {"l2_hit_rate": 0.5},
               "stall_mc_per_cycle": 0.25, "stall_net_per_cycle": 1.5}
        return {"values": {"app": "pvc", "machine": machine, "tlp": tlp}, "result": {"run": run}}
    return {"points": [pt("default", "w4", 2.2), pt("default", "w6", 1.0), pt("default", "w48", 2.0),
                       pt("l1x4", "w48", 2.0)]}


class CpuHeadroom(unittest.TestCase):
    def test_cpu_without_gpu(self):
        """The CPUs alone over the baseline (CM footnote 14's 69 %): the harmonic mean over the workloads of
        WS alone / WS beside the GPU.  A: 2 / 1.0 = 2.0; B, its cores as fast as alone: 1.0; hmean 4 / 3."""
        pts = two_workloads()
        pts[6] = point("H2", "iix", "baseline", [0.5, 0.5], 2.0)
        d = cf.merge_figs(pts)
        self.assertAlmostEqual(d["cpu_without_gpu"], 4 / 3)
        self.assertIn("; the CPUs alone run +33.3 % faster than beside the GPU at 48 warps (paper: +69.0 %, CM "
                      "footnote 14).", cf.table_figs(d))


class TlpCause(unittest.TestCase):
    def test_table(self):
        t = cf.table_tlp_cause(cause_points())
        # the best of 4 and 6 warps over 48: 2.2 / 2.0 = +10 %, above the rule's 5 %; requests per 1000 warp
        # instructions: 100 / (2.2 x 1000) and 100 / (2.0 x 1000)
        self.assertIn("| PVC | M | CM Table I (configs/cm.ini) | 1.10 / 0.50 | +10 % (L) | 45 / 50 | 0.50 / 0.50 | "
                      "0.25 / 1.50 |", t)
        self.assertIn("| PVC | M | 64 KB L1 (`gpu.l1_bytes=65536`) | not run |", t)
        self.assertIn("| PVC | M | 64 B mesh channels (`mem.flit_bytes=64`) | not run |", t)


class PointProgram(unittest.TestCase):
    def test_point_command(self):
        a = cp.parse_args(["--set", "run.mix=H1", "--set", "run.gpu=bp", "--set", "run.instrs=5000",
                           "--set", "cmbal.scheme=cm_bal1", "--point", "--out", "x.json"])
        argv, d = cp.point_command(a, "B")
        self.assertEqual(argv[:1], ["B/bin/cm_run"])
        self.assertIn("--mix H1 --gpu bp --gpu-size paper --warmup 20000 --instrs 5000", " ".join(argv))
        self.assertEqual(argv[-2:], ["--set", "cmbal.scheme=cm_bal1"])
        self.assertEqual((d["label"], d["mix"], d["instrs"]), ("cm_bal1", "H1", 5000))
        a = cp.parse_args(["--set", "run.gpu=bp", "--set", "cmbal.scheme=static", "--set", "cmbal.static_warps=8"])
        self.assertEqual(cp.point_command(a, "B")[1]["label"], "static8")
        for bad in (["--set", "run.nope=1"], ["--set", "run.instrs=lots"], ["--set", "nodot=1"], ["--bogus"],
                    ["--kind", "other"]):
            with self.assertRaises(cp.CmError):
                cp.point_command(cp.parse_args(bad + ["--set", "run.mix=H1"]), "B")
        with self.assertRaisesRegex(cp.CmError, "nothing to run"):
            cp.point_command(cp.parse_args([]), "B")

    def test_merge_cli(self):
        tmp = tempfile.mkdtemp(prefix="fg-cm-figs.")
        try:
            lst = os.path.join(tmp, "list")
            with open(lst, "w") as f:
                for i, p in enumerate(two_workloads()):
                    path = os.path.join(tmp, f"p{i}.json")
                    with open(path, "w") as g:
                        json.dump(p, g)
                    f.write(path + "\n")
            out = os.path.join(tmp, "r.json")
            r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cm_figs.py"), "--kind", "figs",
                                "--merge", lst, "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("cm_cpu", r.stdout)
            with open(out) as f:
                self.assertAlmostEqual(json.load(f)["schemes"]["cm_cpu"]["gpu_speedup"], 1.0)
            r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cm_figs.py"), "--kind", "tlp",
                                "--merge", lst, "--out", out + "2"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertRegex(r.stderr, "^cm_figs: .*one mix alone")
            self.assertFalse(os.path.exists(out + "2"))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class TinySweep(unittest.TestCase):
    def test_tiny_sweep(self):
        """experiments/cm_tiny.ini on the real machine: points run, merge, blocks and the metrics' shape."""
        build = os.environ.get("BUILD") or "build"
        if not os.path.exists(os.path.join(ROOT, build, "bin", "cm_run")):
            self.fail(f"{build}/bin/cm_run not built")
        tmp = tempfile.mkdtemp(prefix="fg-cm-tiny.")
        try:
            r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "sweep.py"), "run", "-j", "2",
                                "--results", tmp, "experiments/cm_tiny.ini"], cwd=ROOT, capture_output=True,
                               text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(os.path.join(tmp, "cm_tiny.json")) as f:
                d = json.load(f)
            self.assertEqual(len(d["workloads"]), 1)
            s = d["schemes"]
            self.assertEqual(list(s), ["static4"])
            # 4 warps instead of 48 change BP's speed: the monitor's limit reached the cores
            self.assertNotAlmostEqual(s["static4"]["gpu_speedup"], 1.0, places=3)
            self.assertEqual(d["blocks"]["cm_bal_monitor"], "rtl")
            for v in s.values():
                self.assertGreater(v["gpu_speedup"], 0)
                self.assertGreater(v["cpu_ws_speedup"], 0)
                self.assertEqual(len(v["oss"]), 11)
            self.assertIn("fe_sched_queues", d["blocks"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(tap.main(sys.modules[__name__]))
