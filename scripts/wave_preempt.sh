#!/usr/bin/env bash
# `make wave` step: one preemption in core 0 of the SIMT model (tests/test_preempt.c,
# test_one_preemption: FLUSH, SAVE, START, event warp, RESUME), its PEWT and
# controller traced from the same run, and save files for them written from the
# blocks' ones by scripts/gtkw.py (ranges and widths from these FSTs):
#   gtkwave -a $BUILD/waves/simt_core0_edge_preempt.gtkw   (and ..._edge_pewt.gtkw)
set -eu
B=${BUILD:-build}
mkdir -p "$B/waves"
FG_WAVE_DIR="$B/waves" FG_WAVE_START=2900 FG_WAVE_END=9000 "$B/tests/test_preempt" >/dev/null 2>&1
for b in edge_pewt edge_preempt; do
  scripts/gtkw.py "tb/waves/$b.gtkw" "$B/waves/simt_core0_$b.fst" -o "$B/waves/simt_core0_$b.gtkw"
done
