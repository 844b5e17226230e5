#!/usr/bin/env bash
# Test wrapper (make test): the FPGA timing figures of docs/FPGA_TIMING.md
# (fpga/blocks_timing.json) must describe the RTL as it is: every block's
# netlist is the one they were measured on (scripts/check_fpga_netlists.py).
set -euo pipefail
cd "$(dirname "$0")/.."
exec make --no-print-directory fpga-netlists
