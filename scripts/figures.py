#!/usr/bin/env python3
"""figures: the paper figures from the experiments' JSON (make results).

    figures.py plot [--results DIR] [--only FIGURE]...   # DIR/<figure>.png, laid out like the paper's
    figures.py docs [--results DIR] [--doc docs/RESULTS.md]
        # regenerates every block between
        #   <!-- BEGIN generated: NAME --> ... <!-- END generated: NAME -->
        # from the JSON, leaving the prose alone, and copies the PNGs the doc
        # shows into docs/figures/

Each figure names its result file, the experiment that writes it and the
program behind it; a figure whose JSON is missing is skipped with a note.
plot needs Debian's python3-matplotlib; docs needs only the standard library.
"""
import argparse
import json
import math
import os
import re
import shutil
import sys

import cm_figs  # CM-BAL's experiments: metrics, figures and tables (scripts/cm_figs.py)
import provenance  # the sources fingerprint under every table (scripts/provenance.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ------------------------------------------------------------------ tables

def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["|" + "|".join(f" {c} " if c != "" else " " for c in r) + "|" for r in rows]
    return "\n".join(out)


def launch_table(d):
    b, e, p = d["baseline"], d["edge"], d["paper"]
    return table(["path", "min ns", "avg ns", "max ns", "paper"], [
        ["baseline (CPU launch, CUDA-like API)", f"{b['min_ns']:.0f}", f"{b['avg_ns']:.0f}", f"{b['max_ns']:.0f}",
         f"~{p['baseline_ns']:.0f}"],
        ["EDGE (device rings a doorbell)", f"{e['min_ns']:.0f}", f"{e['avg_ns']:.0f}", f"{e['max_ns']:.0f}",
         f"~{p['edge_ns']:.0f}"],
        ["speedup", "", f"**{d['speedup']:.2f}x**", "", f"{p['speedup']:g}x"]])


def e2e_table(d):
    j = d["end_to_end"]
    rate = f"{j['offered_mpps']:g} Mpps offered"
    rows = [[f"{name} {when}", f"{r['packet_latency_ns']['avg']:.0f}", f"{r['packet_latency_ns']['max']:.0f}",
             f"{r['throughput_mpps']:.2f}"]
            for key, name, when in (("baseline", "baseline", "at " + rate), ("edge", "EDGE", "at " + rate),
                                    ("baseline_saturated", "baseline", "saturated"),
                                    ("edge_saturated", "EDGE", "saturated"))
            for r in [j[key]]]
    return table(["run", "avg latency ns", "max latency ns", "throughput Mpps"], rows)


def fold(x):
    return f"{x:.0f}x" if x >= 100 else f"{x:.1f}x"


def fig11_summary(d):
    s, p = d["summary"], d["paper"]
    paper = {"oldest": f"{p['oldest_reduction']:g}x, ~{p['oldest_all_cycles']:g} cycles",
             "newest": f"{p['newest_reduction']:g}x, ~{p['newest_all_cycles']:g} cycles", "cheapest": "—"}
    label = {"oldest": "oldest victim", "newest": "newest victim",
             "cheapest": "cheapest (ours: barrier, else no loads, else oldest)"}
    rows = []
    for pol in ("oldest", "newest", "cheapest"):
        if pol in s:
            r = s[pol]["reduction"]
            rows.append([label[pol], f"{s[pol]['avg_none_cycles']:.1f}", f"{s[pol]['avg_all_cycles']:.1f}",
                         f"**{fold(r)}**" if pol != "cheapest" else fold(r), paper[pol]])
    if "draining" in s:
        dr = s["draining"]
        rows.append(["draining (every event, against oldest/all)", f"{dr['avg_cycles']:.1f}",
                     f"{dr['avg_cycles'] / dr['vs_oldest_all']:.1f}", fold(dr["vs_oldest_all"]),
                     "Fig. 12: 2.6x (another experiment)"])
    names = ", ".join(k.upper() for k in d["kernels"])
    return table([f"average over {names} (cycles)", "no optimization", "all four", "reduction", "paper"], rows)


# EDGE Fig. 11's counterfactuals at full size: the nine kernels of experiments/edge_fig11_all.ini, each
# row from its experiment's result
F11_CF = [("default (GTO, DRAM ~100-360 cycles; `experiments/edge_fig11_all.ini`)", "preemption_latency_all.json"),
          ("loose round-robin warp schedulers (`--set gpu.warp_scheduler=lrr`; `experiments/edge_fig11_lrr.ini`)",
           "preemption_latency_lrr.json"),
          ("every DRAM access ~1000 cycles longer (`--set mem.l2_dram_latency=900`; "
           "`experiments/edge_fig11_slowmem.ini`)", "preemption_latency_slowmem.json"),
          ("the EDGE artifact's load drop (`--set preempt.drop_rule=pipe`; `experiments/edge_fig11_droppipe.ini`)",
           "preemption_latency_droppipe.json"),
          ("its load drop and slow DRAM together (`experiments/edge_fig11_droppipe_slowmem.ini`)",
           "preemption_latency_droppipe_slowmem.json")]


def fig11_policy(d, ks, pol, key="avg_preemption_cycles_preempted_only"):
    """(none, all, dropped share) for victim policy pol averaged over kernels ks as the program averages
    (sim/prog/preemption_latency_main.c): each kernel's mean over its preempting events, kernels with
    none skipped; dropped share: of the pol/all victims that waited on a load, those whose loads the
    controller dropped (EDGE IV-D's fourth optimization).  key: the latency from the event's arrival,
    or avg_flush_cycles_preempted_only, from the victim's choice (the EDGE artifact's window)."""
    sn = sa = n = waiting = dropped = 0
    for k in ks:
        runs = {r["config"]: r for r in d["kernels"][k]["runs"]}
        a, b = runs.get(f"{pol}/none"), runs.get(f"{pol}/all")
        if not a or not b or not a["preempted"]:
            continue
        sn += a[key]
        sa += b[key]
        n += 1
        waiting += b["preempted"] * b["victim_waiting_on"]["load"]
        dropped += b["loads_dropped"]
    return (sn / n, sa / n, dropped / waiting if waiting else 0.0) if n else None


def fig11_counterfactuals(d):
    rows = []
    for label, name in F11_CF:
        x = d["_also"].get(name)
        if x is None:
            rows.append([label] + ["not run"] * 5)
            continue
        for bl, ks in ((f"paper's four ({', '.join(k.upper() for k in PAPER_BGS)})", PAPER_BGS),
                       (f"all {len(x['kernels'])}", list(x["kernels"]))):
            cells = []
            for pol in ("oldest", "newest"):
                r = fig11_policy(x, [k for k in ks if k in x["kernels"]], pol)
                if pol == "oldest" and len(ks) == len(x["kernels"]) and r:  # the program's own figure
                    check_merge(f"{name} oldest reduction", r[0] / r[1], x["summary"]["oldest"]["reduction"])
                cells.append(f"{r[0]:.1f} / {r[1]:.1f} / **{fold(r[0] / r[1])}**" if r else "—")
            r = fig11_policy(x, [k for k in ks if k in x["kernels"]], "oldest")
            w = fig11_policy(x, [k for k in ks if k in x["kernels"]], "oldest", "avg_flush_cycles_preempted_only")
            rows.append([label, bl] + cells + [f"{w[0]:.1f} / {w[1]:.1f} / **{fold(w[0] / w[1])}**" if w else "—",
                                               f"{100 * r[2]:.0f} %" if r else "—"])
    p = d["paper"]
    rows.append(["paper (EDGE Fig. 11; none = reduction x all)", "CONV, MM, BP, BFS",
                 f"~{p['oldest_reduction'] * p['oldest_all_cycles']:.0f} / ~{p['oldest_all_cycles']:g} / "
                 f"{p['oldest_reduction']:g}x",
                 f"~{p['newest_reduction'] * p['newest_all_cycles']:.0f} / ~{p['newest_all_cycles']:g} / "
                 f"{p['newest_reduction']:g}x", "—", "—"])
    return table(["machine", "kernels", "oldest: none / all / reduction (cycles)",
                  "newest: none / all / reduction (cycles)", "oldest, from the victim's choice as the EDGE "
                  "artifact counts: none / all / reduction", "oldest/all: victims waiting on a load whose loads "
                  "were dropped"], rows)


def fig11_kernels(d):
    ks = list(d["kernels"])
    configs = [r["config"] for r in d["kernels"][ks[0]]["runs"]]
    rows = []
    for c in configs:
        row = [c]
        for k in ks:
            r = next(x for x in d["kernels"][k]["runs"] if x["config"] == c)
            if c == "draining":
                row.append(f"{r['avg_preemption_cycles']:.1f} (all events)")
            else:
                row.append(f"{r['avg_preemption_cycles_preempted_only']:.1f} ({r['preempted']}/{r['events']})")
        rows.append(row)
    bullets = [f"- {k}: {v['description']}; registers per thread {v['regs_background']} "
               f"(IPv4 event: {v['regs_event']})" for k, v in d["kernels"].items()]
    return (table(["config"] + ks, rows) + "\n\n(in brackets: events that preempted / events)\n\n" +
            "\n".join(bullets))


FE_VARIANTS = [("baseline", "baseline"), ("overlap_start", "overlap-start"), ("overlap_finish", "overlap-finish"),
               ("full_overlap", "full-overlap")]


def fe_fig11_table(d):
    rows = []
    for name, b in d["benchmarks"].items():
        rows.append([f"{name} ({b['size']:g})", f"{b['runtime_ns']['baseline'] / 1e3:.1f}"] +
                    [f"{b['normalized'][v]:.3f}" for v, _ in FE_VARIANTS[1:]] +
                    [f"{b['speedup']['full_overlap']:.2f}x"])
    m = d["mean_normalized"]
    rows.append(["**mean**", ""] + [f"{m[v]:.3f}" for v, _ in FE_VARIANTS[1:]] +
                [f"**{d['mean_speedup_full_overlap']:.2f}x** (paper {d['paper']['mean_speedup_full_overlap']:g}x)"])
    rows.append(["**best**", "", "", "", "",
                 f"**{d['best_speedup_full_overlap']:.2f}x** {d['best_benchmark']} "
                 f"(paper {d['paper']['best_speedup_full_overlap']:g}x)"])
    return table(["benchmark (size)", "baseline us", "overlap-start", "overlap-finish", "full-overlap",
                  "full-overlap speedup"], rows)


