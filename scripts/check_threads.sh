#!/usr/bin/env bash
# Test: the GPU's threads (gpu.threads, docs/SIMT.md "Threads") change no
# result.  An EDGE preemption point and the launch workload (per-core blocks
# and the front end as RTL), an F/E benchmark (F/E queues as RTL in every
# memory partition), a CM machine run (CM-BAL monitor as RTL) and a point of
# make demo's EDGE Fig. 13 (also at 2 threads) each write the same JSON, but
# for their run times, and 16,384 threads taking tickets
# from one counter with atomics (sw/kernels/t_ticket.c, atomics at issue and
# at the L2) the same order, with the SIMT cores stepped on one
# thread and on $THREADS (default 3, more than this 2-core machine's
# processors: the split of the cores over the threads differs from any
# run's with fewer); and the runs that hold warps on several cores did step
# them on the threads ($FG_THREADS_STATS), so the comparison is not of one
# thread with itself.  FG_POOL_ADAPT=0 keeps every such cycle on the threads
# (a loaded machine would have the pool run most of them on one); the
# ticket run with atomics at the L2 keeps the adaptive choice, so that runs
# mixing the two ways are compared too.
set -u
BUILD=${BUILD:-build}
THREADS=${THREADS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # name threads cmd...
    local n=$1 t=$2; shift 2
    FG_POOL_ADAPT=0 FG_THREADS_STATS=1 "$@" --set gpu.threads="$t" --out "$tmp/$n.$t.json" >"$tmp/$n.$t.log" 2>&1 ||
        { echo "FAIL $n (gpu.threads=$t): exit $?"; tail -3 "$tmp/$n.$t.log"; exit 1; }
}
# one point of make demo's EDGE Fig. 13 (experiments/edge_fig13_demo.ini), also at
# 2 threads: its JSON is a table's input (docs/RESULTS.md "Provenance")
# (name fig13_drain: the same with [gpu] kernel_end_drain = 1, whose drain state each core keeps in its cycle)
fig13() { # threads [name --set ...]
    local t=$1 n=${2:-fig13}
    shift $(($# < 2 ? $# : 2))
    run "$n" "$t" "$BUILD"/bin/edge_fig13 --config configs/edge.ini --exp configs/edge_fig13.ini \
        --set edge_fig13.size=test --set edge_fig13.memc_low_gap=3000 --set edge_fig13.ipsec_low_gap=3000 \
        --set edge_fig13.event=ipv4 --set edge_fig13.background=bp --set edge_fig13.rate=high \
        --set preempt.enable=1 --point "$@"
}
fig13 2
for t in 1 "$THREADS"; do
    run preempt "$t" "$BUILD"/bin/preemption_latency --point --size test --kernels mm --impl rtl
    run launch "$t" "$BUILD"/bin/launch_latency --point --events 8 --impl rtl
    run fe "$t" "$BUILD"/bin/fe_fig11 --point --small --bench vectorAdd --variant all --impl rtl
    run cm "$t" "$BUILD"/bin/cm_run --mix L1 --gpu mm --gpu-size test --scheme cm_bal1 --warmup 2000 --cycles 60000
    fig13 "$t"
    fig13 "$t" fig13_drain --set gpu.kernel_end_drain=1
    for at in issue memory; do # the cores' atomics on one counter, done at issue or at the L2
        adapt=0; [ "$at" = memory ] && adapt=1
        FG_POOL_ADAPT=$adapt FG_THREADS_STATS=1 "$BUILD"/bin/fg_run --kernel "$BUILD"/sw/t_ticket.elf --entry t_ticket --grid 64 --block 256 \
            --buf ticket=u32:1 --buf order=u32:16384 --buf clk=u32:16384 --arg buf:ticket --arg buf:order --arg buf:clk \
            --dump order="$tmp/ticket_$at.$t.order" --dump clk="$tmp/ticket_$at.$t.clk" --set gpu.atomics=$at \
            --threads "$t" >"$tmp/ticket_$at.$t.log" 2>&1 ||
            { echo "FAIL ticket_$at (gpu.threads=$t): exit $?"; tail -3 "$tmp/ticket_$at.$t.log"; exit 1; }
    done
done
python3 - "$tmp" "$THREADS" <<'PY' || exit 1
import json, re, sys
tmp, n = sys.argv[1], sys.argv[2]
TIMES = ("wall_seconds", "cpu_seconds", "wall", "cpu", "seconds", "wall_s", "cpu_s")
def strip(d):  # run times differ, results may not
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k not in TIMES}
    if isinstance(d, list):
        return [strip(x) for x in d]
    return d
def par_cycles(name, n=n):
    m = re.findall(r"gpu: \d+ threads?, (\d+) of \d+ cycles", open(f"{tmp}/{name}.{n}.log").read())
    return sum(int(x) for x in m)
bad = 0
def compare(name, busy, n):
    global bad
    a, b = (strip(json.load(open(f"{tmp}/{name}.{t}.json"))) for t in ("1", n))
    p = par_cycles(name, n)
    if a != b:
        bad = 1
        diff = [k for k in a if a.get(k) != b.get(k)] if isinstance(a, dict) else ["(the whole file)"]
        print(f"FAIL {name}: {n} threads changed the results ({', '.join(diff)})")
    elif busy and p == 0:
        bad = 1
        print(f"FAIL {name}: no cycle ran on the {n} threads (nothing compared)")
    else:
        print(f"ok   {name}: the same results with 1 and {n} threads ({p} cycles on the threads)")
for name, busy in (("preempt", True), ("launch", False), ("fe", True), ("cm", True), ("fig13", True), ("fig13_drain", True)):
    compare(name, busy, n)
compare("fig13", True, "2")
for at in ("issue", "memory"):
    name = f"ticket_{at}"
    same = all(open(f"{tmp}/{name}.1.{k}", "rb").read() == open(f"{tmp}/{name}.{n}.{k}", "rb").read()
               for k in ("order", "clk"))
    p = par_cycles(name)
    if not same:
        bad = 1
        print(f"FAIL {name}: {n} threads changed the order of the atomics or their cycles")
    elif p == 0:
        bad = 1
        print(f"FAIL {name}: no cycle ran on the {n} threads (nothing compared)")
    else:
        print(f"ok   {name}: the same ticket order and cycles with 1 and {n} threads ({p} cycles on the threads)")
sys.exit(bad)
PY
