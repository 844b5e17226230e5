#!/usr/bin/env bash
# Test wrapper (make test): edge_preempt in Icarus, random, not replayed
# (tb/edge_preempt_rand_tb.sv: a fake core driving the ports as the twin's
# contract says, the victim's and the pick's status from victim_o).  Each
# seed must run its cycles to the end, with no X on an output after reset
# and no assertion failing; a run that stops advancing (a zero-time loop
# among always_comb blocks, docs/RTL_STYLE.md) is stopped after
# FG_ICARUS_TIMEOUT_S seconds and reported with the last cycle it reached.
# Usage: check_preempt_icarus.sh [CYCLES [SEEDS...]]   (3000; seeds 1 2)
set -u
cd "$(dirname "$0")/.."
out=${BUILD:-build}/preempt_icarus; mkdir -p "$out"
cycles=${1:-3000}; shift 2>/dev/null
seeds=${*:-1 2}
limit=${FG_ICARUS_TIMEOUT_S:-300}
srcs="rtl/edge/edge_pkg.sv rtl/edge/edge_preempt_timer.sv rtl/edge/edge_preempt_age.sv rtl/edge/edge_preempt.sv"
fail=0
for s in $seeds; do
  vvp="$out/seed$s.vvp" log="$out/seed$s.log"
  if ! iverilog -g2012 -Irtl/include -s edge_preempt_rand_tb -P edge_preempt_rand_tb.CYCLES="$cycles" \
       -P edge_preempt_rand_tb.SEED="$s" -o "$vvp" $srcs tb/edge_preempt_rand_tb.sv >"$out/seed$s.build.log" 2>&1; then
    grep -v warning "$out/seed$s.build.log" | head -5
    echo "FAIL seed $s: iverilog failed ($out/seed$s.build.log)"; fail=1; continue
  fi
  t0=$(date +%s)
  timeout "$limit" vvp -n "$vvp" +progress >"$log" 2>&1; rc=$?
  dt=$(( $(date +%s) - t0 ))
  last=$(grep -o 'RAND-CYCLE [0-9]*' "$log" | tail -1 | awk '{print $2}')
  if [ $rc = 124 ]; then
    echo "FAIL seed $s: no end after ${limit} s, last cycle reached ${last:-0} of $cycles (a zero-time loop? $log)"
    fail=1
  elif grep -q "RAND-FAIL\|FG_ASSERT\|FG_ASSUME\|ERROR" "$log" || ! grep -q "^RAND-DONE cycles $cycles " "$log"; then
    grep -m3 "RAND-FAIL\|FG_ASSERT\|FG_ASSUME\|ERROR" "$log"
    echo "FAIL seed $s: exit $rc after cycle ${last:-0} ($log)"; fail=1
  else
    echo "ok   seed $s: $(grep '^RAND-DONE' "$log") in ${dt} s"
  fi
done
[ $fail = 0 ] && echo "edge_preempt Icarus random run: seeds $seeds, $cycles cycles each, no hang, no X, no assertion"
exit $fail