def fe_fig11_nol2_table(d):
    x = d["_also"].get("fe_fig11_nol2.json")
    rows = []
    for name, b in d["benchmarks"].items():
        n = x["benchmarks"][name]["normalized"] if x else None
        rows.append([f"{name} ({b['size']:g})"] + [f"{b['normalized'][v]:.3f}" for v, _ in FE_VARIANTS[1:]] +
                    ([f"{n[v]:.3f}" for v, _ in FE_VARIANTS[1:]] if n else ["not run"] * 3))
    m, n = d["mean_normalized"], x["mean_normalized"] if x else None
    rows.append(["**mean**"] + [f"{m[v]:.3f}" for v, _ in FE_VARIANTS[1:]] +
                ([f"{n[v]:.3f}" for v, _ in FE_VARIANTS[1:]] if n else ["not run"] * 3))
    return table(["benchmark (size)", "overlap-start", "overlap-finish", "full-overlap",
                  "without F/E lines in the L2: overlap-start", "overlap-finish", "full-overlap"], rows)


def fe_fig12_table(d):
    rows = [[f"{c['elements']:g}", f"{c['cpu_ns'] / 1e3:.1f}", f"{c['cpu_warm_ns'] / 1e3:.1f}",
             f"{c['cpu_O0_ns'] / 1e3:.1f}", f"{c['baseline_ns'] / 1e3:.1f}", f"{c['full_overlap_ns'] / 1e3:.1f}",
             f"{c['baseline_norm']:.3f}", f"{c['full_overlap_norm']:.3f}"] for c in d["curves"]]

    def be(o, k):
        v = o[f"breakeven_{k}_elems"]
        return "none (GPU slower at every size)" if v is None else \
            f"{v:g} (crossing ~{o[f'breakeven_{k}_interp_elems']:.0f})"

    def row(label, o):
        return [label, f"{o['cpu_ns_per_elem']:.3f}", be(o, "baseline"), be(o, "full_overlap")]
    p, touch = d["paper"], d["cpu_model"]["first_touch_ns"]
    summary = table(["CPU", "ns per element", "breakeven, baseline", "breakeven, full-overlap"], [
        row(f"-O2, fresh output, {touch:g} ns per page (the figure's CPU)", d),
        row("-O2, output already written", d["cpu_warm"]),
        row("-O0, output already written", d["cpu_O0"])] + [
        row(f"-O2, fresh output, {o['first_touch_ns']:g} ns per page", o)
        for o in d["first_touch_sensitivity"] if o["first_touch_ns"] not in (0, touch)] + [
        ["paper (F/E Fig. 12)", "", f"{p['breakeven_baseline_elems']:g}", f"{p['breakeven_full_overlap_elems']:g}"],
        ["CPU that breaks even at the paper's sizes here", f"{d['implied_cpu_ns_per_elem']['baseline']:.2f} / "
         f"{d['implied_cpu_ns_per_elem']['full_overlap']:.2f}", "", ""]])
    return (table(["elements", "CPU us", "CPU, output written, us", "CPU -O0 us", "GPU baseline us",
                   "GPU full-overlap us", "baseline / CPU", "full / CPU"], rows) + "\n\n" + summary)


# ------------------------------------------------------------------- plots

OPTS = ["none", "boost", "ibuf", "barskip", "drop", "all"]
STATES = [("pipeline", "pipeline"), ("scoreboard", "scoreboard"), ("load", "load"), ("icache_miss", "I$ miss"),
          ("barrier", "barrier"), ("ibuf", "i-buffer")]


def finish(fig, title):
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def run_of(d, kernel, config):
    return next((r for r in d["kernels"][kernel]["runs"] if r["config"] == config), None)


def plot_launch(d, plt):
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    p = d["paper"]
    names, avg = ["baseline\n(CPU launch)", "EDGE\n(doorbell)"], [d["baseline"]["avg_ns"] / 1e3, d["edge"]["avg_ns"] / 1e3]
    lo = [avg[0] - d["baseline"]["min_ns"] / 1e3, avg[1] - d["edge"]["min_ns"] / 1e3]
    hi = [d["baseline"]["max_ns"] / 1e3 - avg[0], d["edge"]["max_ns"] / 1e3 - avg[1]]
    a.bar(names, avg, yerr=[lo, hi], capsize=6, color=["#999999", "#2b6cb0"], label="this model (avg, min-max)")
    a.scatter(names, [p["baseline_ns"] / 1e3, p["edge_ns"] / 1e3], marker="D", s=60, color="#c53030", zorder=3,
              label="paper (EDGE Sec. VI-A)")
    a.set_ylabel("launch latency (us)")
    a.set_title(f"(a) event-kernel launch latency: {d['speedup']:.2f}x (paper {p['speedup']:g}x)", fontsize=10)
    a.legend(fontsize=8)
    j = d.get("end_to_end")
    if j:
        runs = [("baseline", f"baseline\n{j['offered_mpps']:g} Mpps"), ("edge", f"EDGE\n{j['offered_mpps']:g} Mpps"),
                ("baseline_saturated", "baseline\nsaturated"), ("edge_saturated", "EDGE\nsaturated")]
        lat = [j[k]["packet_latency_ns"]["avg"] / 1e3 for k, _ in runs]
        bars = b.bar([n for _, n in runs], lat, color=["#999999", "#2b6cb0"] * 2)
        for bar, (k, _) in zip(bars, runs):
            b.annotate(f"{j[k]['throughput_mpps']:.1f} Mpps", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                       ha="center", va="bottom", fontsize=8)
        b.set_ylabel("avg packet latency (us)")
        b.set_title("(b) end to end: NIC -> GPU -> NIC (labels: throughput)", fontsize=10)
    return finish(fig, f"EDGE Sec. VI-A, {d['events']} serial IPv4 events per path, blocks: {d['impl']}")


def plot_fig11(d, plt):
    ks = list(d["kernels"])
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    colors = plt.cm.viridis([i / (len(OPTS) - 1) for i in range(len(OPTS))])
    w = 0.8 / len(OPTS)
    for ax, pol, tag in ((axes[0][0], "oldest", "a"), (axes[0][1], "newest", "a")):
        for i, o in enumerate(OPTS):
            vals = []
            for k in ks:
                r = run_of(d, k, f"{pol}/{o}")
                vals.append(max(r["avg_preemption_cycles_preempted_only"], 0.5) if r and r["preempted"] else 0)
            ax.bar([x + (i - (len(OPTS) - 1) / 2) * w for x in range(len(ks))], vals, w, label=o, color=colors[i])
        ax.set_yscale("log")
        ax.set_xticks(range(len(ks)), [k.upper() for k in ks])
        ax.set_ylabel("preemption latency (cycles)")
        ax.set_title(f"({tag}) {pol.capitalize()} victim, per kernel and optimization", fontsize=10)
        ax.axhline(d["paper"][f"{pol}_all_cycles"], ls="--", color="#c53030", lw=1)
        ax.text(-0.45, d["paper"][f"{pol}_all_cycles"], f"paper, all: ~{d['paper'][pol + '_all_cycles']:g}",
                color="#c53030", ha="left", va="bottom", fontsize=8,
                bbox={"fc": "white", "ec": "none", "alpha": 0.9, "pad": 1}, zorder=5)
        ax.legend(fontsize=7, ncol=3, title="optimizations", title_fontsize=7)
    # (b) what the victims waited on (no optimization), averaged over kernels
    ax = axes[1][0]
    for i, pol in enumerate(("oldest", "newest")):
        vals = []
        for key, _ in STATES:
            fr = [run_of(d, k, f"{pol}/none")["victim_waiting_on"][key] for k in ks if run_of(d, k, f"{pol}/none")]
            vals.append(100 * sum(fr) / max(1, len(fr)))
        ax.bar([x + (i - 0.5) * 0.4 for x in range(len(STATES))], vals, 0.4, label=pol.capitalize(),
               color=["#2b6cb0", "#dd6b20"][i])
    ax.set_xticks(range(len(STATES)), [n for _, n in STATES])
    ax.set_ylabel("% of preempted victims (not exclusive)")
    ax.set_title("(b) victim state at selection, no optimization, mean over kernels", fontsize=10)
    ax.legend(fontsize=8)
    # (c) average over kernels per optimization, with the paper's headline reductions
    ax = axes[1][1]
    for i, pol in enumerate(("oldest", "newest")):
        vals = []
        for o in OPTS:
            rs = [run_of(d, k, f"{pol}/{o}") for k in ks]
            rs = [r["avg_preemption_cycles_preempted_only"] for r in rs if r and r["preempted"]]
            vals.append(sum(rs) / max(1, len(rs)))
        ax.plot(OPTS, vals, marker="o", label=f"{pol.capitalize()}: {fold(d['summary'][pol]['reduction'])} "
                f"(paper {d['paper'][pol + '_reduction']:g}x)", color=["#2b6cb0", "#dd6b20"][i])
        ax.scatter(["all"], [d["paper"][f"{pol}_all_cycles"]], marker="D", s=50, color=["#2b6cb0", "#dd6b20"][i],
                   edgecolor="#c53030", zorder=3)
    ax.set_yscale("log")
    ax.set_ylabel("avg preemption latency (cycles)")
    ax.set_title("(c) mean over kernels; diamonds: paper with all four", fontsize=10)
    ax.legend(fontsize=8)
    return finish(fig, f"EDGE Fig. 11: warp-level preemption latency ({d['size']} sizes, seed {d['seed']:g}, "
            f"blocks: {d['impl']})")


CHASE_WHAT = {"l1": ("L1 hit + the chain's ALU steps", None), "l2": ("= l1 hop + unloaded L2 hit", "l2"),
              "dram": ("= l1 hop + unloaded row conflict", "dram")}


def mem_table(d):
    s, ch, peak = d["stream"], d["chase"], d["peak_dram_gbps"]
    rows = [["streaming copy over all cores", f"{d['achieved_dram_gbps']:.1f} GB/s",
             f"{100 * s['fraction_of_peak']:.0f} % of the {peak:.1f} GB/s peak",
             f"{s['words']} words each way, {s['cycles']} cycles"]]
    for case, c in ch.items():
        what, _ = CHASE_WHAT.get(case, ("", None))
        model = f"{c['model_cycles']:.2f} ({c['model_min_cycles']:g} .. {c['model_max_cycles']:g})" \
            if "model_cycles" in c else "—"
        rows.append([f"pointer chase, {case}: cycles per hop", f"{c['hop_cycles']:.2f}", model, what])
    for p in d["latency_under_load"]:
        if p["gap"] is None:
            continue
        note = (f"DRAM row hits {100 * p['row_hit_fraction']:.0f} %, L2 input queue full "
                f"{100 * p['l2_input_queue_full']:.0f} %, MC input queue full {100 * p['mc_input_queue_full']:.0f} %"
                if "row_hit_fraction" in p else "")
        rows.append([f"dram chase beside load generators, gap {p['gap']}", f"{p['latency_cycles']:.1f}",
                     f"DRAM {p['dram_gbps']:.1f} GB/s ({100 * p['dram_gbps'] / peak:.0f} % of peak)", note])
    return table(["microbenchmark", "measured", "model / load", "note"], rows)


