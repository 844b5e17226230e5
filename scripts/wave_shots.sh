#!/usr/bin/env bash
# `make wave-shots`: screenshots of the system traces `make wave` writes, as
# GTKWave shows them through their save files (Xvfb, 1600x1000), for
# docs/WAVES.md: docs/figures/wave_system_ring.png, wave_system_preempt.png.
set -eu
B=${BUILD:-build}
command -v xvfb-run >/dev/null && command -v import >/dev/null ||
    { echo "wave-shots: needs xvfb-run and ImageMagick's import (scripts/deps.sh installs them)"; exit 1; }
mkdir -p docs/figures
for w in system_ring system_preempt; do
    [ -f "$B/waves/$w.gtkw" ] || { echo "wave-shots: $B/waves/$w.gtkw missing (run make wave)"; exit 1; }
    xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
        gtkwave -a "$1" >/dev/null 2>&1 & pid=$!
        sleep 8; import -window root "$2"; kill $pid' _ "$B/waves/$w.gtkw" "docs/figures/wave_$w.png"
    echo "wrote docs/figures/wave_$w.png"
done
