#!/usr/bin/env bash
# Test (make test): the RTL SIMT core in Icarus, 4-state, against the verilated
# core.  tests/test_simt_rtl records a few of its lockstep runs in both
# configurations (FG_SIMT_TRACE_DIR: a riscv-test by a full warp, divergence
# and barriers, LR / SC locks and atomics, a small random program set; their
# memory, launches, retire / done / fault events and final memory, formats in
# tb/simt/simt_lockstep.h), then tb/simt/simt_core_tb.sv plays each run again
# in iverilog -g2012 (registers X until written, X on the inputs the contract
# leaves unread) and must write the same events and memory words, byte for
# byte, with no X or Z anywhere and no assertion failing.  One line per run;
# a run that does not end in time (FG_ICARUS_TIMEOUT_S seconds, default 15 +
# its cycles / 150: about five times what Icarus needs) fails with the last
# cycle it reached, and the configuration's other runs are not started.
# Usage: check_simt_icarus.sh [--replay]
#   --replay             replay the recordings already in $BUILD/simt_icarus (e.g. one edited)
#   SIMT_RTL_SRCS="..."  other RTL files than mk/simt_rtl.mk's (e.g. a patched copy)
set -u
cd "$(dirname "$0")/.."
b=${BUILD:-build}
out=$b/simt_icarus
mk() { make -s --no-print-directory "$@"; }

if [ "${1:-}" != --replay ]; then
  rm -rf "$out"
  mkdir -p "$out"
  mk "$b/tests/test_simt_rtl" >"$out/build.log" 2>&1 ||
    { tail -5 "$out/build.log"; echo "FAIL: cannot build $b/tests/test_simt_rtl ($out/build.log)"; exit 1; }
  # the runs (tests/test_simt_rtl.c rec_tests); FG_SEED fixed: the same runs whoever calls.
  # The riscv-test run needs the suite (mk/rvtest.mk): without it, said and left out.
  runs_rec="'* barrier' '* lrsc_lock' '* random_short'"
  if grep -q '^run rv32um mul$' "$b/rvtest/tests.list" 2>/dev/null; then runs_rec="'* rv32um-mul warp' $runs_rec"
  else echo "skip rv32um-mul-32: riscv-tests not found (RISCV_TESTS, mk/rvtest.mk)"; fi
  eval "set -- $runs_rec"
  for t in "$@"; do
    if ! FG_SEED=1 FG_SIMT_TRACE_DIR=$out FG_TEST="$t" "$b/tests/test_simt_rtl" >>"$out/record.log" 2>&1; then
      grep -m3 "ERROR\|FAIL" "$out/record.log"
      echo "FAIL: recording FG_TEST='$t' failed ($out/record.log)"
      exit 1
    fi
  done
fi

srcs=${SIMT_RTL_SRCS:-$(mk print-SIMT_RTL_SRCS)}
fail=0 runs=0 t0=$SECONDS
for c in $(mk print-SIMT_RTL_CORE_CONFIGS); do
  params=$(mk "print-SIMT_RTL_P_$c")
  vvp="$out/$c.vvp"
  # shellcheck disable=SC2086 # word lists
  if ! iverilog -g2012 -Irtl/include -s simt_core_tb $(printf -- '-Psimt_core_tb.%s ' $params) -o "$vvp" \
       $srcs tb/simt/simt_core_tb.sv >"$out/$c.iverilog.log" 2>&1; then
    grep -v 'sorry: constant selects\|cannot be synthesized' "$out/$c.iverilog.log" | head -5
    echo "FAIL $c: iverilog failed ($out/$c.iverilog.log)"; fail=1; continue
  fi
  hung=""
  for launch in "$out/$c"-*.launch; do
    [ -e "$launch" ] || { echo "FAIL $c: no recorded run ($out/record.log)"; fail=1; break; }
    r=${launch%.launch} name=$(basename "${launch%.launch}")
    [ -n "$hung" ] && { echo "FAIL $name: not run ($hung did not end)"; fail=1; continue; }
    limit=${FG_ICARUS_TIMEOUT_S:-$((15 + $(tail -1 "$r.trace" | awk '{print $2}') / 150))}
    runs=$((runs + 1)) s=$SECONDS
    # SIGINT: vvp -n finishes, and the bench says which cycle it was in
    timeout -k 5 -s INT "$limit" vvp -n "$vvp" +mem="$r.mem" +launch="$launch" +out="$r.got.trace" \
      +memout="$r.memout" +memout_out="$r.got.memout" </dev/null >"$r.vvp.log" 2>&1
    rc=$? dt=$((SECONDS - s))
    why=""
    if [ $rc = 124 ] || [ $rc = 137 ]; then
      last=$(sed -n 's/.*stopped in cycle \([0-9]*\).*/\1/p' "$r.vvp.log")
      why="no end after $limit s, stopped in cycle ${last:-?} of $(tail -1 "$r.trace" | awk '{print $2}')"
      why="$why (a zero-time loop?)"
      hung=$name
    elif grep -q "ERROR\|FG_ASSERT\|FG_ASSUME\|WARNING" "$r.vvp.log"; then
      why="$(grep -m1 "ERROR\|FG_ASSERT\|FG_ASSUME\|WARNING" "$r.vvp.log")"
    elif [ $rc != 0 ] || [ ! -s "$r.got.memout" ]; then
      why="vvp exit $rc, no memory dump"
    else
      for k in trace memout; do
        bad=$(grep -n -m1 '[xXzZ]' "$r.got.$k")
        [ -n "$bad" ] && { why="X or Z in the $k, line $bad"; break; }
        if ! cmp -s "$r.$k" "$r.got.$k"; then
          d=$(cmp "$r.$k" "$r.got.$k" 2>&1)
          n=$(echo "$d" | sed -n 's/.*line \([0-9]*\).*/\1/p')
          # one file a prefix of the other: the first line the shorter lacks
          case $d in *EOF*) n=$((${n:-0} + 1)) ;; esac
          why="$k line $n: expected '$(sed -n "${n}p" "$r.$k")' got '$(sed -n "${n}p" "$r.got.$k")'"
          break
        fi
      done
    fi
    if [ -n "$why" ]; then
      echo "FAIL $name: $why ($r.*)"; fail=1
    else
      echo "ok   $name: $(tail -1 "$r.trace" | awk '{print $2 + 1}') cycles, $(grep -c '^R' "$r.trace") retire" \
           "beats, $(wc -l <"$r.memout") words, ${dt} s"
    fi
  done
done
[ $fail = 0 ] && echo "simt_core in Icarus: $runs recorded runs replayed, events and memory as the verilated" \
                      "core's, no X, $((SECONDS - t0)) s"
exit $fail
