#!/usr/bin/env bash
# `make bench`: draws results/mem_latency_load.png from results/mem_bench.json,
# with the Python make exports (mk/results.mk: Debian's, which has
# python3-matplotlib, before whatever python3 comes first on PATH).
set -euo pipefail
exec "${PYTHON:-python3}" "$(dirname "$0")/figures.py" plot --only mem_latency_load --only mem_latency_load_cm
