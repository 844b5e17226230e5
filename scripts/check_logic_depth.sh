#!/usr/bin/env bash
# Test: scripts/logic_depth.py's estimates on a design small enough to work
# out by hand (synth_ecp5 -nowidelut): a 32-bit add between registers (a
# carry chain of 16 CCU2C: clock to out 0.45, a connection 0.75, into the
# chain 0.45, 15 more along it 0.9, a connection 0.75, setup 0.2 = 3.5 ns) and the
# parity of 32 ANDed bits (three LUT4 levels: 0.45 + 3 * (0.75 + 0.45) + 0.75
# + 0.2 = 5.0 ns, the worst), and a netlist it cannot read refused in one line.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ld_t.v" <<'V'
module ld_t (input clk, input [31:0] a, input [31:0] b, output reg [31:0] q, output reg p);
  reg [31:0] ra, rb;
  always @(posedge clk) begin
    ra <= a;
    rb <= b;
    q  <= ra + rb;
    p  <= ^(ra & rb);
  end
endmodule
V
fail=0
if ! yosys -q -p "read_verilog $tmp/ld_t.v; synth_ecp5 -nowidelut -top ld_t; write_json $tmp/ld_t.json" >"$tmp/y.log" 2>&1; then
  echo "not ok 1 - synthesis of the test design"; cat "$tmp/y.log"; exit 1
fi
out=$(python3 scripts/logic_depth.py "$tmp/ld_t.json" --limit 1 --path q 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "worst estimate 5.0 ns (200.0 MHz)" &&
   printf '%s\n' "$out" | grep -Eq "^ +5\.0 ns +1 bits +p$" && printf '%s\n' "$out" | grep -Eq "^ +3\.5 ns +32 bits +q$" &&
   printf '%s\n' "$out" | grep -q "LUT4 .* p (3 LUT4)" && printf '%s\n' "$out" | grep -q "CCU2C .* (16 CCU2C)"; then
  echo "ok 1 - logic_depth: the parity 5.0 ns through 3 LUT4, the add 3.5 ns along 16 CCU2C"
else echo "not ok 1 - logic_depth's estimates are not the hand-worked ones (exit $rc)"; fail=1; fi
echo '{"modules": ' >"$tmp/bad.json"
o=$(python3 scripts/logic_depth.py "$tmp/bad.json" 2>&1); r=$?
if [ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c .)" -eq 1 ] && printf '%s' "$o" | grep -q "^logic_depth: $tmp/bad.json"; then
  echo "ok 2 - a netlist it cannot read refused in one line"
else echo "not ok 2 - a bad netlist: exit $r, '$o'"; fail=1; fi
exit $fail
