#!/usr/bin/env bash
# Test: every kept fuzz input (tests/fuzz/corpus/<t>/) and
# the seeds (configs/, the built kernels) through the gcc build of each fuzz
# harness (mk/fuzz.mk); check_san.sh does the same under the sanitizers.
# TAP: one line per harness.
set -u
b=${BUILD:-build}
n=0 fail=0
for r in "config tests/fuzz/corpus/config configs" "elf tests/fuzz/corpus/elf $b/sw" "cli tests/fuzz/corpus/cli"; do
  set -- $r
  n=$((n + 1))
  log="$b/test-logs/fuzz_$1_replay.txt"
  mkdir -p "$b/test-logs"
  if "$b/tests/fuzz_$1_replay" "${@:2}" >"$log" 2>&1; then
    echo "ok $n - fuzz_$1: $(grep -c '^ok' "$log") inputs replayed"
  else
    fail=1
    grep -m5 -E "^not ok|ERROR" "$log" | sed 's/^/# /'
    echo "not ok $n - fuzz_$1 replay (log: $log)"
  fi
done
echo "1..$n"
exit $fail
