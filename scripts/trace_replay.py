#!/usr/bin/env python3
"""Replays a lockstep trace (docs/TRACES.md) through the RTL in Icarus.

An event-driven, 4-state simulation (iverilog -g2012; registers start X, no
reset value is forced): every cycle the trace's inputs are driven while the
clock is low, then every output is compared with the recorded one (4-state
!==, so an X or Z is a mismatch too), then the clock rises.  Lines with
rst_ni = 0 are not compared (the state before the first reset edge is X in
Icarus and random in the verilated model).  An RTL assertion ($error) fails
the replay as well.  A zero-time loop (the simulator never advances) is
caught by the time limit and reported with the last cycle reached.

usage: trace_replay.py --trace F --top MODULE [--param K=V]... [--workdir D]
                       [--timeout S] [--max-report N] SRC.sv...
Prints one summary line; exit 0 on zero mismatches, X and assertion failures.
"""
import argparse
import os
import re
import subprocess
import sys
import time


def die(msg):
    print(f"trace_replay: {msg}", file=sys.stderr)
    sys.exit(2)


def read_header(path):
    ins, outs, model, nhdr = [], [], None, 0
    try:
        with open(path) as f:
            for line in f:
                if not line.startswith("#"):
                    break
                nhdr += 1
                w = line[1:].split()
                if w[:2] == ["fgtrace", "1"]:
                    continue
                if len(w) == 2 and w[0] == "model":
                    model = w[1]
                elif len(w) == 3 and w[0] in ("in", "out") and w[2].isdigit() and 1 <= int(w[2]) <= 64:
                    (ins if w[0] == "in" else outs).append((w[1], int(w[2])))
                else:
                    die(f"{path}: header line {nhdr} not understood: {line.strip()}")
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if nhdr == 0 or not outs:
        die(f"{path}: not a trace (no '# fgtrace 1' header with ports)")
    return model, ins, outs, nhdr