def plot_mem(d, plt):
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    pts = sorted(d["latency_under_load"], key=lambda p: p["dram_gbps"])
    a.plot([p["dram_gbps"] for p in pts], [p["latency_cycles"] for p in pts], marker="o", color="#2b6cb0",
           label="DRAM pointer chase beside load generators")
    a.axhline(d["unloaded_latency_model_cycles"], ls="--", color="#c53030", lw=1,
              label=f"model, unloaded: {d['unloaded_latency_model_cycles']:.1f}")
    a.axvline(d["peak_dram_gbps"], ls=":", color="#555555", lw=1, label=f"peak {d['peak_dram_gbps']:.1f} GB/s")
    a.axvline(d["achieved_dram_gbps"], ls="-.", color="#38a169", lw=1,
              label=f"streaming copy {d['achieved_dram_gbps']:.1f} GB/s")
    a.set_xlabel("DRAM bandwidth over the run (GB/s)")
    a.set_ylabel("load latency (core cycles per hop)")
    a.set_title("(a) latency under load", fontsize=10)
    a.legend(fontsize=8)
    cases = list(d["chase"])
    x = range(len(cases))
    b.bar([i - 0.2 for i in x], [d["chase"][c]["hop_cycles"] for c in cases], 0.4, label="measured",
          color="#2b6cb0")
    b.bar([i + 0.2 for i in x], [d["chase"][c].get("model_cycles", 0) for c in cases], 0.4,
          label="sum of the modelled stages", color="#dd6b20")
    b.set_xticks(list(x), cases)
    b.set_ylabel("core cycles per hop")
    b.set_title("(b) unloaded pointer chase vs the model (l1: no model)", fontsize=10)
    b.legend(fontsize=8)
    return finish(fig, f"Memory-system microbenchmarks ({d['size']} size, {d['config']}, F/E queues "
                 f"{d['blocks'].get('fe_sched_queues', '?')})")


def plot_fe_fig11(d, plt):
    names = list(d["benchmarks"]) + ["mean"]
    fig, ax = plt.subplots(figsize=(11, 4.5))
    colors = ["#999999", "#63b3ed", "#f6ad55", "#2b6cb0"]
    w = 0.2
    for i, (v, label) in enumerate(FE_VARIANTS):
        vals = [d["benchmarks"][n]["normalized"][v] for n in names[:-1]] + [d["mean_normalized"][v]]
        ax.bar([x + (i - 1.5) * w for x in range(len(names))], vals, w, label=label, color=colors[i])
    ax.axhline(1 / d["paper"]["mean_speedup_full_overlap"], ls="--", color="#c53030", lw=1)
    ax.text(-0.45, 1 / d["paper"]["mean_speedup_full_overlap"],
            f"paper: mean full-overlap ({d['paper']['mean_speedup_full_overlap']:g}x)", color="#c53030",
            ha="left", va="bottom", fontsize=8, bbox={"fc": "white", "ec": "none", "alpha": 0.9, "pad": 1}, zorder=5)
    ax.set_xticks(range(len(names)), [f"{n}\n({d['benchmarks'][n]['size']:g})" if n != "mean" else "mean"
                                      for n in names], fontsize=8)
    ax.set_ylabel("runtime normalized to baseline")
    ax.set_ylim(0, 1.15)
    ax.legend(fontsize=8, ncol=4, loc="upper left")
    return finish(fig, f"F/E Fig. 11: full-overlap {d['mean_speedup_full_overlap']:.2f}x mean, "
                       f"{d['best_speedup_full_overlap']:.2f}x best ({d['best_benchmark']}); paper 1.26x / 1.43x "
                       f"(F/E queues: {d['blocks']['fe_sched_queues']})")


def plot_fe_fig12(d, plt):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    el = [c["elements"] for c in d["curves"]]
    for key, label, color in (("baseline", "GPU baseline", "#999999"), ("full_overlap", "GPU full-overlap", "#2b6cb0")):
        ax.plot(el, [c[f"{key}_norm"] for c in d["curves"]], marker="o", color=color,
                label=f"{label} / CPU (fresh output)")
        ax.plot(el, [c[f"{key}_norm_warm"] for c in d["curves"]], marker="s", ls="--", color=color,
                label=f"{label} / CPU (output already written)")
    ax.axhline(1, color="black", lw=1)
    for k, x in (("baseline", d["paper"]["breakeven_baseline_elems"]),
                 ("full-overlap", d["paper"]["breakeven_full_overlap_elems"])):
        ax.axvline(x, ls=":", color="#c53030", lw=1)
        ax.text(x, 3.5, f"paper\n{k}\nbreakeven", color="#c53030", fontsize=7,
                ha="center", va="top")
    ax.set_xscale("log", base=2)
    ax.set_xticks(el, [f"{e / 1024:g}K" for e in el])
    ax.set_xlabel("vector elements")
    ax.set_ylabel("runtime normalized to single-threaded CPU")
    ax.legend(fontsize=8)
    return finish(fig, f"F/E Fig. 12: vectorAdd, GPU vs modelled Xeon E3-1245 "
                       f"({d['cpu_model']['first_touch_ns']:g} ns a fresh page)\n"
                       f"F/E queues: {d['blocks']['fe_sched_queues']}")


# ------------------------------------------------------ EDGE Figs. 12 and 13

EVS = ["ipv4", "ipv6", "memc", "ipsec"]
BGS = ["conv", "mm", "bp", "bfs", "sc", "kmn", "srad", "lud", "conv2"]
EVN = {"ipv4": "IPv4", "ipv6": "IPv6", "memc": "MemC", "ipsec": "IPSec"}
F12_SETS = [("", "all pairs"), ("_possible", "preemption possible (background regs >= event regs)"),
            ("_conv_mm", "CONV and MM backgrounds"), ("_extra_regs", "MemC / IPSec with extra free registers")]
PAPER_BGS = BGS[:4]  # the backgrounds of EDGE Figs. 12 and 13 (VI-B, VI-D); the other five are V's


def bg_of(pair):
    return pair.split("/", 1)[1]


def bg_sets(d):
    """[(label, backgrounds)]: the paper's four first, then all that ran when those are more."""
    ran = [b for b in BGS if any(bg_of(n) == b for n in d["pairs"])]
    four = [b for b in ran if b in PAPER_BGS]
    sets = [(f"paper's backgrounds ({', '.join(b.upper() for b in four)})", four)] if four else []
    if len(ran) > len(four):
        sets.append((f"all {len(ran)} backgrounds", ran))
    return sets


def ratio_of_means(a, b):
    return sum(a) / sum(b) if b and sum(b) > 0 else 0.0


def fig12_set(d, suf, bgs):
    """EDGE Fig. 12's D / P ratios over the pairs of one F12 set with backgrounds bgs, as the merge
    computes them over all (sim/prog/edge_fig12_main.c: ratio of the pairs' means): (n, avg, tail, p99)."""
    rows = []
    for name, q in d["pairs"].items():
        ev, bg = name.split("/", 1)
        if bg not in bgs or (suf == "_possible" and not q["preemption_possible"]) or (suf == "_conv_mm" and bg not in
                                                                                        ("conv", "mm")):
            continue
        y = q["X"] if suf == "_extra_regs" and ev in ("memc", "ipsec") and "X" in q else q["P"]
        rows.append((q["D"], y))
    return (len(rows), ratio_of_means([a["avg"] for a, _ in rows], [b["avg"] for _, b in rows]),
            ratio_of_means([a["max"] for a, _ in rows], [b["max"] for _, b in rows]),
            ratio_of_means([a["p99"] for a, _ in rows], [b["p99"] for _, b in rows]))


def blocks_of(d):
    b = d.get("blocks", {})
    return ", ".join(f"{k} {v}" for k, v in b.items() if not str(v).startswith("not used")) or "?"


def check_merge(what, mine, merge):
    """The generator's own figure over all pairs must be the merge's: one definition, two codes."""
    if abs(mine - merge) > 1e-9 * max(1.0, abs(merge)):
        raise SystemExit(f"figures: {what}: {mine} here against {merge} from the merge (scripts/figures.py and "
                         f"the program disagree on the definition)")


def fig12_summary(d):
    p = d["paper"]
    rows = []
    sets = bg_sets(d)
    for suf, label in F12_SETS:
        if f"avg_ratio{suf}" not in d or not d.get(f"n_pairs{suf}"):
            continue
        paper = (f"{p['avg_ratio' + suf]:g}x / {p['tail_ratio' + suf]:g}x" if f"avg_ratio{suf}" in p
                 else "(paper: 'e.g. CONV/MM', same as possible)")
        for bl, bgs in sets[:1] if suf == "_conv_mm" else sets:  # CONV and MM are two of the paper's four
            n, avg, tail, p99 = fig12_set(d, suf, bgs)
            if len(bgs) == len(sets[-1][1]):  # every pair: the merge printed the same
                check_merge(f"edge_fig12 avg_ratio{suf}", avg, d["avg_ratio" + suf])
            if n:
                rows.append([label, bl, f"{n:g}", f"**{fold(avg)}**", f"**{fold(tail)}**", fold(p99), paper])
    return table(["draining / preemption, ratio of the pairs' means", "backgrounds", "pairs", "average",
                  "tail (max)", "tail (p99)", "paper avg / tail"], rows)


def fig12_pairs(d):
    rows = []
    for name, q in d["pairs"].items():
        D, P, X = q["D"], q["P"], q.get("X")
        pre = f"{100 * P['preempted'] / P['events']:.0f}%" if P["events"] else "—"
        rows.append([name, f"{q['regs_event']:g} / {q['regs_background']:g}", f"{D['avg']:.0f}", f"{D['max']:.0f}",
                     f"{P['avg']:.1f}", f"{P['max']:.0f}", pre, fold(q["avg_ratio"]), fold(q["max_ratio"]),
                     f"{X['avg']:.1f} / {X['max']:.0f}" if X else "—", f"{D['events']:g} / {P['events']:g}"])
    return table(["event / background", "regs ev / bg", "D avg", "D max", "P avg", "P max", "P preempted",
                  "avg D/P", "max D/P", "X avg / max", "events D / P"], rows)


