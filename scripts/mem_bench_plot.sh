#!/usr/bin/env bash
# `make bench`: draws results/mem_latency_load.png from results/mem_bench.json.
set -euo pipefail
exec python3 "$(dirname "$0")/figures.py" plot --only mem_latency_load
