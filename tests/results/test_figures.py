#!/usr/bin/env python3
"""The EDGE tables' own arithmetic (scripts/figures.py): Figs. 12 and 13 on the
paper's four backgrounds beside all that ran, recomputed from the pairs the
way the merges compute them over all, and refused when the two disagree.
TAP output (tests/sweep/tap.py)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import tap  # noqa: E402
import figures  # noqa: E402


def cell(ev, bg, antt):
    return {"event_slowdown": ev, "bg_slowdown": bg, "antt": antt}


# two pairs on a paper background (conv), one on another (sc): high rate only
F13 = {"pairs": {
    "ipv4/conv": {"high": {"D": cell(2.0, 1.2, 2.0), "R": cell(1.0, 1.8, 1.0), "P": cell(1.0, 1.0, 1.0)}},
    "memc/conv": {"high": {"D": cell(4.0, 1.4, 4.0), "R": cell(3.0, 1.6, 3.0), "P": cell(2.0, 1.2, 2.0)}},
    "ipv4/sc": {"high": {"D": cell(9.0, 1.0, 9.0), "R": cell(1.0, 2.0, 1.0), "P": cell(3.0, 1.0, 3.0)}}}}


class FiguresTest(unittest.TestCase):
    def test_docs_keep_tables_whose_inputs_did_not_run(self):
        """figures.py docs on results with only part of a table's inputs (make demo's, without make
        results' counterfactual experiments): a table that would lose figures to "not run" keeps them
        (its provenance line says how old they are); one that gains figures is rewritten."""
        import json
        import tempfile
        fake = {"name": "fake", "json": "fake.json", "plot": None, "command": "fake", "program": "fake",
                "tables": {"fake_t": lambda d: "| a | b |\n|---|---|\n| " + " | ".join(d["cells"]) + " |"}}
        old_figs = figures.FIGURES
        figures.FIGURES = [fake]
        try:
            with tempfile.TemporaryDirectory() as tmp:
                doc = os.path.join(tmp, "R.md")
                def block(cells):
                    return ("<!-- BEGIN generated: fake_t -->\n| a | b |\n|---|---|\n| " + " | ".join(cells) +
                            " |\n<!-- END generated: fake_t -->\n")
                for old, new, kept in ((["1.0", "2.0"], ["1.0", "not run"], True),
                                       (["1.0", "not run"], ["1.5", "2.5"], False)):
                    with open(doc, "w") as f:
                        f.write(block(old))
                    with open(os.path.join(tmp, "fake.json"), "w") as f:
                        json.dump({"cells": new}, f)
                    self.assertEqual(figures.cmd_docs(tmp, doc), 0)
                    with open(doc) as f:
                        text = f.read()
                    self.assertEqual("| " + " | ".join(old) + " |" in text, kept, text)
                    self.assertEqual("| " + " | ".join(new) + " |" in text, not kept, text)
        finally:
            figures.FIGURES = old_figs

    def test_background_sets(self):
        sets = figures.bg_sets(F13)
        self.assertEqual([b for _, b in sets], [["conv"], ["conv", "sc"]])
        only = {"pairs": {k: v for k, v in F13["pairs"].items() if k.endswith("/conv")}}
        self.assertEqual(len(figures.bg_sets(only)), 1)  # all that ran are the paper's: one set

    def test_fig13_ratios(self):
        four = figures.fig13_means(F13, ["conv"])
        self.assertAlmostEqual(figures.fig13_ratio(four, "event_p_over_d_high"), 3.0 / 1.5)  # D's mean / P's
        self.assertAlmostEqual(figures.fig13_ratio(four, "event_p_over_r_high"), 2.0 / 1.5)
        self.assertAlmostEqual(figures.fig13_ratio(four, "bg_p_over_r_high"), 1.1 / 1.7)  # P's bg / R's
        every = figures.fig13_means(F13, ["conv", "sc"])
        self.assertAlmostEqual(figures.fig13_ratio(every, "antt_p_over_d_high"), 5.0 / 2.0)
        self.assertEqual(every["high"]["pairs"], 3)

    def test_fig12_sets(self):
        def s(avg, mx):
            return {"avg": avg, "max": mx, "p99": mx}
        d = {"pairs": {"ipv4/conv": {"D": s(100, 200), "P": s(10, 20), "preemption_possible": True},
                       "memc/bp": {"D": s(300, 400), "P": s(300, 400), "X": s(30, 40), "preemption_possible": False},
                       "ipv4/sc": {"D": s(50, 50), "P": s(50, 50), "preemption_possible": True}}}
        self.assertEqual(figures.fig12_set(d, "", ["conv", "bp"])[:2], (2, 400 / 310))
        self.assertEqual(figures.fig12_set(d, "_possible", ["conv", "bp"])[:2], (1, 10.0))
        self.assertEqual(figures.fig12_set(d, "_extra_regs", ["conv", "bp"])[:2], (2, 400 / 40))
        self.assertEqual(figures.fig12_set(d, "", ["conv", "bp", "sc"])[0], 3)
        self.assertEqual(figures.fig12_set(d, "_conv_mm", ["conv", "bp", "sc"])[:2], (1, 10.0))

    def test_full_size_counterfactual_tables(self):
        """Fig. 13's: R / P over the pairs where the register rule allows preemption, the breakdown
        means over the paper's backgrounds; Fig. 12's: D / P means over the possible pairs."""
        def c13(ev, wait):
            return dict(cell(ev, 1.0, ev), event_breakdown={"sched_wait": wait, "fetch": 2 * wait, "unit": 3 * wait})
        x = {"pairs": {"ipv4/conv": {"high": {"D": c13(2.0, 10), "R": c13(1.0, 1), "P": c13(2.0, 20)},
                                     "preemption_possible": True},
                       "memc/bp": {"high": {"D": c13(4.0, 30), "R": c13(1.0, 3), "P": c13(4.0, 30)},
                                   "preemption_possible": False},
                       "ipv4/sc": {"high": {"D": c13(8.0, 99), "R": c13(8.0, 99), "P": c13(1.0, 99)},
                                   "preemption_possible": True}}}
        f12 = {"paper": {"avg_ratio": 2.6, "tail_ratio": 2.9},
               "pairs": {"ipv4/conv": {"D": {"avg": 100, "max": 200, "p99": 200},
                                       "P": {"avg": 10, "max": 20, "p99": 20}, "preemption_possible": True},
                         "memc/bp": {"D": {"avg": 300, "max": 400, "p99": 400},
                                     "P": {"avg": 300, "max": 400, "p99": 400}, "preemption_possible": False}}}
        paper13 = {"memc_high_event_slowdown": {"D": 37, "R": 109, "P": 48}}
        d = {"paper": paper13, "_also": {"edge_fig13.json": x}}
        row = [r for r in figures.fig13_counterfactuals_full(d).splitlines() if "edge_fig13.ini" in r][0]
        cells = [c.strip() for c in row.split("|")]
        self.assertIn("0.50x (1)", cells)  # ipv4/conv only: R 1.0 / P 2.0 (memc/bp cannot preempt; sc not a paper bg)
        self.assertIn("4.00 / 1.00 / 4.00", cells)  # MemC D / R / P
        self.assertIn("wait for a context 20 / 2 / 25; fetch 40 / 4 / 50; LSU 60 / 6 / 75", cells)
        row = [r for r in figures.fig12_counterfactuals_full({"paper": f12["paper"], "_also": {"edge_fig12.json": f12}})
               .splitlines() if "edge_fig12.ini" in r][0]
        self.assertEqual(row.split("|")[-2].strip(), "100 / 10")
        # the default's points as the EDGE artifact's scripts summarise them, when the merge wrote them
        f12["artifact_summary"] = {"instant_cycles": 3, "avg_ratio": 11.3, "tail_ratio": 5.6, "n_pairs": 16,
                                   "avg_ratio_possible": 93.1, "tail_ratio_possible": 62.8, "n_pairs_possible": 12}
        row = [r for r in figures.fig12_counterfactuals_full({"paper": f12["paper"], "_also": {"edge_fig12.json": f12}})
               .splitlines() if "artifact's scripts" in r][0]
        cells = [c.strip() for c in row.split("|")]
        self.assertIn("**11.3x** / 5.6x (16)", cells)
        self.assertIn("**93.1x** / 62.8x (12)", cells)

    def test_fig11_window(self):
        """The oldest policy's latency from the event's arrival and from the victim's choice."""
        def run(cfg, pre, flush):
            return {"config": cfg, "preempted": 4, "avg_preemption_cycles_preempted_only": pre,
                    "avg_flush_cycles_preempted_only": flush, "victim_waiting_on": {"load": 0.5}, "loads_dropped": 2}
        d = {"kernels": {"mm": {"runs": [run("oldest/none", 110, 100), run("oldest/all", 20, 10)]}}}
        self.assertEqual(figures.fig11_policy(d, ["mm"], "oldest"), (110, 20, 1.0))
        self.assertEqual(figures.fig11_policy(d, ["mm"], "oldest", "avg_flush_cycles_preempted_only")[:2], (100, 10))

    def test_disagreeing_merge_refused(self):
        figures.check_merge("x", 1.0, 1.0)
        with self.assertRaises(SystemExit):
            figures.check_merge("x", 1.0, 1.01)

    def test_memc_amo(self):
        """Slowdowns at each atomic setting over MemC alone at the same setting and CONV alone."""
        def pt(ov, **r):
            return {"overrides": ov, "result": r}
        d = {"points": [
            pt(["mem.l2_amo_cycles=1"], rate="alone", event="memc", runtime=[100, 300]),
            pt(["mem.l2_amo_cycles=4"], rate="alone", event="memc", runtime=[400]),
            pt([], rate="alone", event="none", bg_cycles=1000),
            pt(["mem.l2_amo_cycles=1", "preempt.enable=0"], rate="high", event="memc", mode="D", runtime=[800],
               bg_cycles=1500),
            pt(["mem.l2_amo_cycles=4", "preempt.enable=1"], rate="high", event="memc", mode="P", runtime=[4000, 2000],
               bg_cycles=1100)]}
        t = figures.fig13_memc_amo(d)
        self.assertIn("| 1 | 200 | 4.00x / 1.50x | not run | not run |", t)
        self.assertIn("| 4 | 400 | not run | not run | 7.50x / 1.10x |", t)

    def test_fig13_dynamic(self):
        """Mode A beside D, R, P: the averages over the pairs, A's reserved cores, which modes A beats."""
        self.assertIn("No point", figures.fig13_dynamic(F13))
        a = {"pairs": {k: {"high": dict(v["high"]), "regs_event": 9} for k, v in F13["pairs"].items()}}
        a["pairs"]["ipv4/conv"]["high"]["A"] = dict(cell(1.0, 1.0, 1.0), reserved_cores_mean=2.0, reserved_cores_max=4)
        a["pairs"]["memc/conv"]["high"]["A"] = dict(cell(2.0, 1.2, 3.0), reserved_cores_mean=3.0, reserved_cores_max=5)
        t = figures.fig13_dynamic(a)  # conv pairs: D ANTT 3.0, R 2.0, P 1.5, A 2.0; sc has no A: left out
        self.assertIn("| high | 3.00 (3.00 / 1.30) | 2.00 (2.00 / 1.70) | 1.50 (1.50 / 1.10) | "
                      "2.00 (1.50 / 1.10) | 2.50 (at most 5) | D 1.50x, R 1.00x, P 0.75x | D | 2 |", t)

    def test_fig13_dynamic_counterfactuals(self):
        """A's variants: the default's rows from the main JSON, a variant not run says so."""
        a = {"pairs": {"ipv4/conv": {"low": {"D": cell(3.0, 1.0, 3.0), "R": cell(1.0, 2.0, 1.5),
                                             "P": cell(2.0, 1.0, 2.0),
                                             "A": dict(cell(1.0, 1.0, 1.0), reserved_cores_mean=1.0)}}},
             "_also": {}}
        t = figures.fig13_dynamic_cf(a)
        self.assertIn("| low | 1.00 (1.00 / 1.00) | 3.00 (3.00 / 1.00) | 1.50 (1.00 / 2.00) | 2.00 (2.00 / 1.00) | "
                      "1.00 | all three |", t)
        self.assertIn("`preempt.reserve_min=8`) | not run |", t)

    def test_protect(self):
        """The protection's tables: each variant's averages, and each against the same mode unprotected."""
        def avg(ev, p99, bg, antt, sw):
            return {"event_slowdown": ev, "event_p99_slowdown": p99, "bg_slowdown": bg, "antt": antt, "pairs": 2,
                    "event_breakdown": {"sched_wait": sw, "issue": 100, "memory": 50}}
        d = {"variants": ["P/off", "P/gpu"],
             "average": {"high": {"P/off": avg(2.0, 4.0, 1.0, 2.0, 30), "P/gpu": avg(1.5, 2.0, 1.5, 1.4, 10)}}}
        t = figures.protect_table(d)
        self.assertIn("| high | P | off | 2.00 | 4.00 | 1.00 | 2.00 | - | 2 |", t)
        self.assertIn("| high | P | every core capped while events run | 1.50 | 2.00 | 1.50 | 1.40 | "
                      "0.75x / 1.50x / 0.70x | 2 |", t)
        b = figures.protect_breakdown(d)
        self.assertIn("| launch -> START | issue | memory | sum |", b)
        self.assertIn("| high | P | every core capped while events run | 10 | 100 | 50 | 160 |", b)

    def test_fig12_reserve(self):
        """Latency pooled over the seeds' events (mean, rank p99), background cycles over D's."""
        def pt(pair, mode, sched, bg, pre=0, machine="edge"):
            return {"values": {"pair": pair, "mode": mode, "machine": machine},
                    "result": {"sched": sched, "bg_cycles": bg, "preempted": pre}}
        d = {"points": [pt("memc_bp", "D", [100, 300], 1000), pt("memc_bp", "D", [200], 1200),
                        pt("memc_bp", "V1", [3, 3], 1210, 0), pt("memc_bp", "V1", [3], 1320, 1)]}
        t = figures.fig12_reserve(d)
        self.assertIn("| MEMC / BP | 200.0 / 300, bg 1.000 (0 of 3 preempted) | not run | "
                      "3.0 / 3, bg 1.150 (1 of 3 preempted) | not run |", t)
        self.assertNotIn("32768", t)  # a machine that did not run: no rows
        self.assertEqual(figures.percentile([5, 1, 3], 99), 5)
        self.assertEqual(figures.percentile(list(range(1, 201)), 99), 198)

    def test_launch_paths(self):
        """The launch-path tables: mean / p99 per path in us, the early path against the doorbell after the
        DMA into each ring, and each path's parts."""
        def c(mean, p99, to_start=0):
            return {"e2e_mean_ns": mean, "e2e_p99_ns": p99, "offered": 10, "dropped": 1,
                    "parts_ns": {"first_byte": 350, "to_start": to_start, "dma": 500}}
        row = {"host/plain": c(50000, 90000), "after_ack/plain": c(4000, 8000, 600), "after_ack/sync": c(5000, 9000),
               "early/sync": c(4500, 8500, 10)}
        d = {"cells": {"ipv4/mm": {"high": row}}, "average": row}
        t = figures.lpath_table(d)
        self.assertIn("| host launch (us) | doorbell after DMA (us) | doorbell after DMA, F/E ring (us) | "
                      "early doorbell, F/E ring (us) |", t)
        self.assertIn("| ipv4/mm high | 50.00 / 90.00 | 4.00 / 8.00 | 5.00 / 9.00 | 4.50 / 8.50 | 1.12x / 0.90x |", t)
        p = figures.lpath_parts(d)
        self.assertIn("| ipv4/mm high | early doorbell, F/E ring | 350 | 0 | 10 | 0 | 0 | 500 | 0 | 0 | 4500 | 1 / 10 |", p)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
