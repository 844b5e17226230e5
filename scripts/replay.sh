#!/usr/bin/env bash
# make replay (mk/replay.mk, docs/TRACES.md): records every block's lockstep
# trace, then replays each through the RTL in Icarus (scripts/trace_replay.py).
# Arguments: "prog|<test program>|<env>" for each recording run, then
# "model|<model>|<top>|<params>|<srcs>|<x-ok outputs>|<defparams>" for each replay.
# REPLAY_SEED=<n> repeats the recorded stimulus (default: a fresh seed,
# printed).  Exits non-zero on any mismatch, X, assertion or hang.
set -u
b=${BUILD:-build}
dir=$b/replay/traces
rm -rf "$dir" && mkdir -p "$dir"
seed=${REPLAY_SEED:-$(( ($(date +%s%N) / 1000) % 4294967296 ))}
t0=$(date +%s.%N)
fail=0
echo "== recording lockstep traces (FG_SEED=$seed; REPLAY_SEED=$seed repeats them)"
for spec in "$@"; do
  IFS='|' read -r kind prog envs <<<"$spec"
  [ "$kind" = prog ] || continue
  s=$(date +%s.%N)
  if env FG_SEED="$seed" FG_TRACE_DIR="$dir" $envs "$b/tests/$prog" >"$dir/$prog.log" 2>&1; then
    printf '  ok   %-22s %6.1f s\n' "$prog" "$(echo "$(date +%s.%N) - $s" | bc)"
  else
    echo "  FAIL $prog (the lockstep run itself failed: $dir/$prog.log)"; tail -5 "$dir/$prog.log"; fail=1
  fi
done
t1=$(date +%s.%N)
echo "== replaying in Icarus (iverilog -g2012, X-initialised; every output every cycle)"
for spec in "$@"; do
  IFS='|' read -r kind model top params srcs xok defp <<<"$spec"
  [ "$kind" = model ] || continue
  args=()
  for p in $params; do args+=(--param "$p"); done
  for x in $xok; do args+=(--x-ok "$x"); done
  for x in $defp; do args+=(--defparam "$x"); done
  if [ ! -s "$dir/$model.trace" ]; then echo "  FAIL $model: no trace recorded"; fail=1; continue; fi
  nice scripts/trace_replay.py --trace "$dir/$model.trace" --top "$top" --workdir "$b/replay/$model" \
    "${args[@]}" $srcs | sed 's/^/  /' ; [ "${PIPESTATUS[0]}" = 0 ] || fail=1
done
t2=$(date +%s.%N)
printf 'replay: recording %.0f s, Icarus %.0f s, total %.0f s: %s\n' "$(echo "$t1 - $t0" | bc)" \
  "$(echo "$t2 - $t1" | bc)" "$(echo "$t2 - $t0" | bc)" "$([ $fail = 0 ] && echo clean || echo FAILED)"
exit $fail
