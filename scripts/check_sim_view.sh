#!/usr/bin/env bash
# Test: the SIMT cores' compact scheduling view (simt_warp_touch: the gates,
# unit classes, fetch and limit bits the schedulers and fetch scan instead of
# the warps, docs/SIMT.md "Simulation speed") never disagrees with the warps
# it describes.  Each run below sets $FG_CHECK_VIEW, which compares the view
# with the warps every cycle and stops the run on the first difference (a
# missed touch: the warp would be skipped or scanned wrongly).  The runs
# cover preemption with every optimization (barrier skipping, dropped loads,
# register save / restore, all three victim policies), event kernels under
# background load, the CM machine's active-warp limit, that limit capped
# beside events (CM-BAL's protection: the event warps it exempts, counted at
# each sort), F/E loads, atomics at the L2 and the loose round-robin
# scheduler.
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
run() { # name cmd...
    local n=$1; shift
    if FG_CHECK_VIEW=1 "$@" >"$tmp/$n.log" 2>&1; then
        pass=$((pass + 1)); echo "ok   $n"
    else
        fail=$((fail + 1)); echo "FAIL $n: exit $?"; grep -m3 -E "internal|error|FAIL" "$tmp/$n.log" || tail -3 "$tmp/$n.log"
    fi
}
run preempt_oldest "$BUILD"/bin/preemption_latency --point --size test --kernels conv --impl c --out "$tmp/a.json"
run preempt_newest "$BUILD"/bin/preemption_latency --point --size test --kernels bp --impl rtl \
    --set preempt.policy=newest --out "$tmp/b.json"
run preempt_cheapest "$BUILD"/bin/preemption_latency --point --size test --kernels mm --impl c \
    --set preempt.policy=cheapest --set preempt.opt_drop=0 --set preempt.opt_barskip=0 --out "$tmp/c.json"
run fig13 "$BUILD"/bin/edge_fig13 --config configs/edge.ini --exp configs/edge_fig13.ini --set edge_fig13.size=test \
    --set edge_fig13.event=ipv4 --set edge_fig13.background=bfs --set edge_fig13.rate=high --point --out "$tmp/d.json"
run fig13_protect "$BUILD"/bin/edge_fig13 --config configs/edge.ini --exp configs/edge_fig13.ini \
    --set edge_fig13.size=test --set edge_fig13.event=ipv4 --set edge_fig13.background=bfs --set edge_fig13.rate=high \
    --set cmbal.scheme=baseline --set cmbal.protect_events=core --point --out "$tmp/h.json"
run cm_limit "$BUILD"/bin/cm_run --mix L1 --gpu mm --gpu-size test --scheme cm_bal1 --warmup 2000 --cycles 40000 \
    --out "$tmp/e.json"
run fe "$BUILD"/bin/fe_fig11 --point --small --bench BFS --variant all --impl c --out "$tmp/f.json"
run atomics_l2 "$BUILD"/bin/fg_run --kernel "$BUILD"/sw/t_ticket.elf --entry t_ticket --grid 16 --block 256 \
    --buf ticket=u32:1 --buf order=u32:4096 --buf clk=u32:4096 --arg buf:ticket --arg buf:order --arg buf:clk \
    --set gpu.atomics=memory
run lrr "$BUILD"/bin/preemption_latency --point --size test --kernels mm --impl c --set gpu.warp_scheduler=lrr \
    --out "$tmp/g.json"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
