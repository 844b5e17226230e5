#!/usr/bin/env bash
# Test: scripts/logic_depth.py's estimates on a design small enough to work
# out by hand (synth_ecp5 -nowidelut): a 32-bit add between registers (a
# carry chain of 16 CCU2C: clock to out 0.45, a connection 0.75, into the
# chain 0.45, 15 more along it 0.9, a connection 0.75, setup 0.2 = 3.5 ns) and the
# parity of 32 ANDed bits (three LUT4 levels: 0.45 + 3 * (0.75 + 0.45) + 0.75
# + 0.2 = 5.0 ns, the worst), and a netlist it cannot read refused in one line;
# --fanout-ns on a register that feeds 16 LUT4s (r ^ a[i] into 16 flip-flops:
# 0.45 + 0.75 + K * log2(16) + 0.45 + 0.75 + 0.2 = 2.6 + 4K ns).
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
cat >"$tmp/fo_t.v" <<'V'
module fo_t (input clk, input d, input [15:0] a, output reg [15:0] q);
  reg r;
  always @(posedge clk) begin
    r <= d;
    q <= {16{r}} ^ a;
  end
endmodule
V
if ! yosys -q -p "read_verilog $tmp/fo_t.v; synth_ecp5 -nowidelut -top fo_t; write_json $tmp/fo_t.json" >"$tmp/y2.log" 2>&1; then
  echo "not ok 3 - synthesis of the fanout design"; cat "$tmp/y2.log"; exit 1
fi
o0=$(python3 scripts/logic_depth.py "$tmp/fo_t.json" --limit 1 2>&1)
o5=$(python3 scripts/logic_depth.py "$tmp/fo_t.json" --limit 1 --fanout-ns 0.5 2>&1)
printf '%s\n' "$o5" | sed 's/^/# /'
if printf '%s\n' "$o0" | grep -q "worst estimate 2.6 ns" && printf '%s\n' "$o5" | grep -q "worst estimate 4.6 ns" &&
   printf '%s\n' "$o5" | grep -Eq "^ +4\.6 ns +16 bits +q$"; then
  echo "ok 3 - --fanout-ns 0.5: the register's 16 loads add 2.0 ns (2.6 -> 4.6 ns)"
else echo "not ok 3 - the fanout term is not the hand-worked one"; fail=1; fi
o=$(python3 scripts/logic_depth.py "$tmp/fo_t.json" --fanout-ns -1 2>&1); r=$?
if [ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c .)" -eq 1 ] && printf '%s' "$o" | grep -q "^logic_depth: --fanout-ns -1: not in"; then
  echo "ok 4 - a negative --fanout-ns refused"
else echo "not ok 4 - --fanout-ns -1: exit $r, '$o'"; fail=1; fi
exit $fail
