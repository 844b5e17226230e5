#!/usr/bin/env bash
# RTL style checks (docs/RTL_STYLE.md), run by make test as
# one test (TAP):
#  - the packages and twin headers generated from rtl/<area>/<area>_enc.toml
#    are current, and blocks not converted yet agree with the lists
#    (scripts/rtl_pkg.py --check); every generated C header compiles alone;
#  - an illegal parameter stops elaboration with its message, in Verilator
#    and in Yosys (`FG_ASSERT_PARAM, rtl/include/fg_assert.svh), one case per
#    block whose manifest names one (param_check), and the same block at its
#    defaults elaborates;
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
# the same for the rest of the tree's code (measured MHz may appear: the FPGA
# scripts print them): no issue or session number, no commit named
tree_re='(issue|session)s? #?[0-9]|commit [0-9a-f]{7}|(at|since|of|from|before|after|until) [0-9a-f]{0,11}[a-f][0-9a-f]{0,11}[0-9][0-9a-f]{0,11}( |$|[).,;:])'
hist=$(grep -rnIEi "$tree_re" sim tests scripts mk tb formal fpga Makefile \
         --exclude-dir=gen --exclude-dir=corpus --exclude=check_rtl_style.sh 2>&1 |
       grep -iE ':[^:]*\b[0-9a-f]{7,12}\b|(issue|session)s? #?[0-9]|commit ' )
[ -n "$hist" ] && printf '%s\n' "$hist" | sed 's/^/# /'
ok "$([ -z "$hist" ] && echo 1)" "code and build files outside rtl/ name no issue, session or commit"

# one case per block from its manifest (rtl/<area>/<block>.toml, [block]
# param_check): top | sources (the manifest's, packages first) | illegal
# parameter | message expected
cases=$(scripts/manifest.py --style-cases) || { echo "not ok - scripts/manifest.py --style-cases"; exit 1; }
while IFS='|' read -r top srcs bad msg; do
  name=$top
  verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" $srcs >"$out/$name.ok.log" 2>&1
  ok "$([ $? = 0 ] && echo 1)" "verilator: $name elaborates at its defaults"
  verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" "-G$bad" $srcs >"$out/$name.bad.log" 2>&1; r=$?
  grep -m1 "$msg" "$out/$name.bad.log" | sed 's/^/# /'
  ok "$([ $r != 0 ] && grep -q "$msg" "$out/$name.bad.log" && echo 1)" "verilator: $name $bad stops elaboration with its message"
  yosys -q -p "read_verilog -sv -noassert -Irtl/include $srcs; chparam -set ${bad%%=*} ${bad#*=} $top; hierarchy -check -top $top" \
    >"$out/$name.ybad.log" 2>&1; r=$?
  ok "$([ $r != 0 ] && grep -q "$msg" "$out/$name.ybad.log" && echo 1)" "yosys: $name $bad stops elaboration with its message"
done <<<"$cases"

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
