#!/usr/bin/env python3
"""cm_figs: CM-CPU / CM-BAL in the loop of the CM machine (CM Secs. 5-6, Figs.
8, 16-19): the metrics, the merges and the figures of the CM experiments
(experiments/cm_*.ini, whose points scripts/cm_point.py runs).

    cm_figs.py --kind figs|tlp|double|breakdown|window --merge LIST --out RESULT.json
        (what scripts/cm_point.py --merge runs: LIST has one point file a line)
        figs: SU_GPU, WS_CPU, their harmonic means per scheme and workload
              type relative to the baseline, the OSS curve (CM Figs. 16-19);
        tlp: the static-TLP sweep: each application's optimal TLP and class
             beside CM Table II, and the Fig. 8 calibration of tH / tL;
        double: the same schemes at two windows (N and 2N, or cm_figs's and the paper's): is the order the same?
        breakdown: where the memory requests' time goes and which queue is full, per
                   workload (cm_run's memory.breakdown_cycles / full_fraction; docs/MEM.md)
        window: the schemes' figures at windows doubling from N: where they stop moving
    cm_figs.py plot [--results DIR] [--only NAME]
        the PNGs (also drawn by scripts/figures.py plot, which imports FIGURES)

Metrics (CM Sec. 5):
  WS_CPU = sum over the n CPU cores of IPC_i beside the GPU / IPC_i of the mix
           alone; normalised here by n (the mean per-core speedup, 0..1) so
           that it is on SU_GPU's scale in OSS (the paper's OSS adds the two;
           its WS of 14 cores would otherwise outweigh SU at every alpha < 1).
  SU_GPU = GPU IPC beside the CPU mix / GPU IPC of the application alone
           (the baseline scheduler, 48 warps, no CPU traffic), both over the
           same GPU cycles from the application's start: the alone run's
           first intervals, as many as the window beside the CPUs lasted.
  OSS(alpha) = (1 - alpha) WS_CPU/n + alpha SU_GPU.
  A scheme's speedup is the harmonic mean over workloads of its value divided
  by the baseline's on the same workload (CM Figs. 16, 17, 19: "normalized to
  the baseline"; "all average speedup results use harmonic mean").
Python 3 standard library (matplotlib only for plotting).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# CM Table II: class and optimal TLP (warps) of the paper's GPU applications
PAPER_APPS = {"bp": ("H", "48"), "hot": ("H", "16-48"), "path": ("H", "48"), "mm": ("H", "16-48"),
              "blk": ("M", "16"), "pvc": ("M", "8"), "pvr": ("M", "8"), "bfs": ("M", "6"), "mst": ("M", "8"),
              "mum": ("L", "4"), "iix": ("L", "1"), "sp": ("L", "4"), "sssp": ("L", "6")}
SCHEMES = ["dyncta", "cm_cpu", "cm_bal1", "cm_bal2", "cm_bal3", "cm_bal4"]  # CM Figs. 16-17 order
BASELINE = "baseline"
# CM Sec. 6.2 headline values (relative to the baseline, harmonic means over the 36 workloads)
PAPER_CPU_WITHOUT_GPU = 1.69  # CM footnote 14: the CPUs with GPU execution disabled, over the baseline
PAPER = {"cm_cpu": {"cpu_ws_speedup": 1.24, "gpu_speedup": 0.89},   # "+24 % CPU", "11 % performance loss"
         "cm_bal1": {"cpu_ws_speedup": 1.07, "gpu_speedup": 1.07},  # "7 % ... for both CPU and GPU"
         "dyncta": {"cpu_ws_speedup": 1.02}}                        # "only 2 % performance improvement for CPUs"
TYPES = [f"{g}/{c}" for g in "HML" for c in "LMH"]  # GPU type / CPU mix type: CM Figs. 15-18's nine workload types
ALPHAS = [round(0.1 * i, 1) for i in range(11)]
TLPS = [1, 2, 4, 6, 8, 16, 24, 48]  # the issue's static levels (CM Figs. 7-8 use 4..48)
FIG7_APPS = ("mum", "sssp", "pvr", "mst", "mm", "bp")  # CM Fig. 7's representative applications
# CM 3.2.1 on Fig. 7, in words (the figure's values are not in the text)
FIG7_PAPER = {"mum": "lower TLP: almost +20 %", "sssp": "best at 6, drops at 4", "pvr": "drops at very low TLP",
              "mst": "flat", "mm": "drops at low TLP", "bp": "drops at low TLP"}
Q = 0.25  # the monitor's threshold resolution: quarters of a stall per cycle (rtl/cm, TH_Q4 / TL_Q4)


class CmError(Exception):
    pass


# ------------------------------------------------------------------ metrics

def weighted_speedup(shared, alone):
    """CM Sec. 5 WS_CPU: sum of IPC_i,shared / IPC_i,alone (not normalised)."""
    if len(shared) != len(alone) or not shared:
        raise CmError(f"weighted speedup: {len(shared)} shared IPCs, {len(alone)} alone")
    if min(alone) <= 0:
        raise CmError("weighted speedup: an IPC alone is not positive")
    return sum(s / a for s, a in zip(shared, alone))


def gpu_speedup(shared_ipc, alone_ipc):
    """CM Sec. 5 SU_GPU: IPC beside the CPUs / IPC alone."""
    if alone_ipc <= 0:
        raise CmError("GPU speedup: IPC alone is not positive")
    return shared_ipc / alone_ipc


def hmean(xs):
    xs = list(xs)
    if not xs or min(xs) <= 0:
        raise CmError(f"harmonic mean of {xs}: needs positive values")
    return len(xs) / sum(1.0 / x for x in xs)


def oss(ws_norm, su, alpha):
    """CM Sec. 5 overall system speedup, WS_CPU normalised by the core count."""
    if not 0 <= alpha <= 1:
        raise CmError(f"alpha {alpha} outside [0, 1]")
    return (1 - alpha) * ws_norm + alpha * su


# ------------------------------------------------------------------ merges

def load_points(list_path):
    pts = []
    with open(list_path) as f:
        for line in f:
            if line.strip():
                with open(os.path.join(ROOT, line.strip()) if not os.path.isabs(line.strip()) else line.strip()) as g:
                    pts.append(json.load(g))
    if not pts:
        raise CmError(f"{list_path}: no points")
    return pts


def union_blocks(pts):
    """The blocks of the points and how they ran (a block that ran two ways: both, "rtl/c")."""
    out = {}
    for p in pts:
        for k, v in (p.get("blocks") or {}).items():
            seen = out.setdefault(k, [])
            if v not in seen:
                seen.append(v)
    # "none": a run without that block (a CPU mix alone has no GPU, so no monitor)
    out = {k: [x for x in v if x != "none"] or ["none"] for k, v in out.items()}
    return {k: "/".join(v) for k, v in sorted(out.items())}


def host_cost(pts):
    """Host CPU seconds of the points' cm_run (scripts/cm_point.py records them): total, mean, max."""
    t = [p["point"]["host_cpu_s"] for p in pts if "host_cpu_s" in p["point"]]
    return {"points": len(t), "total_s": round(sum(t), 1), "mean_s": round(sum(t) / len(t), 2),
            "max_s": round(max(t), 2)} if t else None


def cpu_type(mix):
    return mix[0] if mix and mix[0] in "LMH" else "?"


def gpu_type(gpu):
    return PAPER_APPS.get(gpu, ("?", ""))[0]


def stall_gpu_per_instr(run):
    """stallGPU cycles (both schedulers, all cores) per GPU warp instruction (CM Fig. 18b)."""
    return sum(run["stall_gpu_per_cycle"]) / run["gpu_ipc"] if run["gpu_ipc"] > 0 else None