def testbench(top, params, defparams, ins, outs, nhdr, trace, max_report, xok, progress):
    sig = lambda n: "s_" + n
    v = ["`timescale 1ns/1ps", "module fg_replay_tb;", "  reg clk_i = 1'b0;"]
    for n, w in ins:
        v.append(f"  reg [{w - 1}:0] {sig(n)};")
    for n, w in outs:
        v.append(f"  wire [{w - 1}:0] {sig(n)};")
        v.append(f"  reg [{w - 1}:0] e_{n};")
    ps = ", ".join(f".{k}({val})" for k, val in params)
    conns = [".clk_i(clk_i)"] + [f".{n}({sig(n)})" for n, _ in ins + outs]
    v.append(f"  {top} {'#(' + ps + ') ' if ps else ''}dut (" + ", ".join(conns) + ");")
    for k, val in defparams:
        v.append(f"  defparam dut.{k} = {val};")
    has_rst = any(n == "rst_ni" for n, _ in ins)
    fields = [sig(n) for n, _ in ins] + [f"e_{n}" for n, _ in outs]
    v += ["  integer fd, n, k, cyc, bad, xs;",
          "  reg [8*65536-1:0] hdr;",
          "  initial begin",
          f"    fd = $fopen(\"{trace}\", \"r\");",
          "    if (fd == 0) begin $display(\"REPLAY-ERROR cannot open the trace\"); $finish; end",
          f"    for (k = 0; k < {nhdr}; k = k + 1) n = $fgets(hdr, fd);",
          "    cyc = 0; bad = 0; xs = 0;",
          "    forever begin",
          f"      n = $fscanf(fd, \"{' '.join(['%h'] * len(fields))}\\n\", {', '.join(fields)});",
          f"      if (n != {len(fields)}) begin",
          "        $display(\"REPLAY-DONE cycles %0d mismatches %0d x %0d\", cyc, bad, xs);",
          "        $finish;",
          "      end",
          "      #4;"]
    guard = f"{sig('rst_ni')} === 1'b1" if has_rst else "1"
    v.append(f"      if ({guard}) begin")
    for n, w in outs:
        # an --x-ok output (storage without reset): its X / Z bits are not
        # compared (!= is 1 only when a known bit differs), every other bit is
        diff = f"({sig(n)} ^ e_{n}) != 0" if n in xok else f"{sig(n)} !== e_{n}"
        v += [f"        if ({diff}) begin",
              f"          if (^{sig(n)} === 1'bx) xs = xs + 1;",
              "          bad = bad + 1;",
              f"          if (bad <= {max_report}) $display(\"MISMATCH cycle %0d port {n} rtl=%h expected=%h\", "
              f"cyc, {sig(n)}, e_{n});",
              "        end"]
    v += ["      end",
          "      #1 clk_i = 1'b1;",
          "      #5 clk_i = 1'b0;",
          "      cyc = cyc + 1;",
          f"      if (cyc % {progress} == 0) begin $display(\"REPLAY-AT %0d\", cyc); $fflush(); end",
          "    end",
          "  end",
          "endmodule"]
    return "\n".join(v) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Replay a lockstep trace through the RTL in Icarus")
    ap.add_argument("--trace", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--defparam", action="append", default=[],
                    help="INST.PARAM=V below the top, e.g. a submodule's simulation form")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--max-report", type=int, default=10)
    ap.add_argument("--progress", type=int, default=1000, help="print the cycle reached every N cycles")
    ap.add_argument("--x-ok", action="append", default=[],
                    help="an output read from storage without reset: its X bits are not compared")
    ap.add_argument("srcs", nargs="+")
    a = ap.parse_args()
    params = []
    for p in a.param:
        if not re.fullmatch(r"[A-Za-z_]\w*=\d+", p):
            die(f"--param {p}: expected NAME=integer")
        params.append(tuple(p.split("=", 1)))
    defparams = []
    for p in a.defparam:
        if not re.fullmatch(r"[A-Za-z_][\w.]*\.[A-Za-z_]\w*=\d+", p):
            die(f"--defparam {p}: expected INSTANCE.PARAM=integer")
        defparams.append(tuple(p.split("=", 1)))
    model, ins, outs, nhdr = read_header(a.trace)
    for x in a.x_ok:
        if x not in dict(outs):
            die(f"--x-ok {x}: no such output in {a.trace}")
    name = model or os.path.basename(a.trace).split(".")[0]
    wd = a.workdir or os.path.join(os.environ.get("BUILD", "build"), "replay", name)
    os.makedirs(wd, exist_ok=True)
    tb = os.path.join(wd, "fg_replay_tb.sv")
    with open(tb, "w") as f:
        f.write(testbench(a.top, params, defparams, ins, outs, nhdr, os.path.abspath(a.trace), a.max_report, set(a.x_ok), a.progress))
    vvp = os.path.join(wd, "replay.vvp")
    t0 = time.time()
    c = subprocess.run(["iverilog", "-g2012", "-Irtl/include", "-s", "fg_replay_tb", "-o", vvp, tb] + a.srcs,
                       capture_output=True, text=True)
    if c.returncode:
        print(c.stdout + c.stderr, end="")
        die(f"{name}: iverilog failed")
    t1 = time.time()
    log = os.path.join(wd, "replay.log")
    with open(log, "w") as lf:
        p = subprocess.Popen(["vvp", "-n", vvp], stdout=lf, stderr=subprocess.STDOUT)
        try:
            p.wait(timeout=a.timeout)
            hung = False
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            hung = True
    t2 = time.time()
    text = open(log).read()
    for line in text.splitlines():
        if line.startswith("MISMATCH") or "FG_ASSERT" in line or "FG_ASSUME" in line:
            print("  " + line)
    asserts = sum(1 for line in text.splitlines() if "FG_ASSERT" in line or "FG_ASSUME" in line)
    done = re.search(r"REPLAY-DONE cycles (\d+) mismatches (\d+) x (\d+)", text)
    if hung or not done:
        at = re.findall(r"REPLAY-AT (\d+)", text)
        why = f"no progress within {a.timeout:.0f} s (a zero-time loop?)" if hung else "vvp stopped early"
        print(f"FAIL {name}: {why}; last cycle reached {at[-1] if at else 0} (log {log})")
        return 1
    cyc, bad, xs = (int(x) for x in done.groups())
    ok = bad == 0 and asserts == 0 and cyc > 0
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {cyc} cycles, {len(outs)} outputs compared every cycle, "
          f"{bad} mismatches ({xs} with X), {asserts} assertion failures; "
          f"compile {t1 - t0:.1f} s, simulate {t2 - t1:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
