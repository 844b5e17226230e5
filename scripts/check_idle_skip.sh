#!/usr/bin/env bash
# Test: fg_block's idle skip (fg_block_idle_skip: an edge with the same inputs
# as a previous one that left the verilated model's state byte for byte as it
# was is not given again) changes no result: launch_latency (the EDGE front
# end idle most cycles) and a preemption_latency point, blocks as RTL, with
# the skip and without ($FG_IDLE_SKIP=0), write the same JSON but for their
# run times.
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # name skip cmd...
    local n=$1 s=$2; shift 2
    FG_IDLE_SKIP=$s "$@" --out "$tmp/$n.$s.json" >"$tmp/$n.$s.log" 2>&1 ||
        { echo "FAIL $n (FG_IDLE_SKIP=$s): exit $?"; tail -3 "$tmp/$n.$s.log"; exit 1; }
}
for s in 1 0; do
    run launch "$s" "$BUILD"/bin/launch_latency --point --events 8 --impl rtl
    run preempt "$s" "$BUILD"/bin/preemption_latency --point --size test --kernels bp --impl rtl
done
python3 - "$tmp" <<'PY' || exit 1
import json, sys
def strip(d):  # run times differ, results may not
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in ("wall_seconds", "cpu_seconds", "wall")}
    if isinstance(d, list):
        return [strip(x) for x in d]
    return d
bad = 0
for n in ("launch", "preempt"):
    a, b = (strip(json.load(open(f"{sys.argv[1]}/{n}.{s}.json"))) for s in (1, 0))
    if a != b:
        bad = 1
        diff = [k for k in a if a.get(k) != b.get(k)]
        print(f"FAIL {n}: the idle skip changed the results ({', '.join(diff)})")
    else:
        print(f"ok   {n}: the same results with and without the idle skip")
sys.exit(bad)
PY
