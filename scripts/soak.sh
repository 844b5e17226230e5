#!/usr/bin/env bash
# make soak: runs each block test program given (mk: SOAK_TESTS) once per
# seed, SOAK_SEEDS fresh seeds each (default 500), up to $1 runs at a time,
# and ends with one summary line.  Not part of make test.
#
# Seed i is SOAK_MASTER + i * 0x9e3779b97f4a7c15 (mod 2^64), the same list for
# every block; SOAK_MASTER (default: the clock, printed) repeats a whole soak.
# FG_IMPL and FG_CYCLES pass through (default: lockstep, each test's own
# length).  Fixed-seed regression tests (test_seed_*) are skipped: they never
# change.  A run fails on a non-zero exit or after SOAK_TIMEOUT seconds
# (default 600); its log stays as <build>/soak/<test>/<seed>.log and a line
# "<test> <seed>" goes to <build>/soak/failures.txt (repeat it with
# FG_SEED=<seed> build/tests/<test>).  Exits non-zero on any failure.
#
# SOAK_CYCLES=N (make soak CYCLES=N; issue 15 item 5): only the random
# lockstep tests (FG_TEST='*random*'), FG_CYCLES cycles each (default 10^6),
# as many seeds as it takes to reach N cycles in all (counted as FG_CYCLES
# per run: the stimulus length asked for; some tests add drain cycles),
# printing cycles per second as it goes and stopping at the first failing
# seed (runs not yet started are skipped).
set -u
jobs=$1; shift
n=${SOAK_SEEDS:-500}
master=${SOAK_MASTER:-$(date +%s%N)}
timeout_s=${SOAK_TIMEOUT:-600}
out=${BUILD:-build}/soak
rm -rf "$out"; mkdir -p "$out"
for t in "$@"; do mkdir -p "$out/$(basename "$t")"; done
: >"$out/runs.txt"; : >"$out/failures.txt"
export FG_TEST_SKIP='test_seed_*'
stop_first=0 per_run=0
if [ -n "${SOAK_CYCLES:-}" ]; then
  per_run=${FG_CYCLES:-1000000}
  export FG_CYCLES=$per_run FG_TEST='*random*'
  n=$(( (SOAK_CYCLES + per_run * $# - 1) / (per_run * $#) ))
  stop_first=1
fi
total=$((n * $#))
echo "soak: $# test programs x $n seeds, $jobs at a time, SOAK_MASTER=$master, FG_IMPL=${FG_IMPL:-lockstep}" \
  "${SOAK_CYCLES:+(random lockstep only, $per_run cycles a run, $SOAK_CYCLES cycles in all, stopping at the first failure)}"

run_one() {  # <program> <seed>; appends "<test> <seed> <exit> <seconds>" to runs.txt
  local t=$1 seed=$2 name log rc start=$SECONDS ndone
  name=$(basename "$t"); log=$out/$name/$seed.log
  [ "$stop_first" = 1 ] && [ -e "$out/stop" ] && return 0
  FG_SEED=$seed timeout "$timeout_s" "$t" >"$log" 2>&1; rc=$?
  if [ "$rc" -eq 0 ]; then
    rm -f "$log"
  else
    echo "$name $seed" >>"$out/failures.txt"
    [ "$stop_first" = 1 ] && touch "$out/stop"
    echo "  FAIL $name FG_SEED=$seed (exit $rc, log: $log)"
  fi
  echo "$name $seed $rc $((SECONDS - start))" >>"$out/runs.txt"
  ndone=$(wc -l <"$out/runs.txt")
  if [ "$per_run" -gt 0 ] && [ $((ndone % 50)) -eq 0 ]; then
    local el=$(( $(date +%s) - t0 ))
    echo "  $ndone / $total runs, $((ndone * per_run)) cycles, $(( ndone * per_run / (el > 0 ? el : 1) )) cycles/s"
  elif [ $((ndone % 500)) -eq 0 ]; then echo "  $ndone / $total runs"; fi
}
export -f run_one
t0=$(date +%s)
export out timeout_s total stop_first per_run t0

start=$SECONDS
for ((i = 0; i < n; i++)); do  # seed-major: every block advances together
  seed=$(printf '%u' $((master + i * 0x9e3779b97f4a7c15)))
  for t in "$@"; do echo "$t $seed"; done
done | xargs -P "$jobs" -n 2 bash -c 'run_one "$1" "$2"' _

fails=0
for t in "$@"; do
  name=$(basename "$t")
  r=$(awk -v t="$name" '$1 == t' "$out/runs.txt" | wc -l)
  f=$(awk -v t="$name" '$1 == t && $3 != 0' "$out/runs.txt" | wc -l)
  fails=$((fails + f))
  printf '%-24s %5d seeds run %4d failures\n' "$name" "$r" "$f"
done
ran=$(wc -l <"$out/runs.txt")
el=$((SECONDS - start))
if [ "$per_run" -gt 0 ]; then
  done_runs=$(awk '$3 == 0' "$out/runs.txt" | wc -l)
  echo "soak: $((done_runs * per_run)) cycles of random lockstep passed in $el s," \
    "$((done_runs * per_run / (el > 0 ? el : 1))) cycles/s over $jobs jobs"
  [ -s "$out/failures.txt" ] && echo "soak: stopped at the first failure: $(head -1 "$out/failures.txt")" \
    "(repeat with FG_SEED=<seed> $BUILD/tests/<test>)"
fi
echo "soak: $ran runs ($# programs x $n seeds, SOAK_MASTER=$master), $fails failed, $el s"
[ "$fails" -eq 0 ] && [ "$ran" -eq "$total" ]