def plot_fig12(d, plt):
    names = list(d["pairs"])
    fig, axes = plt.subplots(2, 1, figsize=(13, 8))
    modes = [("D", "draining", "#999999"), ("P", "preemption", "#2b6cb0"), ("X", "preemption, extra registers",
                                                                               "#dd6b20")]
    w = 0.27
    for ax, key, tag, title in ((axes[0], "avg", "a", "average"), (axes[1], "max", "b", "tail (max)")):
        for i, (m, label, col) in enumerate(modes):
            xs = [j + (i - 1) * w for j, n in enumerate(names) if m in d["pairs"][n]]
            ys = [max(d["pairs"][n][m][key], 0.5) for n in names if m in d["pairs"][n]]
            ax.bar(xs, ys, w, label=label, color=col)
        for j, n in enumerate(names):
            if not d["pairs"][n]["preemption_possible"]:
                ax.text(j, 0.97, "regs", ha="center", va="top", fontsize=7, color="#c53030",
                        transform=ax.get_xaxis_transform())
        ax.set_yscale("log")
        ax.set_xticks(range(len(names)), [n.replace("/", "\n") for n in names], fontsize=8)
        ax.set_ylabel("scheduling latency (cycles)")
        suf = "avg_ratio" if key == "avg" else "tail_ratio"
        p = d["paper"]
        ax.set_title(f"\n({tag}) {title} scheduling latency; draining / preemption: all pairs {fold(d[suf])} "
                     f"(paper {p[suf]:g}x), possible {fold(d[suf + '_possible'])} (paper {p[suf + '_possible']:g}x), "
                     f"extra regs {fold(d[suf + '_extra_regs'])} (paper {p[suf + '_extra_regs']:g}x)", fontsize=9)
        ax.legend(fontsize=8, loc="lower center", ncol=3, bbox_to_anchor=(0.5, 1.08), frameon=False)
    fig.suptitle(f"EDGE Fig. 12: event scheduling latency, launch -> warp context ready, execution skipped "
                 f"({d['size']} sizes)\n'regs': the event needs more registers per thread than the background's "
                 f"warps (EDGE IV-D); blocks: {blocks_of(d)}", fontsize=10)
    fig.tight_layout()
    return fig


F13_MODES = [("D", "draining"), ("R", "reservation"), ("P", "preemption")]
F13_RATIOS = [("antt_p_over_d_high", "ANTT, high rate: D / P"), ("antt_p_over_r_high", "ANTT, high rate: R / P"),
              ("event_p_over_d_high", "event slowdown, high: D / P"),
              ("event_p_over_r_high", "event slowdown, high: R / P"),
              ("event_p_over_d_low", "event slowdown, low: D / P"),
              ("event_r_over_p_low", "event slowdown, low: P / R"),
              ("bg_r_over_p_low", "background slowdown, low: R / P"),
              ("bg_p_over_d_high", "background slowdown, high: P / D"),
              ("bg_p_over_r_high", "background slowdown, high: P / R"),
              ("antt_p_over_d_low", "ANTT, low rate: D / P"), ("antt_p_over_r_low", "ANTT, low rate: R / P")]


# F13_RATIOS' keys: (rate, numerator mode, denominator mode, what), as sim/prog/edge_fig13_main.c's RAT
F13_KEY = re.compile(r"(antt|event|bg)_([pr])_over_([dpr])_(low|high)")
F13_WHAT = {"antt": "antt", "event": "event_slowdown", "bg": "bg_slowdown"}


def fig13_means(d, bgs, modes=None):
    """{rate: {mode: {what: mean over the pairs with backgrounds bgs}, "pairs": n}}, as the merge averages;
    over the pairs that ran every one of modes (default D, R and P, which the merge requires of all)."""
    modes = modes or F13_MODES
    out = {}
    for r in ("low", "high"):
        qs = [q[r] for n, q in d["pairs"].items() if r in q and bg_of(n) in bgs and all(m in q[r] for m, _ in modes)]
        out[r] = {m: {w: sum(q[m][w] for q in qs) / len(qs) if qs else 0.0 for w in F13_WHAT.values()}
                  for m, _ in modes}
        out[r]["pairs"] = len(qs)
        # mode A's reserved cores, mean and most over those pairs
        out[r]["cores"] = sum(q["A"].get("reserved_cores_mean", 0) for q in qs) / len(qs) if qs and "A" in qs[0] else 0
        out[r]["most"] = max((q["A"].get("reserved_cores_max", 0) for q in qs if "A" in q), default=0)
    return out


def fig13_ratio(means, k):
    what, a, b, r = F13_KEY.fullmatch(k).groups()
    # bg_a_over_b is a's background slowdown / b's; for events and ANTT, a_over_b is how much a
    # improves on b: b's slowdown / a's (the merge's "ratios" string)
    num, den = (a.upper(), b.upper()) if what == "bg" else (b.upper(), a.upper())
    d = means[r][den][F13_WHAT[what]]
    return means[r][num][F13_WHAT[what]] / d if d > 0 else 0.0


def fig13_summary(d):
    p = d["paper"]
    sets = bg_sets(d)
    means = [fig13_means(d, bgs) for _, bgs in sets]
    for k, _ in F13_RATIOS:
        if k in d:
            check_merge(f"edge_fig13 {k}", fig13_ratio(means[-1], k), d[k])
    return table(["ratio (of the averages over the pairs)"] + [bl for bl, _ in sets] + ["paper"],
                 [[label] + [f"**{fig13_ratio(m, k):.2f}x**" if k in p else f"{fig13_ratio(m, k):.2f}x" for m in means]
                  + [f"{p[k]:g}x" if k in p else "—"] for k, label in F13_RATIOS if k in d])


def fig13_average(d):
    rows = []
    for bl, bgs in bg_sets(d):
        means = fig13_means(d, bgs)
        for r in ("low", "high"):
            for m, label in F13_MODES:
                x = means[r][m]
                rows.append([bl, r, label, f"{x['event_slowdown']:.2f}", f"{x['bg_slowdown']:.2f}", f"{x['antt']:.2f}",
                             f"{means[r]['pairs']:g}"])
    return table(["backgrounds", "rate", "mode", "event slowdown", "background slowdown", "ANTT", "pairs"], rows)


def fig13_pairs(d):
    rows = []
    for name, q in d["pairs"].items():
        for r in ("low", "high"):
            if r not in q:
                continue
            c = [name, r]
            for m, _ in F13_MODES:
                x = q[r][m]
                c.append(f"{x['event_slowdown']:.2f} / {x['bg_slowdown']:.2f} / {x['antt']:.2f} ({x['events']:g})")
            rows.append(c)
    return table(["event / background", "rate"] + [f"{label}: event / bg / ANTT (events)" for _, label in F13_MODES],
                 rows)


F13_CLASSES = ["sched_wait", "issue", "memory", "depend", "fetch", "unit", "sched", "other"]


def fig13_breakdown_of(d, e, m, r="high"):
    """Mean event runtime by class for event kind e (mean over its pairs) or 'average', in mode m
    ('alone': the isolation runs); None when the JSON has no breakdown."""
    if m == "alone":
        return d["alone"].get("event_breakdown", {}).get(e) if e != "average" else None
    if e == "average":
        return d["average"][r][m].get("event_breakdown")
    qs = [q[r][m]["event_breakdown"] for n, q in d["pairs"].items()
          if n.startswith(e + "/") and r in q and "event_breakdown" in q[r][m]]
    return {k: sum(q[k] for q in qs) / len(qs) for k in F13_CLASSES} if qs else None


def fig13_breakdown(d):
    rows = []
    for e in [e for e in EVS if any(n.startswith(e + "/") for n in d["pairs"])] + ["average"]:
        for m in ("alone", "D", "R", "P"):
            b = fig13_breakdown_of(d, e, m)
            if b:
                rows.append([e, m] + [f"{b[k]:.0f}" for k in F13_CLASSES])
    return table(["event", "high rate: mode"] + F13_CLASSES, rows)


def plot_fig13(d, plt):
    evs = [e for e in EVS if any(n.startswith(e + "/") for n in d["pairs"])]
    bgs = [b for b in BGS if any(n.endswith("/" + b) for n in d["pairs"])]
    fig, axes = plt.subplots(3, len(evs) + 1, figsize=(max(13, 3.2 * (len(evs) + 1)), 11), squeeze=False)
    kcols = ["#718096", "#2b6cb0", "#c53030", "#dd6b20", "#38a169", "#805ad5", "#d69e2e", "#cbd5e0"]
    for col, e in enumerate(evs + ["average"]):
        ax = axes[2][col]
        modes = ["alone", "D", "R", "P"] if e != "average" else ["D", "R", "P"]
        bottom = [0.0] * len(modes)
        for ki, k in enumerate(F13_CLASSES):
            vals = [(fig13_breakdown_of(d, e, m) or {}).get(k, 0) for m in modes]
            ax.bar(range(len(modes)), vals, 0.6, bottom=bottom, color=kcols[ki], label=k if col == 0 else None)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(modes)), modes, fontsize=8)
        tag = "klmnopqrst"[col]
        ax.set_title(f"({tag}) {EVN.get(e, 'Average')}, high rate: where an event's time goes", fontsize=8)
        if col == 0:
            ax.set_ylabel("mean event runtime, cycles")
    legend = []
    cols = {"D": "#999999", "R": "#38a169", "P": "#2b6cb0"}
    bgcols = {"D": "black", "R": "#c53030", "P": "#805ad5"}
    w = 0.27
    for row, r in enumerate(("low", "high")):
        for col, e in enumerate(evs + ["average"]):
            ax = axes[row][col]
            groups = bgs if e != "average" else ["average"]
            ax2 = ax.twinx()
            for i, (m, label) in enumerate(F13_MODES):
                ev, bg = [], []
                for b in groups:
                    q = d["average"][r][m] if e == "average" else d["pairs"].get(f"{e}/{b}", {}).get(r, {}).get(m)
                    ev.append(q["event_slowdown"] if q else 0)
                    bg.append(q["bg_slowdown"] if q else 0)
                xs = [j + (i - 1) * w for j in range(len(groups))]
                ax.bar(xs, ev, w, color=cols[m], label=f"{m} event")
                ax2.scatter(xs, bg, marker="_", s=200, linewidths=2.5, color=bgcols[m],
                            label=f"{m} BG" if col == 0 and row == 0 else None, zorder=3)
            ax.set_yscale("log", base=2)
            ax.set_ylim(0.5, max(4, ax.get_ylim()[1]))
            ax.axhline(1, color="black", lw=0.6, ls=":")
            if row == 0 and col == 0:
                legend = [a.get_legend_handles_labels() for a in (ax, ax2)]
            ax.set_xticks(range(len(groups)), [g.upper() for g in groups], fontsize=8,
                          rotation=90 if len(groups) > 5 else 0)  # nine backgrounds: upright names overlap
            ax2.set_ylim(0, max(2.5, ax2.get_ylim()[1]))
            tag = "abcdefghij"[row * (len(evs) + 1) + col]
            ax.set_title(f"({tag}) {EVN.get(e, 'Average')}, {r} rate", fontsize=9)
            if col == 0:
                ax.set_ylabel("event slowdown (log2)")
            if col == len(evs):
                ax2.set_ylabel("BG slowdown (bars: event; dashes: BG)")
                k1, k2 = ("event_p_over_d_high", "event_p_over_r_high") if r == "high" else ("event_p_over_d_low",
                                                                                             "event_r_over_p_low")
                p = d["paper"]
                txt = (f"P vs D: {d[k1]:.2f}x (paper {p[k1]:g}x)\n" + (
                    f"P vs R: {d[k2]:.2f}x (paper {p[k2]:g}x)\nANTT D/P {d['antt_p_over_d_high']:.2f}x "
                    f"(paper {p['antt_p_over_d_high']:g}x)\nANTT R/P {d['antt_p_over_r_high']:.2f}x "
                    f"(paper {p['antt_p_over_r_high']:g}x)" if r == "high" else
                    f"R vs P: {d[k2]:.2f}x (paper {p[k2]:g}x)"))
                ax.text(0.02, 0.98, txt, transform=ax.transAxes, va="top", fontsize=7, color="#c53030",
                        bbox={"fc": "white", "ec": "none", "alpha": 0.85, "pad": 1})
    h, lab = legend[0][0] + legend[1][0], legend[0][1] + legend[1][1]
    fig.legend(h, lab, loc="lower center", ncol=6, fontsize=8)
    kh, kl = axes[2][0].get_legend_handles_labels()
    fig.legend(kh, kl, loc="lower center", ncol=len(kl), fontsize=8, bbox_to_anchor=(0.5, 0.025))
    fig.suptitle(f"EDGE Fig. 13: slowdown against isolation, draining (D) / reservation (R) / preemption (P)\n"
                 f"low = 2 events in flight, high = 32 IPv4/6, 16 MemC/IPSec ({d['size']} sizes; blocks: "
                 f"{blocks_of(d)})", fontsize=9)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


