#!/usr/bin/env bash
# Test: scripts/formal.py treats a tool killed by a signal (a cold YoWASP
# cache's SIGBUS) as a tool failure: it says so, keeps the log, runs the proof
# once more and records "retried"; killed twice, the proof fails as a tool
# failure.  A fake yowasp-sby (SBY=...) plays the dying tool.
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
exit $fail
