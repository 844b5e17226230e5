#!/usr/bin/env python3
"""make fpga-netlists (make test): are docs/FPGA_TIMING.md's block figures
still those of the RTL?  Each block of make fpga-blocks is synthesized with
the same wrapper and recipe (scripts/fpga_ooc.py, no place and route) and its
netlist fingerprint compared with the one in fpga/blocks_timing.json, which
make fpga-blocks writes with the figures it measured.  A change of comments or
assertions keeps the fingerprint; a change of the logic makes the block's
figures stale: this check fails, naming the block and the commit its figures
were measured at, until make fpga-blocks measures it again.

Usage: check_fpga_netlists.py "name|top|K=V ...|src.sv ...[|synth options]" ...
Environment: FPGA_RECORD (default fpga/blocks_timing.json), BUILD, YOSYS, NICE."""
import concurrent.futures as cf
import json
import os
import sys

import fpga_ooc as f
from ecp5_synth import netlist_sha


def main():
    env = dict(os.environ)
    for k, v in (("BUILD", "build"), ("YOSYS", "yosys"), ("NICE", "nice -n 5")):
        env.setdefault(k, v)
    path = env.get("FPGA_RECORD", "fpga/blocks_timing.json")
    try:
        rec = json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit(f"fpga-netlists: cannot read {path}: {e}")
    specs = sys.argv[1:]
    if not specs:
        sys.exit("fpga-netlists: no block given (make fpga-netlists passes make fpga-blocks' list)")

    def one(spec):
        name, top, params, srcs, _, benv = f.synth_spec(spec, env)
        _, _, canon = f.synthesize(name, top, params, srcs, benv, os.path.join(env["BUILD"], "fpga-netlists", name))
        return name, netlist_sha(canon)

    bad = 0
    jobs = max(1, min(int(env.get("JOBS", "2") or 2), 2))
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, sha in ex.map(one, specs):
            r = rec.get(name)
            if not r:
                print(f"  STALE {name}: no figures in {path} (make fpga-blocks FPGA_ONLY={name})")
                bad += 1
            elif r["netlist_sha"] != sha:
                print(f"  STALE {name}: its netlist ({sha}) is not the one measured at {r['commit']} "
                      f"({r['netlist_sha']}): the logic changed; make fpga-blocks FPGA_ONLY={name} "
                      f"FPGA_SEEDS=\"1 2 3 4 5\" measures it again")
                bad += 1
            else:
                print(f"  ok    {name}: the netlist measured at {r['commit']} ({sha}), "
                      f"{r['fmax_mhz']} MHz at the worst of seeds {','.join(r['seeds'])}")
    print(f"fpga-netlists: {len(specs) - bad} of {len(specs)} blocks' figures describe the RTL ({path})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
