#!/usr/bin/env bash
# make test: the FPGA top as the board runs it (build/bin/fpga_pll_sim,
# fpga/sim/tb_fpga_pll.sv): the 25 MHz oscillator through the PLL's
# behavioural model at the dividers of `make fpga` (FPGA_TOP_MHZ), the UART at
# 115200 baud with the board's divider, bit by bit at real time; identity,
# clock, baud and scratch registers over UARTBone, and the cycle counter
# against simulated time.  A few seconds.
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
mkdir -p "$B/test-logs"
log=$B/test-logs/fpga_pll.log
timeout "${FPGA_PLL_SECONDS:-300}" "$B/bin/fpga_pll_sim" >"$log" 2>&1
rc=$?
cat "$log"
if [ $rc -ne 0 ] || ! grep -q "tb_fpga_pll: PASS" "$log"; then
  echo "not ok 1 - the top with the PLL model and the board's UART divider (exit $rc)"
  exit 1
fi
echo "ok 1 - the top with the PLL model and the board's UART divider: $(grep 'cycles in' "$log")"
