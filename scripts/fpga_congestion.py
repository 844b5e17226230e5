#!/usr/bin/env python3
"""Which part of the design a congested route belongs to.

nextpnr's router2 writes, with `--router2-heatmap PREFIX`, one
`PREFIX_congestion_by_net_<iter>.csv` per iteration: a net name and how many
of its wires are overused.  Most nets after ABC are unnamed (`$abc$...`,
`$techmap...`), so this script reads the Yosys netlist nextpnr placed and
gives each net an owner: its own hierarchical name, or else the name of the
nearest named net through the cells that drive and read it (breadth-first,
at most DEPTH cells away).  The owner is the name's first LEVELS hierarchy
levels (the last may be the net's own name) after the top's instance
(--strip, default u_top.); --merge folds array indices (g_core[2] ->
g_core[*]) so that the copies of a block add up.

  scripts/fpga_congestion.py NETLIST.json HEATMAP.csv [--levels N]
      [--merge] [--top K] [--json OUT]

Prints the total of overused wire uses, then one line per owner (largest
first): uses, percent, nets.  Exit 2 on an unreadable or malformed input.
docs/FPGA_TIMING.md ("Where the four-core top is congested") has a run."""
import argparse
import collections
import csv
import json
import re
import sys


def die(msg):
    print(f"fpga_congestion: {msg}", file=sys.stderr)
    sys.exit(2)


def load_netlist(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: {e}")
    mods = d.get("modules") if isinstance(d, dict) else None
    if not mods:
        die(f"{path}: no modules (not a Yosys JSON netlist)")
    # the top: the module no other module instantiates (a flattened netlist has one)
    used = {c["type"] for m in mods.values() for c in m.get("cells", {}).values()}
    tops = [n for n, m in mods.items() if m.get("attributes", {}).get("top")] or \
           [n for n in mods if n not in used]
    if len(tops) != 1:
        die(f"{path}: {len(tops)} top modules ({', '.join(tops[:4])}); flatten first")
    return mods[tops[0]]


class Owners:
    def __init__(self, mod, levels, merge, depth, strip):
        self.levels, self.merge, self.depth, self.strip = levels, merge, depth, strip
        self.bits, self.named = {}, {}
        for name, n in mod.get("netnames", {}).items():
            bits = [b for b in n.get("bits", []) if isinstance(b, int)]
            self.bits[name] = n.get("bits", [])
            if n.get("hide_name"):
                continue
            for b in bits:  # a bit with several names: the shortest
                if b not in self.named or len(name) < len(self.named[b]):
                    self.named[b] = name
        self.drv, self.sinks = {}, collections.defaultdict(list)
        self.outs, self.ins = {}, {}
        for cname, c in mod.get("cells", {}).items():
            dirs, conns = c.get("port_directions", {}), c.get("connections", {})
            o = [b for p, dn in dirs.items() if dn == "output" for b in conns.get(p, []) if isinstance(b, int)]
            i = [b for p, dn in dirs.items() if dn != "output" for b in conns.get(p, []) if isinstance(b, int)]
            self.outs[cname], self.ins[cname] = o, i
            for b in o:
                self.drv[b] = cname
            for b in i:
                self.sinks[b].append(cname)

    def owner_of_name(self, name):
        name = name.lstrip("\\")
        if self.strip and name.startswith(self.strip):
            name = name[len(self.strip):]
        parts = name.split(".")
        keep = parts[:self.levels]
        if len(keep) == len(parts):  # down to the net: its name without the bit
            keep[-1] = re.sub(r"\[\d+\]$", "", keep[-1])
        if self.merge:
            keep = [re.sub(r"\[\d+\]", "[*]", p) for p in keep]
        return ".".join(keep)

    def bit_of(self, net):
        """nextpnr names a net by its Yosys name, with [i] for bit i of a vector."""
        if net in self.bits and len(self.bits[net]) == 1:
            return self.bits[net][0]
        m = re.match(r"^(.*)\[(\d+)\]$", net)
        if m and m.group(1) in self.bits and int(m.group(2)) < len(self.bits[m.group(1)]):
            return self.bits[m.group(1)][int(m.group(2))]
        if net in self.bits and self.bits[net]:
            return self.bits[net][0]
        return None

    def owner(self, net):
        if net.startswith("$PACKER_"):  # nextpnr's constant nets (GND, VCC)
            return "(constants)"
        net = re.sub(r"\$TRELLIS_IO_(IN|OUT|BIDIR)$", "", net)  # a pin's net: the port's
        b = self.bit_of(net)
        if not isinstance(b, int):
            return "(not in the netlist)"
        seen, frontier = {b}, [b]
        for _ in range(self.depth + 1):
            for x in frontier:
                if x in self.named:
                    return self.owner_of_name(self.named[x])
            nxt = []
            for x in frontier:
                cells = ([self.drv[x]] if x in self.drv else []) + self.sinks.get(x, [])
                for c in cells:
                    for y in self.ins[c] + self.outs[c]:
                        if y not in seen:
                            seen.add(y)
                            nxt.append(y)
            frontier = nxt
        return "(unnamed)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("netlist")
    ap.add_argument("heatmap")
    ap.add_argument("--levels", type=int, default=2, help="hierarchy levels of an owner (default 2)")
    ap.add_argument("--merge", action="store_true", help="fold array indices: the copies of a block add up")
    ap.add_argument("--depth", type=int, default=6, help="cells to search for a named net (default 6)")
    ap.add_argument("--top", type=int, default=25, help="owners printed (default 25)")
    ap.add_argument("--strip", default="u_top.",
                    help="prefix removed from every name (default u_top., the top's instance in its wrapper)")
    ap.add_argument("--json", help="also write {owner: {uses, nets}} here")
    a = ap.parse_args()
    if a.levels < 1 or a.depth < 0 or a.top < 1:
        die("--levels and --top must be >= 1, --depth >= 0")
    own = Owners(load_netlist(a.netlist), a.levels, a.merge, a.depth, a.strip)
    uses, nets = collections.Counter(), collections.Counter()
    try:
        with open(a.heatmap, newline="") as f:
            for ln, row in enumerate(csv.reader(f), 1):
                if not row:
                    continue
                # the name may hold commas (csv.reader splits it): the count is the last field
                name, n = ",".join(row[:-1]), row[-1].strip()
                if not name or not n.isdigit():
                    die(f"{a.heatmap}:{ln}: expected 'net,count', got {','.join(row)[:80]!r}")
                o = own.owner(name)
                uses[o] += int(n)
                nets[o] += 1
    except OSError as e:
        die(f"{a.heatmap}: {e}")
    total = sum(uses.values())
    print(f"overused wire uses: {total} on {sum(nets.values())} nets ({a.heatmap})")
    for o, n in uses.most_common(a.top):
        print(f"  {o:<48} {n:>8} {100.0 * n / max(1, total):5.1f} %  nets {nets[o]}")
    if len(uses) > a.top:
        rest = total - sum(n for _, n in uses.most_common(a.top))
        print(f"  {'(' + str(len(uses) - a.top) + ' more owners)':<48} {rest:>8} {100.0 * rest / max(1, total):5.1f} %")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"heatmap": a.heatmap, "total": total,
                       "owners": {o: {"uses": uses[o], "nets": nets[o]} for o in uses}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
