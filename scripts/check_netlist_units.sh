#!/usr/bin/env bash
# Test: scripts/netlist_units.py (make fpga-units' per-unit table) on a design
# small enough to count by hand, synthesized as fpga_top.py --units does it
# (synth_ecp5 -noflatten): a top with two instances of a 16-bit register
# stage (16 flip-flops each) and one 18 x 18 multiply (one MULT18X18D) under
# a middle module, so the top holds 32 + 36 flip-flops and one MULT18X18D
# and each unit only its own; and a netlist without a single top refused in
# one line.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/nu.v" <<'V'
module nu_reg (input clk, input [15:0] d, output reg [15:0] q);
  always @(posedge clk) q <= d;
endmodule
module nu_mul (input clk, input [17:0] a, input [17:0] b, output reg [35:0] p);
  always @(posedge clk) p <= a * b;
endmodule
module nu_mid (input clk, input [17:0] a, input [17:0] b, output [35:0] p);
  nu_mul u_mul (.clk(clk), .a(a), .b(b), .p(p));
endmodule
module nu_top (input clk, input [15:0] x, input [17:0] a, input [17:0] b, output [15:0] y, output [35:0] p);
  wire [15:0] m;
  nu_reg u_r0 (.clk(clk), .d(x), .q(m));
  nu_reg u_r1 (.clk(clk), .d(m), .q(y));
  nu_mid u_mid (.clk(clk), .a(a), .b(b), .p(p));
endmodule
V
fail=0
if ! yosys -q -p "read_verilog $tmp/nu.v; synth_ecp5 -noflatten -top nu_top; write_json $tmp/nu.json" >"$tmp/y.log" 2>&1; then
  echo "not ok 1 - synthesis of the test design"; cat "$tmp/y.log"; exit 1
fi
out=$(python3 scripts/netlist_units.py "$tmp/nu.json" 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
ffs() { printf '%s\n' "$out" | awk -v n="$1" '$1 == n {print $(NF-2) "/" $NF}'; }
# the multiply's product register may sit in the DSP's output register or in flip-flops: 0 or 36 FF
mid=$(ffs u_mid); mul=$(ffs u_mul); top=$(ffs "(top)")
if [ $rc -eq 0 ] && [ "$(ffs u_r0)" = 16/0 ] && [ "$(ffs u_r1)" = 16/0 ] && [ "$mid" = "$mul" ] &&
   { [ "$mul" = 36/1 ] || [ "$mul" = 0/1 ]; } && [ "$top" = "$((32 + ${mul%/*}))/1" ]; then
  echo "ok 1 - netlist_units: 16 flip-flops in each register stage, the multiply's MULT18X18D in u_mid and u_mul, their sum at the top"
else echo "not ok 1 - netlist_units' counts are not the hand-counted ones (exit $rc: r0 $(ffs u_r0), mid $mid, mul $mul, top $top)"; fail=1; fi
printf '%s\n' '{"modules": {"a": {"cells": {}}, "b": {"cells": {}}}}' >"$tmp/two.json"
o=$(python3 scripts/netlist_units.py "$tmp/two.json" 2>&1); r=$?
if [ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c .)" -eq 1 ] && printf '%s' "$o" | grep -q "^netlist_units: .*not one top module"; then
  echo "ok 2 - a netlist with two top modules refused in one line"
else echo "not ok 2 - two top modules: exit $r, '$o'"; fail=1; fi
exit $fail
