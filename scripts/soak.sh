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
# (default 600).  Each soak keeps its files in a folder of its own,
# <build>/soak/<date>-<time>-<SOAK_MASTER>/ (<build>/soak/latest points to the
# newest; earlier soaks' logs are never deleted): a failing run's log stays as
# <test>/<seed>.log there and a line "<test> <seed>" goes to failures.txt
# (repeat it with FG_SEED=<seed> build/tests/<test>).  Exits non-zero on any
# failure.
#
# Numbers (SOAK_SEEDS, SOAK_MASTER, SOAK_TIMEOUT, SOAK_CYCLES, FG_CYCLES,
# JOBS): decimal digits or 0x and hex digits, as every option of the project
# (docs/ARCHITECTURE.md "Options and numbers"): CYCLES=2e8 is refused, before
# anything runs.  `soak.sh --check JOBS` only checks them (make soak does,
# before it builds).
#
# SOAK_CYCLES=N (make soak CYCLES=N): only the random
# lockstep tests (FG_TEST='*random*'), FG_CYCLES cycles each (default 10^6),
# as many seeds as it takes to reach N cycles in all (counted as FG_CYCLES
# per run: the stimulus length asked for; some tests add drain cycles),
# printing cycles per second as it goes and stopping at the first failing
# seed (runs not yet started are skipped).
set -u
check_only=0
[ "${1:-}" = --check ] && { check_only=1; shift; }
num() {  # NAME VALUE MIN: a whole number (at most 63 bits) >= MIN, else exit 2 with one line
  local v=$2
  if ! [[ $v =~ ^([1-9][0-9]{0,18}|0|0[xX][0-9a-fA-F]{1,16})$ ]] ||
     { [ ${#v} = 19 ] && [[ $v > 9223372036854775807 ]]; } || [[ $v =~ ^0[xX][89a-fA-F].{15}$ ]]; then
    if [[ $v =~ ^0[0-9]+$ ]]; then why="a decimal with a leading zero is refused (it is not read as octal)"
    elif [[ $v =~ ^[0-9]+$|^0[xX] ]]; then why="too large (at most 2^63 - 1)"
    else why="expected a whole number: decimal digits or 0x and hex digits (no exponent or suffix; e.g. 200000000)"; fi
    echo "soak: $1 '$v': $why" >&2; exit 2
  fi
  if (( v < $3 )); then echo "soak: $1 $v: must be at least $3" >&2; exit 2; fi
}
num JOBS "${1:-}" 1
num SOAK_SEEDS "${SOAK_SEEDS:-500}" 1
[ -n "${SOAK_MASTER:-}" ] && num SOAK_MASTER "$SOAK_MASTER" 0
num SOAK_TIMEOUT "${SOAK_TIMEOUT:-600}" 1
[ -n "${SOAK_CYCLES:-}" ] && num CYCLES "$SOAK_CYCLES" 1
[ -n "${FG_CYCLES:-}" ] && num FG_CYCLES "$FG_CYCLES" 1
[ "$check_only" = 1 ] && exit 0
jobs=$(( $1 )); shift
n=$(( ${SOAK_SEEDS:-500} ))
master=$(( ${SOAK_MASTER:-$(date +%s%N)} ))
timeout_s=$(( ${SOAK_TIMEOUT:-600} ))
soaks=${BUILD:-build}/soak
out=$soaks/$(date +%Y%m%d-%H%M%S)-$master
mkdir -p "$out" && ln -sfn "$(basename "$out")" "$soaks/latest"
for t in "$@"; do mkdir -p "$out/$(basename "$t")"; done
: >"$out/runs.txt"; : >"$out/failures.txt"
export FG_TEST_SKIP='test_seed_*'
stop_first=0 per_run=0
if [ -n "${SOAK_CYCLES:-}" ]; then
  per_run=$(( ${FG_CYCLES:-1000000} ))
  export FG_CYCLES=$per_run FG_TEST='*random*'
  n=$(( (SOAK_CYCLES + per_run * $# - 1) / (per_run * $#) ))
  stop_first=1
fi
total=$((n * $#))
echo "soak: $# test programs x $n seeds, $jobs at a time, SOAK_MASTER=$master, files in $out, FG_IMPL=${FG_IMPL:-lockstep}" \
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