# EDGE Fig. 13's counterfactuals at make demo's size: experiments/edge_fig13_demo.ini with one setting
# changed (the file named), each row from its experiment's result
F13_CF = [("default (GPU-wide draining, round-robin fetch, DRAM ~100-360 cycles)", ""),
          ("event warps fetch first (`--set preempt.event_fetch_priority=1`)", "_fetchprio"),
          ("~1000-cycle DRAM (`--set mem.l2_dram_latency=900`)", "_slowmem"),
          ("per-core draining (`--set preempt.drain=core`)", "_draincore"),
          ("atomics at the L2 slice (`--set gpu.atomics=memory`)", "_atomics"),
          ("events packed on 2 reserved cores (R: `preempt.reserve_cores=2`)", "_packed"),
          ("the artifact's offered concurrency at the high rate (gaps 65 / 140 / 910 / 680 cycles)", "_offer"),
          ("the same, and a 10x PCIe link from the NIC (`--set pcie.bandwidth_gbps=68`)", "_offer_link"),
          ("the artifact's end-of-kernel LSQ drain (`--set gpu.kernel_end_drain=1`)", "_enddrain"),
          ("the artifact's settings together: its offered concurrency, a 10x link, the end drain, fetch "
           "priority", "_artifact"),
          ("MemC pairs only, MemC as the artifact runs it (75 % of events empty, their lanes on one set's "
           "lock; atomics at the L2)", "_memclock")]
F13_CF_COLS = [("event_p_over_d_high", "event D / P high"), ("event_p_over_r_high", "event R / P high"),
               ("antt_p_over_d_high", "ANTT D / P high"), ("antt_p_over_r_high", "ANTT R / P high"),
               ("event_p_over_d_low", "event D / P low"), ("event_r_over_p_low", "event P / R low"),
               ("memc", "MemC high D / R / P"), ("bg_p_over_d_high", "bg P / D high"),
               ("bg_r_over_p_low", "bg R / P low"), ("bg_p_over_r_high", "bg P / R high")]


def memc_high(x, bgs=None):
    """MemC's high-rate event slowdown, 'D / R / P' averaged over its pairs (those with backgrounds bgs;
    None: all), or '—' when none ran."""
    qs = [q["high"] for n, q in x["pairs"].items()
          if n.startswith("memc/") and "high" in q and (bgs is None or bg_of(n) in bgs)]
    return " / ".join(f"{sum(q[m]['event_slowdown'] for q in qs) / len(qs):.2f}" for m, _ in F13_MODES) if qs else "—"


def paper_memc(p):
    return "{D:g} / {R:g} / {P:g}".format(**p["memc_high_event_slowdown"])


def fig13_counterfactuals(d):
    rows = []
    for label, suf in F13_CF:
        x = d["_also"].get(f"edge_fig13_demo{suf}.json")
        if x is None:
            rows.append([label] + ["not run"] * len(F13_CF_COLS))
            continue
        row = [label]
        for k, _ in F13_CF_COLS:
            if k == "memc":
                row.append(memc_high(x))
            else:
                has = any(k.endswith("_" + r) and r in q for q in x["pairs"].values() for r in ("low", "high"))
                row.append(f"{x[k]:.2f}x" if has and k in x else "—")
        rows.append(row)
    p = d["paper"]
    rows.append(["paper (EDGE Fig. 13)"] + [f"{p[k]:g}x" if k in p else (paper_memc(p) if k == "memc" else "—")
                                            for k, _ in F13_CF_COLS])
    return table(["machine"] + [c for _, c in F13_CF_COLS], rows)


def fig13_memc(d):
    """MemC's high-rate event slowdown D / R / P at full size on the paper's four backgrounds, as the EDGE
    artifact runs MemC."""
    rows = []
    for label, x in (("MemC as the artifact runs it (`experiments/edge_fig13_memc.ini`)", d),
                     ("the same, with the artifact's machine settings: its offered concurrency, a 10x link, the "
                      "end drain, fetch priority (`experiments/edge_fig13_memc_artifact.ini`)",
                      d["_also"].get("edge_fig13_memc_artifact.json")),
                     ("the same, with the artifact's placement of events under reservation "
                      "(`experiments/edge_fig13_memc_artifact_place.ini`)",
                      d["_also"].get("edge_fig13_memc_artifact_place.json"))):
        if x is None:
            rows.append([label] + ["not run"] * (len(PAPER_BGS) + 1))
            continue
        rows.append([label] + [memc_high(x, [bg]) for bg in PAPER_BGS] + [memc_high(x, PAPER_BGS)])
    rows.append(["paper (EDGE Fig. 13, average)"] + [""] * len(PAPER_BGS) + [paper_memc(d["paper"])])
    return table(["MemC, high rate: event slowdown D / R / P"] + [b.upper() for b in PAPER_BGS] + ["average"], rows)


def fig13_memc_amo(d):
    """MemC beside CONV at the high rate (experiments/edge_fig13_memc_amo.ini, collected as a list) against
    the L2 atomic unit's cycles per lane operation: event slowdown (mean runtime over MemC's mean alone at
    the same setting) and the background's, per mode."""
    def amo(p):
        ov = [o.split("=", 1)[1] for o in p["overrides"] if o.startswith("mem.l2_amo_cycles=")]
        return int(ov[0]) if ov else None

    def mean(xs):
        return sum(xs) / len(xs)

    alone, bg_alone, shared = {}, None, {}
    for p in d["points"]:
        r = p["result"]
        if r["rate"] == "alone" and r["event"] == "memc":
            alone[amo(p)] = mean(r["runtime"])
        elif r["rate"] == "alone":
            bg_alone = r["bg_cycles"]
        else:
            shared[(amo(p), r["mode"])] = r
    rows = []
    for a in sorted(alone):
        row = [str(a), f"{alone[a]:.0f}"]
        for m, _ in F13_MODES:
            r = shared.get((a, m))
            row.append(f"{mean(r['runtime']) / alone[a]:.2f}x / {r['bg_cycles'] / bg_alone:.2f}x" if r else "not run")
        rows.append(row)
    rows.append(["paper (EDGE Fig. 13, MemC's average)", "", "37x / -", "109x / -", "48x / -"])
    return table(["L2 cycles per atomic lane operation", "MemC alone (cycles)"] +
                 [f"{m}: event / CONV slowdown" for m, _ in F13_MODES], rows)


# EDGE Fig. 13's counterfactuals at full size: the high rate on the paper's four backgrounds, each row
# from its experiment's result (the default's nine backgrounds cut to the four)
F13_CF_FULL = [("default (`experiments/edge_fig13.ini`)", "edge_fig13.json"),
               ("events packed on 2 reserved cores (R: `preempt.reserve_cores=2`; `experiments/edge_fig13_packed.ini`)",
                "edge_fig13_packed.json"),
               ("the artifact's settings together: its offered concurrency, a 10x link, the end drain, fetch "
                "priority (`experiments/edge_fig13_artifact.ini`)", "edge_fig13_artifact.json"),
               ("the same, and every DRAM access ~1000 cycles longer (`--set mem.l2_dram_latency=900`; "
                "`experiments/edge_fig13_artifact_slowmem.ini`)", "edge_fig13_artifact_slowmem.json"),
               ("default, with the artifact's placement of events under reservation (R: `preempt.reserve_place="
                "issue_rr`, 16 events a core; `experiments/edge_fig13_place.ini`)", "edge_fig13_place.json"),
               ("the artifact's settings, slow DRAM and its placement (`experiments/edge_fig13_artifact_place.ini`)",
                "edge_fig13_artifact_place.json")]
F13_CF_FULL_COLS = [c for c in F13_CF_COLS if not c[0].endswith("_low")]
F13_CF_WAITS = [("wait for a context", "sched_wait"), ("fetch", "fetch"), ("LSU", "unit")]


def fig13_counterfactuals_full(d):
    """The high-rate ratios on the paper's four backgrounds, and event R / P over the pairs where EDGE
    IV-D's register rule lets the event preempt (each pair's "preemption_possible")."""
    rows = []
    for label, name in F13_CF_FULL:
        x = d["_also"].get(name)
        if x is None:
            rows.append([label] + ["not run"] * (len(F13_CF_FULL_COLS) + 2))
            continue
        means = fig13_means(x, PAPER_BGS)
        can = [q["high"] for n, q in x["pairs"].items()
               if q["preemption_possible"] and bg_of(n) in PAPER_BGS and "high" in q]
        pr = (sum(q["R"]["event_slowdown"] for q in can) / sum(q["P"]["event_slowdown"] for q in can)) if can else 0
        row = [label, f"{means['high']['pairs']:g}"]
        for k, _ in F13_CF_FULL_COLS:
            if k == "memc":
                row.append(memc_high(x, PAPER_BGS))
            else:
                row.append(f"{fig13_ratio(means, k):.2f}x")
        qs = [q["high"] for n, q in x["pairs"].items() if bg_of(n) in PAPER_BGS and "high" in q]
        waits = "; ".join(f"{what} " + " / ".join(
            f"{sum(q[m]['event_breakdown'][cls] for q in qs) / len(qs):,.0f}" for m, _ in F13_MODES)
            for what, cls in F13_CF_WAITS)
        rows.append(row + [f"{pr:.2f}x ({len(can)})" if can else "—", waits])
    p = d["paper"]
    rows.append(["paper (EDGE Fig. 13)", "16"] + [
        f"{p[k]:g}x" if k in p else paper_memc(p) for k, _ in F13_CF_FULL_COLS] + ["—", "—"])
    return table(["machine (high rate, paper's backgrounds CONV, MM, BP, BFS)", "pairs"] +
                 [c for _, c in F13_CF_FULL_COLS] + ["event R / P high, pairs where preemption is possible",
                                                     "cycles per event D / R / P (breakdown classes)"], rows)


