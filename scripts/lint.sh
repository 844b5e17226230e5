#!/usr/bin/env bash
# make lint: Verilator -Wall (zero warnings, no waivers) over every block top,
# Icarus -g2012 parse of every RTL file, Yosys synthesis of every block with
# a cells / flip-flops / memory-bits report, no RTL function reading a
# module signal it is not passed, and the C sources under
# -Wall -Wextra -Werror.  Exits non-zero on any finding.
set -u
cc_cmd=$1; c_srcs=$2; shift 2
out=${BUILD:-build}/lint; mkdir -p "$out"
fail=0

echo "== verilator --lint-only -Wall"
for spec in "$@"; do
  IFS='|' read -r name top params srcs <<<"$spec"
  gp=""; for p in $params; do gp+=" -G$p"; done
  if verilator --lint-only -Wall --assert -Irtl/include --top-module "$top" $gp $srcs >"$out/$name.vlint" 2>&1; then
    echo "  ok   $name"
  else
    echo "  FAIL $name"; sed 's/^/       /' "$out/$name.vlint" | head -30; fail=1
  fi
done

echo "== iverilog -g2012 (every block elaborated from its top; every RTL file covered)"
covered=""
for spec in "$@"; do
  IFS='|' read -r name top params srcs <<<"$spec"
  gp=""; for p in $params; do gp+=" -P$top.$p"; done
  covered+=" $srcs"
  if iverilog -g2012 -Irtl/include -s "$top" $gp -o /dev/null $srcs >"$out/$name.iverilog" 2>&1; then
    echo "  ok   $name"
  else
    echo "  FAIL $name"; grep -v 'cannot be synthesized' "$out/$name.iverilog" | sed 's/^/       /' | head; fail=1
  fi
done
for f in $(ls rtl/*/*.sv); do
  case " $covered " in *" $f "*) ;; *) echo "  FAIL $f is in no block's sources (not linted)"; fail=1;; esac
done

echo "== RTL functions read only their arguments (scripts/check_func_args.py)"
if scripts/check_func_args.py $(ls rtl/*/*.sv) >"$out/func_args.txt" 2>&1; then
  echo "  ok   every function of rtl/"
else
  sed 's/^/  FAIL /' "$out/func_args.txt"; fail=1
fi

echo "== every always_comb settles in an event-driven simulator (scripts/check_comb_settle.py)"
if scripts/check_comb_settle.py $(ls rtl/*/*.sv fpga/*.sv) >"$out/comb_settle.txt" 2>&1; then
  echo "  ok   every always_comb / always @* of rtl/ and fpga/"
else
  sed 's/^/  FAIL /' "$out/comb_settle.txt"; fail=1
fi

echo "== yosys synth_ecp5 (default parameters unless the block sets its own)"
printf '  %-22s %10s %10s %12s %8s %8s\n' block cells flipflops memory_bits LUT4 DP16KD
# A top with a record (the spec's fifth field, results/<top>_synth.txt) whose
# synthesis takes minutes: its figures are the record's when the record was
# made from these inputs (the script, the Yosys version, every source and
# include file); else it is synthesized here (LINT_RECORD=1, `make
# lint-record`, writes the record).
for spec in "$@"; do
  IFS='|' read -r name top params srcs record <<<"$spec"
  chp=""; for p in $params; do chp+=" -set ${p%%=*} ${p#*=}"; done
  script="read_verilog -sv -noassert -Irtl/include $srcs; hierarchy -check -top $top"
  [ -n "$chp" ] && script+="; chparam$chp $top"
  script+="; proc; flatten; opt_clean; tee -o $out/$name.mem stat; synth_ecp5 -top $top; tee -o $out/$name.cells stat"
  inputs=""
  if [ -n "$record" ]; then
    inputs=$({ echo "$script"; yosys -V; cat $srcs rtl/include/*.svh; } | sha256sum | cut -c1-16)
    if [ "${LINT_RECORD:-0}" != 1 ] && [ -f "$record" ] && grep -qx "inputs $inputs" "$record"; then
      printf '  %-22s %10s %10s %12s %8s %8s   (%s: recorded for these inputs)\n' "$name" \
        $(awk '$1 == "figures" {print $2, $3, $4, $5, $6}' "$record") "$record"
      continue
    fi
    [ -f "$record" ] && echo "  ($name: $record is of other inputs: synthesizing; make lint-record records it)"
  fi
  if yosys -q -p "$script" >"$out/$name.yosys" 2>&1; then
    mem=$(awk '/Number of memory bits:/{print $NF}' "$out/$name.mem" | tail -1)
    cells=$(awk '/Number of cells:/{print $NF}' "$out/$name.cells" | tail -1)
    ff=$(awk '/TRELLIS_FF/{s+=$NF} END{print s+0}' "$out/$name.cells")
    lut=$(awk '/LUT4/{s+=$NF} END{print s+0}' "$out/$name.cells")
    bram=$(awk '/DP16KD/{s+=$NF} END{print s+0}' "$out/$name.cells")
    printf '  %-22s %10s %10s %12s %8s %8s\n' "$name" "$cells" "$ff" "${mem:-0}" "$lut" "$bram"
    if [ -n "$record" ] && [ "${LINT_RECORD:-0}" = 1 ]; then
      dsp=$(awk '/MULT18X18D/{s+=$NF} END{print s+0}' "$out/$name.cells")
      { echo "# $name synthesized by make lint's Yosys synth_ecp5 (scripts/lint.sh): written by make lint-record"
        echo "inputs $inputs"
        echo "yosys $(yosys -V)"
        echo "params ${params:-defaults}"
        echo "figures $cells $ff ${mem:-0} $lut $bram"
        echo "# cells flipflops memory_bits LUT4 DP16KD; MULT18X18D $dsp"; } > "$record"
      echo "  (recorded in $record)"
    fi
  else
    echo "  FAIL $name (see $out/$name.yosys)"; tail -5 "$out/$name.yosys"; fail=1
  fi
done

echo "== C: -Wall -Wextra -Werror"
cfail=0
for f in $c_srcs $(ls tests/*.c 2>/dev/null); do
  $cc_cmd "$f" -o /dev/null >>"$out/c.log" 2>&1 || { echo "  FAIL $f"; cfail=1; }
done
[ $cfail = 0 ] && echo "  ok   all C sources" || fail=1

[ $fail = 0 ] && echo "lint: clean" || echo "lint: FAILED"
exit $fail
