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
# Each top's synthesis is recorded in $record, one line per top: its name, a
# hash of its inputs (the script, the Yosys version, every source and include
# file) and its figures.  A top whose recorded inputs are these shows the
# record (Yosys takes minutes on the larger tops); any other is synthesized
# here, and LINT_RECORD=1 (`make lint-record`) writes its line.
record=${LINT_SYNTH_RECORD:-fpga/lint_synth.txt}
yver=$(yosys -V)
incs=$(ls rtl/include/*.svh)
nrec=0; nsyn=0
for spec in "$@"; do
  IFS='|' read -r name top params srcs <<<"$spec"
  chp=""; for p in $params; do chp+=" -set ${p%%=*} ${p#*=}"; done
  script="read_verilog -sv -noassert -Irtl/include $srcs; hierarchy -check -top $top"
  [ -n "$chp" ] && script+="; chparam$chp $top"
  script+="; proc; flatten; opt_clean; tee -o $out/$name.mem stat; synth_ecp5 -top $top; tee -o $out/$name.cells stat"
  inputs=$({ echo "$script"; echo "$yver"; cat $srcs $incs; } | sha256sum | cut -c1-16)
  rec=$([ -f "$record" ] && awk -v n="$name" -v i="$inputs" '$1 == n && $2 == i' "$record")
  if [ "${LINT_RECORD:-0}" != 1 ] && [ -n "$rec" ]; then
    read -r _ _ cells ff mem lut bram _ <<<"$rec"
    printf '  %-22s %10s %10s %12s %8s %8s   (recorded)\n' "$name" "$cells" "$ff" "$mem" "$lut" "$bram"
    nrec=$((nrec + 1)); continue
  fi
  if yosys -q -p "$script" >"$out/$name.yosys" 2>&1; then
    mem=$(awk '/Number of memory bits:/{print $NF}' "$out/$name.mem" | tail -1)
    cells=$(awk '/Number of cells:/{print $NF}' "$out/$name.cells" | tail -1)
    ff=$(awk '/TRELLIS_FF/{s+=$NF} END{print s+0}' "$out/$name.cells")
    lut=$(awk '/LUT4/{s+=$NF} END{print s+0}' "$out/$name.cells")
    bram=$(awk '/DP16KD/{s+=$NF} END{print s+0}' "$out/$name.cells")
    dsp=$(awk '/MULT18X18D/{s+=$NF} END{print s+0}' "$out/$name.cells")
    printf '  %-22s %10s %10s %12s %8s %8s\n' "$name" "$cells" "$ff" "${mem:-0}" "$lut" "$bram"
    nsyn=$((nsyn + 1))
    if [ "${LINT_RECORD:-0}" = 1 ]; then
      mkdir -p "$(dirname "$record")"
      { [ -f "$record" ] && grep -v "^$name " "$record" | grep -v '^#'
        echo "$name $inputs $cells $ff ${mem:-0} $lut $bram $dsp"; } | sort > "$record.tmp"
      { echo "# make lint's Yosys synth_ecp5 per top (scripts/lint.sh; make lint-record): $yver"
        echo "# name inputs cells flipflops memory_bits LUT4 DP16KD MULT18X18D"
        cat "$record.tmp"; } > "$record"; rm -f "$record.tmp"
    fi
  else
    echo "  FAIL $name (see $out/$name.yosys)"; tail -5 "$out/$name.yosys"; fail=1
  fi
done
if [ "${LINT_RECORD:-0}" = 1 ]; then echo "  (recorded in $record)"
elif [ $nsyn -gt 0 ] && [ $nrec -gt 0 ]; then echo "  ($nsyn synthesized: their inputs differ from $record; make lint-record records them)"
elif [ $nsyn -gt 0 ]; then echo "  (synthesized: no record of these inputs in $record; make lint-record records them)"; fi

echo "== C: -Wall -Wextra -Werror"
cfail=0
for f in $c_srcs $(ls tests/*.c 2>/dev/null); do
  $cc_cmd "$f" -o /dev/null >>"$out/c.log" 2>&1 || { echo "  FAIL $f"; cfail=1; }
done
[ $cfail = 0 ] && echo "  ok   all C sources" || fail=1

[ $fail = 0 ] && echo "lint: clean" || echo "lint: FAILED"
exit $fail