# EDGE Fig. 12's draining counterfactual at full size, on the paper's four backgrounds
F12_CF_FULL = [("default: GPU-wide draining (`experiments/edge_fig12.ini`)", "edge_fig12.json"),
               ("per-core draining (`--set preempt.drain=core`; `experiments/edge_fig12_draincore.ini`)",
                "edge_fig12_draincore.json"),
               ("every DRAM access ~1000 cycles longer (`--set mem.l2_dram_latency=900`; "
                "`experiments/edge_fig12_slowmem.ini`)", "edge_fig12_slowmem.json")]
F12_CF_SETS = [s for s in F12_SETS if s[0] != "_conv_mm"]


def fig12_counterfactuals_full(d):
    rows = []
    for label, name in F12_CF_FULL:
        x = d["_also"].get(name)
        if x is None:
            rows.append([label] + ["not run"] * len(F12_CF_SETS))
            continue
        cells = []
        for suf, _ in F12_CF_SETS:
            n, avg, tail, _ = fig12_set(x, suf, PAPER_BGS)
            cells.append(f"**{fold(avg)}** / {fold(tail)} ({n:g})" if n else "—")
        qs = [q for n, q in x["pairs"].items() if bg_of(n) in PAPER_BGS and q["preemption_possible"]]
        cells.append(" / ".join(f"{sum(q[m]['avg'] for q in qs) / len(qs):,.0f}" for m in "DP") if qs else "—")
        rows.append([label] + cells)
    a = (d["_also"].get(F12_CF_FULL[0][1]) or {}).get("artifact_summary")
    if a:  # the default's points as the EDGE artifact's scripts summarise its runs
        rows.append([f"default, summarised as the EDGE artifact's scripts do (events that found a context at once, "
                     f"{a['instant_cycles']:g} cycles, left out; tail = mean of each run's largest wait; possible "
                     f"where the paper has it, every event on CONV and MM)"] +
                    [f"**{fold(a['avg_ratio' + suf])}** / {fold(a['tail_ratio' + suf])} ({a['n_pairs' + suf]:g})"
                     if f"avg_ratio{suf}" in a else "—" for suf, _ in F12_CF_SETS] + ["—"])
    p = d["paper"]
    rows.append(["paper (EDGE Fig. 12)"] + [f"{p['avg_ratio' + suf]:g}x / {p['tail_ratio' + suf]:g}x"
                                            if f"avg_ratio{suf}" in p else "—" for suf, _ in F12_CF_SETS] + ["—"])
    return table(["machine (paper's backgrounds CONV, MM, BP, BFS)"] +
                 [f"{lab}: D / P average / tail (pairs)" for _, lab in F12_CF_SETS] +
                 ["mean latency D / P over the possible pairs (cycles)"], rows)


# experiments/edge_fig12_reserve.ini: a register reserve for events on Fig. 12's register-restricted pairs
F12R_MODES = [("D", "draining"), ("X", "extra registers"), ("V1", "reserve of 1 event warp"),
              ("V2", "reserve of 2 event warps"), ("S", "victim sets of up to 4 warps")]
F12R_MACHINES = [("edge", "configs/edge.ini: 65536 registers"), ("rf32k", "32768 registers (GTX 480's)")]


def percentile(xs, p):
    """The rank-based percentile sim/work/mt_stats.c's mt_percentile takes."""
    xs = sorted(xs)
    k = math.ceil(p / 100 * len(xs) - 1e-9)
    return xs[max(k, 1) - 1] if xs else 0.0


def fig12_reserve_cells(d):
    """{(machine, pair, mode): {"avg", "p99", "bg", "preempted", "events"}} over the seeds' events pooled."""
    acc = {}
    for p in d["points"]:
        v, r = p["values"], p["result"]
        a = acc.setdefault((v["machine"], v["pair"], v["mode"]), {"sched": [], "bg": [], "pre": 0})
        a["sched"] += r["sched"]
        a["bg"].append(r["bg_cycles"])
        a["pre"] += r["preempted"]
    return {k: {"avg": sum(a["sched"]) / len(a["sched"]) if a["sched"] else 0.0, "p99": percentile(a["sched"], 99),
                "bg": sum(a["bg"]) / len(a["bg"]), "preempted": a["pre"], "events": len(a["sched"])}
            for k, a in acc.items()}


def fig12_reserve(d):
    c = fig12_reserve_cells(d)
    pairs = list(dict.fromkeys(p["values"]["pair"] for p in d["points"]))
    rows = []
    for m, mlabel in F12R_MACHINES:
        if not any(k[0] == m for k in c):
            continue
        for pr in pairs + ["mean"]:
            row = [mlabel, pr.replace("_", " / ").upper() if pr != "mean" else "**mean over the pairs**"]
            for mode, _ in F12R_MODES:
                if pr == "mean":
                    xs = [c[(m, q, mode)] for q in pairs if (m, q, mode) in c]
                    ds = [c[(m, q, "D")] for q in pairs if (m, q, mode) in c]
                    if not xs:
                        row.append("not run")
                        continue
                    avg, p99 = sum(x["avg"] for x in xs) / len(xs), sum(x["p99"] for x in xs) / len(xs)
                    bg = sum(x["bg"] / y["bg"] for x, y in zip(xs, ds)) / len(xs)
                    row.append(f"{avg:.1f} / {p99:.0f}, bg {bg:.3f}")
                    continue
                x, dd = c.get((m, pr, mode)), c.get((m, pr, "D"))
                row.append(f"{x['avg']:.1f} / {x['p99']:.0f}, bg {x['bg'] / dd['bg']:.3f} ({x['preempted']:g} of "
                           f"{x['events']:g} preempted)" if x and dd else "not run")
            rows.append(row)
    return table(["machine", "event / background"] +
                 [f"{lab} ({mode}): scheduling latency mean / p99 (cycles), background cycles over D's"
                  for mode, lab in F12R_MODES], rows)


def plot_fig12_reserve(d, plt):
    """Mean scheduling latency per pair and mode, one panel per machine (log scale)."""
    c = fig12_reserve_cells(d)
    pairs = list(dict.fromkeys(p["values"]["pair"] for p in d["points"]))
    f, ax = plt.subplots(1, 2, figsize=(14, 4.5), sharey=True)
    cols = {"D": "#999999", "X": "#2b6cb0", "V1": "#dd6b20", "V2": "#c53030", "S": "#2f855a"}
    w = 0.8 / len(F12R_MODES)
    for a, (m, mlabel) in zip(ax, F12R_MACHINES):
        for i, (mode, lab) in enumerate(F12R_MODES):
            xs = [j + (i - (len(F12R_MODES) - 1) / 2) * w for j in range(len(pairs))]
            a.bar(xs, [max(c.get((m, q, mode), {}).get("avg", 0), 0.5) for q in pairs], w, color=cols[mode],
                  label=f"{mode}: {lab}")
        a.set_xticks(range(len(pairs)), [q.replace("_", "/").upper() for q in pairs], rotation=60, fontsize=8)
        a.set_yscale("log")
        a.set_ylim(bottom=1)  # a free context's 3 cycles must show
        a.set_title(mlabel, fontsize=9)
        a.legend(fontsize=7)
    ax[0].set_ylabel("mean scheduling latency, cycles (log)")
    f.suptitle("A register reserve for events and victim sets (EDGE VI-C) on Fig. 12's register-restricted pairs",
               fontsize=10)
    f.tight_layout()
    return f


F13_ALL_MODES = F13_MODES + [("A", "adaptive reservation")]


def f13_cell(x):
    return f"{x['antt']:.2f} ({x['event_slowdown']:.2f} / {x['bg_slowdown']:.2f})"


def a_beats(mean):
    """Which of D, R, P mode A's mean ANTT is below."""
    beats = [m for m, _ in F13_MODES if mean["A"]["antt"] < mean[m]["antt"]]
    return "all three" if len(beats) == 3 else ", ".join(beats) or "none"


def fig13_dynamic(d):
    """EDGE VII's dynamic reservation (mode A, [preempt] reserve_dynamic) beside D, R and P: per rate the
    averages over the pairs, A's reserved cores, and whether A beats each of D, R, P on ANTT."""
    if not any("A" in q[r] for q in d["pairs"].values() for r in ("low", "high") if r in q):
        return "No point of this experiment ran mode A."
    rows = []
    for bl, bgs in bg_sets(d):
        means = fig13_means(d, bgs, F13_ALL_MODES)
        for r in ("low", "high"):
            mean = means[r]
            if not mean["pairs"]:
                continue
            rows.append([bl, r] + [f13_cell(mean[m]) for m, _ in F13_ALL_MODES] +
                        [f"{mean['cores']:.2f} (at most {mean['most']:g})",
                         ", ".join(f"{m} {mean[m]['antt'] / mean['A']['antt']:.2f}x" for m, _ in F13_MODES),
                         a_beats(mean), f"{mean['pairs']}"])
    return table(["backgrounds", "rate"] + [f"{lab} ({m}): ANTT (event / bg slowdown)" for m, lab in F13_ALL_MODES] +
                 ["A: reserved cores, mean over the pairs", "ANTT y / A", "A's ANTT beats", "pairs"], rows)


# experiments/edge_fig13_demo_dynamic*.ini: mode A varied, D, R and P as edge_fig13_demo.ini
F13_DYN_CF = [("A as configured (4 events a reserved core; `experiments/edge_fig13_demo.ini`)", ""),
              ("sized at one event a core (`preempt.reserve_per_core=1`)", "_dynamic_pc1"),
              ("held at its 8 cores, preempting when they are full (`preempt.reserve_min=8`)", "_dynamic_min8")]


def fig13_dynamic_cf(d):
    """A's variants at the demo size: per rate A's ANTT (event / bg slowdown) beside R's and P's, its
    reserved cores, and which of D, R, P it beats on ANTT; averages over all pairs."""
    rows = []
    for label, suf in F13_DYN_CF:
        x = d if not suf else d["_also"].get(f"edge_fig13_demo{suf}.json")
        if not x:
            rows.append([label, "not run"] + [""] * 6)
            continue
        means = fig13_means(x, BGS, F13_ALL_MODES)
        for r in ("low", "high"):
            mean = means[r]
            if not mean["pairs"]:
                rows.append([label, r, "no A point"] + [""] * 5)
                continue
            rows.append([label, r] + [f13_cell(mean[m]) for m in ("A", "D", "R", "P")] +
                        [f"{mean['cores']:.2f}", a_beats(mean)])
    return table(["A's variant (demo size, CONV and BP)", "rate", "A: ANTT (event / bg)", "D", "R", "P",
                  "A's reserved cores (mean)", "A's ANTT beats"], rows)


