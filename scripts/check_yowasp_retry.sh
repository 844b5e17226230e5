#!/usr/bin/env bash
# Test: scripts/formal.py treats a tool killed by a signal (a cold YoWASP
# cache's SIGBUS) as a tool failure: it says so, keeps the log, runs the proof
# once more and records "retried"; killed twice, the proof fails as a tool
# failure.  A fake yowasp-sby (SBY=...) plays the dying tool.  The FPGA flows
# (fpga_ooc.py, fpga_top.py) run their tools through the same retry
# (yowasp_tools.once_more_if_crashed): a fake tool that kills itself with
# SIGBUS the first time is run twice by each, a SIGTERM is not retried.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/sby"
printf '[options]\nmode prove\ndepth 2\n[engines]\nsmtbmc z3\n' >"$tmp/sby/fake.sby"
cat >"$tmp/bin/yowasp-sby" <<'SBY'
#!/usr/bin/env bash
# args: -f --yosys .. --abc X -d WORK FILE; dies while $KILLS > runs so far
while [ $# -gt 1 ]; do [ "$1" = -d ] && work=$2; shift; done
n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); echo $((n + 1)) >"$FAKE_COUNT"
mkdir -p "$work"
if [ "$n" -lt "$KILLS" ]; then echo "SBY [fake] base: finished (returncode=-7)"; echo ERROR >"$work/status"; exit 16; fi
echo "SBY [fake] DONE (PASS, rc=0)"; echo PASS >"$work/status"; exit 0
SBY
chmod +x "$tmp/bin/yowasp-sby"
fail=0
run() {  # <kills> ; prints formal.py's output
  rm -f "$tmp/count" "$tmp/out.json"
  SBY="$tmp/bin/yowasp-sby" FAKE_COUNT=$tmp/count KILLS=$1 BUILD="$tmp/build" \
    scripts/formal.py --dir "$tmp/sby" --out "$tmp/out.json" fake 2>&1
}
o=$(run 1); rc=$?
if [ $rc -ne 0 ] || ! grep -q "killed by SIGBUS.*retried once" <<<"$o" || [ "$(cat "$tmp/count")" != 2 ] ||
   ! grep -q '"retried"' "$tmp/out.json"; then
  echo "FAIL: one kill: expected a pass after one retry, said so (rc $rc):"; echo "$o"; fail=1
else echo "ok: a tool killed once: retried once, said so, passed"; fi
o=$(run 5); rc=$?
if [ $rc -eq 0 ] || [ "$(cat "$tmp/count")" != 2 ] || ! grep -q "killed by SIGBUS (twice)" <<<"$o"; then
  echo "FAIL: killed twice: expected a tool failure after exactly one retry (rc $rc):"; echo "$o"; fail=1
else echo "ok: a tool killed twice: one retry, reported as a tool failure"; fi
cat >"$tmp/bin/dies" <<'DIE'
#!/usr/bin/env bash
# dies of $SIG while $KILLS > runs so far, else prints "done"
n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); echo $((n + 1)) >"$FAKE_COUNT"
echo "run $((n + 1))"
if [ "$n" -lt "$KILLS" ]; then kill -"$SIG" $$; fi
echo done
DIE
chmod +x "$tmp/bin/dies"
flow() {  # <flow> <kills> <signal>: the flow's run() of the fake tool; prints its output and rc
  rm -f "$tmp/count" "$tmp/t.log" "$tmp/t.log.killed"
  (cd scripts && FAKE_COUNT=$tmp/count KILLS=$2 SIG=$3 python3 -c "
import sys, $1 as m
try:
    r = m.run(['$tmp/bin/dies'], '$tmp/t.log')
except SystemExit as e:
    r = e
print('rc', r)" 2>&1)
}
for fl in fpga_ooc fpga_top; do
  o=$(flow $fl 1 BUS)
  if [ "$(cat "$tmp/count")" != 2 ] || ! grep -q "$fl: .*dies killed by SIGBUS (log .*t.log.killed); retried once" <<<"$o" ||
     ! grep -qs "run 1" "$tmp/t.log.killed" || ! grep -qs done "$tmp/t.log"; then
    echo "FAIL: $fl: a tool killed once by SIGBUS: expected one retry, the first log kept:"; echo "$o"; fail=1
  else echo "ok: $fl: a tool killed once: retried once, said so, first log kept"; fi
  o=$(flow $fl 5 BUS)
  if [ "$(cat "$tmp/count")" != 2 ] || ! grep -q "failed" <<<"$o"; then
    echo "FAIL: $fl: a tool killed twice: expected exactly one retry, then a failure:"; echo "$o"; fail=1
  else echo "ok: $fl: a tool killed twice: one retry, then a failure"; fi
  o=$(flow $fl 1 TERM)
  if [ "$(cat "$tmp/count")" != 1 ] || grep -q "retried" <<<"$o"; then
    echo "FAIL: $fl: a tool stopped by SIGTERM: expected no retry:"; echo "$o"; fail=1
  else echo "ok: $fl: a tool stopped by SIGTERM: not run again"; fi
done
exit $fail
