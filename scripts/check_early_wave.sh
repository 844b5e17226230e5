#!/usr/bin/env bash
# Test: the NIC system's early doorbell into the synchronized receive ring
# (docs/WAVES.md walkthrough 4, docs/LAUNCH_PATH.md): launch_latency with
# [nic] ring = sync, doorbell = early over a 1 GB/s link (at 6.8 GB/s the
# packets have landed before the kernel's first load), traced around the
# second ring, once with the blocks as verilated RTL and once as C twins.
# Each FST must show, in this order: the doorbell write at the decoder, its
# ring, the EKT's event warp, the DMA's first fill write at the F/E queues,
# a core's PEWT push and that core's START, then a GPU load of a ring line
# entering the F/E queues before that line's fill, the GPU queue's head
# blocked, the fill leaving, and only then the load; no load of a filled
# line leaves before its fill.  The same cycles in both, the walkthrough's
# cycles those of the trace, and GTKWave must show every signal of the save
# file (scripts/gtkw.py --check).
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/wave_pair.sh
wave_pair out w "early doorbell" "$BUILD"/bin/launch_latency --point --out "$tmp/ll.json" --events 3 --no-e2e \
    --set nic.ring=sync --set nic.doorbell=early --set pcie.bandwidth_gbps=1 --wave-at ring:2 --wave-span 4000
python3 - "$tmp" <<'PY' || exit 1
import os, re, sys
sys.path.insert(0, "scripts")
import gtkw

tmp = sys.argv[1]
SRC_CPU, SRC_GPU, ACT_FILL, PRE_CMD_START = 0, 1, 1, 4
seen = {}
for impl in ("rtl", "c"):
    out = open(os.path.join(tmp, f"out_{impl}.txt")).read()
    said = re.search(r"doorbell ring #2 at cycle (\d+).*START at cycle (\d+) \(gpu\.core(\d+)\)", out)
    if not said:
        sys.exit(f"FAIL {impl}: fg_wave did not report ring #2 and its START")
    ring, start, k = map(int, said.groups())
    sigs, ids, body = gtkw.fst_header(os.path.join(tmp, f"w_{impl}.fst"))
    v = gtkw.sampler(ids, body)
    lo, hi = ring - 2000, ring + 2000
    span = range(lo, hi + 1)

    def first(cond, a=lo, b=hi + 1):
        return next((c for c in range(a, b) if cond(c)), None)
    D, E = "frontend.edge_doorbell.", "frontend.edge_ekt."
    chain = {"write": first(lambda c: v(D + "wr_valid_i", c) and v(D + "wr_ready_o", c), ring - 10, ring + 1),
             "ring": ring if v(D + "ring_valid_o", ring) and v(D + "ring_ready_i", ring) else None}
    chain["evw"] = first(lambda c: v(E + "evw_valid_o", c), ring)
    P = f"gpu.core{k}.edge_pewt."
    chain["pewt"] = first(lambda c: v(P + "ev_valid_i", c) and v(P + "ev_ready_o", c), chain["evw"] or hi)
    chain["start"] = first(lambda c: v(f"gpu.core{k}.edge_preempt.cmd_o", c) == PRE_CMD_START, chain["pewt"] or hi)
    missing = [n for n, c in chain.items() if c is None]
    if missing or chain["start"] != start:
        sys.exit(f"FAIL {impl}: the launch chain is incomplete ({missing}) or START is not at {start}: {chain}")
    parts = sorted({n.split(".")[1] for n in sigs if re.match(r"mem\.part\d+\.fe_sched_queues\.req_valid_i$", n)})
    dma0, held = None, []
    for p in parts:
        q = lambda n, c, p=p: v(f"mem.{p}.fe_sched_queues.{n}", c)
        fill, load_in, served, blocked = {}, {}, {}, []
        for c in span:
            if q("req_valid_i", c) and q("req_src_i", c) == SRC_CPU and q("req_we_i", c) and q("req_act_i", c) == ACT_FILL:
                if dma0 is None or c < dma0[0]:
                    dma0 = (c, p)
            if c > start and q("req_valid_i", c) and q("req_src_i", c) == SRC_GPU and q("req_dflt_i", c):
                load_in.setdefault(q("req_addr_i", c), c)
            if q("out_valid_o", c):
                a = q("out_addr_o", c)
                if q("out_src_o", c) == SRC_CPU and q("out_act_o", c) == ACT_FILL:
                    fill.setdefault(a, c)
                elif q("out_src_o", c) == SRC_GPU and a in load_in:
                    served.setdefault(a, c)
            if q("head_blocked_o", c) & 4:
                blocked.append(c)
        for a, c in load_in.items():
            if a in fill and a in served and served[a] < fill[a] and c < fill[a]:
                sys.exit(f"FAIL {impl}: {p} line 0x{a:x}: GPU load served at {served[a]} before its fill at {fill[a]}")
            if a in fill and c < fill[a]:
                b = next((x for x in blocked if c <= x < fill[a]), None)
                if a not in served or b is None:
                    sys.exit(f"FAIL {impl}: {p} line 0x{a:x}: load in at {c} before its fill at {fill[a]} but "
                             f"{'never served' if a not in served else 'the GPU queue head never blocked'}")
                held.append((c, p, a, b, fill[a], served[a]))
    if dma0 is None or not held:
        sys.exit(f"FAIL {impl}: {'no DMA fill write' if dma0 is None else 'no GPU load held for its fill'} in the window")
    if not chain["write"] <= chain["ring"] < chain["evw"] < dma0[0] < chain["pewt"] < chain["start"] < min(held)[0]:
        sys.exit(f"FAIL {impl}: out of order: {chain}, the DMA's first fill at {dma0}, first held load {min(held)}")
    h = min(held)
    seen[impl] = (chain, dma0, h, len(held))
    print(f"ok   {impl}: doorbell write {chain['write']} -> ring {ring} -> EKT event warp {chain['evw']} -> DMA's "
          f"first fill in at {dma0[0]} ({dma0[1]}) -> core {k} PEWT push {chain['pewt']} -> START {start} -> load of "
          f"{h[1]} line 0x{h[2]:x} in at {h[0]}, head blocked {h[3]}, fill out {h[4]}, load out {h[5]} "
          f"({len(held)} loads held)")
if seen["rtl"] != seen["c"]:
    sys.exit(f"FAIL the RTL and the C twins' traces differ: {seen['rtl']} against {seen['c']}")
doc = open("docs/WAVES.md").read()
ch, d, h, n = seen["rtl"]
want = [f"**{ch['write']}** `frontend.edge_doorbell.wr_valid_i`", f"**{ch['ring']}** `ring_valid_o`",
        f"**{ch['evw']}** `frontend.edge_ekt.evw_valid_o`", f"**{d[0]}** `mem.{d[1]}.fe_sched_queues.req_valid_i`",
        f"**{ch['pewt']}** `gpu.core", f"**{ch['start']}** `gpu.core", f"**{h[0]}** `mem.{h[1]}.fe_sched_queues",
        f"**{h[3]}** `head_blocked_o`", f"**{h[4]}** the fill", f"**{h[5]}** the held load"]
for w in want:
    if w not in doc:
        sys.exit(f"FAIL docs/WAVES.md walkthrough 4 does not say {w!r}: the trace changed; update it")
print("ok   the same cycles with the RTL and with the C twins; docs/WAVES.md walkthrough 4 matches")
PY
