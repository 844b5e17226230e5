#!/usr/bin/env bash
# The FPGA top's static checks (run by make test as one test):
#  - fpga/gen/ and the register table in docs/FPGA.md are what fpga/regmap.py
#    generates, and every block port is covered (the twins' port lists);
#  - the top's RTL is clean under verilator --lint-only -Wall (no waivers),
#    elaborates in Icarus -g2012 and in Yosys (read, hierarchy, proc; the full
#    synth_ecp5 is `make fpga`).
set -u
cd "$(dirname "$0")/.."
out=${BUILD:-build}/lint; mkdir -p "$out"
srcs=$(tr '\n' ' ' < fpga/top.f)
fail=0
python3 fpga/regmap.py --check || fail=1
if verilator --lint-only -Wall --assert -Irtl/include --top-module finegrain_ulx3s $srcs >"$out/fpga_top.vlint" 2>&1; then
  echo "ok   verilator -Wall finegrain_ulx3s"
else echo "FAIL verilator -Wall finegrain_ulx3s"; head -30 "$out/fpga_top.vlint"; fail=1; fi
if iverilog -g2012 -Irtl/include -s finegrain_ulx3s -o /dev/null $srcs >"$out/fpga_top.iverilog" 2>&1; then
  echo "ok   iverilog -g2012 finegrain_ulx3s"
else echo "FAIL iverilog finegrain_ulx3s"; grep -v 'sorry\|cannot be synth' "$out/fpga_top.iverilog" | head; fail=1; fi
if yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -sv -noassert -Irtl/include $srcs; hierarchy -check -top finegrain_ulx3s; proc" \
     >"$out/fpga_top.yosys" 2>&1; then
  echo "ok   yosys elaboration finegrain_ulx3s"
else echo "FAIL yosys finegrain_ulx3s"; grep -i error "$out/fpga_top.yosys" | head; fail=1; fi
exit $fail
