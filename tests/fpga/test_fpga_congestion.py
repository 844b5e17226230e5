#!/usr/bin/env python3
"""scripts/fpga_congestion.py on a small hand-made netlist and heatmap: a
named net counts for its hierarchy, an unnamed one for the named net beside
its driver, copies of a block add up with --merge, nextpnr's own nets are
labelled, and bad input is refused with exit 2.  TAP output."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "sweep"))
import tap  # noqa: E402

TOOL = os.path.join(ROOT, "scripts", "fpga_congestion.py")

# bits: 2,3 core 0's age; 4 an ABC net driven from bit 2; 5 the bus offset;
# 6 an ABC net two cells from core 1's age (bit 7); 8 an ABC net with no
# named net within reach
NETLIST = {"modules": {"top": {"attributes": {"top": "1"}, "cells": {
    "c1": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
           "connections": {"A": [2], "Z": [4]}},
    "c2": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
           "connections": {"A": [7], "Z": [9]}},
    "c3": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
           "connections": {"A": [9], "Z": [6]}},
    "c4": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
           "connections": {"A": ["0"], "Z": [8]}}},
    "netnames": {
        "u_top.g_core[0].u_pre.age": {"bits": [2, 3]},
        "u_top.g_core[1].u_pre.age": {"bits": [7]},
        "$abc$1": {"hide_name": 1, "bits": [4]},
        "$abc$2": {"hide_name": 1, "bits": [6]},
        "$abc$3": {"hide_name": 1, "bits": [9]},
        "$abc$4": {"hide_name": 1, "bits": [8]},
        "u_top.s_off": {"bits": [5]}}}}}
HEATMAP = ("u_top.g_core[0].u_pre.age[1],5\n$abc$1,3\n$abc$2,7\nu_top.s_off,2\n$abc$4,1\n"
           "$PACKER_GND_NET,4\nled[0]$TRELLIS_IO_OUT,1\n")


class CongestionTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fg_cong_")
        self.net = self.write("n.json", json.dumps(NETLIST))
        self.hm = self.write("hm.csv", HEATMAP)

    def write(self, name, text):
        p = os.path.join(self.dir, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def run_tool(self, *args):
        return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True, timeout=60)

    def owners(self, *args):
        out = os.path.join(self.dir, "o.json")
        r = self.run_tool(self.net, self.hm, "--json", out, *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return {o: v["uses"] for o, v in json.load(open(out))["owners"].items()}, r.stdout

    def test_owners_merged(self):
        o, text = self.owners("--levels", "2", "--merge")
        self.assertEqual(o, {"g_core[*].u_pre": 15, "s_off": 2, "(unnamed)": 1, "(constants)": 4,
                             "(not in the netlist)": 1})
        self.assertIn("overused wire uses: 23 on 7 nets", text)

    def test_copies_apart_and_net_level(self):
        o, _ = self.owners("--levels", "3")
        self.assertEqual(o["g_core[0].u_pre.age"], 8)
        self.assertEqual(o["g_core[1].u_pre.age"], 7)

    def test_depth_limits_search(self):
        o, _ = self.owners("--levels", "1", "--merge", "--depth", "1")
        self.assertEqual(o["g_core[*]"], 8)  # $abc$2 is two cells from a named net
        self.assertEqual(o["(unnamed)"], 8)

    def test_bad_inputs(self):
        bad = self.write("bad.csv", "u_top.s_off,2\nno count here\n")
        r = self.run_tool(self.net, bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.csv:2: expected 'net,count'", r.stderr)
        r = self.run_tool(self.write("x.json", "{not json"), self.hm)
        self.assertEqual(r.returncode, 2)
        two = dict(NETLIST)
        two["modules"] = dict(NETLIST["modules"], other={"cells": {}, "netnames": {}})
        del two["modules"]["top"]["attributes"]
        r = self.run_tool(self.write("two.json", json.dumps(two)), self.hm)
        self.assertEqual(r.returncode, 2)
        self.assertIn("2 top modules", r.stderr)
        r = self.run_tool(self.net, os.path.join(self.dir, "missing.csv"))
        self.assertEqual(r.returncode, 2)
        r = self.run_tool(self.net, self.hm, "--levels", "0")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    tap.main(sys.modules[__name__])