def mean_warp_limit(d):
    lim = [x for v in d.get("intervals", []) for x in (v.get("warp_limit") or [])]
    return sum(lim) / len(lim) if lim else None


def alone_ipc(p, cycles):
    """SU_GPU's denominator: the application alone over the same GPU cycles as
    the window beside the CPUs, i.e. its first floor(cycles / interval)
    intervals (the GPU starts at the window's start in both runs; an
    application's IPC changes over its run, so a longer or shorter alone window
    would weigh other phases).  A point without intervals (a hand-made test
    point) is taken whole.  (IPC, cycles it covers)."""
    iv, ivl = p.get("intervals", []), p.get("interval", 1024)
    if not iv:
        return p["run"]["gpu_ipc"], p["run"]["gpu_cycles"]
    n = max(1, cycles // ivl)
    if n > len(iv):
        raise CmError(f"{p['point']['gpu']} alone ran {len(iv)} intervals of {ivl} cycles, a window beside the "
                      f"CPUs lasted {cycles} cycles: lengthen the alone point's run.cycles")
    return sum(v["gpu_ipc"] for v in iv[:n]) / n, n * ivl


def split_points(pts):
    """(mix alone: core IPCs, GPU alone: its point, workloads: {(mix, gpu): {label: point}})."""
    mix_alone, gpu_alone, work = {}, {}, {}
    for p in pts:
        d = p["point"]
        if d["gpu"] == "none":
            mix_alone[d["mix"]] = p["run"]["core_ipc"]
        elif d["mix"] == "none":
            gpu_alone[d["gpu"]] = p
        else:
            w = work.setdefault((d["mix"], d["gpu"]), {})
            if d["label"] in w:
                raise CmError(f"two points of {d['mix']}+{d['gpu']} are labelled {d['label']}")
            w[d["label"]] = p
    return mix_alone, gpu_alone, work


def workload_order(item):
    """Workloads in the figures' type order (TYPES), then by name."""
    (mix, gpu), _ = item
    t = f"{gpu_type(gpu)}/{cpu_type(mix)}"
    return (TYPES.index(t) if t in TYPES else len(TYPES), mix, gpu)


def ratio(a, b):
    return a / b if a is not None and b else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def merge_figs(pts):
    """CM Figs. 16-19 from the sweep's points (see the module's docstring for the metrics)."""
    mix_alone, gpu_alone, work = split_points(pts)
    if not work:
        raise CmError("no workload (CPU mix beside a GPU application) among the points")
    labels = []
    for w in work.values():
        labels += [k for k in w if k not in labels]
    if BASELINE not in labels:
        raise CmError("no baseline points: every scheme is relative to the baseline")
    wl = []
    for (mix, gpu), w in sorted(work.items(), key=workload_order):
        if mix not in mix_alone:
            raise CmError(f"no run of mix {mix} alone (needed for WS_CPU)")
        if gpu not in gpu_alone:
            raise CmError(f"no run of {gpu} alone (needed for SU_GPU)")
        if BASELINE not in w:
            raise CmError(f"{mix}+{gpu}: no baseline point")
        n = len(mix_alone[mix])
        per = {}
        for lab, p in w.items():
            r = p["run"]
            ws = weighted_speedup(r["core_ipc"], mix_alone[mix])
            ga, ga_cycles = alone_ipc(gpu_alone[gpu], r["gpu_cycles"])
            per[lab] = {"ws": ws, "ws_norm": ws / n, "su": gpu_speedup(r["gpu_ipc"], ga), "gpu_ipc_alone": ga,
                        "alone_cycles": ga_cycles,
                        "gpu_ipc": r["gpu_ipc"], "cpu_ipc_sum": r["ipc_sum"], "stall_mc": r["stall_mc_per_cycle"],
                        "stall_net": r["stall_net_per_cycle"], "stall_gpu_per_instr": stall_gpu_per_instr(r),
                        "mean_warp_limit": mean_warp_limit(p), "gpu_cycles": r["gpu_cycles"]}
        b = per[BASELINE]
        for lab, v in per.items():
            v["gpu_rel"] = v["su"] / b["su"]
            v["cpu_rel"] = v["ws"] / b["ws"]
            v["oss_rel"] = [oss(v["ws_norm"], v["su"], al) / oss(b["ws_norm"], b["su"], al) for al in ALPHAS]
        wl.append({"mix": mix, "gpu": gpu, "type": f"{gpu_type(gpu)}/{cpu_type(mix)}", "schemes": per, "points": w})
    out = {}
    for lab in labels:
        if lab == BASELINE:
            continue
        have = [w for w in wl if lab in w["schemes"]]
        if len(have) != len(wl):
            raise CmError(f"scheme {lab}: {len(wl) - len(have)} workload(s) without a point")
        s = {"gpu_speedup": hmean(w["schemes"][lab]["gpu_rel"] for w in wl),
             "cpu_ws_speedup": hmean(w["schemes"][lab]["cpu_rel"] for w in wl),
             "oss": [hmean(w["schemes"][lab]["oss_rel"][i] for w in wl) for i in range(len(ALPHAS))],
             "per_type": {}, "blocks": union_blocks(w["points"][lab] for w in wl),
             # tH / tL: the point's overrides, else configs/cm.ini's [cmbal] defaults (the paper's)
             "thresholds": sorted({(float(o.get("cmbal.t_high", 1)), float(o.get("cmbal.t_low", 0.25)))
                                   for o in (w["points"][lab]["point"]["overrides"] for w in wl)})}
        for t in TYPES:
            tw = [w for w in wl if w["type"] == t]
            if not tw:
                continue
            sc = [w["schemes"][lab] for w in tw]
            base = [w["schemes"][BASELINE] for w in tw]
            s["per_type"][t] = {
                "workloads": len(tw),
                "gpu_speedup": hmean(v["gpu_rel"] for v in sc), "cpu_ws_speedup": hmean(v["cpu_rel"] for v in sc),
                # CM Fig. 18: the type's mean stallMC / stallGPU per instruction over the baseline's mean
                "stall_mc_rel": ratio(mean(v["stall_mc"] for v in sc), mean(v["stall_mc"] for v in base)),
                "stall_net_rel": ratio(mean(v["stall_net"] for v in sc), mean(v["stall_net"] for v in base)),
                "stall_gpu_per_instr_rel": ratio(mean(v["stall_gpu_per_instr"] for v in sc),
                                                 mean(v["stall_gpu_per_instr"] for v in base)),
                "mean_warp_limit": mean(v["mean_warp_limit"] for v in sc)}
        out[lab] = s
    for w in wl:
        del w["points"]
    win = sorted({(p["point"]["warmup"], p["point"]["instrs"]) for p in pts if p["point"]["mix"] != "none"})
    return {"what": "CM Figs. 16-19: CM-CPU / CM-BAL (and DYNCTA) relative to the baseline (GTO, 48 warps)",
            "metrics": __doc__.split("Metrics (CM Sec. 5):\n", 1)[1].split("Python 3")[0].strip(),
            "window": [{"warmup_instrs": a, "instrs": b} for a, b in win],
            "blocks": union_blocks(pts), "host_cpu": host_cost(pts), "alphas": ALPHAS, "types": [t for t in TYPES if any(w["type"] == t for w in wl)],
            "paper": PAPER, "schemes": out, "workloads": wl,
            # the CPUs' headroom: their WS alone over the baseline's (CM footnote 14: "completely disabling
            # GPU execution leads to 69% higher CPU performance over the baseline")
            "cpu_without_gpu": hmean(1 / w["schemes"][BASELINE]["ws_norm"] for w in wl),
            "alone": {"mix_core_ipc": mix_alone,
                      "gpu_ipc_whole_run": {g: p["run"]["gpu_ipc"] for g, p in gpu_alone.items()}}}


def classify(ipc, gain=1.05, loss=0.95):
    """Measured class of one application from its GPU IPC per static TLP:
    L if some TLP <= 6 is >= 5 % faster than 48 warps (gains from lower TLP,
    CM Table II Type-L); else H if 8 warps are >= 5 % slower than 48 (needs
    high TLP, Type-H); else M (mostly insensitive).  opt: the fastest TLP;
    near: every TLP within 2 % of it (the paper's "16-48").  gain / loss: the
    5 % bounds (class_rule_best varies them)."""
    best = max(ipc.values())
    opt = max(ipc, key=lambda t: (ipc[t], -t))
    near = sorted(t for t in ipc if ipc[t] >= 0.98 * best)
    g = {t: ipc[t] / ipc[48] for t in ipc}
    if any(g[t] >= gain for t in g if t <= 6):
        cls = "L"
    elif 8 in g and g[8] <= loss:
        cls = "H"
    else:
        cls = "M"
    return {"opt_tlp": opt, "near_opt": f"{near[0]}-{near[-1]}" if len(near) > 1 else str(near[0]), "class": cls,
            "ipc_rel_48": {str(t): g[t] for t in sorted(g)}}


def class_rule_best(ipcs):
    """The most applications classify() can put in CM Table II's class over every gain bound 1.00-2.99
    and loss bound 0.50-0.99 (steps of 0.01), and the first bounds that reach it: how far the misses
    are the applications' behaviour rather than the rule's 5 %.  ipcs: {app: {TLP: IPC}}."""
    best = (-1, None, None)
    for gi in range(100, 300):
        for li in range(50, 100):
            n = sum(classify(v, gi / 100, li / 100)["class"] == PAPER_APPS.get(a, ("?",))[0]
                    for a, v in ipcs.items())
            if n > best[0]:
                best = (n, gi / 100, li / 100)
    return {"in_class": best[0], "of": len(ipcs), "gain": best[1], "loss": best[2]}


def calibrate(samples, q=Q):
    """Thresholds from per-interval (congestion, CPU performance) samples:
    congestion = max(stallMC, stallnet) per cycle (CM-CPU throttles when
    either is high, raises TLP only when both are low); CPU performance = the
    interval's mean per-core IPC over the mix alone.  Binned in steps of q
    (the monitor's resolution); W0 = the least congested bin's mean, the span
    W0 - min over bins.  tL = the lower edge of the first bin that lost >= 10 %
    of the span (where the CPUs start to suffer), tH = that of the first
    bin that lost >= 50 % (the knee); bins with fewer than 5 intervals are
    ignored.  Returns None when the CPUs lose less than 2 % at any congestion
    seen (nothing to calibrate: keep the paper's)."""
    bins = {}
    for x, y in samples:
        bins.setdefault(int(x / q), []).append(y)
    curve = [(k * q, sum(v) / len(v), len(v)) for k, v in sorted(bins.items()) if len(v) >= 5]
    if len(curve) < 2:
        return None, curve
    w0 = curve[0][1]
    span = w0 - min(c[1] for c in curve)
    if span < 0.02 * w0:
        return None, curve
    tl = next(c[0] for c in curve if w0 - c[1] >= 0.1 * span)
    th = next(c[0] for c in curve if w0 - c[1] >= 0.5 * span)
    tl = max(tl, q)
    th = max(th, tl + q)
    return {"t_high": th, "t_low": tl}, curve


def merge_tlp(pts):
    mix_alone, gpu_alone, work = split_points(pts)
    if len(mix_alone) != 1:
        raise CmError(f"the static-TLP sweep needs exactly one mix alone run, got {sorted(mix_alone)}")
    mix, alone = next(iter(mix_alone.items()))
    n = len(alone)
    apps, samples, ipcs = {}, [], {}
    for (m, gpu), w in sorted(work.items()):
        if m != mix:
            raise CmError(f"{m}+{gpu}: the sweep's mix is {mix}")
        per = {}
        for p in w.values():
            over = p["point"]["overrides"]
            t = int(over.get("cmbal.static_warps", 48)) if over.get("cmbal.scheme", BASELINE) != BASELINE else 48
            r = p["run"]
            iv = p.get("intervals", [])
            per[t] = {"gpu_ipc": r["gpu_ipc"], "ws_norm": weighted_speedup(r["core_ipc"], alone) / n,
                      "stall_mc": r["stall_mc_per_cycle"], "stall_net": r["stall_net_per_cycle"],
                      "stall_gpu_per_instr": stall_gpu_per_instr(r), "intervals": len(iv)}
            ivl = p.get("interval", 1024)
            for v in iv:
                samples.append((max(v["stall_mc"], v["stall_net"]) / ivl,
                                sum(c / a for c, a in zip(v["cpu_ipc"], alone)) / n))
        if 48 not in per:
            raise CmError(f"{gpu}: no 48-warp point (every TLP is relative to it)")
        c = classify({t: v["gpu_ipc"] for t, v in per.items()})
        pc, popt = PAPER_APPS.get(gpu, ("?", "?"))
        c.update({"paper_class": pc, "paper_opt_tlp": popt,
                  "tlp": {str(t): per[t] for t in sorted(per)},
                  # CM Fig. 8: stallMC and stallnet normalised to 48 warps
                  "stall_mc_rel_48": {str(t): ratio(per[t]["stall_mc"], per[48]["stall_mc"]) for t in sorted(per)},
                  "stall_net_rel_48": {str(t): ratio(per[t]["stall_net"], per[48]["stall_net"]) for t in sorted(per)}})
        apps[gpu] = c
        ipcs[gpu] = {t: v["gpu_ipc"] for t, v in per.items()}
    cal, curve = calibrate(samples)
    return {"what": "static-TLP sweep beside one CPU mix: each application's optimal TLP and class (CM Table II, "
                    "Fig. 7), stallMC / stallnet per TLP (CM Fig. 8) and the threshold calibration",
            "mix": mix, "blocks": union_blocks(pts), "host_cpu": host_cost(pts), "classify_rule": classify.__doc__.strip(),
            "calibration_rule": calibrate.__doc__.strip(), "apps": apps, "class_rule_best": class_rule_best(ipcs),
            "paper_thresholds": {"t_high": 1.0, "t_low": 0.25},
            "calibrated_thresholds": cal,
            "cpu_vs_congestion": [{"stall": x, "cpu_perf": y, "intervals": k} for x, y, k in curve]}


def order(vals):
    return [k for k, _ in sorted(vals.items(), key=lambda kv: -kv[1])]


def figures_per_window(pts, enough, what):
    """{window (run.instrs): each scheme's CPU and GPU speedup and OSS(0.5), the workloads}, from points
    at several CPU windows; the GPU alone runs (longer than any window) do not depend on the CPU window,
    so every window uses them.  enough(n windows) says whether the windows suffice (else CmError)."""
    by = {}
    for p in pts:
        if p["point"]["mix"] != "none":
            by.setdefault(p["point"]["instrs"], []).append(p)
    if not enough(len(by)):
        raise CmError(f"{what}, got {sorted(by)}")
    ga = [p for p in pts if p["point"]["mix"] == "none"]
    res = {}
    for n, ps in sorted(by.items()):
        f = merge_figs(ps + ga)
        res[n] = {"cpu": {k: v["cpu_ws_speedup"] for k, v in f["schemes"].items()},
                  "gpu": {k: v["gpu_speedup"] for k, v in f["schemes"].items()},
                  "oss_0.5": {k: v["oss"][ALPHAS.index(0.5)] for k, v in f["schemes"].items()},
                  "workloads": [f"{w['mix']}+{w['gpu']}" for w in f["workloads"]]}
    return res


def merge_double(pts):
    """The schemes at each of two windows (run.instrs; a window and twice it, or cm_figs's and the
    paper's): their figures and order by CPU and GPU speedup and OSS(0.5)."""
    res = {str(n): v for n, v in figures_per_window(pts, lambda n: n == 2,
                                                    "the window check needs CPU windows of two sizes").items()}
    ns = sorted(res, key=int)
    same = {m: order(res[ns[0]][m]) == order(res[ns[1]][m]) for m in ("cpu", "gpu", "oss_0.5")}
    return {"what": "the schemes' figures and order at two windows (CM Sec. 5 method)", "windows": res,
            "order": {m: {n: order(res[n][m]) for n in ns} for m in same}, "same_order": same,
            "blocks": union_blocks(pts)}


WINDOW_TOL = 0.03  # the issue's convergence rule: every figure changes by less than 3 % per doubling
WINDOW_METRICS = (("gpu", "SU_GPU (GPU speedup)"), ("cpu", "WS_CPU (CPU weighted speedup)"),
                  ("oss_0.5", "OSS at alpha 0.5"))


def merge_window(pts):
    """The headline figures of each scheme at each window (run.instrs), their change per doubling and the
    smallest window from which every figure changes by less than WINDOW_TOL per doubling."""
    res = figures_per_window(pts, lambda n: n >= 2, "window convergence needs CPU windows of at least two sizes")
    ns = sorted(res)
    change = {}
    for a, b in zip(ns, ns[1:]):
        if b != 2 * a:
            raise CmError(f"windows {a} and {b}: the convergence rule compares doublings")
        change[b] = max(abs(res[b][m][k] / res[a][m][k] - 1) for m, _ in WINDOW_METRICS for k in res[a][m])
    conv = next((a for a, b in zip(ns, ns[1:]) if all(change[c] < WINDOW_TOL for c in ns[ns.index(b):])), None)
    return {"what": "the schemes' headline figures against the window (CM Sec. 5 method, scaled): the smallest "
                    f"window from which every figure changes by < {WINDOW_TOL:.0%} per doubling",
            "windows": {str(n): res[n] for n in ns}, "max_change_per_doubling": {str(k): v for k, v in change.items()},
            "converged_window": conv, "paper_window": 5000000, "paper": PAPER, "blocks": union_blocks(pts),
            "host_cpu": host_cost(pts)}


BRK_ROWS = (("gpu", "hit"), ("gpu", "miss"), ("cpu", "miss"))
BRK_FULL_NAMES = (("l2_input_queue_full", "L2 input queue full"),
                  ("l2_pipeline_full_request_waiting", "a request waits for the L2"),
                  ("l2_head_waits_reply_network", "L2 head waits: reply network"),
                  ("l2_head_waits_mshr", "L2 head waits: MSHR"),
                  ("mc_input_queue_full", "MC input queue full"),
                  ("mc_to_dram_queue_full", "MC output waits: DRAM queue"))
BRK_FULL = tuple(k for k, _ in BRK_FULL_NAMES)
BRK_STAGES = ("request_network", "l2_pipeline", "miss_queue", "mc_queues", "dram", "fill_to_reply",
              "reply_network", "at_requester", "total")


def merge_breakdown(pts):
    """Per workload: where its memory requests spent their time, which queue was full how often."""
    ws = []
    for p in sorted(pts, key=lambda p: (p["point"]["mix"], p["point"]["gpu"], p["point"]["label"])):
        r, pt = p["run"], p["point"]
        m = r["memory"]
        ws.append({"mix": pt["mix"], "gpu": pt["gpu"], "label": pt["label"], "overrides": pt["overrides"],
                   "gpu_ipc": r["gpu_ipc"], "cpu_ipc_sum": r["ipc_sum"], "stall_mc": r["stall_mc_per_cycle"],
                   "stall_net": r["stall_net_per_cycle"], "l2_hit_rate": m["l2_hit_rate"],
                   "dram_bus_util": m["dram_bus_util"], "breakdown_cycles": m["breakdown_cycles"],
                   "full_fraction": m["full_fraction"]})
    return {"what": "where the memory requests' time goes (core cycles per response) and which queue is full "
                    "how often, over the window (docs/MEM.md, 'Where a request's time goes')",
            "window": [{"warmup_instrs": a, "instrs": b}
                       for a, b in sorted({(p["point"]["warmup"], p["point"]["instrs"]) for p in pts})],
            "workloads": ws, "blocks": union_blocks(pts)}


MERGES = {"figs": merge_figs, "tlp": merge_tlp, "double": merge_double, "breakdown": merge_breakdown,
          "window": merge_window}


# ------------------------------------------------------------------ printing

def fmt(x, p="%.3f"):
    return "-" if x is None else p % x


def print_figs(r):
    print(f"CM Figs. 16-17 ({len(r['workloads'])} workloads; window {r['window']}; blocks {r['blocks']}):")
    print(f"  {'scheme':11s} {'GPU speedup':>12s} {'CPU WS speedup':>15s}   paper")
    for k, s in r["schemes"].items():
        p = PAPER.get(k, {})
        th = ", ".join(f"tH {a:g} tL {b:g}" for a, b in s.get("thresholds", []))
        print(f"  {k:11s} {s['gpu_speedup']:12.3f} {s['cpu_ws_speedup']:15.3f}   "
              f"GPU {fmt(p.get('gpu_speedup'), '%.2f')} CPU {fmt(p.get('cpu_ws_speedup'), '%.2f')}   ({th}; {s['blocks']})")
    if r.get("host_cpu"):
        print(f"host CPU time of the points: {r['host_cpu']}")
    print("CM Fig. 19, OSS over the baseline at alpha = " + " ".join(f"{a:.1f}" for a in r["alphas"]))
    for k, s in r["schemes"].items():
        print(f"  {k:11s} " + " ".join(f"{x:.3f}" for x in s["oss"]))


def print_tlp(r):
    print(f"static TLP beside mix {r['mix']}: GPU IPC relative to 48 warps; blocks {r['blocks']}")
    print(f"  {'app':6s} " + " ".join(f"{t:>6d}" for t in TLPS) + "   opt  near    class  paper (class, opt)")
    for a, c in r["apps"].items():
        g = c["ipc_rel_48"]
        print(f"  {a:6s} " + " ".join(f"{g[str(t)]:6.3f}" if str(t) in g else "     -" for t in TLPS) +
              f"  {c['opt_tlp']:4d}  {c['near_opt']:7s} {c['class']:5s}  {c['paper_class']}, {c['paper_opt_tlp']}")
    print(class_summary(r))
    print(f"thresholds: paper tH {r['paper_thresholds']['t_high']}, tL {r['paper_thresholds']['t_low']}; "
          f"calibrated: {r['calibrated_thresholds'] or 'none (the CPUs do not lose with congestion here)'}")
    if r.get("host_cpu"):
        print(f"host CPU time of the points: {r['host_cpu']}")
    print("CPU performance (mean per-core IPC / alone) per congestion bin max(stallMC, stallnet) per cycle:")
    for c in r["cpu_vs_congestion"]:
        print(f"  {c['stall']:5.2f}  {c['cpu_perf']:.3f}  ({c['intervals']} intervals)")


def print_double(r):
    print("the schemes' order at windows " + " and ".join(r["windows"]) + " instructions:")
    for m, same in r["same_order"].items():
        print(f"  {m:8s} " + "  vs  ".join(" > ".join(o) for o in r["order"][m].values()) +
              f"   {'same' if same else 'DIFFERENT'}")


def print_breakdown(r):
    print(f"where the memory requests' time goes (core cycles per response; window {r['window']}):")
    print(f"  {'workload':18s} {'requests':10s} " + " ".join(f"{x[:9]:>9s}" for x in BRK_STAGES))
    for w in r["workloads"]:
        for src, path in BRK_ROWS:
            b = w["breakdown_cycles"].get(src, {}).get(path)
            if b:
                print(f"  {w['mix'] + '+' + w['gpu'] + ' ' + w['label']:18s} {src + ' ' + path:10s} " +
                      " ".join(f"{b.get(x, 0):9.1f}" for x in BRK_STAGES))


def print_window(r):
    print(f"the schemes' figures per window (instructions of the slowest CPU core); converged (every figure "
          f"< {WINDOW_TOL:.0%} per doubling) from: {r['converged_window'] or 'none of these windows'}")
    for m, name in WINDOW_METRICS:
        print(f"  {name}")
        ks = list(next(iter(r["windows"].values()))[m])
        for k in ks:
            print(f"    {k:11s} " + " ".join(f"{w[m][k]:.3f}" for w in r["windows"].values()))
    print("  largest change per doubling: " +
          ", ".join(f"{n}: {100 * v:.1f} %" for n, v in r["max_change_per_doubling"].items()))


PRINTS = {"figs": print_figs, "tlp": print_tlp, "double": print_double, "breakdown": print_breakdown,
          "window": print_window}


def merge_to(kind, list_path, out):
    """Merges the points in list_path into out, printing the figures; 2 and a one-line error on bad input."""
    try:
        if kind not in MERGES:
            raise CmError(f"--kind {kind}: expected one of {', '.join(MERGES)}")
        r = MERGES[kind](load_points(list_path))
    except (CmError, OSError, KeyError, ValueError, TypeError, ZeroDivisionError) as e:
        print(f"cm_figs: {e.__class__.__name__ + ': ' if not isinstance(e, CmError) else ''}{e}", file=sys.stderr)
        return 2
    PRINTS[kind](r)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(r, f, indent=1)
        f.write("\n")
    os.replace(tmp, out)
    print(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


# ------------------------------------------------------------------ figures

SCHEME_NAMES = {"dyncta": "DYNCTA", "cm_cpu": "CM-CPU", "cm_bal1": "CM-BAL1", "cm_bal2": "CM-BAL2",
                "cm_bal3": "CM-BAL3", "cm_bal4": "CM-BAL4"}


def sname(k):
    if k in SCHEME_NAMES:
        return SCHEME_NAMES[k]
    base = k.rsplit("_cal", 1)[0]
    return SCHEME_NAMES.get(base, k) + (" (cal.)" if k.endswith("_cal") else "")


def tname(t):
    g, c = t.split("/")
    return f"Type-{g} / {c}-MPKI"


def scheme_order(d):
    ks = list(d["schemes"])
    return [k for k in SCHEMES if k in ks] + [k for k in ks if k not in SCHEMES]


def _bars(d, plt, key, ylabel, title):
    ks = scheme_order(d)
    ts = d["types"]
    f, a = plt.subplots(figsize=(12, 4.5))
    w = 0.8 / (len(ts) + 1)
    cmap = plt.get_cmap("tab10")
    for j, t in enumerate(ts):
        a.bar([i + j * w for i in range(len(ks))], [d["schemes"][k]["per_type"].get(t, {}).get(key, 0) for k in ks],
              w, color=cmap(j % 10), label=tname(t))
    a.bar([i + len(ts) * w for i in range(len(ks))], [d["schemes"][k][key] for k in ks], w, color="black",
          label="harmonic mean")
    for i, k in enumerate(ks):
        p = PAPER.get(k.rsplit("_cal", 1)[0], {}).get(key)
        if p is not None:
            a.plot([i - w / 2, i + (len(ts) + 0.5) * w], [p, p], "r--", lw=1.5)
            a.annotate(f"paper {p:.2f}", (i + len(ts) * w, p), textcoords="offset points", xytext=(0, 4),
                       color="red", fontsize=8, ha="center")
    a.axhline(1, color="gray", lw=0.8)
    a.set_xticks([i + len(ts) * w / 2 for i in range(len(ks))])
    a.set_xticklabels([sname(k) for k in ks])
    a.set_ylabel(ylabel)
    a.set_title(title + f" ({len(d['workloads'])} workloads; RTL: "
                f"{', '.join(b for b, v in d['blocks'].items() if 'rtl' in v) or 'none'})", fontsize=10)
    a.legend(fontsize=7, ncol=5, loc="lower center", bbox_to_anchor=(0.5, -0.32))
    f.tight_layout()
    return f


def plot_fig16(d, plt):
    return _bars(d, plt, "gpu_speedup", "GPU IPC / baseline (SU_GPU ratio)",
                 "CM Fig. 16: GPU speedup over the baseline (48 warps, GTO); red: the paper's average")


def plot_fig17(d, plt):
    return _bars(d, plt, "cpu_ws_speedup", "WS_CPU / baseline",
                 "CM Fig. 17: CPU weighted speedup over the baseline; red: the paper's average")


def plot_fig18(d, plt):
    ks = [k for k in ("cm_cpu", "cm_bal1") if k in d["schemes"]] or scheme_order(d)[:2]
    ts = d["types"]
    f, ax = plt.subplots(1, 3, figsize=(17, 4.2))
    w = 0.8 / max(len(ks), 1)
    # the paper draws (a) and (b) and leaves stallnet out ("negligible in most workloads"); here it is
    # the congested one (docs/RESULTS.md), so it is drawn too
    for a, key, title in ((ax[0], "stall_mc_rel", "(a) stallMC per cycle"),
                          (ax[1], "stall_gpu_per_instr_rel", "(b) stallGPU per GPU instruction"),
                          (ax[2], "stall_net_rel", "(c) stallnet per cycle")):
        for j, k in enumerate(ks):
            v = [d["schemes"][k]["per_type"].get(t, {}).get(key) for t in ts]
            a.bar([i + j * w for i in range(len(ts))], [x if x is not None else 0 for x in v], w, label=sname(k))
            for i, x in enumerate(v):
                if x is None:
                    a.annotate("n/a", (i + j * w, 0), ha="center", fontsize=7, xytext=(0, 2),
                               textcoords="offset points")
        a.axhline(1, color="gray", lw=0.8)
        a.set_xticks([i + w * (len(ks) - 1) / 2 for i in range(len(ts))])
        a.set_xticklabels([t.replace("/", "-") for t in ts], fontsize=8)
        a.set_title(title + ", over the baseline's", fontsize=10)
        a.legend(fontsize=8)
    f.suptitle("CM Fig. 18 per workload type (H-L = Type-H GPU / L-MPKI CPU); n/a: no stall in the baseline",
               fontsize=10)
    f.tight_layout()
    return f


def plot_fig19(d, plt):
    f, a = plt.subplots(figsize=(7.5, 4.5))
    al = d["alphas"]
    a.plot(al, [1] * len(al), "k-", lw=1, label="baseline")
    for k in scheme_order(d):
        a.plot(al, d["schemes"][k]["oss"], marker="o", ms=3, label=sname(k), ls="--" if k.endswith("_cal") else "-")
    a.set_xlabel("alpha (GPU importance)")
    a.set_ylabel("OSS / baseline OSS (harmonic mean)")
    a.set_title("CM Fig. 19: overall system speedup over the baseline\n"
                "paper: CM-CPU best at small alpha, below the baseline at large; CM-BAL1 above DYNCTA", fontsize=9)
    a.legend(fontsize=8)
    f.tight_layout()
    return f


def plot_fig7(d, plt):
    """CM Fig. 7: GPU IPC against the static warp limit, normalised to 48 warps, for the representative
    applications that ran (the others faint)."""
    f, a = plt.subplots(figsize=(9, 4.5))
    for g, c in d["apps"].items():
        ts = [t for t in TLPS if str(t) in c["ipc_rel_48"]]
        main = g in FIG7_APPS
        a.plot(range(len(ts)), [c["ipc_rel_48"][str(t)] for t in ts], "o-" if main else "-", ms=3,
               lw=1.5 if main else 0.8, alpha=1 if main else 0.35,
               label=f"{g.upper()} (paper: {FIG7_PAPER[g]})" if main else g.upper())
    a.axhline(1, color="#555555", lw=0.8, ls=":")
    a.set_yscale("log", base=2)  # the Type-L applications gain several-fold where Type-H ones lose as much
    a.set_xticks(range(len(TLPS)))
    a.set_xticklabels(TLPS)
    a.set_xlabel("static TLP (warps per core)")
    a.set_ylabel("GPU IPC, normalised to 48 warps (log scale)")
    a.set_title(f"CM Fig. 7: GPU performance per static TLP beside mix {d['mix']}", fontsize=10)
    a.legend(fontsize=7, ncol=2)
    f.tight_layout()
    return f


def plot_fig8(d, plt):
    apps = list(d["apps"])
    f, ax = plt.subplots(1, 3, figsize=(16, 4.5))
    for a, key, title in ((ax[0], "stall_mc_rel_48", "stallMC"), (ax[1], "stall_net_rel_48", "stallnet")):
        if all(v is None for g in apps for v in d["apps"][g][key].values()):
            a.text(0.5, 0.5, f"{title} is 0 at 48 warps in every run:\nno ratio to draw", ha="center",
                   transform=a.transAxes)
        for g in apps:
            c = d["apps"][g]
            ts = [t for t in TLPS if str(t) in c[key] and c[key][str(t)] is not None]
            a.plot(range(len(ts)), [c[key][str(t)] for t in ts], "o-", ms=3,
                   label=f"{g} ({c['class']}; paper {c['paper_class']})")
        a.set_xticks(range(len(TLPS)))
        a.set_xticklabels(TLPS)
        a.set_xlabel("static TLP (warps per core)")
        a.set_ylabel(f"{title}, normalised to 48 warps")
        a.set_title(f"CM Fig. 8: {title} beside mix {d['mix']}", fontsize=10)
        a.legend(fontsize=7)
    a = ax[2]
    cv = d["cpu_vs_congestion"]
    a.plot([c["stall"] for c in cv], [c["cpu_perf"] for c in cv], "o-", label="per-interval mean, binned")
    pt = d["paper_thresholds"]
    for v, s in ((pt["t_low"], "paper tL"), (pt["t_high"], "paper tH")):
        a.axvline(v, color="red", ls="--", lw=1)
        a.annotate(s, (v, a.get_ylim()[0]), color="red", fontsize=8, rotation=90, va="bottom")
    if d["calibrated_thresholds"]:
        ct = d["calibrated_thresholds"]
        for v, s in ((ct["t_low"], "calibrated tL"), (ct["t_high"], "calibrated tH")):
            a.axvline(v, color="green", ls=":", lw=1.5)
            a.annotate(s, (v, a.get_ylim()[1]), color="green", fontsize=8, rotation=90, va="top")
    a.set_xlabel("max(stallMC, stallnet) per cycle in the interval")
    a.set_ylabel("CPU: mean per-core IPC / alone")
    a.set_title("CPU performance against congestion (all static-TLP runs)", fontsize=10)
    a.legend(fontsize=8)
    f.tight_layout()
    return f


def fig_entries(suffix, exp_suffix):
    """scripts/figures.py registry entries (PNG name, JSON, plot, tables for docs/RESULTS.md)."""
    figs = {"json": f"cm_figs{suffix}.json", "experiment": f"experiments/cm_figs{exp_suffix}.ini",
            "program": "scripts/cm_point.py"}
    tlp = {"json": f"cm_tlp{suffix}.json", "experiment": f"experiments/cm_tlp{exp_suffix}.ini",
           "program": "scripts/cm_point.py"}
    return [dict(figs, name=f"cm_fig16{suffix}", plot=plot_fig16, tables={f"cm_figs{suffix}": table_figs},
                 also=[tlp["json"]]),
            dict(figs, name=f"cm_fig17{suffix}", plot=plot_fig17, tables={f"cm_types{suffix}": table_types}),
            dict(figs, name=f"cm_fig18{suffix}", plot=plot_fig18, tables={}),
            dict(figs, name=f"cm_fig19{suffix}", plot=plot_fig19, tables={f"cm_oss{suffix}": table_oss}),
            dict(tlp, name=f"cm_fig7{suffix}", plot=plot_fig7, tables={}),
            dict(tlp, name=f"cm_fig8{suffix}", plot=plot_fig8,
                 tables={f"cm_classes{suffix}": table_classes, f"cm_calibration{suffix}": table_calibration,
                         f"cm_fig8{suffix}": table_fig8})]


# ------------------------------------------------------------------ docs tables (scripts/figures.py docs)

def md(header, rows):
    return "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] +
                     ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def pct(x):
    return "-" if x is None else f"{100 * (x - 1):+.1f} %"


def tlp_beside(d):
    """The static-TLP sweep's result loaded beside a Figs. 16-19 result (figures.load's "also"), or None."""
    return next((v for k, v in d.get("_also", {}).items() if k.startswith("cm_tlp")), None)


def check_calibrated(d):
    """The calibrated schemes (labels *_cal) ran at the thresholds the static-TLP sweep beside them
    printed (d["_also"]: cm_tlp*.json, None if it has not run here); a calibration that moved since
    (another machine or window) makes their figures stale, so the table is refused."""
    tlp = tlp_beside(d)
    if tlp is None:
        return "the static-TLP sweep has not run here: the calibrated thresholds are not checked"
    ct = tlp["calibrated_thresholds"]
    want = [[ct["t_high"], ct["t_low"]]] if ct else None
    for k, s in d["schemes"].items():
        if k.endswith("_cal") and [list(map(float, t)) for t in s.get("thresholds", [])] != want:
            raise CmError(f"{k} ran at tH / tL {s.get('thresholds')}, the calibration beside it printed {want}: "
                          "set its thresholds in the experiment and rerun it")
    if not ct:
        return "the static-TLP sweep printed no calibration (the CPUs do not lose with congestion)"
    return f"calibrated thresholds as the static-TLP sweep printed them: tH {ct['t_high']:g}, tL {ct['t_low']:g}"


def in_class_figures(d):
    """Each scheme's harmonic means over the workloads whose application the static-TLP sweep beside
    them (d["_also"]) puts in CM Table II's class: the figures the paper's mix of application types
    would give on this machine.  None without that sweep."""
    tlp = tlp_beside(d)
    if tlp is None:
        return None
    cls = {a: c["class"] for a, c in tlp["apps"].items()}
    ws = [w for w in d["workloads"] if cls.get(w["gpu"]) == PAPER_APPS.get(w["gpu"], ("?",))[0]]
    if not ws:
        return None
    return {"workloads": len(ws), "apps": sorted({w["gpu"] for w in ws}),
            "schemes": {k: {"gpu_speedup": hmean(w["schemes"][k]["gpu_rel"] for w in ws),
                            "cpu_ws_speedup": hmean(w["schemes"][k]["cpu_rel"] for w in ws)}
                        for k in scheme_order(d)}}


def table_figs(d):
    cal = check_calibrated(d)
    rows = []
    for k in scheme_order(d):
        s, p = d["schemes"][k], PAPER.get(k, {})
        th = ", ".join(f"{a:g} / {b:g}" for a, b in s.get("thresholds", []))
        rows.append([sname(k), th, s.get("blocks", {}).get("cm_bal_monitor", "?"), pct(s["gpu_speedup"]),
                     pct(p.get("gpu_speedup")), pct(s["cpu_ws_speedup"]), pct(p.get("cpu_ws_speedup"))])
    head = (f"; the CPUs alone run {pct(d['cpu_without_gpu'])} faster than beside the GPU at 48 warps (paper: "
            f"{pct(PAPER_CPU_WITHOUT_GPU)}, CM footnote 14)." if "cpu_without_gpu" in d else "")
    out = (f"{len(d['workloads'])} workloads; blocks: {', '.join(f'{b} {v}' for b, v in d['blocks'].items())}; "
           f"{cal}{head}\n\n" +
           md(["scheme", "tH / tL", "monitor", "GPU (Fig. 16)", "paper", "CPU WS (Fig. 17)", "paper"], rows))
    ic = in_class_figures(d)
    if ic:
        out += (f"\n\nOver the {ic['workloads']} workloads whose application the static-TLP sweep puts in CM "
                f"Table II's class ({', '.join(a.upper() for a in ic['apps'])}):\n\n" +
                md(["scheme", "GPU", "paper", "CPU WS", "paper"],
                   [[sname(k), pct(v["gpu_speedup"]), pct(PAPER.get(k, {}).get("gpu_speedup")),
                     pct(v["cpu_ws_speedup"]), pct(PAPER.get(k, {}).get("cpu_ws_speedup"))]
                    for k, v in ic["schemes"].items()]))
    return out


def table_types(d):
    """CM Figs. 16-17 per workload type (GPU application type / CPU mix type): GPU and CPU speedup over
    the baseline and the mean warp limit, per scheme."""
    ks = scheme_order(d)
    rows = []
    for t in d["types"]:
        row = [t.replace("/", "-")]
        for k in ks:
            v = d["schemes"][k]["per_type"].get(t)
            lim = v and v.get("mean_warp_limit")  # None: points without intervals
            row.append("-" if not v else f"{v['gpu_speedup']:.2f} / {v['cpu_ws_speedup']:.2f} / "
                                         f"{'-' if lim is None else f'{lim:.0f}'}")
        rows.append(row)
    return ("GPU speedup / CPU WS speedup / mean warp limit, per workload type (H-L: a Type-H GPU "
            "application beside an L-MPKI mix)\n\n" + md(["type"] + [sname(k) for k in ks], rows))


def table_oss(d):
    al = [a for a in d["alphas"] if a in (0.0, 0.2, 0.5, 0.8, 1.0)]
    return md(["scheme"] + [f"alpha {a}" for a in al],
              [[sname(k)] + [f"{d['schemes'][k]['oss'][d['alphas'].index(a)]:.3f}" for a in al]
               for k in scheme_order(d)])


def table_classes(d):
    rows = []
    for g, c in d["apps"].items():
        rows.append([g.upper(), c["class"], c["opt_tlp"], c["near_opt"], c["paper_class"], c["paper_opt_tlp"]] +
                    [f"{c['ipc_rel_48'].get(str(t), 0):.2f}" for t in TLPS])
    return (class_summary(d) + "\n\n" +
            md(["app", "class", "opt. TLP", "within 2 %", "paper class", "paper opt. TLP"] + [f"{t}" for t in TLPS],
               rows))


def table_fig8(d):
    """CM Fig. 8: stallMC and stallnet per cycle at 48 warps and normalised to it at CM Fig. 8's TLPs."""
    ts = [t for t in TLPS if 4 <= t < 48]
    rows = []
    for g, c in d["apps"].items():
        t48 = c["tlp"]["48"]
        rows.append([g.upper(), c["paper_class"], f"{t48['stall_mc']:.2f}", f"{t48['stall_net']:.2f}"] +
                    [f"{c['stall_mc_rel_48'].get(str(t)) or 0:.2f} / {c['stall_net_rel_48'].get(str(t)) or 0:.2f}"
                     for t in ts])
    return md(["app", "paper class", "stallMC / cycle at 48", "stallnet / cycle at 48"] +
              [f"{t}: MC / net" for t in ts], rows)


def class_summary(d):
    n = sum(c["class"] == c["paper_class"] for c in d["apps"].values())
    b = d.get("class_rule_best")
    return (f"{n} of {len(d['apps'])} applications in CM Table II's class" +
            (f"; with any bounds of the rule (gain 1.00-2.99, loss 0.50-0.99) at most {b['in_class']} "
             f"(gain {b['gain']:g}, loss {b['loss']:g})" if b else ""))


def table_calibration(d):
    ct = d["calibrated_thresholds"]
    return (f"paper tH = {d['paper_thresholds']['t_high']}, tL = {d['paper_thresholds']['t_low']}; calibrated: " +
            (f"tH = {ct['t_high']}, tL = {ct['t_low']}" if ct else "none (the CPUs do not lose with congestion)") +
            "\n\n" + md(["max(stallMC, stallnet) per cycle", "CPU perf. (IPC / alone)", "intervals"],
                        [[f"{c['stall']:.2f}", f"{c['cpu_perf']:.3f}", c["intervals"]]
                         for c in d["cpu_vs_congestion"]]))


def table_double(d):
    rows = [[m, " > ".join(f"{sname(k)} {d['windows'][n][m][k]:.3f}" for k in o[n]), n]
            for m in d["order"] for o in [d["order"][m]] for n in o]
    return (", ".join(f"{m}: {'same order' if v else 'ORDER CHANGES'}" for m, v in d["same_order"].items()) +
            "\n\n" + md(["metric", "schemes, best first", "window (instructions)"], rows))


# experiments/cm_tlp_cause.ini's machines, in the table's order
CAUSE_MACHINES = [("default", "CM Table I (configs/cm.ini)"), ("l1x4", "64 KB L1 (`gpu.l1_bytes=65536`)"),
                  ("l1x8", "128 KB L1 (`gpu.l1_bytes=131072`)"),
                  ("flit64", "64 B mesh channels (`mem.flit_bytes=64`)")]


def table_tlp_cause(d):
    """Why an application gains from lower TLP (experiments/cm_tlp_cause.ini, collected as a list): per
    application and machine, GPU IPC at 4 and 6 warps over 48, the L1 misses sent to memory per 1000 warp
    instructions at 4 and 48 warps, and the congestion at 48 warps."""
    runs = {}
    for p in d["points"]:
        v = p["values"]
        runs[(v["app"], v["machine"], v["tlp"])] = p["result"]["run"]

    def per_kilo(r):  # requests to the memory system per 1000 warp instructions
        return 1000 * r["gpu_requests"] / (r["gpu_ipc"] * r["gpu_cycles"])

    rows = []
    for app in dict.fromkeys(v["values"]["app"] for v in d["points"]):
        for m, name in CAUSE_MACHINES:
            r4, r6, r48 = (runs.get((app, m, t)) for t in ("w4", "w6", "w48"))
            if not (r4 and r6 and r48):
                rows.append([app.upper(), PAPER_APPS.get(app, ("?",))[0], name] + ["not run"] * 5)
                continue
            g = max(r4["gpu_ipc"], r6["gpu_ipc"]) / r48["gpu_ipc"]
            rows.append([app.upper(), PAPER_APPS.get(app, ("?",))[0], name,
                         f"{r4['gpu_ipc'] / r48['gpu_ipc']:.2f} / {r6['gpu_ipc'] / r48['gpu_ipc']:.2f}",
                         f"{(g - 1) * 100:+.0f} %" + (" (L)" if g >= 1.05 else ""),
                         f"{per_kilo(r4):.0f} / {per_kilo(r48):.0f}",
                         f"{r4['memory']['l2_hit_rate']:.2f} / {r48['memory']['l2_hit_rate']:.2f}",
                         f"{r48['stall_mc_per_cycle']:.2f} / {r48['stall_net_per_cycle']:.2f}"])
    return md(["app", "paper class", "machine", "GPU IPC at 4 / 6 warps over 48",
               "best gain (L: >= 5 %, the rule's bound)", "memory requests per 1000 warp instr., 4 / 48 warps",
               "L2 hit rate, 4 / 48 warps", "stallMC / stallnet per cycle at 48"], rows)


def plot_tlp_cause(d, plt):
    """Each application's best gain from lower TLP (4 or 6 warps over 48) on each machine, the rule's
    5 % bound dotted: where a counterfactual machine takes the gain, that machine names the cause."""
    runs = {(p["values"]["app"], p["values"]["machine"], p["values"]["tlp"]): p["result"]["run"]
            for p in d["points"]}
    apps = list(dict.fromkeys(p["values"]["app"] for p in d["points"]))
    f, a = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(CAUSE_MACHINES)
    for k, (m, name) in enumerate(CAUSE_MACHINES):
        xs, ys = [], []
        for i, app in enumerate(apps):
            r = [runs.get((app, m, t)) for t in ("w4", "w6", "w48")]
            if all(r):
                xs.append(i + (k - (len(CAUSE_MACHINES) - 1) / 2) * width)
                ys.append(100 * (max(r[0]["gpu_ipc"], r[1]["gpu_ipc"]) / r[2]["gpu_ipc"] - 1))
        a.bar(xs, ys, width, label=name.replace("`", ""))
    a.axhline(5, color="#555555", lw=0.8, ls=":")
    a.axhline(0, color="#000000", lw=0.6)
    a.set_xticks(range(len(apps)))
    a.set_xticklabels([f"{g.upper()} (paper {PAPER_APPS.get(g, ('?',))[0]})" for g in apps])
    a.set_ylabel("best GPU IPC at 4 or 6 warps over 48 (%)")
    a.set_title("Why applications gain from lower TLP: the gain per machine (dotted: the Type-L bound, 5 %)",
                fontsize=10)
    a.legend(fontsize=7)
    f.tight_layout()
    return f


def plot_window(d, plt):
    """Each headline figure against the window, a line per scheme, the paper's value (at its 5 M) dashed."""
    ns = [int(n) for n in d["windows"]]
    f, ax = plt.subplots(1, 3, figsize=(16, 4.5))
    paper_key = {"gpu": "gpu_speedup", "cpu": "cpu_ws_speedup"}
    for a, (m, name) in zip(ax, WINDOW_METRICS):
        for i, k in enumerate(d["windows"][str(ns[0])][m]):
            line, = a.plot(ns, [d["windows"][str(n)][m][k] for n in ns], "o-", ms=3, label=sname(k))
            pv = d["paper"].get(k, {}).get(paper_key.get(m, ""))
            if pv is not None:
                a.axhline(pv, color=line.get_color(), ls="--", lw=1)
        a.set_xscale("log", base=2)
        a.set_xlabel("window: instructions of the slowest CPU core (paper: 5 M)")
        a.set_ylabel(f"{name}, over the baseline")
        if d["converged_window"]:
            a.axvline(d["converged_window"], color="#555555", ls=":", lw=1)
        a.set_title(name, fontsize=10)
        a.legend(fontsize=7)
    f.suptitle(f"CM figures against the window (dashed: the paper's; dotted: the smallest window from which "
               f"every figure moves < {WINDOW_TOL:.0%} per doubling)", fontsize=10)
    f.tight_layout()
    return f


def table_window(d):
    ns = list(d["windows"])
    rows = []
    for m, name in WINDOW_METRICS:
        for k in d["windows"][ns[0]][m]:
            rows.append([name, sname(k)] + [f"{d['windows'][n][m][k]:.3f}" for n in ns])
    rows.append(["largest change per doubling", ""] + [""] +
                [f"{100 * d['max_change_per_doubling'][n]:.1f} %" for n in ns[1:]])
    cw = d["converged_window"]
    return ((f"Every figure moves by less than {WINDOW_TOL:.0%} per doubling from a window of {cw} instructions."
             if cw else f"No window here is long enough for every figure to move by less than {WINDOW_TOL:.0%} "
                        "per doubling.") + "\n\n" + md(["figure", "scheme"] + [f"{n}" for n in ns], rows))


def brk_name(w):
    return f"{w['mix']} + {w['gpu'].upper()}" + ("" if w["label"] == BASELINE else f" ({w['label']})")


def table_breakdown(d):
    rows = []
    for w in d["workloads"]:
        for src, path in BRK_ROWS:
            b = w["breakdown_cycles"].get(src, {}).get(path)
            if b:
                rows.append([brk_name(w), f"{src.upper()} {path}", f"{b['responses']:.0f}"] +
                            [f"{b[x]:.0f}" if x in b else "" for x in BRK_STAGES])
    f = [[brk_name(w), f"{w['l2_hit_rate']:.0%}", f"{w['dram_bus_util']:.0%}", f"{w['stall_mc']:.2f}",
          f"{w['stall_net']:.2f}"] +
         [f"{w['full_fraction'].get(k, 0):.0%}" for k in BRK_FULL] +
         [f"{w['gpu_ipc']:.2f}", f"{w['cpu_ipc_sum']:.3f}"] for w in d["workloads"]]
    return (md(["workload", "requests", "responses", "request network", "L2 pipeline", "miss queue",
                "MC (F/E) queues", "DRAM", "fill -> reply", "reply network", "at requester", "total"], rows) +
            "\n\n" + md(["workload", "L2 hit rate", "DRAM bus busy", "stallMC", "stallnet"] +
                         [h for _, h in BRK_FULL_NAMES] + ["GPU IPC", "CPU IPC sum"], f))


FIGURES = fig_entries("", "") + fig_entries("_demo", "_demo") + [
    {"name": "cm_breakdown", "json": "cm_breakdown.json", "plot": None, "experiment": "experiments/cm_breakdown.ini",
     "program": "scripts/cm_point.py", "tables": {"cm_breakdown": table_breakdown}},
    {"name": "cm_window", "json": "cm_window.json", "plot": plot_window, "experiment": "experiments/cm_window.ini",
     "program": "scripts/cm_point.py", "tables": {"cm_window": table_window}},
    {"name": "cm_double", "json": "cm_double.json", "plot": None, "experiment": "experiments/cm_double.ini",
     "program": "scripts/cm_point.py", "tables": {"cm_double": table_double}},
    {"name": "cm_paper_window", "json": "cm_paper_window.json", "plot": None,
     "experiment": "experiments/cm_paper_window.ini", "program": "scripts/cm_point.py",
     "tables": {"cm_paper_window": table_double}},
    {"name": "cm_tlp_cause", "json": "cm_tlp_cause.json", "plot": plot_tlp_cause, "experiment": "experiments/cm_tlp_cause.ini",
     "program": "scripts/cm_point.py", "tables": {"cm_tlp_cause": table_tlp_cause}}]


def cmd_plot(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="cm_figs.py plot")
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--only", action="append")
    o = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for fig in FIGURES:
        if (o.only and fig["name"] not in o.only) or not fig["plot"]:
            continue
        path = os.path.join(o.results, fig["json"])
        if not os.path.exists(path):
            print(f"cm_figs: {fig['name']}: no {os.path.relpath(path, ROOT)}; skipped", file=sys.stderr)
            continue
        with open(path) as f:
            d = json.load(f)
        out = os.path.join(o.results, fig["name"] + ".png")
        fg = fig["plot"](d, plt)
        fg.savefig(out, dpi=100, metadata={"Software": None})
        plt.close(fg)
        print(f"cm_figs: wrote {os.path.relpath(out, ROOT)}")
    return 0


def main(argv):
    if argv[:1] == ["plot"]:
        return cmd_plot(argv[1:])
    import argparse
    ap = argparse.ArgumentParser(prog="cm_figs.py", description="merge a CM experiment's points (or: plot)")
    ap.add_argument("--kind", required=True, choices=sorted(MERGES))
    ap.add_argument("--merge", required=True, metavar="LIST")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    return merge_to(a.kind, a.merge, a.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
