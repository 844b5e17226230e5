#!/usr/bin/env bash
# Runs every test program (cmocka, TAP output) with up to $1 in parallel,
# keeps each one's log under build/test-logs/, and ends with one line:
# "N passed, N failed".  A program that crashes or prints no TAP result
# counts as one failure; a skipped test (cmocka's skip()) counts as neither
# and is named on the line before.  Lines a program prints as "# report: ..." (e.g. the
# RISC-V conformance counts) are shown under its line.
set -u
jobs=$1; shift
logs=${BUILD:-build}/test-logs
rm -rf "$logs"; mkdir -p "$logs"
export CMOCKA_MESSAGE_OUTPUT=TAP
# the tests run side by side: each steps its GPU's cores on one thread
# (scripts/check_threads.sh sets the threads itself)
export FG_THREADS=${FG_THREADS:-1}

run_one() {
  local t=$1 logs=$2 name
  name=$(basename "${t%% *}")
  local start=$SECONDS
  bash -c "$t" >"$logs/$name.log" 2>&1
  echo "exit=$? seconds=$((SECONDS - start))" >>"$logs/$name.log"
}
export -f run_one

printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2"' _ {} "$logs"

passed=0; failed=0; skipped=0; skipped_names=""
for t in "$@"; do
  name=$(basename "${t%% *}")
  log="$logs/$name.log"
  # a skipped test (cmocka's skip(): "not ok N # SKIP name") is neither
  # passed nor failed: it is counted apart and named before the last line
  s=$(grep -cE '^(not )?ok [0-9]+ # SKIP' "$log")
  p=$(grep -E '^ok [0-9]+' "$log" | grep -cvE '^ok [0-9]+ # SKIP')
  f=$(grep -E '^not ok [0-9]+' "$log" | grep -cvE '^not ok [0-9]+ # SKIP')
  rc=$(sed -n 's/^exit=\([0-9]*\).*/\1/p' "$log" | tail -1)
  secs=$(sed -n 's/.*seconds=\([0-9]*\)/\1/p' "$log" | tail -1)
  if [ "$s" -gt 0 ]; then
    skipped=$((skipped + s))
    skipped_names+=" $(sed -n 's/^\(not \)\{0,1\}ok [0-9]* # SKIP \{0,1\}/'"$name"':/p' "$log" | tr '\n' ' ')"
  fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
    # not a TAP program: one test, judged by its exit code
    if [ "$rc" = 0 ]; then p=1; else f=1; fi
  elif [ "$rc" != 0 ] && [ "$f" -eq 0 ]; then
    f=1  # crashed after its last TAP line
  fi
  passed=$((passed + p)); failed=$((failed + f))
  status=PASS; [ "$p" -eq 0 ] && [ "$s" -gt 0 ] && status=SKIP; [ "$f" -gt 0 ] && status=FAIL
  extra=""; [ "$s" -gt 0 ] && extra=" ($s skipped)"
  printf '%-4s %-28s %3d passed %3d failed %4ss%s\n' "$status" "$name" "$p" "$f" "$secs" "$extra"
  sed -n 's/^# report: /     /p' "$log"
  if [ "$f" -gt 0 ]; then
    grep -E '^not ok|^# |Error|error|divergence|assert' "$log" | head -20 | sed 's/^/     /'
    echo "     (full log: $log)"
  fi
done
[ "$skipped" -gt 0 ] && echo "$skipped skipped, not counted below:$skipped_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
