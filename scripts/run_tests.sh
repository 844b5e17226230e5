#!/usr/bin/env bash
# Runs every test program (cmocka, TAP output) with up to $1 in parallel,
# keeps each one's log under build/test-logs/ and prints each one's line
# (result, counts, seconds) as it finishes; on a terminal also a progress
# line (done / total, running, ETA from the last run's times in
# build/test-times.txt).  The last line is "N passed, N failed" (CI parses
# it).  A program that crashes or prints no TAP result counts as one
# failure; a skipped test (cmocka's skip()) counts as neither and is named
# on the line before.  Lines a program prints as "# report: ..." (e.g. the
# RISC-V conformance counts) are shown under its line.
set -u
jobs=$1; shift
logs=${BUILD:-build}/test-logs
times=${BUILD:-build}/test-times.txt
rm -rf "$logs"; mkdir -p "$logs/.start"
: >"$logs/.done"
export CMOCKA_MESSAGE_OUTPUT=TAP
# the tests run side by side: each steps its GPU's cores on one thread
# (scripts/check_threads.sh sets the threads itself)
export FG_THREADS=${FG_THREADS:-1}
# on a terminal each line first clears the progress line
FG_CLR=""; [ -t 1 ] && [ "${TERM:-dumb}" != dumb ] && FG_CLR=$'\r\033[K'
export FG_CLR

# one test's line (and its reports, and on failure the log's telling lines),
# written at once so that lines of tests finishing together do not mix
summarize() {
  local name=$1 logs=$2 log="$2/$1.log" s p f rc secs status extra text
  # a skipped test (cmocka's skip(): "not ok N # SKIP name") is neither
  # passed nor failed: it is counted apart and named before the last line
  s=$(grep -cE '^(not )?ok [0-9]+ # SKIP' "$log")
  p=$(grep -E '^ok [0-9]+' "$log" | grep -cvE '^ok [0-9]+ # SKIP')
  f=$(grep -E '^not ok [0-9]+' "$log" | grep -cvE '^not ok [0-9]+ # SKIP')
  rc=$(sed -n 's/^exit=\([0-9]*\).*/\1/p' "$log" | tail -1)
  secs=$(sed -n 's/.*seconds=\([0-9]*\)/\1/p' "$log" | tail -1)
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
    # not a TAP program: one test, judged by its exit code
    if [ "$rc" = 0 ]; then p=1; else f=1; fi
  elif [ "$rc" != 0 ] && [ "$f" -eq 0 ]; then
    f=1  # crashed after its last TAP line
  fi
  status=PASS; [ "$p" -eq 0 ] && [ "$s" -gt 0 ] && status=SKIP; [ "$f" -gt 0 ] && status=FAIL
  extra=""; [ "$s" -gt 0 ] && extra=" ($s skipped)"
  text=$(printf '%s%-4s %-28s %3d passed %3d failed %4ss%s\n' "$FG_CLR" "$status" "$name" "$p" "$f" "$secs" "$extra"
         sed -n 's/^# report: /     /p' "$log"
         if [ "$f" -gt 0 ]; then
           grep -E '^not ok|^# |Error|error|divergence|assert' "$log" | head -20 | sed 's/^/     /'
           echo "     (full log: $log)"
         fi)
  printf '%s\n' "$text"
  echo "$name $p $f $s $secs" >>"$logs/.done"
}

run_one() {
  local t=$1 logs=$2 name
  name=$(basename "${t%% *}")
  local start=$SECONDS
  date +%s >"$logs/.start/$name"
  bash -c "$t" >"$logs/$name.log" 2>&1
  echo "exit=$? seconds=$((SECONDS - start))" >>"$logs/$name.log"
  summarize "$name" "$logs"
}
export -f run_one summarize

# the progress line: done / total, running, elapsed, and the ETA: every
# unfinished test's time in the last run (else the mean so far), less what
# a running one has run, over the jobs
progress() {
  local total=$1 t0=$2 now line
  while sleep 1; do
    now=$(date +%s)
    line=$(awk -v now="$now" -v jobs="$jobs" -v total="$total" -v t0="$t0" '
      FILENAME == ARGV[1] { prev[$1] = $2; next }
      FILENAME == ARGV[2] { done[$1] = 1; n++; sum += $5; next }
      FILENAME == ARGV[3] { all[$1] = 1; next }
      { split(FILENAME, a, "/"); start[a[length(a)]] = $1 }
      END {
        mean = n ? sum / n : -1; work = 0; running = 0
        for (t in start) if (!(t in done)) running++
        for (t in all) {
          if (t in done) continue
          e = (t in prev) ? prev[t] : mean
          if (e < 0) { work = -1; break }
          if (t in start) { e -= now - start[t]; if (e < 0) e = 0 }
          work += e
        }
        eta = work < 0 ? "?" : sprintf("%d:%02d", int(work / jobs) / 60, int(work / jobs) % 60)
        el = now - t0
        printf "tests: %d/%d done, %d running | elapsed %d:%02d | ETA %s", n, total, running, el / 60, el % 60, eta
      }' "$times" "$logs/.done" "$logs/.names" /dev/null "$logs"/.start/* 2>/dev/null)
    printf '\r\033[K%s' "$line"
  done
}

for t in "$@"; do basename "${t%% *}"; done >"$logs/.names"
[ -f "$times" ] || : >"$times"
ticker=""
if [ -n "$FG_CLR" ]; then
  progress $# "$(date +%s)" &
  ticker=$!
fi
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2"' _ {} "$logs"
if [ -n "$ticker" ]; then
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null
  printf '\r\033[K'
fi

# this run's times for the next run's ETA (tests not run this time keep theirs)
awk 'FILENAME == ARGV[1] { t[$1] = $5; next } !($1 in t) { t[$1] = $2 }
     END { for (n in t) print n, t[n] }' "$logs/.done" "$times" | sort >"$times.tmp" && mv "$times.tmp" "$times"

passed=0; failed=0; skipped=0; skipped_names=""; failed_names=""
while read -r name p f s _; do
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$s" -gt 0 ]; then
    skipped=$((skipped + s))
    skipped_names+=" $(sed -n 's/^\(not \)\{0,1\}ok [0-9]* # SKIP \{0,1\}/'"$name"':/p' "$logs/$name.log" | tr '\n' ' ')"
  fi
  [ "$f" -gt 0 ] && failed_names+=" $name"
done <"$logs/.done"
# a test that never reported (killed runner): a failure, named
for t in "$@"; do
  name=$(basename "${t%% *}")
  grep -q "^$name " "$logs/.done" || { failed=$((failed + 1)); failed_names+=" $name(no-result)"; }
done
[ -n "$failed_names" ] && echo "failed:$failed_names   (logs in $logs/)"
[ "$skipped" -gt 0 ] && echo "$skipped skipped, not counted below:$skipped_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
