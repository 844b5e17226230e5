#!/usr/bin/env bash
# The FPGA top's static checks (run by make test as one test):
#  - fpga/gen/ and the register table in docs/FPGA.md are what fpga/regmap.py
#    generates, and every block port is covered (the twins' port lists);
#  - each top's RTL (fpga/top.f: the blocks top; fpga/simt_top.f: the SIMT
#    top) is clean under verilator --lint-only -Wall (the blocks top with no
#    waivers, the SIMT top with fpga/simt_top.vlt's one: the register map
#    package's parameters it has no window for), elaborates in Icarus -g2012
#    and in Yosys (read, hierarchy, proc; the full synth_ecp5 is `make fpga`).
set -u
cd "$(dirname "$0")/.."
out=${BUILD:-build}/lint; mkdir -p "$out"
fail=0
python3 fpga/regmap.py --check || fail=1
for spec in "finegrain_ulx3s|fpga/top.f|" "finegrain_simt_ulx3s|fpga/simt_top.f|fpga/simt_top.vlt"; do
IFS='|' read -r top list vlt <<<"$spec"
srcs=$(tr '\n' ' ' < "$list")
if verilator --lint-only -Wall --assert -Irtl/include --top-module $top $vlt $srcs >"$out/$top.vlint" 2>&1; then
  echo "ok   verilator -Wall $top"
else echo "FAIL verilator -Wall $top"; head -30 "$out/$top.vlint"; fail=1; fi
if iverilog -g2012 -Irtl/include -s $top -o /dev/null $srcs >"$out/$top.iverilog" 2>&1; then
  echo "ok   iverilog -g2012 $top"
else echo "FAIL iverilog $top"; grep -v 'sorry\|cannot be synth' "$out/$top.iverilog" | head; fail=1; fi
if yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -sv -noassert -Irtl/include $srcs; hierarchy -check -top $top; proc" \
     >"$out/$top.yosys" 2>&1; then
  echo "ok   yosys elaboration $top"
else echo "FAIL yosys $top"; grep -i error "$out/$top.yosys" | head; fail=1; fi
done
exit $fail
