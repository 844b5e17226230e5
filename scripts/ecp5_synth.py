"""The Yosys recipe for the ECP5, one for both FPGA flows: the blocks out of
context (scripts/fpga_ooc.py) and the ULX3S top (scripts/fpga_top.py).

synth_ecp5 (Yosys 0.23) in three parts, with two changes between them:

- Control sets.  Yosys makes every flip-flop whose D has a constant arm a
  sync-reset (LSR) or enable (CE) flip-flop.  An ECP5 slice's two flip-flops
  share one LSR and one CE, so a reset or enable with only a few users costs
  slices and makes placement hard; below FPGA_MINSRST / FPGA_MINCE users
  (default 8 / 4) it goes into the LUTs instead (dfflegalize -minsrst /
  -mince, as synth_xilinx does).
- One reset inverter.  The active-low resets reach the LSR (active high)
  through a $_NOT_ per flip-flop, which ABC maps to a LUT4 each: the FPGA
  top had 8,697 LUT4s and as many distinct LSR nets that all inverted the
  same reset, and neither of nextpnr's placers could legalise it at 57 % of
  the LUT4s.  opt_merge before the LUT mapping makes them one.

FPGA_SYNTH_FLAGS (environment, or the env dict given): more synth_ecp5
options, e.g. -nowidelut (LUT4s only, no PFU multiplexers: ABC otherwise
maps some wide functions onto LUT7s made of mostly constant LUT4s; see
docs/FPGA_TIMING.md for the blocks that use it).

`autoname` (cosmetic names; Yosys 0.23 spends tens of minutes on it for the
top) is left out: the flow runs up to synth_ecp5's `check` label and its own
checks after it.
"""
import hashlib
import json
import os

import fg_num

FFS = ("-cell $_DFF_?_ 01 -cell $_DFF_?P?_ r -cell $_SDFF_?P?_ r -cell $_DFFE_??_ 01 "
       "-cell $_DFFE_?P??_ r -cell $_SDFFE_?P??_ r -cell $_DLATCH_?_ x")


def synth_cmds(top, stat, net, env=os.environ):
    """Yosys commands from the read design to the mapped netlist `net`
    (JSON), with Yosys `stat` in the file `stat`."""
    mince = fg_num.or_exit("fpga", fg_num.whole, "FPGA_MINCE", env.get("FPGA_MINCE", "4"), 0, 10**6)
    minsrst = fg_num.or_exit("fpga", fg_num.whole, "FPGA_MINSRST", env.get("FPGA_MINSRST", "8"), 0, 10**6)
    fl = env.get("FPGA_SYNTH_FLAGS", "")
    s5 = f"synth_ecp5 {fl} -top {top}" if fl else f"synth_ecp5 -top {top}"
    return (f"{s5} -run begin:map_ffs; "
            f"dfflegalize -mince {mince} -minsrst {minsrst} {FFS}; "
            f"{s5} -run map_ffs:map_luts; opt_merge; "
            f"{s5} -run map_luts:check; hierarchy -check; "
            f"tee -q -o {stat} stat; check -noinit; blackbox =A:whitebox; write_json {net}")


# The netlist's canonical form: the mapped netlist with its generated names
# numbered in order and no source locations, so that a change of comments or
# assertions (read with -noassert, FORMAL code not read) or of line numbers
# leaves it as it was and any change of the logic does not (the blocks'
# records, scripts/fpga_ooc.py; the top's equivalent sources,
# scripts/fpga_top.py --prove-equivalent).
CANON_CMDS = "opt_clean -purge; rename -enumerate; setattr -unset src; setattr -mod -unset src; write_json"


def netlist_sha(path):
    """A fingerprint of a Yosys JSON netlist: its cells and nets, not their
    attributes (source lines, creator), so the same logic from the same
    recipe gives the same value (both flows' records carry it)."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("attributes", "creator")}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return o
    return hashlib.sha256(json.dumps(strip(json.load(open(path))), sort_keys=True).encode()).hexdigest()[:16]


def logic_sha(path):
    """A fingerprint of a canonical netlist's logic alone: every module's
    ports and cells (types, parameters, connections by net number), not its
    net names. rename -enumerate numbers the generated names in the order of
    the names they replace, which carry source lines, so moving code within a
    file renumbers them although no cell or connection changes (the FPGA
    top's equivalent sources, scripts/fpga_top.py --prove-equivalent)."""
    mods = json.load(open(path))["modules"]
    keep = {m: {"ports": {p: {"direction": v["direction"], "bits": v["bits"]} for p, v in b.get("ports", {}).items()},
                "cells": {c: {k: v[k] for k in ("type", "parameters", "connections") if k in v}
                          for c, v in b.get("cells", {}).items()}}
            for m, b in mods.items()}
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]
