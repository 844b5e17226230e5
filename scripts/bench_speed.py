#!/usr/bin/env python3
"""make bench's simulation-speed comparison (docs/RESULTS.md "Simulation speed").

Builds the commit the speed work is measured against (--base, default ac41b50) in a
worktree under $BUILD/bench-base and runs the same workloads with both builds,
each run a whole process, the two builds alternating (A B A B ...) after a
warm-up, and prints the medians and the pair-by-pair ratios:

  busy      MM 512x512 filling the 16-core EDGE GPU (sim_speed --busy-only,
            C twins): GPU cycles per CPU second and per wall second, with one
            thread and with --threads N (this build only: the base has none)
  cm        the CM machine (cm_run --bench: 14 CPU cores, 28 SIMT cores, the
            mesh, F/E queues as RTL): GPU cycles per CPU second
  cm_apps   the CM machine under CM-BAL1 with the H2 mix beside each of MM,
            BFS and MUM at the paper's input size, over a short window
            (CM_APPS_ARGS): GPU cycles per CPU second with one thread, and
            per wall second with one and with --threads threads (the base
            with one thread)
  launch    the launch-latency workload (launch_latency --point --events E),
            RTL blocks against their C twins: CPU time rtl / c
  busy_impl the busy MM above with its blocks (each core's PEWT and
            preemption controller, each partition's F/E queues) as verilated
            RTL against their C twins (sim_speed --busy-only --busy-impl rtl |
            c; this build only: the base has no --busy-impl): CPU time rtl / c
  busy_rtl  a smaller busy MM with preemptions, so that the per-core blocks
            work (preemption_latency --point --size test --kernels mm): CPU
            time rtl / c

Whole-process CPU time (user + system, from wait4) is the figure to read on a
shared machine; wall time is only meaningful on an idle one.  The result is
merged into results/sim_speed.json under "compare" (sim_speed writes the rest).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# What the base's build keeps of this process's environment: the session's
# tools (VERILATOR_ROOT too), locale and compiler cache, nothing a make above
# us handed down.  `make bench` exports BUILD (this tree's, absolute), COV,
# PYTHON, ... and MAKEFLAGS carries its command-line variables (BUILD=...,
# SAN=1) and jobserver to every make below it; the base's Makefile
# (`BUILD ?= build`) would take them and compile the base into this build.
BASE_ENV_KEEP = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM", "VERILATOR_ROOT")
BASE_ENV_KEEP_PREFIX = ("LC_", "CCACHE_")


def base_env(environ):
    return {k: v for k, v in environ.items() if k in BASE_ENV_KEEP or k.startswith(BASE_ENV_KEEP_PREFIX)}


def tree_state(build):
    """{path: (size, mtime)} of every file under BUILD but bench-base/: what
    the base's build must leave as it was."""
    state = {}
    for d, dirs, files in os.walk(build):
        if d == build and "bench-base" in dirs:
            dirs.remove("bench-base")
        for f in files:
            try:
                st = os.lstat(os.path.join(d, f))
            except FileNotFoundError:
                continue
            state[os.path.relpath(os.path.join(d, f), build)] = (st.st_size, st.st_mtime_ns)
    return state


def build_base(commit, build, jobs, root=ROOT):
    """The base commit's tree and build under BUILD/bench-base (reused when
    already at that commit): its own BUILD on its command line, a clean
    environment (base_env); exits if this build changed meanwhile."""
    src = os.path.join(build, "bench-base", "src")
    want = sh(["git", "-C", root, "rev-parse", commit + "^{commit}"], capture_output=True, text=True).stdout.strip()
    have = None
    if os.path.isdir(src):
        r = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, text=True)
        have = r.stdout.strip() if r.returncode == 0 else None
    if have != want:
        if os.path.isdir(src):
            subprocess.run(["git", "-C", root, "worktree", "remove", "--force", src], capture_output=True)
        sh(["git", "-C", root, "worktree", "prune"])
        os.makedirs(os.path.dirname(src), exist_ok=True)
        sh(["git", "-C", root, "worktree", "add", "--detach", src, want], capture_output=True)
    base_build = os.path.join(src, "build")
    print(f"bench: building the base {want[:7]} in {base_build} (make build)", flush=True)
    before = tree_state(build)
    # its own scripts/deps.sh and build rules; the riscv-tests are not needed
    sh(["make", "-C", src, f"-j{jobs}", f"BUILD={base_build}", "build"], stdout=subprocess.DEVNULL,
       env=base_env(os.environ))
    after = tree_state(build)
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    if changed:
        sys.exit(f"bench: building the base changed {len(changed)} file(s) of this build {build} "
                 f"(e.g. {changed[0]}): rebuild it (make build)")
    return src, want


