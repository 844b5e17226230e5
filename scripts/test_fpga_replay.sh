#!/usr/bin/env bash
# make test: the FPGA top's trace player (docs/FPGA.md, "The trace player")
# in the verilated top, build/bin/fpga_sim, driven by `fg_host replay`.
#
#  1. Port traces of every block the player drives, recorded from system runs
#     at test time (FG_TRACE_DIR, docs/TRACES.md; lockstep, so the recorded
#     outputs are the RTL's and the C twin's alike): a launch_latency point
#     (doorbell, EKT), a preemption_latency point on one SIMT core (PEWT,
#     preemption controller: FLUSH, START and RESUME in the trace), an F/E
#     Fig. 11 point (F/E queues), a cm_run (CM-BAL monitor, one interval end).
#  2. Bad input refused before anything is sent, each with its message.
#  3. Each trace replayed through fpga_sim: zero mismatches.
#  4. Deliberately corrupted traces (one output bit flipped at one line) reported
#     at exactly that cycle and port.
#  5. A simulator that stops answering mid-load: a diagnosis, no hang.
# TAP; exit 1 on any failure.  The simulator is always stopped.
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
d=$B/test-logs/fpga_replay
rm -rf "$d"
mkdir -p "$d/ll" "$d/pl" "$d/fe" "$d/cm"
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; fail=1; }
t0=$(date +%s)

# ---------------------------------------------------------------- 1. record
rec() {  # rec DIR ENV... -- PROGRAM ARGS...
  local dir=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env FG_TRACE_DIR="$dir" "${envs[@]}" "$@" >"$dir/run.log" 2>&1
}
rec "$d/ll" -- "$B/bin/launch_latency" --point --impl lockstep --events 3 --threads 1 --out "$d/ll/point.json" &&
rec "$d/pl" FG_TRACE_CYCLES=3400 FG_TRACE_INST=3400 -- "$B/bin/preemption_latency" --point --size test \
    --kernels mm --impl lockstep --threads 1 --set gpu.num_cores=1 --set preemption_latency.warmup_cycles=300 \
    --set preemption_latency.gap_cycles=300 --set preemption_latency.max_events=4 --out "$d/pl/point.json" &&
rec "$d/fe" FG_TRACE_CYCLES=16700 FG_TRACE_INST=16700 -- "$B/bin/fe_fig11" --point --bench vectorAdd \
    --variant full_overlap --small --impl lockstep --out "$d/fe/point.json" &&
rec "$d/cm" -- "$B/bin/cm_run" --mix L1 --gpu mm --gpu-size test --scheme cm_bal1 --warmup 0 --cycles 5200 \
    --set cmbal.impl=lockstep --threads 1 --out "$d/cm/run.json"
rc=$?
DB=$d/ll/edge_doorbell.trace EKT=$d/ll/edge_ekt.trace PEWT=$d/pl/edge_pewt.trace PRE=$d/pl/edge_preempt.trace
FE=$d/fe/fe_sched_queues_sys.trace CM=$d/cm/cm_bal_monitor_sys.trace
missing=""
for f in "$DB" "$EKT" "$PEWT" "$PRE" "$FE" "$CM"; do [ -s "$f" ] || missing="$missing $f"; done
if [ $rc -ne 0 ] || [ -n "$missing" ]; then
  nok "record the traces (exit $rc; missing:${missing:- none}; logs in $d/*/run.log)"
  exit 1
fi
ok "record the traces from system runs ($(($(date +%s) - t0)) s): $(for f in "$DB" "$EKT" "$PEWT" "$PRE" "$FE" "$CM"; do printf '%s %s lines, ' "$(basename "$f" .trace)" "$(grep -vc '^#' "$f")"; done)"

