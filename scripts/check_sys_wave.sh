#!/usr/bin/env bash
# Test: one system trace follows a doorbell ring to its event warp's start
# (sim/harness/fg_wave.c, docs/WAVES.md).  launch_latency runs with
# --wave-at ring:2, once with the blocks as verilated RTL and once as C twins;
# in each FST the ring (decoder), the EKT's event warp, one core's PEWT push
# and that core's preemption controller's START must follow one another, at
# the same cycles in both (the twins are cycle-exact), and GTKWave must show
# every signal of the generated save file (scripts/gtkw.py --check).  The RTL
# run takes --wave-at ring's own window, the twins' a 400-cycle span that ends
# before the START: both must run on to it.  Then preemption_latency's
# --wave-at preempt:3 (README, docs/WAVES.md), RTL and C twins: each save file
# must open at the preemption with the core it happened in first.  Each save
# file opens with the event's place (the ring's: the front end, then the core
# that STARTs its event warp) open and first, every other place closed.
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for impl in rtl c; do
    span=(); [ $impl = c ] && span=(--wave-span 400)
    # (not wave_pair: the twins' run takes its own span, and both runs report before the check stops)
    "$BUILD"/bin/launch_latency --point --out "$tmp/ll_$impl.json" --events 3 --impl "$impl" \
        --wave "$tmp/sys_$impl.fst" --wave-at ring:2 "${span[@]}" >"$tmp/out_$impl.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL launch_latency --impl $impl --wave: exit $rc"; cat "$tmp/out_$impl.txt"; fail=1; continue
    fi
    if ! scripts/gtkw.py --check "$tmp/sys_$impl.gtkw"; then fail=1; fi
done
[ $fail = 0 ] || exit 1
python3 - "$tmp" <<'EOF' || exit 1
import os, re, sys
sys.path.insert(0, "scripts")
import gtkw

tmp = sys.argv[1]
chains = {}
for impl in ("rtl", "c"):
    sigs, ids, body = gtkw.fst_header(os.path.join(tmp, f"sys_{impl}.fst"))
    said = re.search(r"doorbell ring #2 at cycle (\d+)", open(os.path.join(tmp, f"out_{impl}.txt")).read())
    if not said:
        sys.exit(f"FAIL {impl}: fg_wave did not report ring #2")
    val = gtkw.sampler(ids, body)

    def first(cond, lo, hi):
        return next((c for c in range(lo, hi) if cond(c)), None)

    m = int(said.group(1))
    lo, hi = m - 1500, m + 1500
    ring = first(lambda c: val("frontend.edge_doorbell.ring_valid_o", c) and
                 val("frontend.edge_doorbell.ring_ready_i", c), m, m + 1)
    if ring is None:
        sys.exit(f"FAIL {impl}: no ring handshake at cycle {m} in the FST")
    evw = first(lambda c: val("frontend.edge_ekt.evw_valid_o", c), ring, hi)
    if evw is None:
        sys.exit(f"FAIL {impl}: the EKT sends no event warp after the ring at {ring}")
    cores = sorted({int(n.split(".")[1][4:]) for n in sigs if re.match(r"gpu\.core\d+\.edge_pewt\.ev_valid_i$", n)})
    push = None
    for k in cores:
        p = first(lambda c: val(f"gpu.core{k}.edge_pewt.ev_valid_i", c) and
                  val(f"gpu.core{k}.edge_pewt.ev_ready_o", c), evw, hi)
        if p is not None and (push is None or p < push[1]):
            push = (k, p)
    if push is None:
        sys.exit(f"FAIL {impl}: no core's PEWT takes the event after cycle {evw}")
    k, p = push
    start = first(lambda c: val(f"gpu.core{k}.edge_preempt.cmd_o", c) == 4, p, hi)  # PRE_CMD_START
    if start is None:
        sys.exit(f"FAIL {impl}: core {k}'s preemption controller never STARTs the event after cycle {p}")
    chains[impl] = (ring, evw, k, p, start)
    print(f"ok   {impl}: ring at cycle {ring} -> EKT event warp at {evw} -> core {k} PEWT push at {p} "
          f"-> START at {start}")
    errs = gtkw.event_view_errors(open(os.path.join(tmp, f"sys_{impl}.gtkw")).read(), m, "frontend",
                                  "frontend.edge_doorbell" + (" (C twin)" if impl == "c" else ""),
                                  also_open=[f"gpu.core{k}"])
    if errs:
        sys.exit(f"FAIL ring {impl}: " + "; ".join(errs))
    print(f"ok   ring {impl}: opens at cycle {m}, frontend (its doorbell first) then gpu.core{k} open, the rest closed")
if chains["rtl"] != chains["c"]:
    sys.exit(f"FAIL the RTL and the C twins' traces differ: {chains['rtl']} against {chains['c']}")
print("ok   the same cycles with the RTL and with the C twins")
EOF
. scripts/wave_pair.sh
wave_pair pout pre "a preemption" "$BUILD"/bin/preemption_latency --point --out "$tmp/pl.json" --size test \
    --kernels mm --wave-at preempt:3 --wave-span 400
python3 - "$tmp" <<'EOF' || exit 1
import os, re, sys
sys.path.insert(0, "scripts")
import gtkw
tmp = sys.argv[1]
opened = {}
for impl in ("rtl", "c"):
    said = re.search(r"preemption start #3 at cycle (\d+)", open(os.path.join(tmp, f"pout_{impl}.txt")).read())
    if not said:
        sys.exit(f"FAIL preempt {impl}: fg_wave did not report preemption start #3")
    save = open(os.path.join(tmp, f"pre_{impl}.gtkw")).read()
    focus = re.search(r"^\[\*\] focus: (gpu\.core\d+)\.edge_preempt\.cmd_o$", save, re.M)
    if not focus:
        sys.exit(f"FAIL preempt {impl}: the save file names no preemption controller to focus on")
    at = int(said.group(1))
    errs = gtkw.event_view_errors(save, at, focus.group(1),
                                  focus.group(1) + ".edge_preempt" + (" (C twin)" if impl == "c" else ""))
    if errs:
        sys.exit(f"FAIL preempt {impl}: " + "; ".join(errs))
    opened[impl] = (focus.group(1), at)
    print(f"ok   preempt {impl}: opens at cycle {at} with {focus.group(1)} open and first (its edge_preempt "
          f"first), the rest closed")
if opened["rtl"] != opened["c"]:
    sys.exit(f"FAIL the RTL and the C twins' preemption traces open differently: {opened}")
EOF
