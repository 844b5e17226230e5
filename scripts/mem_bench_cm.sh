#!/usr/bin/env bash
# `make bench` / `make results`: the memory-system microbenchmarks on the CM
# machine (configs/cm.ini: the 6x6 mesh, 8 partitions with GPGPU-Sim's
# partition front end, 8 GDDR5 channels at 800 MHz): results/mem_bench_cm.json
# (docs/RESULTS.md "Memory system"; docs/MEM.md "Microbenchmarks").
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${BUILD:-build}/bin/mem_bench" --config configs/cm.ini --out results/mem_bench_cm.json "$@"
