#!/usr/bin/env bash
# `make wave` step: two system traces, one FST each with every RTL block
# instance of the run (sim/harness/fg_wave.c, docs/WAVES.md):
#   system_ring:    launch_latency, centred on the second doorbell ring (the
#                   decoder, the EKT, the PEWT and controller of the core the
#                   event warp starts on)
#   system_preempt: preemption_latency on MM (test size), centred on the third
#                   warp-level preemption (FLUSH, SAVE, START in one core)
#   system_early:   launch_latency with the early doorbell into the
#                   synchronized receive ring over a 1 GB/s link, around the
#                   second ring: its event warp's loads held at the F/E queues
#                   until the DMA fills their words (walkthrough 4)
#   gtkwave -a $BUILD/waves/system_ring.gtkw   (and system_preempt.gtkw, system_early.gtkw)
set -eu
B=${BUILD:-build}
mkdir -p "$B/waves"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$B/bin/launch_latency" --point --out "$tmp/ll.json" --events 3 \
    --wave "$B/waves/system_ring.fst" --wave-at ring:2 --wave-span 1000 >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
"$B/bin/preemption_latency" --point --out "$tmp/pl.json" --size test --kernels mm \
    --wave "$B/waves/system_preempt.fst" --wave-at preempt:3 --wave-span 400 >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
"$B/bin/launch_latency" --point --out "$tmp/early.json" --events 3 --no-e2e \
    --set nic.ring=sync --set nic.doorbell=early --set pcie.bandwidth_gbps=1 \
    --wave "$B/waves/system_early.fst" --wave-at ring:2 --wave-span 4000 >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