def plot_fig13_dynamic(d, plt):
    """ANTT, event and background slowdown per mode and rate (averages over all pairs), A beside D, R, P."""
    f, ax = plt.subplots(1, 3, figsize=(13, 4))
    cols = {"D": "#999999", "R": "#38a169", "P": "#2b6cb0", "A": "#dd6b20"}
    for a, (w, name) in zip(ax, (("antt", "ANTT"), ("event_slowdown", "event slowdown"),
                                 ("bg_slowdown", "background slowdown"))):
        means = fig13_means(d, BGS, F13_ALL_MODES)
        for i, (m, label) in enumerate(F13_ALL_MODES):
            vals = [means[r][m][w] for r in ("low", "high")]
            a.bar([j + (i - 1.5) * 0.2 for j in range(2)], vals, 0.2, color=cols[m], label=f"{m}: {label}")
        a.set_xticks(range(2), ["low rate", "high rate"])
        a.set_yscale("log", base=2)
        a.axhline(1, color="black", lw=0.6, ls=":")
        a.set_title(f"{name} (mean over the pairs)", fontsize=9)
        if w == "antt":
            a.legend(fontsize=7)
    f.suptitle(f"EDGE Fig. 13 with EDGE VII's dynamic reservation (A: 0-8 cores following the events in flight, "
               f"preempting when full); {d['size']} sizes", fontsize=9)
    f.tight_layout()
    return f


# ------------------------------------------- CM-BAL's protection of the events

PROTECT_LABEL = {"off": "off", "core": "the event's core capped", "gpu": "every core capped while events run"}


def protect_rows(d, rate="high"):
    """(mode, protection, averages) per variant of the protection's report, in report order."""
    avg = d.get("average", {}).get(rate, {})
    return [(v.split("/")[0], v.split("/")[1], avg[v]) for v in d.get("variants", []) if v in avg]


def protect_table(d):
    """CM-BAL's event protection beside Fig. 13's events: per mode and protection, the averages over the
    pairs of event slowdown (mean and p99), background slowdown and ANTT, and each against protection off."""
    rows = []
    for r in ("low", "high"):
        vs = protect_rows(d, r)
        off = {m: a for m, p, a in vs if p == "off"}
        for m, p, a in vs:
            o = off.get(m)
            rel = (f"{a['event_slowdown'] / o['event_slowdown']:.2f}x / {a['bg_slowdown'] / o['bg_slowdown']:.2f}x / "
                   f"{a['antt'] / o['antt']:.2f}x") if o and p != "off" else "-"
            rows.append([r, m, PROTECT_LABEL.get(p, p), f"{a['event_slowdown']:.2f}", f"{a['event_p99_slowdown']:.2f}",
                         f"{a['bg_slowdown']:.2f}", f"{a['antt']:.2f}", rel, f"{a['pairs']:g}"])
    return table(["rate", "mode", "protection", "event slowdown (mean)", "event p99 / alone mean", "background slowdown",
                  "ANTT", "event / bg / ANTT against off", "pairs"], rows)


def protect_breakdown(d):
    """Where a mean event's cycles go per variant (means over the pairs): launch -> START, then START -> exit by
    class (docs/PREEMPT.md "Where an event's time goes")."""
    rows, names = [], None
    for r in ("low", "high"):
        for m, p, a in protect_rows(d, r):
            b = a.get("event_breakdown", {})
            names = names or [k for k in b if k != "sched_wait"]
            rows.append([r, m, PROTECT_LABEL.get(p, p), f"{b.get('sched_wait', 0):.0f}"] +
                        [f"{b.get(k, 0):.0f}" for k in names] + [f"{sum(b.values()):.0f}"])
    return table(["rate", "mode", "protection", "launch -> START"] + (names or []) + ["sum"], rows)


def plot_protect(d, plt):
    """Event against background slowdown per variant (averages over the pairs), one panel per mode;
    the p99 beside each mean."""
    vs = protect_rows(d)
    modes = list(dict.fromkeys(m for m, _, _ in vs))
    f, ax = plt.subplots(1, max(len(modes), 1), figsize=(5.5 * max(len(modes), 1), 4.2), squeeze=False)
    cols = {"off": "#555555", "core": "#2b6cb0", "gpu": "#c53030"}
    for a, m in zip(ax[0], modes):
        for mm, p, x in vs:
            if mm != m:
                continue
            a.scatter([x["bg_slowdown"]], [x["event_slowdown"]], color=cols.get(p, "k"), s=40,
                      label=f"{p}: mean")
            a.scatter([x["bg_slowdown"]], [x["event_p99_slowdown"]], color=cols.get(p, "k"), marker="^", s=40,
                      label=f"{p}: p99")
        a.set_xlabel("background slowdown")
        a.set_ylabel("event slowdown (against the mean alone)")
        a.set_title(f"{'draining' if m == 'D' else 'preemption' if m == 'P' else m} ({m})", fontsize=9)
        a.axhline(1, color="black", lw=0.6, ls=":")
        a.axvline(1, color="black", lw=0.6, ls=":")
        a.legend(fontsize=7)
    f.suptitle(f"CM-BAL protecting EDGE Fig. 13's events (high rate, {d.get('size', '?')} sizes, averages over "
               f"the pairs)", fontsize=10)
    f.tight_layout()
    return f


def sweep_figure(name, plot, tables, program="build/bin/edge_fig13"):
    """The figure of one sweep, experiments/<name>.ini -> results/<name>.json; tables: {table: fn}, each named
    <name><suffix>."""
    return {"name": name, "json": f"{name}.json", "plot": plot, "experiment": f"experiments/{name}.ini",
            "program": program, "tables": {name + suf: fn for suf, fn in tables.items()}}


def protect_figures(suffix):
    return sweep_figure(f"edge_protect{suffix}", plot_protect, {"": protect_table, "_breakdown": protect_breakdown})


# ------------------------------------------- launch paths (early doorbell + F/E receive ring)

LPATH_LABEL = {"host/plain": "host launch", "after_ack/plain": "doorbell after DMA",
               "after_ack/sync": "doorbell after DMA, F/E ring", "early/sync": "early doorbell, F/E ring"}
LPATH_ORDER = ["host/plain", "after_ack/plain", "after_ack/sync", "early/sync"]


def lpath_cells(d):
    """(label, {path: cell}) per event/background and rate of the report, in report order."""
    return [(f"{pair} {rate}", row) for pair, rates in d.get("cells", {}).items() for rate, row in rates.items()]


def lpath_paths(d):
    return [p for p in LPATH_ORDER if p in d.get("average", {})] + \
        [p for p in d.get("average", {}) if p not in LPATH_ORDER]


def lpath_table(d):
    """End-to-end request latency per cell and launch path (first byte at the device -> the device told),
    mean / p99 in us, and the early path against the doorbell after the DMA (both rings)."""
    paths = lpath_paths(d)
    rows = []
    for cell, row in lpath_cells(d) + [("**average**", d.get("average", {}))]:
        r = [cell]
        for p in paths:
            c = row.get(p)
            r.append(f"{c['e2e_mean_ns'] / 1000:.2f} / {c['e2e_p99_ns'] / 1000:.2f}" if c else "-")
        e, a, s = row.get("early/sync"), row.get("after_ack/plain"), row.get("after_ack/sync")
        r.append(f"{e['e2e_mean_ns'] / a['e2e_mean_ns']:.2f}x / {e['e2e_mean_ns'] / s['e2e_mean_ns']:.2f}x"
                 if e and a and s else "-")
        rows.append(r)
    return table(["event / background rate"] + [LPATH_LABEL.get(p, p) + " (us)" for p in paths] +
                 ["early F/E against doorbell: plain / F/E ring"], rows)


LPATH_PARTS = ["first_byte", "slot_wait", "to_start", "exec", "notify", "dma", "launch_after_dma",
               "exec_during_dma"]


def lpath_parts(d):
    """Where a mean request's time goes (ns): the first five add up to the end-to-end mean; the DMA, the
    launch after it and the execution that overlapped it beside them; offers dropped at the in-flight limit."""
    rows = []
    for cell, row in lpath_cells(d):
        for p in lpath_paths(d):
            c = row.get(p)
            if not c:
                continue
            pt = c.get("parts_ns", {})
            rows.append([cell, LPATH_LABEL.get(p, p)] + [f"{pt.get(k, 0):.0f}" for k in LPATH_PARTS] +
                        [f"{c['e2e_mean_ns']:.0f}", f"{c.get('dropped', 0):g} / {c.get('offered', 0):g}"])
    return table(["cell", "path", "first byte", "slot wait", "DMA start -> START", "START -> done", "-> told",
                  "(DMA)", "(launch after DMA)", "(exec during DMA)", "e2e mean", "dropped / offered"], rows)


def plot_lpath(d, plt):
    """Mean end-to-end latency per cell and path (bars, log scale), the p99 as a tick above each."""
    paths = lpath_paths(d)
    cells = lpath_cells(d)
    f, a = plt.subplots(figsize=(max(8, 1.1 * len(cells) + 2), 4.4))
    w = 0.8 / max(len(paths), 1)
    cols = {"host/plain": "#555555", "after_ack/plain": "#2b6cb0", "after_ack/sync": "#90cdf4", "early/sync": "#c53030"}
    for j, p in enumerate(paths):
        xs, ms, ps = [], [], []
        for i, (_, row) in enumerate(cells):
            x = row.get(p)
            if x:
                xs.append(i + (j - (len(paths) - 1) / 2) * w)
                ms.append(x["e2e_mean_ns"] / 1000)
                ps.append(x["e2e_p99_ns"] / 1000)
        a.bar(xs, ms, w, color=cols.get(p, None), label=LPATH_LABEL.get(p, p))
        a.scatter(xs, ps, marker="_", color="black", s=60, zorder=3)
    a.set_yscale("log")
    a.set_xticks(range(len(cells)))
    a.set_xticklabels([c.replace(" ", "\n") for c, _ in cells], fontsize=7)
    a.set_ylabel("end-to-end latency (us; bar mean, tick p99)")
    a.legend(fontsize=7)
    f.suptitle(f"Launch paths: first byte at the device -> the device told ({d.get('size', '?')} sizes)", fontsize=10)
    f.tight_layout()
    return f


def lpath_figures(suffix):
    return sweep_figure(f"edge_launch{suffix}", plot_lpath, {"": lpath_table, "_parts": lpath_parts})


def edge_mt_figures(suffix, experiment):
    """Figs. 12 and 13 at one size: '' (make results) or '_demo' (make demo)."""
    return [{"name": f"edge_fig12{suffix}", "json": f"edge_fig12{suffix}.json", "plot": plot_fig12,
             "experiment": f"experiments/edge_fig12{experiment}.ini", "program": "build/bin/edge_fig12",
             "tables": {f"edge_fig12{suffix}": fig12_summary, f"edge_fig12{suffix}_pairs": fig12_pairs}},
            {"name": f"edge_fig13{suffix}", "json": f"edge_fig13{suffix}.json", "plot": plot_fig13,
             "experiment": f"experiments/edge_fig13{experiment}.ini", "program": "build/bin/edge_fig13",
             "tables": {f"edge_fig13{suffix}": fig13_summary, f"edge_fig13{suffix}_average": fig13_average,
                        f"edge_fig13{suffix}_pairs": fig13_pairs, f"edge_fig13{suffix}_breakdown": fig13_breakdown}},
            {"name": f"edge_fig13{suffix}_dynamic", "json": f"edge_fig13{suffix}.json", "plot": plot_fig13_dynamic,
             "experiment": f"experiments/edge_fig13{experiment}.ini", "program": "build/bin/edge_fig13",
             "tables": {f"edge_fig13{suffix}_dynamic": fig13_dynamic}}]


