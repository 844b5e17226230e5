#!/usr/bin/env bash
# make demo's steps, in order: run_steps.sh LABEL CMD...  After each step one
# line "LABEL: step i/n NAME ok (N s, M s in all)", so that a long run says
# where it is between the steps' own output; the first step that fails ends
# the run with its exit status, named ("... FAILED (exit status N after M s)").
set -u
label=$1; shift
n=$# i=0 t0=$SECONDS
for step in "$@"; do
  i=$((i + 1)); start=$SECONDS
  $step; rc=$?
  name=${step##*/}
  if [ "$rc" -ne 0 ]; then
    echo "$label: step $i/$n $name FAILED (exit status $rc after $((SECONDS - start)) s)" >&2
    exit "$rc"
  fi
  echo "$label: step $i/$n $name ok ($((SECONDS - start)) s, $((SECONDS - t0)) s in all)"
done