# ---------------------------------------------------------------- 2. bad input
# every case exits 2 with its message, before any connection (WHERE is a
# port nothing listens on: reaching it would be a different message)
NOWHERE=tcp:127.0.0.1:1
bad() {  # bad NAME EXPECTED-TEXT BLOCK FILE [ARGS...]
  local name=$1 want=$2; shift 2
  local out code
  out=$("$B/bin/fg_host" "$NOWHERE" replay "$@" 2>&1 >/dev/null); code=$?
  if [ $code -eq 2 ] && grep -qF -- "$want" <<<"$out"; then ok "refused: $name: $(head -1 <<<"$out")"
  else nok "refused: $name: exit $code, '$out' (want exit 2 and '$want')"; fi
}
printf 'hello\n' >"$d/junk.trace"
bad "not a trace" "not an fgtrace 1 file" db "$d/junk.trace"
sed '0,/^1 /s/^1 \([0-9a-f]*\) /1 \1zz /' "$DB" >"$d/hex.trace"
bad "a value that is not hex" "not a hexadecimal value" db "$d/hex.trace"
awk '!/^#/ && !done && /^1 / {$2 = "fffffffffffffffff"; done = 1} {print}' "$DB" >"$d/long.trace"
bad "more than 16 hex digits" "more than 16 hex digits" db "$d/long.trace"
awk '!/^#/ && !done && /^1 / {$3 = "fff"; done = 1} {print}' "$DB" >"$d/wide.trace"
bad "a value wider than its column" "does not fit 6 bits" db "$d/wide.trace"
awk '!/^#/ && !done && /^1 / {$NF = ""; done = 1} {print}' "$DB" >"$d/short.trace"
bad "a line with a value missing" "values, the columns are" db "$d/short.trace"
bad "an unknown block" "unknown block 'gpu'" gpu "$DB"
bad "a trace of another block" "a trace of model edge_doorbell; the FPGA's edge_ekt replays edge_ekt" ekt "$DB"
sed 's/^# out wr_ready_o 1$/# out wr_ready_o 2/' "$DB" >"$d/col.trace"
bad "a column of another width" "column 9 is 'out wr_ready_o 2'" db "$d/col.trace"
bad "longer than the trace memory" "the trace memory holds 4096 rows of cm_bal_monitor: replay a part of it" cm "$CM"
head -c 0 "$DB" >"$d/empty.trace"
bad "an empty file" "empty, not an fgtrace 1 file" db "$d/empty.trace"

# ---------------------------------------------------------------- fpga_sim
simlog=$d/fpga_sim.log
. scripts/fpga_sim_lib.sh
if ! fpga_sim_start "$B/bin/fpga_sim" "$simlog" "${FPGA_SIM_SECONDS:-1800}"; then
  nok "fpga_sim did not start"; cat "$simlog"; exit 1
fi
pid=$FPGA_SIM_PID
W=tcp:127.0.0.1:$FPGA_SIM_PORT
echo "# fpga_sim on $W"

# ---------------------------------------------------------------- 3. replays
# How long fg_host waits for the simulated top before it calls the replay
# stalled (a trace chunk's answer: 4 x this): the verilated top of a loaded
# machine takes tens of seconds for a 20,000-line trace's chunks; the
# diagnosis of a simulator that stopped answering is tested below with 500.
STALL_MS=${FPGA_STALL_MS:-60000}
play() {  # play NAME BLOCK FILE [ARGS...]: exit 0 and "N cycles identical"
  local name=$1; shift
  local out code s=$(date +%s)
  out=$(timeout "${FPGA_REPLAY_SECONDS:-300}" "$B/bin/fg_host" "$W" replay "$@" --stall-ms "$STALL_MS" --quiet 2>&1); code=$?
  if [ $code -eq 0 ] && grep -q "cycles identical" <<<"$out"; then ok "$name ($(($(date +%s) - s)) s): $out"
  else nok "$name: exit $code: $out"; fi
}
play "replay the doorbell's launch_latency trace" db "$DB"
play "replay the EKT's launch_latency trace" ekt "$EKT"
play "replay PEWT0 with core 0's preemption_latency PEWT trace" pewt0 "$PEWT"
play "replay PRE0 with core 0's preemption_latency controller trace" pre0 "$PRE"
play "replay the F/E queues' fe_fig11 trace" fe "$FE"
play "replay the CM monitor's cm_run trace, its first 1100 cycles (one interval end)" cm "$CM" --lines 1100

# the PASS register over the bus: a pass the block does not have is refused at
# START (STATUS [4] and why [10:8] = 6), one it has is not (it plays a row of
# whatever the memory holds; STOP)
P=$(printf '%d' "$(sed -n 's/^#define FG_WIN_PLAY \(0x[0-9A-F]*\)u$/\1/p' fpga/gen/fg_regmap.h)")
fh() { "$B/bin/fg_host" "$W" "$@" | cut -d' ' -f2; }
refusal() { printf '0x%x' $(($1 & 0x710)); }
st1=$(fh write $((P + 0x08)) 0 && fh write $((P + 0x40)) 1 && fh write $((P + 0x0c)) 1 &&
      fh write $((P + 0x00)) 1 && fh read $((P + 0x04)))
np=$(fh write $((P + 0x08)) 1 && fh read $((P + 0x44)))
st2=$(fh write $((P + 0x40)) 5 && fh write $((P + 0x00)) 1 && fh read $((P + 0x04)))
fh write $((P + 0x00)) 2 >/dev/null
if [ "$(refusal "$st1")" = 0x610 ] && [ "$np" = 0x00000006 ] && [ "$(refusal "$st2")" = 0x0 ]; then
  ok "PASS: the doorbell's pass 1 refused (STATUS $st1), the EKT has 6 passes and takes pass 5 (STATUS $st2)"
