#!/usr/bin/env bash
# make test: EDGE's event path in logic, on the verilated SIMT top
# (fpga/finegrain_simt_ulx3s.sv, build/bin/fpga_simt_sim).  fg_host loads
# the IPv4 kernel, its route table and packets and a pointer-chasing
# background kernel over UARTBone, launches the background and rings the
# doorbells; every event preempts a background warp or takes a free slot.
# Every forwarded packet and every background word is checked against the C
# model (TAP, one line per check):
#   1-4 build/tests/test_fpga_simt: identity, the memory and its fill engine,
#     and the top's error paths (an access beyond the memory, events the
#     core cannot run, bad launches, a faulting warp), each flagged in
#     STATUS with nothing lost;
#   5 run-events (a fresh seed each run) prints "0 mismatches" against the
#     C model and the host reference, and the background has none either;
#   6 the events preempted background warps (more events than parameter
#     entries: slots are reused) and every victim resumed;
#   7-9 a kind the top does not run, a background kernel the core cannot run
#     and a route table larger than the board's memory are refused with one
#     line and exit 2, before or without touching the board's state.
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
mkdir -p "$B/test-logs"
simlog=$B/test-logs/fpga_simt_sim.log
out=$B/test-logs/fpga_simt_run.log
. scripts/fpga_sim_lib.sh
if ! fpga_sim_start "$B/bin/fpga_simt_sim" "$simlog" "${FPGA_SIM_SECONDS:-600}"; then
  echo "not ok 1 - fpga_simt_sim did not start"; cat "$simlog"; exit 1
fi
P=tcp:127.0.0.1:$FPGA_SIM_PORT
echo "# fpga_simt_sim on ${P#tcp:}"
fail=0
ok() { echo "ok $1 - $2"; }
nok() { echo "not ok $1 - $2"; fail=1; }
FG_FPGA=$P CMOCKA_MESSAGE_OUTPUT=TAP timeout "${FPGA_HOST_SECONDS:-300}" "$B/tests/test_fpga_simt" || fail=1

# 12 events of 32 packets (the last 16) through 8 parameter entries; a fresh
# seed each run (routes, packets, the background's table), FG_SEED repeats one
seed=${FG_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# run-events seed $seed (FG_SEED=$seed repeats it)"
timeout "${FPGA_HOST_SECONDS:-300}" "$B/bin/fg_host" "$P" run-events ipv4 --packets 368 --slots 8 --bg-iters 200 \
  --seed "$seed" --kdir "$B/sw" >"$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
if [ $rc -eq 0 ] && grep -q "^ipv4: 12 events, 368 packets forwarded, 0 mismatches against the C model, 0 against the host reference" "$out" &&
   grep -q "^background: 16 warps (t_preempt), 512 words, 0 mismatches against the C model" "$out"; then
  ok 5 "368 packets and 512 background words, 0 mismatches against the C model"
else nok 5 "run-events exit $rc, or not 0 mismatches"; fi
pre=$(sed -n 's/^preemptions: \([0-9]*\) .*, \([0-9]*\) resumes.*/\1 \2/p' "$out")
if [ -n "$pre" ] && [ "${pre% *}" -ge 1 ] && [ "${pre% *}" = "${pre#* }" ]; then
  ok 6 "${pre% *} preemptions, as many resumes"
else nok 6 "no preemption, or not every victim resumed ('$pre')"; fi

refused() {  # n, what, expected message, fg_host arguments...
  local n=$1 what=$2 msg=$3; shift 3
  local o; o=$("$B/bin/fg_host" "$P" run-events "$@" --kdir "$B/sw" 2>&1); local r=$?
  if [ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c .)" -eq 1 ] && printf '%s' "$o" | grep -q "$msg"; then ok "$n" "$what"
  else nok "$n" "$what: exit $r, '$o'"; fi
}
refused 7 "kind ipv6 refused" "only ipv4 runs on the SIMT top" ipv6
refused 8 "background mm refused" "no shared memory" ipv4 --background mm
refused 9 "a table larger than the memory refused" "do not fit in" ipv4 --routes 3000 --blocks16 64 --background none
kill -0 "$FPGA_SIM_PID" 2>/dev/null || { echo "# fpga_simt_sim died:"; tail -5 "$simlog"; fail=1; }
exit $fail
