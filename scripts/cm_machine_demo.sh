#!/usr/bin/env bash
# The CM machine (docs/CM_MACHINE.md), run by `make demo`:
#   - the mesh's throughput and latency against offered load (results/mesh_load.json),
#   - the CPU streams alone: L2 MPKI per CM Table III application, IPC vs
#     memory latency (results/cpu_char.json),
#   - CM Sec. 3's motivation: the H2 mix alone and beside the STREAM triad on the 28 SIMT cores
#     (results/cm_motivation.json: cpu_slowdown and both IPCs),
# then their PNGs (scripts/cm_figures.py).
set -euo pipefail
B=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
mkdir -p results
echo "== CM machine: mesh load (build/bin/mesh_load)"
"$B/bin/mesh_load" --out results/mesh_load.json
echo "== CM machine: CPU streams alone (build/bin/cpu_char)"
"$B/bin/cpu_char" --out results/cpu_char.json
echo "== CM machine: CM Sec. 3, H2 alone and beside STREAM on the SIMT cores (build/bin/cm_run --motivation, 1 M GPU cycles)"
"$B/bin/cm_run" --motivation --mix H2 --gpu stream --gpu-size paper --warmup 100000 --cycles 1000000 --quiet \
  --out results/cm_motivation.json
"$PY" scripts/cm_figures.py