def table_of(name, json_name, also, experiment, program, fn):
    """A registry entry for one table (no plot) read from json_name and the results also names."""
    return {"name": name, "json": json_name, "plot": None, "also": also, "experiment": experiment,
            "program": f"build/bin/{program}", "tables": {name: fn}}


FIG12_RESERVE, FIG12_RESERVE_DEMO = (
    {"name": f"edge_fig12_reserve{suf}", "json": f"edge_fig12_reserve{suf}.json", "plot": plot_fig12_reserve,
     "experiment": f"experiments/edge_fig12_reserve{suf}.ini", "program": "build/bin/edge_fig12",
     "tables": {f"edge_fig12_reserve{suf}": fig12_reserve}} for suf in ("", "_demo"))

FIG13_DYN_CF = table_of("edge_fig13_demo_dynamic_counterfactuals", "edge_fig13_demo.json",
                        [f"edge_fig13_demo{suf}.json" for _, suf in F13_DYN_CF if suf],
                        "experiments/edge_fig13_demo_dynamic*.ini", "edge_fig13", fig13_dynamic_cf)

FIG13_CF = table_of("edge_fig13_demo_counterfactuals", "edge_fig13_demo.json",
                    [f"edge_fig13_demo{suf}.json" for _, suf in F13_CF if suf], "experiments/edge_fig13_demo*.ini",
                    "edge_fig13", fig13_counterfactuals)
FIG11_CF = table_of("edge_fig11_counterfactuals", "preemption_latency_all.json", [n for _, n in F11_CF[1:]],
                    "experiments/edge_fig11{_all,_lrr,_slowmem,_droppipe,_droppipe_slowmem}.ini", "preemption_latency", fig11_counterfactuals)
FIG13_CF_FULL = table_of("edge_fig13_counterfactuals", "edge_fig13.json",
                         [n for _, n in F13_CF_FULL[1:]],
                         "experiments/edge_fig13{,_packed,_artifact,_artifact_slowmem,_place,_artifact_place}.ini", "edge_fig13",
                         fig13_counterfactuals_full)
FIG12_CF_FULL = table_of("edge_fig12_counterfactuals", "edge_fig12.json", [n for _, n in F12_CF_FULL[1:]],
                         "experiments/edge_fig12{,_draincore,_slowmem}.ini", "edge_fig12", fig12_counterfactuals_full)
FIG13_MEMC_AMO = {"name": "edge_fig13_memc_amo", "json": "edge_fig13_memc_amo.json", "plot": None,
                  "experiment": "experiments/edge_fig13_memc_amo.ini", "program": "build/bin/edge_fig13",
                  "tables": {"edge_fig13_memc_amo": fig13_memc_amo}}
FIG13_MEMC = table_of("edge_fig13_memc", "edge_fig13_memc.json",
                      ["edge_fig13_memc_artifact.json", "edge_fig13_memc_artifact_place.json"],
                      "experiments/edge_fig13_memc{,_artifact,_artifact_place}.ini", "edge_fig13", fig13_memc)


# ---------------------------------------------------------------- registry

FIGURES = [
    {"name": "edge_launch_latency", "json": "launch_latency.json", "plot": plot_launch,
     "experiment": "experiments/edge_launch_latency.ini", "program": "build/bin/launch_latency",
     "tables": {"edge_launch_latency": launch_table, "edge_launch_e2e": e2e_table}},
    {"name": "edge_fig11", "json": "preemption_latency.json", "plot": plot_fig11,
     "experiment": "experiments/edge_fig11.ini", "program": "build/bin/preemption_latency",
     "tables": {"edge_fig11": fig11_summary, "edge_fig11_kernels": fig11_kernels}},
    {"name": "edge_fig11_all", "json": "preemption_latency_all.json", "plot": plot_fig11,
     "experiment": "experiments/edge_fig11_all.ini", "program": "build/bin/preemption_latency",
     "tables": {"edge_fig11_all": fig11_summary, "edge_fig11_all_kernels": fig11_kernels}},
    {"name": "fe_fig11", "json": "fe_fig11.json", "plot": plot_fe_fig11,
     "experiment": "experiments/fe_fig11.ini", "program": "build/bin/fe_fig11",
     "tables": {"fe_fig11": fe_fig11_table}},
    {"name": "fe_fig11_nol2", "json": "fe_fig11.json", "plot": None, "also": ["fe_fig11_nol2.json"],
     "experiment": "experiments/fe_fig11*.ini", "program": "build/bin/fe_fig11",
     "tables": {"fe_fig11_nol2": fe_fig11_nol2_table}},
    {"name": "fe_fig12", "json": "fe_fig12.json", "plot": plot_fe_fig12,
     "experiment": "experiments/fe_fig12.ini", "program": "build/bin/fe_fig12",
     "tables": {"fe_fig12": fe_fig12_table}},
    {"name": "mem_latency_load", "json": "mem_bench.json", "plot": plot_mem,
     "command": "make bench", "program": "build/bin/mem_bench", "tables": {"mem_bench": mem_table}},
    {"name": "mem_latency_load_cm", "json": "mem_bench_cm.json", "plot": plot_mem,
     "command": "make bench", "program": "scripts/mem_bench_cm.sh", "tables": {"mem_bench_cm": mem_table}},
] + edge_mt_figures("", "") + edge_mt_figures("_demo", "_demo") + [FIG11_CF, FIG13_CF, FIG13_MEMC, FIG13_MEMC_AMO, FIG13_CF_FULL, FIG12_CF_FULL, FIG12_RESERVE, FIG12_RESERVE_DEMO, FIG13_DYN_CF,
                        protect_figures(""), protect_figures("_demo"), lpath_figures(""), lpath_figures("_demo")] + cm_figs.FIGURES  # CM Figs. 8, 16-19


def load(results, fig):
    """The figure's JSON; with "also", the other results it reads in d["_also"] (None: not run), and
    "sources" only where every one of them has the same (docs/RESULTS.md "Provenance")."""
    path = os.path.join(results, fig["json"])
    try:
        with open(path) as f:
            d = json.load(f)
    except FileNotFoundError:
        print(f"figures: {fig['name']}: no {os.path.relpath(path, ROOT)} (run make results); skipped",
              file=sys.stderr)
        return None
    if "also" in fig:
        d["_also"] = {fig["json"]: d}
        for name in fig["also"]:
            try:
                with open(os.path.join(results, name)) as f:
                    d["_also"][name] = json.load(f)
            except FileNotFoundError:
                d["_also"][name] = None
                print(f"figures: {fig['name']}: no results/{name} (run make results); its row says so",
                      file=sys.stderr)
        srcs = {x.get("sources") if x else None for x in d["_also"].values()}
        d = dict(d, sources=srcs.pop() if len(srcs) == 1 else None)
    return d


def cmd_plot(results, only=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for fig in FIGURES:
        if (only and fig["name"] not in only) or not fig["plot"]:  # a table only
            continue
        d = load(results, fig)
        if d is None:
            continue
        f = fig["plot"](d, plt)
        out = os.path.join(results, fig["name"] + ".png")
        f.savefig(out, dpi=100, metadata={"Software": None})
        plt.close(f)
        print(f"figures: wrote {os.path.relpath(out, ROOT)}")
    return 0


BLOCK = provenance.BLOCK
NOT_RUN = "not run"  # a table cell whose points were not run


def cmd_docs(results, doc):
    with open(doc) as f:
        text = f.read()
    gens = {t: (fig, fn) for fig in FIGURES for t, fn in fig["tables"].items()}
    data, unknown, commits, partial = {}, [], {}, []
    head = provenance.fingerprint()

    def repl(m):
        name = m.group(2)
        if name not in gens:
            unknown.append(name)
            return m.group(0)
        fig, fn = gens[name]
        if fig["name"] not in data:
            data[fig["name"]] = load(results, fig)
        d = data[fig["name"]]
        if d is None:  # not rerun here: the table stays, its provenance line says whether it is still current
            return provenance.restamp(m.group(0), head)
        by = f"`scripts/sweep.py run {fig['experiment']}`" if "experiment" in fig else f"`{fig['command']}`"
        note = (f"<!-- generated by `make results` (scripts/figures.py docs) from results/{fig['json']}, written by "
                f"{by} ({fig['program']}); edit the generator, not this -->\n")
        fp = d.get("sources") if isinstance(d.get("sources"), str) and d.get("sources") != "mixed" else None
        if fp not in commits:
            commits[fp] = provenance.resolve_commit(fp) if fp else None
        prov = (provenance.visible_line(fp, commits[fp], head) + "\n" + provenance.provenance_line(fp, commits[fp]))
        body = fn(d)
        if body.count(NOT_RUN) > m.group(0).count(NOT_RUN):
            # some of its inputs were not run here (make demo's results, say, without make results'
            # counterfactual experiments): the figures it has stay, their provenance line says how old
            partial.append(name)
            return provenance.restamp(m.group(0), head)
        return m.group(1) + note + body + "\n\n" + prov + "\n" + m.group(4)

    new = BLOCK.sub(repl, text)
    if unknown:
        print(f"figures: {doc}: no generator for block(s) {', '.join(unknown)}", file=sys.stderr)
        return 1
    if partial:
        print(f"figures: {os.path.relpath(doc, ROOT)}: kept {', '.join(partial)} (inputs not run here)")
    if new != text:
        with open(doc, "w") as f:
            f.write(new)
    print(f"figures: {os.path.relpath(doc, ROOT)}: {len(BLOCK.findall(text))} generated blocks "
          f"({'updated' if new != text else 'unchanged'})")
    # PNGs the doc shows, from docs/figures/
    for png in sorted(set(re.findall(r"\(figures/([\w.-]+\.png)\)", new))):
        src = os.path.join(results, png)
        if os.path.exists(src):
            os.makedirs(os.path.join(os.path.dirname(doc), "figures"), exist_ok=True)
            shutil.copyfile(src, os.path.join(os.path.dirname(doc), "figures", png))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cmd", choices=["plot", "docs"])
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "RESULTS.md"))
    ap.add_argument("--only", action="append", metavar="FIGURE", help="plot only this figure (repeatable)")
    a = ap.parse_args()
    try:
        return cmd_plot(a.results, a.only) if a.cmd == "plot" else cmd_docs(a.results, a.doc)
    except cm_figs.CmError as e:  # a result that contradicts another (e.g. stale calibrated thresholds)
        print(f"figures: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