def timed(cmd, cwd, env):
    """Runs cmd; returns (cpu seconds of the process and its children, wall seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit(f"bench: {' '.join(cmd)} (in {cwd}) exited {rc}: {err.strip()[-400:]}")
    return ru.ru_utime + ru.ru_stime, wall


# the CM points the cm_apps workload times: H2 beside each kernel, CM-BAL1,
# the paper's input sizes, a window short enough to repeat (the paper's is
# 500 k + 5 M instructions: docs/RESULTS.md "A CM point at the paper's window")
CM_APPS = ("mm", "bfs", "mum")
CM_APPS_ARGS = ["--mix", "H2", "--scheme", "cm_bal1", "--warmup", "20000", "--instrs", "40000",
                "--after-window", "stop", "--quiet"]


def median(xs):
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="ac41b50", help="the commit to compare with (default ac41b50, where the CM machine's speed work started; aaa5f4a before the SIMT core's)")
    ap.add_argument("--runs", type=int, default=3, help="counted runs of each command (after one warm-up)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads of the N-thread busy run")
    ap.add_argument("--events", type=int, default=20, help="serial events of the launch workload")
    ap.add_argument("--only", default="busy,cm,cm_apps,launch,busy_impl,busy_rtl", help="comma-separated workloads")
    ap.add_argument("--no-base", action="store_true", help="this build only (no side-by-side base)")
    ap.add_argument("--base-tree", help="a checkout of the base already built (its build/ is used as it is)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "sim_speed.json"))
    a = ap.parse_args()
    if a.runs < 1 or a.threads < 1:
        sys.exit("bench: --runs and --threads must be at least 1")
    build = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
    jobs = os.environ.get("JOBS", str(os.cpu_count() or 1))
    only = set(a.only.split(","))
    bad = only - {"busy", "cm", "cm_apps", "launch", "busy_impl", "busy_rtl"}
    if bad:
        sys.exit(f"bench: unknown workload(s) {', '.join(sorted(bad))}")
    head = sh(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = bool(sh(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                    text=True).stdout.strip())
    sides = {"this": (ROOT, build)}
    base_commit = None
    if a.base_tree:
        src = os.path.abspath(a.base_tree)
        base_commit = sh(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        sides["base"] = (src, os.path.join(src, "build"))
    elif not a.no_base:
        src, base_commit = build_base(a.base, build, jobs)
        sides["base"] = (src, os.path.join(src, "build"))

    tmp = tempfile.mkdtemp(prefix="fg-bench-")
    env1 = dict(os.environ, FG_THREADS="1")

    def prog(side, name):
        return os.path.join(sides[side][1], "bin", name)

    # each workload: a list of (label, side, argv, env); the labels alternate
    plans = []
    if "busy" in only:
        plans.append(("busy", [(s, [prog(s, "sim_speed"), "--busy-only", "--out", f"{tmp}/busy_{s}.json"], env1)
                               for s in sides]))
        if a.threads > 1:
            envn = dict(os.environ, FG_THREADS=str(a.threads))
            plans.append(("busy_threads", [("this", [prog("this", "sim_speed"), "--busy-only", "--out",
                                                     f"{tmp}/busyn.json"], envn),
                                           ("this1", [prog("this", "sim_speed"), "--busy-only", "--out",
                                                      f"{tmp}/busy1.json"], env1)]))
    if "cm" in only:
        plans.append(("cm", [(s, [prog(s, "cm_run"), "--bench", "--out", f"{tmp}/cm_{s}.json"], env1) for s in sides]))
    if "cm_apps" in only:
        envn = dict(os.environ, FG_THREADS=str(a.threads))
        for app in CM_APPS:
            cmds = [(s, [prog(s, "cm_run"), *CM_APPS_ARGS, "--gpu", app, "--out", f"{tmp}/cma_{app}_{s}.json"], env1)
                    for s in sides]
            if a.threads > 1:
                cmds.append(("thisN", [prog("this", "cm_run"), *CM_APPS_ARGS, "--gpu", app, "--out",
                                       f"{tmp}/cma_{app}_thisN.json"], envn))
            plans.append((f"cm_apps_{app}", cmds))
    if "launch" in only:
        for s in sides:
            plans.append((f"launch_{s}", [(f"{s}_{i}", [prog(s, "launch_latency"), "--point", "--events",
                                                          str(a.events), "--impl", i, "--out", f"{tmp}/l.json"], env1)
                                          for i in ("rtl", "c")]))
    if "busy_impl" in only:
        plans.append(("busy_impl_this", [(f"this_{i}", [prog("this", "sim_speed"), "--busy-only", "--busy-impl", i,
                                                         "--out", f"{tmp}/bi.json"], env1) for i in ("rtl", "c")]))
    if "busy_rtl" in only:
        for s in sides:
            plans.append((f"busy_rtl_{s}", [(f"{s}_{i}", [prog(s, "preemption_latency"), "--point", "--size", "test",
                                                            "--kernels", "mm", "--impl", i, "--out",
                                                            f"{tmp}/p.json"], env1) for i in ("rtl", "c")]))

    res = {}
    for name, cmds in plans:
        times = {label: [] for label, _, _ in cmds}
        for r in range(a.runs + 1):
            for label, argv, env in cmds:
                side = label.split("_")[0] if label.split("_")[0] in sides else "this"
                cpu, wall = timed(argv, sides[side][0], dict(env, BUILD=sides[side][1]))
                if r:
                    times[label].append((cpu, wall))
                print(f"  {name:13s} {label:8s} run {r}{' (warm-up)' if not r else ''}: {cpu:7.2f} s CPU "
                      f"{wall:7.2f} s wall", flush=True)
        res[name] = times

    def cycles(path, key):
        with open(path) as f:
            d = json.load(f)
        return d[key]["gpu_cycles"] if key in ("busy", "run") else d["gpu_cycles"]

    out = {"this_commit": head + ("+dirty" if dirty else ""), "base_commit": base_commit, "runs": a.runs,
           "threads": a.threads, "machine": f"{os.cpu_count()} processors, load average "
                                             f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end"}
    lines = []

    def pairs(t, x, y, k):  # medians of x and y, and of the pair-by-pair ratio x / y
        return (median([v[k] for v in t[x]]), median([v[k] for v in t[y]]),
                median([p[k] / q[k] for p, q in zip(t[x], t[y])]))

    def speedup(t, o, fmt):  # this build against the base, CPU time, when the base ran
        if "base" in t:
            _, _, r = pairs(t, "this", "base", 0)
            o["speedup_per_cpu_s"] = 1 / r
            lines.append(fmt.format(1 / r) + " (median of the pair-by-pair ratios)")

    if "busy" in res:
        t = res["busy"]
        cyc = cycles(f"{tmp}/busy_this.json", "busy")
        o = {"gpu_cycles": cyc}
        for s in sides:
            cpu, wall = median([v[0] for v in t[s]]), median([v[1] for v in t[s]])
            o[s] = {"cpu_s": cpu, "wall_s": wall, "gpu_cycles_per_cpu_s": cyc / cpu, "gpu_cycles_per_wall_s": cyc / wall}
            lines.append(f"busy MM, 1 thread, {s:4s}: {cpu:6.2f} s CPU, {cyc / cpu / 1e3:6.1f} k GPU cycles per CPU "
                         f"second ({cyc / wall / 1e3:6.1f} k per wall second)")
        speedup(t, o, "busy MM, 1 thread: {:.2f}x the base's GPU cycles per CPU second")
        out["busy"] = o
    if "busy_threads" in res:
        t = res["busy_threads"]
        with open(f"{tmp}/busyn.json") as f:  # the last run's: what the pool chose, what a handoff cost
            bn = json.load(f)["busy"]
        cyc = bn["gpu_cycles"]
        wn, w1, r = pairs(t, "this", "this1", 1)
        out["busy_threads"] = {"threads": a.threads, "wall_s": wn, "wall_s_1_thread": w1,
                               "gpu_cycles_per_wall_s": cyc / wn, "gpu_cycles_per_wall_s_1_thread": cyc / w1,
                               "speedup_per_wall_s": 1 / r, "threaded_cycles": bn.get("threaded_cycles"),
                               "pool_handoff_ns": bn.get("pool_handoff_ns")}
        lines.append(f"busy MM, {a.threads} threads: {wn:6.2f} s wall against {w1:.2f} s with 1 thread: {1 / r:.2f}x "
                     f"the GPU cycles per wall second ({cyc / wn / 1e3:.1f} k)")
        if bn.get("pool_handoff_ns") is not None:
            lines.append(f"busy MM, {a.threads} threads, last run: {bn['threaded_cycles']:.0f} of {cyc} cycles' "
                         f"pipelines on the threads (the pool's choice); a handoff to the threads and back "
                         f"{bn['pool_handoff_ns']:.0f} ns")
    if "cm" in res:
        t = res["cm"]
        o = {}
        for s in sides:
            cyc = cycles(f"{tmp}/cm_{s}.json", "cm")
            cpu = median([v[0] for v in t[s]])
            o[s] = {"cpu_s": cpu, "gpu_cycles": cyc, "gpu_cycles_per_cpu_s": cyc / cpu}
            lines.append(f"CM machine, 1 thread, {s:4s}: {cpu:6.2f} s CPU for {cyc} GPU cycles and its set-up "
                         f"(whole process)")
        speedup(t, o, "CM machine: {:.2f}x the base's speed per CPU second (whole process)")
        out["cm"] = o
    if "cm_apps" in only:
        o = {"args": " ".join(CM_APPS_ARGS), "threads": a.threads}
        for app in CM_APPS:
            t = res[f"cm_apps_{app}"]
            oa = {}
            for label in t:
                side = "this" if label == "thisN" else label
                cyc = cycles(f"{tmp}/cma_{app}_{label}.json", "run")
                cpu, wall = median([v[0] for v in t[label]]), median([v[1] for v in t[label]])
                oa[label] = {"gpu_cycles": cyc, "cpu_s": cpu, "wall_s": wall, "gpu_cycles_per_cpu_s": cyc / cpu,
                             "gpu_cycles_per_wall_s": cyc / wall}
                if label == "thisN" and cyc != oa["this"]["gpu_cycles"]:
                    sys.exit(f"bench: cm_apps {app}: {a.threads} threads simulated {cyc} GPU cycles, one thread "
                             f"{oa['this']['gpu_cycles']}: the threads changed the result")
                who = f"{side}, {a.threads} threads" if label == "thisN" else f"{side}, 1 thread"
                lines.append(f"CM H2 + {app} (CM-BAL1), {who:16s}: {cyc} GPU cycles, {cpu:6.2f} s CPU, {wall:6.2f} s "
                             f"wall: {cyc / cpu / 1e3:6.1f} k per CPU second, {cyc / wall / 1e3:6.1f} k per wall second")
            if "base" in oa:
                per_cpu = oa["this"]["gpu_cycles_per_cpu_s"] / oa["base"]["gpu_cycles_per_cpu_s"]
                best = max(v["gpu_cycles_per_wall_s"] for k, v in oa.items() if k != "base")
                oa["speedup_per_cpu_s"] = per_cpu
                oa["speedup_per_wall_s_best_threads"] = best / oa["base"]["gpu_cycles_per_wall_s"]
                lines.append(f"CM H2 + {app}: {per_cpu:.2f}x the base's GPU cycles per CPU second (1 thread), "
                             f"{oa['speedup_per_wall_s_best_threads']:.2f}x per wall second (this build's best "
                             f"thread count against the base's one thread; medians)")
            if "thisN" in oa:
                oa["threads_over_1_wall"] = oa["thisN"]["gpu_cycles_per_wall_s"] / oa["this"]["gpu_cycles_per_wall_s"]
            o[app] = oa
        out["cm_apps"] = o
    for kind, what in (("launch", "launch workload"), ("busy_impl", "busy MM 512x512"),
                       ("busy_rtl", "busy MM with preemptions (test size)")):
        o = {}
        for s in sides:
            t = res.get(f"{kind}_{s}")
            if not t:
                continue
            rtl, c, r = pairs(t, f"{s}_rtl", f"{s}_c", 0)
            o[s] = {"cpu_s_rtl": rtl, "cpu_s_c": c, "rtl_over_c": r}
            lines.append(f"{what}, {s:4s}: rtl / c {r:.2f}x CPU time ({rtl:.2f} s / {c:.2f} s)")
        if o:
            out[kind] = o

    print()
    for ln in lines:
        print("  " + ln)
    root = {}
    if os.path.exists(a.out):
        try:
            with open(a.out) as f:
                root = json.load(f)
        except (OSError, json.JSONDecodeError):
            root = {}
    root["compare"] = out
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out + ".part", "w") as f:
        json.dump(root, f, indent=1)
    os.replace(a.out + ".part", a.out)
    print(f"  wrote {a.out} (compare)")


if __name__ == "__main__":
    main()
