#!/usr/bin/env bash
# Test: an event launched before its data waits at the F/E queues until the
# device's DMA fills its words (docs/WAVES.md walkthrough 3, docs/RESULTS.md
# "Launching before the data lands").  edge_fig13 runs IPv4 beside MM with
# the early doorbell and the synchronized receive ring, once with the blocks
# as verilated RTL and once as C twins, over the walkthrough's window; in
# partition 5's fe_sched_queues every GPU load of a ring line that was held
# (the GPU queue's head blocked) must leave only after a CPU-side write with
# the fill action to that line has left, the walkthrough's cycles must be
# the trace's, and both implementations must show the same cycles.  GTKWave
# must show every signal of the generated save file.
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/wave_pair.sh
wave_pair out w "early launch into the ring" "$BUILD"/bin/edge_fig13 --point --out "$tmp/p.json" \
    --set edge_fig13.size=test --set edge_fig13.event=ipv4 --set edge_fig13.background=mm --set edge_fig13.rate=low \
    --set edge_fig13.launch=early --set edge_fig13.ring=sync --set mem.fe_l2_cache=1 \
    --wave-start 80300 --wave-end 82000
python3 - "$tmp" <<'EOF' || exit 1
import os, sys
sys.path.insert(0, "scripts")
import gtkw

tmp = sys.argv[1]
Q = "mem.part5.fe_sched_queues."
SRC_CPU, SRC_GPU, ACT_FILL = 0, 1, 1
seen = {}
for impl in ("rtl", "c"):
    sigs, ids, body = gtkw.fst_header(os.path.join(tmp, f"w_{impl}.fst"))
    sample = gtkw.sampler(ids, body)

    def val(n, cyc):
        return sample(Q + n, cyc)
    cycles = range(80300, 82001)  # the window the runs above wrote
    held, fills, served = {}, {}, {}
    for c in cycles:
        if val("req_valid_i", c) and val("req_src_i", c) == SRC_GPU and val("req_dflt_i", c):
            held.setdefault(val("req_addr_i", c), c)
        if val("out_valid_o", c):
            a = val("out_addr_o", c)
            if val("out_src_o", c) == SRC_CPU and val("out_we_o", c) and val("out_act_o", c) == ACT_FILL:
                fills.setdefault(a, c)
            elif val("out_src_o", c) == SRC_GPU and a in held:
                served.setdefault(a, c)
    blocked = next((c for c in cycles if val("head_blocked_o", c) & 4), None)
    if not held or blocked is None:
        sys.exit(f"FAIL {impl}: no GPU load of the ring held at partition 5's F/E queues in the window")
    for a, c in sorted(held.items()):
        if a not in served:
            sys.exit(f"FAIL {impl}: the load of line 0x{a:x} (in at {c}) is not served in the window")
        if a not in fills or fills[a] >= served[a]:
            sys.exit(f"FAIL {impl}: the load of line 0x{a:x} served at {served[a]} before its fill "
                     f"({fills.get(a, 'none in the window')})")
    seen[impl] = (sorted(held.items()), blocked, sorted(fills.items()), sorted(served.items()))
    print(f"ok   {impl}: loads of lines {', '.join(f'0x{a:x}@{c}' for a, c in sorted(held.items()))} held from "
          f"{blocked}; filled / served " + ", ".join(f"0x{a:x} {fills[a]}/{served[a]}" for a in sorted(held)))
if seen["rtl"] != seen["c"]:
    sys.exit(f"FAIL the RTL and the C twins' traces differ: {seen['rtl']} against {seen['c']}")
doc = open("docs/WAVES.md").read()
h, b, f, s = seen["rtl"]
want = [f"**{h[0][1]}-{h[-1][1]}**", f"**{b}** `head_blocked_o`", f"**{f[0][1]}** it leaves",
        f"at **{s[0][1]}** the held GPU load",
        f"0x80 (fill {f[1][1]}, load {s[1][1]}), 0x100 ({f[2][1]}, {s[2][1]}) and 0x180 ({f[3][1]}, {s[3][1]})"]
for w in want:
    if w not in doc:
        sys.exit(f"FAIL docs/WAVES.md walkthrough 3 does not say {w!r}: the trace changed; update it")
print("ok   the same cycles with the RTL and with the C twins; docs/WAVES.md walkthrough 3 matches")
EOF
