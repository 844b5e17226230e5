#!/usr/bin/env python3
"""Register-to-register delay estimates of a Yosys synth_ecp5 netlist, in
seconds rather than the hour a place and route of a large top takes: where
a design's long paths are, before routing it.

Usage: scripts/logic_depth.py NETLIST.json [--limit NS] [--top N] [--path TEXT]... [--fanout-ns K]

Each path from a flip-flop, a block RAM's output or a distributed RAM's
output to a flip-flop's or a RAM's input gets the sum of a fixed delay per
cell kind and per connection, for the ECP5 at speed grade 6 (nextpnr-ecp5's
figures, rounded): a flip-flop's clock to output 0.45 ns, a DP16KD's (no
output register) 4.3 ns, a LUT4 0.45 ns, a MULT18X18D 4.5 ns, a carry chain
0.45 ns into it and 0.06 ns per CCU2C along it, 0.75 ns per connection
between cells (routing: the estimate's weakest part, which congestion
lengthens), 0.2 ns setup.  It prints the worst estimate, the registers
(bits of one signal together) whose inputs are later than --limit (default
20 ns: 50 MHz) with how many of their bits are, the worst path cell by cell
and, for each --path TEXT, the worst path into a register whose name
contains TEXT.  --fanout-ns K adds K ns per doubling of a connection's
fanout (K x log2 of the loads on its net): a net with many loads spreads
over the die, which the fixed 0.75 ns does not see (0 by default).  An
estimate, not timing: nextpnr's figures after routing are the record
(docs/FPGA.md).
"""
import argparse
import collections
import json
import math
import re
import sys

NET, LUT, CARRY_IN, CARRY = 0.75, 0.45, 0.45, 0.06
SETUP = 0.2
START = {"TRELLIS_FF": 0.45, "DP16KD": 4.3, "TRELLIS_DPR16X4": 0.9}   # clock to output
COMB = {"LUT4": LUT, "CCU2C": CARRY_IN, "MULT18X18D": 4.5, "PFUMX": 0.3, "L6MUX21": 0.3}
CLOCKS = {"CLK", "CLKA", "CLKB", "WCK", "CLKI", "CLKFB"}   # clock pins: not data


class Netlist:
    def __init__(self, path, fanout_ns=0.0):
        d = json.load(open(path))
        mods = d["modules"]
        # the top (Yosys marks it with a binary-string attribute), else the largest module
        tops = [m for m in mods.values() if "1" in str(m.get("attributes", {}).get("top", ""))]
        m = tops[0] if tops else max(mods.values(), key=lambda x: len(x.get("cells", {})))
        self.cells = m["cells"]
        # a public net name per bit, to name cells by what they drive (make
        # fpga's synthesis leaves the cells their $auto names)
        bitname = {}
        for name, nn in m.get("netnames", {}).items():
            if nn.get("hide_name"):
                continue
            for i, b in enumerate(nn["bits"]):
                if isinstance(b, int) and b not in bitname:
                    bitname[b] = name if len(nn["bits"]) == 1 else f"{name}[{i}]"
        self.label = {}
        for cn, c in self.cells.items():
            outs = [b for p, bits in c["connections"].items() if c["port_directions"].get(p) == "output"
                    for b in bits if isinstance(b, int)]
            self.label[cn] = next((bitname[b] for b in outs if b in bitname), cn)
        self.driver = {}
        for cn, c in self.cells.items():
            for p, bits in c["connections"].items():
                if c["port_directions"].get(p) == "output":
                    for b in bits:
                        if isinstance(b, int):
                            self.driver[b] = (cn, p)
        # the loads on each net bit (data inputs), for --fanout-ns
        self.fanout_ns = fanout_ns
        self.loads = collections.Counter()
        for c in self.cells.values():
            for p, bits in c["connections"].items():
                if c["port_directions"].get(p) == "input" and p not in CLOCKS:
                    self.loads.update(b for b in bits if isinstance(b, int))
        self.arr, self.prev = {}, {}

    def _inputs(self, c, skip=()):
        for p, bits in c["connections"].items():
            if c["port_directions"].get(p) != "input" or p in skip or p in CLOCKS:
                continue
            for b in bits:
                if isinstance(b, int) and b in self.driver:
                    yield p, self.driver[b], b

    def _latest(self, c, skip=(), compute=True):
        best, bp = 0.0, None
        for p, (dc, dp), b in self._inputs(c, skip):
            hop = 0.0 if (self.cells[dc]["type"] == "CCU2C" and dp == "COUT" and p == "CIN") else \
                NET + self.fanout_ns * math.log2(max(1, self.loads[b]))
            # arrival() orders the cells so that a cell's drivers come first;
            # a driver not known by then closes a combinational loop: 0
            t = (self.arrival(dc) if compute else self.arr.get(dc, 0.0)) + hop
            if t > best:
                best, bp = t, dc
        return best, bp

    def arrival(self, cn):
        """the time the cell's outputs settle (iterative: deep netlists)"""
        if cn in self.arr:
            return self.arr[cn]
        stack, on_stack = [cn], {cn}
        while stack:
            x = stack[-1]
            if x in self.arr:
                stack.pop()
                continue
            c = self.cells[x]
            if c["type"] not in COMB:
                # a register, a RAM, or what starts a path untimed (an I/O buffer, the PLL)
                self.arr[x] = START.get(c["type"], 0.0)
                stack.pop()
                continue
            todo = [dc for _, (dc, _), _ in self._inputs(c) if dc not in self.arr and dc not in on_stack]
            if todo:
                stack.extend(todo)
                on_stack.update(todo)
                continue
            stack.pop()
            on_stack.discard(x)
            best, bp = self._latest(c, compute=False)
            delay = COMB.get(c["type"], 0.5)
            if c["type"] == "CCU2C":
                cin = c["connections"].get("CIN", [])
                if cin and isinstance(cin[0], int) and cin[0] in self.driver and self.driver[cin[0]][1] == "COUT":
                    src = self.driver[cin[0]][0]
                    other, _ = self._latest(c, skip=("CIN",), compute=False)
                    if self.arr.get(src, 0.0) + CARRY >= other + CARRY_IN:
                        best, bp, delay = self.arr.get(src, 0.0), src, CARRY
            self.arr[x] = best + delay
            self.prev[x] = bp
        return self.arr[cn]

    def endpoints(self):
        """(estimate, register cell, the cell before it) for every sequential input"""
        ends = []
        for cn, c in self.cells.items():
            if c["type"] in START:
                best, bp = self._latest(c)
                ends.append((best + SETUP, cn, bp))
        ends.sort(key=lambda e: (-e[0], e[1]))
        return ends

    def path(self, cn, bp):
        out = [cn]
        while bp is not None:
            out.append(bp)
            if self.cells[bp]["type"] in START:
                break
            bp = self.prev.get(bp)
        return out[::-1]


