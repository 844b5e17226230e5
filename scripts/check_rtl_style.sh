#!/usr/bin/env bash
# RTL style checks (issue 15 item 6, docs/RTL_STYLE.md), run by make test as
# one test (TAP):
#  - the packages and twin headers generated from rtl/<area>/<area>_enc.toml
#    are current, and blocks not converted yet agree with the lists
#    (scripts/rtl_pkg.py --check); every generated C header compiles alone;
#  - an illegal parameter stops elaboration with its message, in Verilator
#    and in Yosys (`FG_ASSERT_PARAM, rtl/include/fg_assert.svh), one case per
#    converted block, and the same block at its defaults elaborates;
#  - a failing `FG_ASSERT prints the invariant's name (Icarus, a 3-line
#    bench; the verilated models print the same $error, docs/RTL_STYLE.md);
#  - RTL comments (rtl/**/*.sv, *.svh, and the *_enc.toml lists) name no issue,
#    session or commit and no measured MHz figure: that history is in
#    docs/FPGA_TIMING.md (docs/RTL_STYLE.md "Comments").
set -u
cd "$(dirname "$0")/.."
out=${BUILD:-build}/rtl_style; mkdir -p "$out"
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 1 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

scripts/rtl_pkg.py --check >"$out/rtl_pkg.log" 2>&1; r=$?
sed 's/^/# /' "$out/rtl_pkg.log"
ok "$([ $r = 0 ] && echo 1)" "generated packages and C headers current, unconverted blocks agree"
for h in sim/twin/gen/*_enc.h; do
  gcc -std=c11 -Wall -Wextra -Werror -fsyntax-only -x c "$h" >"$out/hdr.log" 2>&1
  ok "$([ $? = 0 ] && echo 1)" "$h compiles alone"
done

# comments say what and why; issue / session / commit numbers and measured
# clock figures are history, kept in docs/FPGA_TIMING.md and docs/FORMAL.md
hist_re='(issue|session) [0-9]|commit [0-9a-f]{7}|[0-9][0-9.]* ?MHz'
hist=$( { grep -rnEi --include='*.sv' --include='*.svh' "//.*($hist_re)" rtl/
          grep -rnEi --include='*.toml' "$hist_re" rtl/; } 2>&1)
[ -n "$hist" ] && printf '%s\n' "$hist" | sed 's/^/# /'
ok "$([ -z "$hist" ] && echo 1)" "RTL comments name no issue, session, commit or MHz figure"

# block | top | sources | illegal parameter | message expected
cases=(
  "edge_pewt|edge_pewt|rtl/edge/edge_pkg.sv rtl/prim/fg_fifo.sv rtl/edge/edge_pewt.sv|SLOT_W=33|edge_pewt: SLOT_W must be 1..32"
  "edge_doorbell|edge_doorbell|rtl/edge/edge_pkg.sv rtl/prim/fg_fifo.sv rtl/edge/edge_doorbell.sv|ADDR_W=65|edge_doorbell: ADDR_W must be 8..64"
  "edge_ekt|edge_ekt|rtl/edge/edge_pkg.sv rtl/prim/fg_sram_sp.sv rtl/prim/fg_fifo.sv rtl/prim/fg_rr_arb.sv rtl/edge/edge_ekt.sv|WARP_THREADS=2000|edge_ekt: WARP_THREADS must be 1..1024"
  "edge_preempt|edge_preempt|rtl/edge/edge_pkg.sv rtl/edge/edge_preempt_timer.sv rtl/edge/edge_preempt_age.sv rtl/edge/edge_preempt.sv|SLOT_W=5|edge_preempt: SLOT_W must be clog2(NW)"
  "fg_fifo|fg_fifo|rtl/prim/fg_fifo.sv|DEPTH=0|fg_fifo: DEPTH must be >= 1"
  "fg_rr_arb|fg_rr_arb|rtl/prim/fg_rr_arb.sv|N=0|fg_rr_arb: N must be >= 1"
  "fg_sram_sp|fg_sram_sp|rtl/prim/fg_sram_sp.sv|WIDTH=0|fg_sram_sp: WIDTH must be >= 1"
  "fe_sched_queues|fe_sched_queues|rtl/fe/fe_pkg.sv rtl/prim/fg_fifo.sv rtl/prim/fg_sram_sp.sv rtl/fe/fe_trigger_check.sv rtl/fe/fe_watchdog.sv rtl/fe/fe_bits.sv rtl/fe/fe_sched_queues.sv|QD_NT=256|fe_sched_queues: QD_NT, QD_CPU, QD_GPU must be 1..255"
  "cm_bal_monitor|cm_bal_monitor|rtl/cm/cm_pkg.sv rtl/cm/cm_cpu_central.sv rtl/cm/cm_bal_core.sv rtl/cm/cm_bal_decide.sv rtl/cm/cm_bal_monitor.sv|INTERVAL=32|cm_bal_monitor: INTERVAL must be >= C + 5"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name top srcs bad msg <<<"$c"
  verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" $srcs >"$out/$name.ok.log" 2>&1
  ok "$([ $? = 0 ] && echo 1)" "verilator: $name elaborates at its defaults"
  verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" "-G$bad" $srcs >"$out/$name.bad.log" 2>&1; r=$?
  grep -m1 "$msg" "$out/$name.bad.log" | sed 's/^/# /'
  ok "$([ $r != 0 ] && grep -q "$msg" "$out/$name.bad.log" && echo 1)" "verilator: $name $bad stops elaboration with its message"
  yosys -q -p "read_verilog -sv -noassert -Irtl/include $srcs; chparam -set ${bad%%=*} ${bad#*=} $top; hierarchy -check -top $top" \
    >"$out/$name.ybad.log" 2>&1; r=$?
  ok "$([ $r != 0 ] && grep -q "$msg" "$out/$name.ybad.log" && echo 1)" "yosys: $name $bad stops elaboration with its message"
done

cat >"$out/tb_named.sv" <<'SV'
`include "fg_assert.svh"
module tb_named; logic clk = 0; initial begin #1 clk = 1; #1 $finish; end
  always_ff @(posedge clk) begin `FG_ASSERT(tb_named_invariant, 1'b0) end
endmodule
SV
iverilog -g2012 -Irtl/include -o "$out/tb_named.vvp" "$out/tb_named.sv" >"$out/tb_named.log" 2>&1 &&
  vvp -n "$out/tb_named.vvp" >>"$out/tb_named.log" 2>&1
grep -m1 "tb_named_invariant" "$out/tb_named.log" | sed 's/^/# /'
ok "$(grep -q "FG_ASSERT tb_named_invariant failed" "$out/tb_named.log" && echo 1)" "a failing FG_ASSERT names its invariant (Icarus)"
echo "1..$n"
exit $fail
