#!/usr/bin/env python3
"""cm_point: the program of the CM experiments (experiments/cm_*.ini; CM
Figs. 8, 16-19; docs/SWEEPS.md "What an experiment program provides").

    cm_point.py [--kind K] [--config F] [--set s.k=v ...] --point --out POINT.json
        one point: build/bin/cm_run ($BUILD) with the point's overrides.
        `run.*` keys are this program's: run.mix, run.gpu (cm_run --mix,
        --gpu; none: not run), run.warmup, run.instrs, run.cycles (the
        window), run.gpu_size (paper | test), run.after_window (finish | stop:
        cm_run --after-window), run.label (the scheme's name in
        the figures; default the [cmbal] scheme, static<N> for static TLP).
        Every other override goes to cm_run as --set.  The point file is
        cm_run's JSON plus "point": what was run.
    cm_point.py [--kind K] [--config F] [--set s.k=v ...] --check-config
        the same point's configuration checked by cm_run --check-config,
        nothing run (scripts/sweep.py does this for every point first)
    cm_point.py --kind figs|tlp|double|breakdown|window --merge LIST --out RESULT.json
        the experiment's result from its points: scripts/cm_figs.py's merges.

Only this file, cm_run and its inputs decide a point's result, so editing the
metrics or the figures (scripts/cm_figs.py) re-runs no point.
"""
import json
import os
import resource
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = "baseline"
KINDS = ("figs", "tlp", "double", "breakdown", "window")
RUN_KEYS = {"mix": "none", "gpu": "none", "warmup": "20000", "instrs": "10000", "cycles": "", "gpu_size": "paper",
            "after_window": "finish", "label": ""}


class CmError(Exception):
    pass


def parse_args(argv):
    a = {"kind": "figs", "config": "configs/cm.ini", "sets": [], "point": False, "out": None, "merge": None,
         "check": False}
    i = 0
    while i < len(argv):
        k = argv[i]
        v = argv[i + 1] if i + 1 < len(argv) else None
        if k in ("--point", "--check-config"):
            a["point" if k == "--point" else "check"] = True
            i += 1
            continue
        if k in ("--kind", "--config", "--out", "--merge", "--set") and v is not None:
            if k == "--set":
                a["sets"].append(v)
            else:
                a[k[2:]] = v
            i += 2
            continue
        raise CmError(f"unknown or incomplete argument '{k}' (usage: scripts/cm_point.py's docstring)")
    if a["kind"] not in KINDS:
        raise CmError(f"--kind {a['kind']}: expected one of {', '.join(KINDS)}")
    return a


def point_command(a, build):
    """cm_run's command line for one point and the point's description."""
    run = dict(RUN_KEYS)
    sets, over = [], {}
    for s in a["sets"]:
        if "=" not in s or "." not in s.split("=", 1)[0]:
            raise CmError(f"--set {s}: expected section.key=value")
        k, v = s.split("=", 1)
        sec, key = k.split(".", 1)
        if sec == "run":
            if key not in RUN_KEYS:
                raise CmError(f"--set {s}: unknown run key (run.{', run.'.join(RUN_KEYS)})")
            run[key] = v
        else:
            sets += ["--set", s]
            over[k] = v
    for key in ("warmup", "instrs") + (("cycles",) if run["cycles"] else ()):
        if not run[key].isdigit():
            raise CmError(f"run.{key}={run[key]}: expected a number of instructions / cycles")
    if run["mix"] == "none" and run["gpu"] == "none":
        raise CmError("nothing to run: run.mix and run.gpu are both none")
    argv = [os.path.join(build, "bin", "cm_run"), "--config", a["config"], "--mix", run["mix"], "--gpu", run["gpu"],
            "--gpu-size", run["gpu_size"], "--warmup", run["warmup"], "--instrs", run["instrs"],
            "--after-window", run["after_window"], "--quiet"]
    if run["cycles"]:
        argv += ["--cycles", run["cycles"]]
    desc = {"mix": run["mix"], "gpu": run["gpu"], "gpu_size": run["gpu_size"], "after_window": run["after_window"],
            "warmup": int(run["warmup"]), "instrs": int(run["instrs"]),
            "label": run["label"] or default_label(over), "overrides": over}
    return argv + sets, desc


def default_label(over):
    """A point's scheme label: the scheme, with its limit for static TLP (static8)."""
    s = over.get("cmbal.scheme", BASELINE)
    return s + over.get("cmbal.static_warps", "") if s == "static" else s


def cmd_point(a):
    if not a["out"]:
        raise CmError("--point needs --out FILE")
    build = os.environ.get("BUILD") or "build"
    argv, desc = point_command(a, build)
    tmp = a["out"] + ".cm_run"
    print("+", shlex.join(argv + ["--out", tmp]), flush=True)
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv + ["--out", tmp], cwd=ROOT)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        raise CmError(f"cm_run failed (exit {r.returncode})")
    with open(tmp) as f:
        d = json.load(f)
    os.remove(tmp)
    # the whole cm_run's host CPU time (warm-up, window and the run finished after it): what a point
    # costs on an idle core, for sizing windows on a busy machine
    desc["host_cpu_s"] = round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 2)
    d["point"] = desc
    with open(a["out"], "w") as f:
        json.dump(d, f)
    return 0


def main(argv):
    try:
        a = parse_args(argv)
        if a["merge"]:
            if not a["out"]:
                raise CmError("--merge needs --out FILE")
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import cm_figs
            return cm_figs.merge_to(a["kind"], a["merge"], a["out"])
        if a["check"]:  # scripts/sweep.py, before any point runs: cm_run checks the point's configuration
            argv, _ = point_command(a, os.environ.get("BUILD") or "build")
            return subprocess.run(argv + ["--check-config"], cwd=ROOT).returncode
        if a["point"]:
            return cmd_point(a)
        raise CmError("expected --point or --merge LIST")
    except (CmError, OSError, ValueError) as e:
        print(f"cm_point: {e.__class__.__name__ + ': ' if not isinstance(e, CmError) else ''}{e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