def signal(label):
    """the register a flip-flop is a bit of: its net without the bit index"""
    return re.sub(r"\[\d+\]$", "", re.sub(r"_(TRELLIS_FF|DP16KD|TRELLIS_DPR16X4)(_|$).*", "", label))


def report(path, limit=20.0, top=40, paths=(), out=sys.stdout, fanout_ns=0.0):
    n = Netlist(path, fanout_ns)
    ends = n.endpoints()
    if not ends:
        print("logic depth: no registers in the netlist", file=out)
        return 1
    worst = ends[0][0]
    late = [e for e in ends if e[0] > limit]
    print(f"logic depth: {len(n.cells)} cells, {len(ends)} register inputs; worst estimate {worst:.1f} ns "
          f"({1000 / worst:.1f} MHz); {len(late)} inputs later than {limit:g} ns", file=out)
    groups = collections.OrderedDict()
    for t, cn, _ in ends:
        g = groups.setdefault(signal(n.label[cn]), [t, 0])
        g[1] += t > limit
    shown = [(g, v) for g, v in groups.items() if v[0] > limit][:top]
    for g, (t, k) in shown:
        print(f"  {t:6.1f} ns  {k:5d} bits  {g}", file=out)

    def show(title, t, cn, bp):
        print(f"{title} ({t:.1f} ns):", file=out)
        # consecutive cells of one signal's logic on one line: the last, and how many
        runs = []
        for c in n.path(cn, bp):
            name = re.sub(r"(\[\d+\]|\.slice\[\d+\]\.ccu2c_i)$", "",
                          re.sub(r"_(LUT4|CCU2C|TRELLIS_FF|DP16KD|MULT18X18D)(_|$).*", "", n.label[c]))
            if name.startswith("$"):
                name = "(unnamed)"
            if runs and runs[-1][0] == name and n.cells[runs[-1][1]]["type"] == n.cells[c]["type"] and c != cn:
                runs[-1][1], runs[-1][2] = c, runs[-1][2] + 1
            else:
                runs.append([name, c, 1])
        for name, c, k in runs:
            cells = f" ({k} {n.cells[c]['type']})" if k > 1 else ""
            arr = n.arr.get(c, 0.0) if c != cn else t
            print(f"  {n.cells[c]['type']:10s} {arr:6.1f}  {name[:100]}{cells}", file=out)

    show("the worst path", *ends[0])
    for text in paths:
        e = next((e for e in ends if text in n.label[e[1]]), None)
        if e:
            show(f"the worst path into {text}", *e)
        else:
            print(f"no register named like {text}", file=out)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("--limit", type=float, default=20.0, help="ns (default 20: 50 MHz)")
    ap.add_argument("--top", type=int, default=40, help="registers listed (default 40)")
    ap.add_argument("--path", action="append", default=[], help="also the worst path into a register like TEXT")
    ap.add_argument("--fanout-ns", type=float, default=0.0,
                    help="ns more per connection for each doubling of its net's loads (default 0)")
    a = ap.parse_args()
    if not (0.0 <= a.fanout_ns <= 10.0):
        print(f"logic_depth: --fanout-ns {a.fanout_ns:g}: not in [0, 10]", file=sys.stderr)
        return 2
    try:
        return report(a.netlist, a.limit, a.top, a.path, fanout_ns=a.fanout_ns)
    except (OSError, ValueError, KeyError) as e:
        print(f"logic_depth: {a.netlist}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
