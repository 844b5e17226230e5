#!/usr/bin/env python3
"""cm_figures: the CM machine's figures from the JSON its programs write.

    cm_figures.py [--results DIR] [--docs]

    results/mesh_load.json     (build/bin/mesh_load)  -> mesh_load.png
    results/cpu_char.json      (build/bin/cpu_char)   -> cpu_mpki.png, cpu_ipc_latency.png
    results/cm_motivation.json (build/bin/cm_run --motivation) -> cm_motivation.png

--docs also copies the PNGs into docs/figures/ (docs/MESH.md, docs/CPU_MODEL.md
and docs/RESULTS.md show them).  A missing JSON is skipped with a note.
Needs Debian's python3-matplotlib.
"""
import argparse
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mesh_load(d, plt):
    f, ax = plt.subplots(1, 2, figsize=(11, 4))
    for a, key, title in ((ax[0], "uniform", "uniform random, 1 endpoint per router"),
                          (ax[1], "cm", "CM placement: 43 requesters -> 8 slices, 5-flit replies")):
        m = d[key]
        x = [p["offered"] for p in m["points"]]
        a.plot(x, [p["accepted"] for p in m["points"]], "o-", label="accepted")
        a.plot(x, x, ":", color="gray", label="offered")
        a.axhline(m["bound"], color="red", ls="--", label=f"bound {m['bound']:.3f}")
        a.set_xlabel(f"offered ({m['unit']})")
        a.set_ylabel(f"accepted ({m['unit']})")
        a.set_title(title, fontsize=10)
        b = a.twinx()
        b.semilogy(x, [max(p["latency"], 1) for p in m["points"]], "s--", color="tab:green", ms=3)
        b.set_ylabel("latency (mesh cycles)", color="tab:green")
        a.legend(loc="upper left", fontsize=8)
    f.suptitle(f"6x6 mesh, XY, {d['vcs']} VCs x {d['vc_flits']} flits, "
               f"{d['router_cycles']}+{d['link_cycles']} cycles per hop")
    f.tight_layout()
    return {"mesh_load": f}


def cpu_char(d, plt):
    out = {}
    apps = d["apps"]
    f, a = plt.subplots(figsize=(11, 4))
    x = range(len(apps))
    colors = {"L": "tab:green", "M": "tab:orange", "H": "tab:red"}
    a.bar([i - 0.2 for i in x], [p["table_mpki"] for p in apps], 0.4, color="lightgray", label="CM Table III")
    a.bar([i + 0.2 for i in x], [p["mpki"] for p in apps], 0.4, color=[colors[p["type"]] for p in apps],
          label="measured alone (L / M / H)")
    a.set_yscale("log")
    a.set_xticks(list(x))
    a.set_xticklabels([p["name"] for p in apps], rotation=70, fontsize=8)
    a.set_ylabel("L2 MPKI")
    worst = max(abs(p["mpki"] / p["table_mpki"] - 1) for p in apps)
    a.set_title(f"synthetic streams: L2 MPKI alone vs CM Table III (worst {100 * worst:.1f} %)")
    a.legend(fontsize=8)
    f.tight_layout()
    out["cpu_mpki"] = f
    f, a = plt.subplots(figsize=(7, 4.5))
    for c in d["ipc_vs_latency"]:
        lat = [p["latency"] for p in c["points"]]
        a.plot(lat, [p["ipc"] for p in c["points"]], "o-", ms=3, label=c["name"])
        if "bound" in c["points"][0]:
            a.plot(lat, [p["bound"] for p in c["points"]], "k:", label="bound (miss every 8)")
    a.set_xlabel("memory latency M (CPU cycles after the L2 lookup)")
    a.set_ylabel("IPC")
    a.set_title("CPU core: IPC vs memory latency (fixed-latency memory)")
    a.legend(fontsize=8)
    f.tight_layout()
    out["cpu_ipc_latency"] = f
    return out


def cm_motivation(d, plt):
    f, ax = plt.subplots(1, 2, figsize=(14, 4.5), gridspec_kw={"width_ratios": [1.2, 1]})
    a = ax[0]
    alone, beside = d["alone"]["core_ipc"], d["with_gpu"]["core_ipc"]
    x = range(len(alone))
    kernel = d["gpu_kernel"]
    a.bar([i - 0.2 for i in x], alone, 0.4, label="mix alone")
    a.bar([i + 0.2 for i in x], beside, 0.4, label=f"beside {kernel} on the SIMT cores")
    a.set_xticks(list(x))
    a.set_xticklabels(d["apps"], rotation=60, fontsize=8)
    a.set_ylabel("IPC (instructions per CPU cycle)")
    a.set_ylim(0, 1.35 * max(alone + beside))
    a.set_title(f"CPU mix {d['mix']}: weighted speedup {d['weighted_speedup']:.2f} of {len(alone)}, "
                f"cpu_slowdown {d['cpu_slowdown']:.2f}x", fontsize=10)
    a.legend(fontsize=8)
    # the run beside the GPU kernel, interval by interval (CM 4.1-4.2 inputs)
    a = ax[1]
    iv = d["with_gpu"]["intervals"]
    n = d["interval"]
    t = [(k + 1) * n / 1000 for k in range(len(iv))]
    a.plot(t, [v["stall_mc"] / n for v in iv], label="stallMC / cycle (0..8)")
    a.plot(t, [v["stall_net"] / n for v in iv], label="stallnet / cycle (0..8)")
    a.plot(t, [sum(v["stall_gpu"]) / len(v["stall_gpu"]) / n for v in iv],
           label="stallGPU / cycle, mean of GPU cores (0..2)")
    a.plot(t, [v["gpu_ipc"] / 10 for v in iv], label="GPU IPC / 10 (warp instr. / cycle)")
    a.plot(t, [sum(v["cpu_ipc"]) for v in iv], label="CPU IPC sum")
    a.set_xlabel(f"k GPU cycles into the window ({n}-cycle intervals)")
    a.set_title(f"beside {kernel}: per interval", fontsize=10)
    a.legend(fontsize=7)
    f.tight_layout()
    return {"cm_motivation": f}


FIGURES = [("mesh_load.json", mesh_load), ("cpu_char.json", cpu_char), ("cm_motivation.json", cm_motivation)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--docs", action="store_true")
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for name, fn in FIGURES:
        path = os.path.join(a.results, name)
        if not os.path.exists(path):
            print(f"cm_figures: no {os.path.relpath(path, ROOT)}; skipped", file=sys.stderr)
            continue
        with open(path) as fh:
            d = json.load(fh)
        for png, fig in fn(d, plt).items():
            out = os.path.join(a.results, png + ".png")
            fig.savefig(out, dpi=100, metadata={"Software": None})
            plt.close(fig)
            print(f"cm_figures: wrote {os.path.relpath(out, ROOT)}")
            if a.docs:
                os.makedirs(os.path.join(ROOT, "docs", "figures"), exist_ok=True)
                shutil.copyfile(out, os.path.join(ROOT, "docs", "figures", png + ".png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
