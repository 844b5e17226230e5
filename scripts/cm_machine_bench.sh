#!/usr/bin/env bash
# `make bench`: simulated cycles per wall second of the whole CM machine
# (build/bin/cm_run --bench: 14 CPU cores with the H2 mix, the 28 SIMT cores
# running the STREAM triad, the 6x6 mesh, 8 LLC slices and 8 GDDR5 channels
# with their F/E RTL; 300 k GPU cycles after a CPU warm-up).
set -euo pipefail
"${BUILD:-build}/bin/cm_run" --bench