else nok "PASS: doorbell pass 1 STATUS '$st1' (want [4], [10:8] 6); EKT PASSES '$np' (want 6), pass 5 STATUS '$st2' (want not refused)"; fi

# the host tool's windows follow the register map: the last core's controller
# window dumps, one past it is refused by name (no connection left open)
NC=$(sed -n 's/^#define FG_NCORES \([0-9]*\)u$/\1/p' fpga/gen/fg_regmap.h)
last=$("$B/bin/fg_host" "$W" dump "pre$((NC - 1))" 2>&1 | grep -c '^cfg_en_i ')
past=$("$B/bin/fg_host" "$W" dump "pre$NC" 2>&1); pcode=$?
if [ "$last" = 1 ] && [ "$pcode" = 2 ] && [[ $past == *"no window 'pre$NC'"*"pre$((NC - 1))"* ]]; then
  ok "dump: pre$((NC - 1)) (the last of $NC cores) read; pre$NC refused: $past"
else nok "dump: pre$((NC - 1)) read '$last' (want 1 cfg_en_i line); pre$NC exit $pcode (want 2), said '$past'"; fi

# ---------------------------------------------------------------- 4. corrupted
corrupt() {  # corrupt NAME BLOCK FILE PORT LINE-SPEC [ARGS...]: reported at that cycle and port
  local name=$1 blk=$2 src=$3 port=$4 spec=$5; shift 5
  local dst=$d/bad_$blk.trace flip line out code
  flip=$(scripts/trace_flip.py "$src" "$dst" --port "$port" --line "$spec") || { nok "$name: trace_flip"; return; }
  line=${flip%% *}
  out=$(timeout "${FPGA_REPLAY_SECONDS:-300}" "$B/bin/fg_host" "$W" replay "$blk" "$dst" --stall-ms "$STALL_MS" --quiet "$@" 2>&1); code=$?
  if [ $code -eq 1 ] && grep -q "first mismatch at cycle $line (.*), port $port: expected 0x$(cut -d' ' -f4 <<<"$flip"), got 0x$(cut -d' ' -f3 <<<"$flip")" <<<"$out"
  then ok "$name: flipped $flip; $(head -1 <<<"$out")"
  else nok "$name: flipped $flip: exit $code: $out"; fi
}
# inside a long run of identical lines (the run splits in three rows)
corrupt "a corrupted doorbell trace" db "$DB" cnt_rings_o 12345
# at the controller's first command (FLUSH: a busy stretch, a row per cycle)
corrupt "a corrupted controller trace" pre0 "$PRE" cmd_o first:cmd_o --lines 400
# the last cycle of a trace
corrupt "a corrupted EKT trace, its last cycle" ekt "$EKT" registered_o "$(($(grep -vc '^#' "$EKT") - 1))"
# the EKT compares its outputs in passes (one replay each): flips in its first
# pass's rsp_head_o at the last cycle, its last pass's registered_o a cycle
# before, and its third pass's evw_block_x_o a cycle before that: the earliest
# is reported, though its pass runs neither first nor last
last=$(($(grep -vc '^#' "$EKT") - 1))
if scripts/trace_flip.py "$EKT" "$d/ekt_f1.trace" --port rsp_head_o --line "$last" >/dev/null &&
   scripts/trace_flip.py "$d/ekt_f1.trace" "$d/ekt_f2.trace" --port registered_o --line "$((last - 1))" >/dev/null; then
  corrupt "a corrupted EKT trace, three passes' outputs: the earliest cycle" ekt "$d/ekt_f2.trace" evw_block_x_o "$((last - 2))"
else nok "trace_flip rsp_head_o, registered_o"; fi

# ---------------------------------------------------------------- 5. no answer
# the simulator stopped (SIGSTOP) while a trace loads: a diagnosis, no hang
s=$(date +%s)
"$B/bin/fg_host" "$W" replay cm "$CM" --lines 1100 --stall-ms 500 --quiet >"$d/stop.out" 2>&1 &
hpid=$!
sleep 1
kill -STOP "$pid"
wait "$hpid"; code=$?
kill -CONT "$pid"
if [ $code -eq 2 ] && grep -q "no answer within" "$d/stop.out"; then
  ok "a simulator that stopped answering: exit 2 after $(($(date +%s) - s)) s: $(tail -1 "$d/stop.out")"
else nok "a simulator that stopped answering: exit $code: $(cat "$d/stop.out")"; fi

kill -0 "$pid" 2>/dev/null || { echo "# fpga_sim died:"; tail -5 "$simlog"; fail=1; }
echo "1..$n"
echo "# fpga replay: $(($(date +%s) - t0)) s"
exit $fail
