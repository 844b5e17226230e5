#!/usr/bin/env bash
# make test: EDGE's event path in logic, on the verilated SIMT top
# (fpga/finegrain_simt_ulx3s.sv, build/bin/fpga_simt_sim).  fg_host loads
# the IPv4 kernel, its route table and packets and a pointer-chasing
# background kernel over UARTBone, launches the background and rings the
# doorbells; every event preempts a background warp or takes a free slot.
# Every forwarded packet and every background word is checked against the C
# model (TAP, one line per check):
#   1-5 build/tests/test_fpga_simt: identity, the memory, its fill and check
#     engines, and the top's error paths (an access beyond the memory, events the
#     core cannot run, bad launches, a faulting warp), each flagged in
#     STATUS with nothing lost;
#   6 run-events ipv4 (a fresh seed each run) prints "0 mismatches" against
#     the C model and the host reference, and the background and the
#     image's every word at the end have none either (by the board's sums);
#   7 the events preempted background warps (more events than parameter
#     entries: slots are reused) and every victim resumed;
#   8-10 the same for ipv6, memc and ipsec (IPSec's image read back word by
#     word, --read-image);
#   11-14 an unknown kind, a background kernel the core cannot run, a route
#     table larger than the board's memory and a setting nobody reads are
#     refused with one line and exit 2, before or without touching the
#     board's state.
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

# each kind with a fresh seed (tables, requests, the background's table;
# FG_SEED repeats one): kind, TAP number, requests, what the line must say,
# fg_host options.  IPv4: 12 events of 32 packets (the last 16) through 8
# parameter entries, so slots are reused.
seed=${FG_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# run-events seed $seed (FG_SEED=$seed repeats it)"
run_kind() {  # kind, n, line, options...
  local kind=$1 n=$2 line=$3; shift 3
  local how="the board's sums"; case " $* " in *" --read-image "*) how="read back" ;; esac
  local o=$B/test-logs/fpga_simt_$kind.log
  timeout "${FPGA_HOST_SECONDS:-300}" "$B/bin/fg_host" "$P" run-events "$kind" "$@" --seed "$seed" --kdir "$B/sw" >"$o" 2>&1
  local rc=$?
  sed 's/^/# /' "$o"
  if [ $rc -eq 0 ] && grep -q "^$kind: $line, 0 mismatches against the C model ([1-9][0-9]* output words), 0 events unlike the host reference" "$o" &&
     grep -q "^background: 16 warps (t_preempt), 512 words, 0 mismatches against the C model" "$o" &&
     grep -q "^image: [1-9][0-9]* words, 0 mismatches against the C model's memory ($how)" "$o"; then
    ok "$n" "$kind: $line, 0 mismatches against the C model, the background's 512 words and the image's every word too"
  else nok "$n" "run-events $kind exit $rc, or not 0 mismatches"; fi
}
run_kind ipv4 6 "12 events, 368 packets forwarded" --packets 368 --slots 8 --bg-iters 200
cp "$B/test-logs/fpga_simt_ipv4.log" "$out"
pre=$(sed -n 's/^preemptions: \([0-9]*\) .*, \([0-9]*\) resumes.*/\1 \2/p' "$out")
if [ -n "$pre" ] && [ "${pre% *}" -ge 1 ] && [ "${pre% *}" = "${pre#* }" ]; then
  ok 7 "${pre% *} preemptions, as many resumes"
else nok 7 "no preemption, or not every victim resumed ('$pre')"; fi
run_kind ipv6 8 "3 events, 80 packets forwarded" --packets 80 --slots 2 --bg-iters 100
run_kind memc 9 "3 events, 96 GET requests answered" --packets 96 --slots 2 --bg-iters 100
run_kind ipsec 10 "6 events, 6 packets encrypted" --packets 6 --slots 4 --bg-iters 100 --read-image

refused() {  # n, what, expected message, fg_host arguments...
  local n=$1 what=$2 msg=$3; shift 3
  local o; o=$("$B/bin/fg_host" "$P" run-events "$@" --kdir "$B/sw" 2>&1); local r=$?
  if [ $r -eq 2 ] && [ "$(printf '%s\n' "$o" | grep -c .)" -eq 1 ] && printf '%s' "$o" | grep -q "$msg"; then ok "$n" "$what"
  else nok "$n" "$what: exit $r, '$o'"; fi
}
refused 11 "an unknown kind refused" "kind 'dns': ipv4, ipv6, memc or ipsec" dns
refused 12 "background mm refused" "no shared memory" ipv4 --background mm
refused 13 "a table larger than the memory refused" "do not fit in" ipv4 --set routes.count=3000 --set routes.blocks16=64 \
  --background none
refused 14 "a setting no kind reads refused" "routes.cuont" ipv4 --set routes.cuont=3 --background none
kill -0 "$FPGA_SIM_PID" 2>/dev/null || { echo "# fpga_simt_sim died:"; tail -5 "$simlog"; fail=1; }
exit $fail
