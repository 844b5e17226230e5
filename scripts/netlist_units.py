#!/usr/bin/env python3
"""Resources per unit of a hierarchical Yosys netlist: each instance's ECP5
cells (LUT4, flip-flops, DP16KD, MULT18X18D, carry cells, distributed RAM)
with everything below it, down to a depth.

    scripts/netlist_units.py NETLIST.json [--top MODULE] [--depth 3]

The netlist is one synth_ecp5 wrote with -noflatten (scripts/fpga_top.py
--units): a flattened netlist has no units left.  Prints one line per
instance, indented by depth; units() returns the same as a tree for JSON.
"""
import argparse
import json
import sys

# the cells counted, and their names in the tree
CELLS = {"LUT4": "lut4", "TRELLIS_FF": "ff", "DP16KD": "dp16kd", "MULT18X18D": "mult18",
         "CCU2C": "ccu2c", "TRELLIS_DPR16X4": "dpram16x4"}


def base_name(module):
    r"""simt_core for Yosys's derived names: $paramod$8d1f...\simt_core and
    $paramod\edge_preempt_age\NW=s32'...; a plain name as it is."""
    parts = module.split("\\")
    return parts[1] if parts[0].startswith("$paramod") and len(parts) > 1 else module.lstrip("\\")


def units(netlist, top=None, depth=3):
    """{"module", the counts, "units": {instance: ...}} of the top module (the
    one no other instantiates, unless named), units down to depth levels."""
    mods = {name: m for name, m in netlist["modules"].items()
            if not m.get("attributes", {}).get("blackbox") and not m.get("attributes", {}).get("whitebox")}
    if top is None:
        used = {c["type"] for m in mods.values() for c in m.get("cells", {}).values()}
        tops = [n for n in mods if n not in used]
        if len(tops) != 1:
            raise ValueError(f"not one top module: {sorted(tops)}")
        top = tops[0]
    elif top not in mods:
        raise ValueError(f"no module {top}")
    memo = {}

    def total(name):
        if name not in memo:
            t = dict.fromkeys(CELLS.values(), 0)
            for c in mods[name].get("cells", {}).values():
                if c["type"] in CELLS:
                    t[CELLS[c["type"]]] += 1
                elif c["type"] in mods:
                    for k, v in total(c["type"]).items():
                        t[k] += v
            memo[name] = t
        return memo[name]

    def tree(name, d):
        node = {"module": base_name(name), **total(name)}
        if d > 0:
            subs = {inst.lstrip("\\"): tree(c["type"], d - 1)
                    for inst, c in sorted(mods[name].get("cells", {}).items()) if c["type"] in mods}
            if subs:
                node["units"] = subs
        return node

    return tree(top, depth)


def lines(node, name="(top)", indent=0):
    """The tree as text lines: instance (module), LUT4, FF, DP16KD, MULT18X18D."""
    out = [f"{'  ' * indent + name + ' (' + node['module'] + ')':<56} {node['lut4']:>7} {node['ff']:>7} "
           f"{node['dp16kd']:>6} {node['mult18']:>6}"]
    for inst, sub in node.get("units", {}).items():
        out += lines(sub, inst, indent + 1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("--top")
    ap.add_argument("--depth", type=int, default=3)
    a = ap.parse_args()
    try:
        t = units(json.load(open(a.netlist)), a.top, a.depth)
    except (OSError, ValueError, KeyError) as e:
        print(f"netlist_units: {a.netlist}: {e}", file=sys.stderr)
        return 2
    print(f"{'instance (module)':<56} {'LUT4':>7} {'FF':>7} {'DP16KD':>6} {'MULT18':>6}")
    print("\n".join(lines(t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
