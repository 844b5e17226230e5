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
total=$((n * $#))
echo "soak: $# test programs x $n seeds, $jobs at a time, SOAK_MASTER=$master, FG_IMPL=${FG_IMPL:-lockstep}"

run_one() {  # <program> <seed>; appends "<test> <seed> <exit> <seconds>" to runs.txt
  local t=$1 seed=$2 name log rc start=$SECONDS ndone
  name=$(basename "$t"); log=$out/$name/$seed.log
  FG_SEED=$seed timeout "$timeout_s" "$t" >"$log" 2>&1; rc=$?
  if [ "$rc" -eq 0 ]; then
    rm -f "$log"
  else
    echo "$name $seed" >>"$out/failures.txt"
    echo "  FAIL $name FG_SEED=$seed (exit $rc, log: $log)"
  fi
  echo "$name $seed $rc $((SECONDS - start))" >>"$out/runs.txt"
  ndone=$(wc -l <"$out/runs.txt")
  if [ $((ndone % 500)) -eq 0 ]; then echo "  $ndone / $total runs"; fi
}
export -f run_one
export out timeout_s total

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
echo "soak: $ran runs ($# programs x $n seeds, SOAK_MASTER=$master), $fails failed, $((SECONDS - start)) s"
[ "$fails" -eq 0 ] && [ "$ran" -eq "$total" ]
