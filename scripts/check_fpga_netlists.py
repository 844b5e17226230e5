#!/usr/bin/env python3
"""make fpga-netlists (make test): are docs/FPGA_TIMING.md's block figures
still those of the RTL?  Each block of make fpga-blocks is synthesized with
the same wrapper and recipe (scripts/fpga_ooc.py, no place and route) and its
netlist fingerprint compared with the one in fpga/blocks_timing.json, which
make fpga-blocks writes with the figures it measured.  A change of comments or
assertions keeps the fingerprint; a change of the logic makes the block's
figures stale: this check fails, naming the block and the commit its figures
were measured at, until make fpga-blocks measures it again.  A block whose
synthesis inputs are byte for byte those its figures were measured on (the
record's inputs_sha, fpga_ooc.inputs_sha: its sources and includes, the
recipe, parameters, flags and Yosys build) has that netlist without being
synthesized again.

Usage: check_fpga_netlists.py [--record-inputs] "name|top|K=V ...|src.sv ...[|synth options]" ...
  --record-inputs  synthesize every block and, where its netlist is the one
                   recorded, record its inputs' fingerprint beside it
Environment: FPGA_RECORD (default fpga/blocks_timing.json), BUILD, YOSYS, NICE;
FPGA_NETLISTS_SYNTH=1 synthesizes every block, whatever its inputs."""
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
    write = bool(specs) and specs[0] == "--record-inputs"
    specs = specs[1:] if write else specs
    if not specs:
        sys.exit("fpga-netlists: no block given (make fpga-netlists passes make fpga-blocks' list)")
    synth_all = write or env.get("FPGA_NETLISTS_SYNTH") == "1"

    def one(spec):
        name, top, params, srcs, _, benv = f.synth_spec(spec, env)
        ish = f.inputs_sha(top, params, srcs, benv)
        r = rec.get(name)
        if not synth_all and r and ish and r.get("inputs_sha") == ish:
            return name, r["netlist_sha"], ish, True
        _, _, canon = f.synthesize(name, top, params, srcs, benv, os.path.join(env["BUILD"], "fpga-netlists", name))
        return name, netlist_sha(canon), ish, False

    bad = 0
    jobs = max(1, min(int(env.get("JOBS", "2") or 2), 2))
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, sha, ish, same in ex.map(one, specs):
            r = rec.get(name)
            if same:
                print(f"  ok    {name}: the inputs measured at {r['commit']} ({ish}), so its netlist "
                      f"({sha}), {r['fmax_mhz']} MHz at the worst of seeds {','.join(r['seeds'])}")
            elif not r:
                print(f"  STALE {name}: no figures in {path} (make fpga-blocks FPGA_ONLY={name})")
                bad += 1
            elif r["netlist_sha"] != sha:
                print(f"  STALE {name}: its netlist ({sha}) is not the one measured at {r['commit']} "
                      f"({r['netlist_sha']}): the logic changed; make fpga-blocks FPGA_ONLY={name} "
                      f"FPGA_SEEDS=\"1 2 3 4 5\" measures it again")
                bad += 1
            else:
                print(f"  ok    {name}: the netlist measured at {r['commit']} ({sha}), "
                      f"{r['fmax_mhz']} MHz at the worst of seeds {','.join(r['seeds'])}"
                      + ("" if synth_all else "; synthesized since its inputs are not the recorded ones "
                         "(make fpga-netlists-record records them)"))
                if write and ish:
                    r["inputs_sha"] = ish
    print(f"fpga-netlists: {len(specs) - bad} of {len(specs)} blocks' figures describe the RTL ({path})")
    if write:
        with open(path + ".tmp", "w") as fh:
            json.dump(rec, fh, indent=2)
            fh.write("\n")
        os.replace(path + ".tmp", path)
        print(f"fpga-netlists: inputs recorded in {path} for the blocks whose netlist is the one measured")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
