#!/usr/bin/env bash
# Test: preemption_latency --merge reports an experiment that runs a subset
# of EDGE Fig. 11's configurations (the counterfactuals, experiments/
# edge_fig11_*.ini) without calling the others failed, and still fails when
# a configuration some kernels ran is missing for another kernel.
set -u
b=${BUILD:-build}/bin/preemption_latency
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
base=(--config configs/edge.ini --exp configs/preemption_latency.ini --size test)
point() { # kernel opts-on(0|1) out
  "$b" "${base[@]}" --set preemption_latency.kernels="$1" --set preempt.enable=1 --set preempt.policy=oldest \
    --set preempt.opt_boost="$2" --set preempt.opt_ibuf="$2" --set preempt.opt_barskip="$2" --set preempt.opt_drop="$2" \
    --point --out "$3" >/dev/null 2>&1 || { echo "FAIL: point $1 $2 did not run"; exit 1; }
}
point mm 0 "$tmp/mm0.json"; point mm 1 "$tmp/mm1.json"; point bp 0 "$tmp/bp0.json"
fail=0
printf '%s\n' "$tmp/mm0.json" "$tmp/mm1.json" >"$tmp/ok.txt"
if "$b" "${base[@]}" --merge "$tmp/ok.txt" --out "$tmp/ok.json" >"$tmp/ok.log" 2>&1 &&
   grep -q 'oldest   (1 kernels)' "$tmp/ok.log" && ! grep -q FAILED "$tmp/ok.log"; then
  echo "ok: two of the fifteen configurations merge, the others not reported"
else echo "FAIL: a subset of the configurations did not merge cleanly"; cat "$tmp/ok.log"; fail=1; fi
printf '%s\n' "$tmp/mm0.json" "$tmp/mm1.json" "$tmp/bp0.json" >"$tmp/bad.txt"
if ! "$b" "${base[@]}" --merge "$tmp/bad.txt" --out "$tmp/bad.json" >"$tmp/bad.log" 2>&1 &&
   grep -q 'oldest/all *FAILED: no point' "$tmp/bad.log"; then
  echo "ok: a configuration one kernel lacks fails the merge"
else echo "FAIL: bp without oldest/all was not reported"; cat "$tmp/bad.log"; fail=1; fi
[ $fail = 0 ] && echo "check_pl_subset: passed"
exit $fail
