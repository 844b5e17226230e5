#!/usr/bin/env bash
# Two builds of the simulator give the same results: a set of system points
# (EDGE preemption, launch and Fig. 13 points with their RTL blocks, an F/E
# benchmark, a CM machine run, atomics on one counter, the busy MM run) run
# with the programs of build A and of build B, their JSON compared but for
# run times.  For changes that must not change a result (simulation speed,
# refactoring): `scripts/compare_builds.sh build /path/to/other/build`.
# The demo experiments point by point: scripts/compare_builds.sh --demo A B
# (every point of make demo's sweeps, both builds, about 2 x 6 minutes).
set -u
demo=0
[ "${1:-}" = --demo ] && { demo=1; shift; }
[ $# -eq 2 ] || { echo "usage: $0 [--demo] BUILD_A BUILD_B" >&2; exit 2; }
A=$(cd "$1" && pwd) || exit 2
B=$(cd "$2" && pwd) || exit 2
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $demo = 1 ]; then
    exps="experiments/edge_fig11.ini experiments/fe_fig11.ini experiments/fe_fig12.ini
          experiments/edge_launch_latency.ini experiments/cm_tlp_demo.ini experiments/cm_figs_demo.ini
          experiments/edge_fig12_demo.ini experiments/edge_fig13_demo.ini"
    for s in A B; do
        b=$A; [ $s = B ] && b=$B
        # shellcheck disable=SC2086
        BUILD=$b python3 scripts/sweep.py run --results "$tmp/$s" --build "$b" $exps >"$tmp/$s.log" 2>&1 ||
            { echo "FAIL: the demo sweeps with $b"; tail -5 "$tmp/$s.log"; exit 1; }
    done
    python3 - "$tmp" <<'PY'
import glob, json, os, sys
tmp = sys.argv[1]
# run times, and the sources fingerprint each build stamps (provenance, not a result)
TIMES = {"wall_seconds", "cpu_seconds", "wall", "cpu", "seconds", "wall_s", "cpu_s", "elapsed_s", "host_cpu_s", "sources"}
def strip(d):
    if isinstance(d, dict): return {k: strip(v) for k, v in d.items() if k not in TIMES}
    if isinstance(d, list): return [strip(x) for x in d]
    return d
a = sorted(os.path.relpath(p, f"{tmp}/A") for p in glob.glob(f"{tmp}/A/sweeps/*/points/*.json"))
b = sorted(os.path.relpath(p, f"{tmp}/B") for p in glob.glob(f"{tmp}/B/sweeps/*/points/*.json"))
if a != b:
    print(f"FAIL: the builds wrote different point files ({len(a)} / {len(b)})"); sys.exit(1)
bad = [p for p in a if strip(json.load(open(f"{tmp}/A/{p}"))) != strip(json.load(open(f"{tmp}/B/{p}")))]
for p in bad[:20]: print(f"FAIL {p}")
print(f"{len(a) - len(bad)} of {len(a)} demo points identical (run times aside)")
sys.exit(1 if bad or not a else 0)
PY
    exit $?
fi

run() { # side name cmd... (the program path is relative to the build)
    local s=$1 n=$2 b=$A; shift 2
    [ "$s" = B ] && b=$B
    local prog=$b/bin/$1; shift
    "$prog" "$@" >"$tmp/$n.$s.log" 2>&1 || { echo "FAIL $n ($b): exit $?"; tail -3 "$tmp/$n.$s.log"; exit 1; }
}
for s in A B; do
    run $s preempt preemption_latency --point --size test --kernels mm --impl rtl --out "$tmp/preempt.$s.json"
    run $s preempt_new preemption_latency --point --size test --kernels bp --impl c --set preempt.policy=newest \
        --out "$tmp/preempt_new.$s.json"
    run $s launch launch_latency --point --events 8 --impl rtl --out "$tmp/launch.$s.json"
    run $s fig13 edge_fig13 --config configs/edge.ini --exp configs/edge_fig13.ini --set edge_fig13.size=test \
        --set edge_fig13.event=memc --set edge_fig13.background=bfs --set edge_fig13.rate=high --point \
        --out "$tmp/fig13.$s.json"
    run $s fe fe_fig11 --point --small --bench histogram64 --variant all --impl rtl --out "$tmp/fe.$s.json"
    run $s cm cm_run --mix L1 --gpu mm --gpu-size test --scheme cm_bal1 --warmup 2000 --cycles 60000 \
        --out "$tmp/cm.$s.json"
    for at in issue memory; do
        run $s ticket_$at fg_run --kernel "$A/sw/t_ticket.elf" --entry t_ticket --grid 64 --block 256 \
            --buf ticket=u32:1 --buf order=u32:16384 --buf clk=u32:16384 --arg buf:ticket --arg buf:order \
            --arg buf:clk --dump order="$tmp/ticket_$at.$s.order" --dump clk="$tmp/ticket_$at.$s.clk" \
            --set gpu.atomics=$at
    done
    run $s busy sim_speed --busy-only --out "$tmp/busy.$s.json"
done
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
TIMES = {"wall_seconds", "cpu_seconds", "wall", "cpu", "seconds", "wall_s", "cpu_s", "elapsed_s",
         "gpu_cycles_per_second", "warp_instrs_per_second", "gpu_cycles_per_cpu_second",
         "warp_instrs_per_cpu_second", "threads", "threaded_cycles", "pool_handoff_ns",
         "sources"}  # the sources fingerprint each build stamps: provenance, not a result
def strip(d):
    if isinstance(d, dict): return {k: strip(v) for k, v in d.items() if k not in TIMES}
    if isinstance(d, list): return [strip(x) for x in d]
    return d
bad = 0
for n in ("preempt", "preempt_new", "launch", "fig13", "fe", "cm", "busy"):
    a, b = (strip(json.load(open(f"{tmp}/{n}.{s}.json"))) for s in "AB")
    if a != b:
        bad = 1
        keys = [k for k in a if a.get(k) != b.get(k)] if isinstance(a, dict) else ["(the whole file)"]
        print(f"FAIL {n}: the results differ ({', '.join(keys)})")
    else:
        print(f"ok   {n}")
for at in ("issue", "memory"):
    same = all(open(f"{tmp}/ticket_{at}.A.{k}", "rb").read() == open(f"{tmp}/ticket_{at}.B.{k}", "rb").read()
               for k in ("order", "clk"))
    print(("ok   " if same else "FAIL ") + f"ticket_{at}")
    bad |= not same
sys.exit(bad)
PY
