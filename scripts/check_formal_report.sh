#!/usr/bin/env bash
# Test: what `make formal` says about a proof that does not pass
# (docs/FORMAL.md).  The proofs of formal/selftest/ are made not to pass: PDR
# and ABC's BMC each find a counterexample (FAIL), k-induction finds its
# induction step failing on a true property (UNKNOWN).  scripts/formal.py
# must exit 1, print UNKNOWN as UNKNOWN, and record in its JSON each one's
# status, the failing assertion by name (count_never_6, not the other one)
# and a trace VCD that GTKWave opens (scripts/gtkw.py --check: GTKWave under
# Xvfb shows the counter with values), the counterexamples from reset to the
# value 6 of the counter.  About 25 s wall, 8 s of CPU.
set -u
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: scripts/deps.sh installs xvfb"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$(BUILD="$tmp/build" scripts/formal.py --dir formal/selftest --out "$tmp/f.json" 2>&1); rc=$?
echo "$out"
fail=0
[ $rc -eq 1 ] || { echo "FAIL: formal.py exited $rc, not 1"; fail=1; }
grep -q "^  UNKNOWN selftest_induction" <<<"$out" || { echo "FAIL: the UNKNOWN proof is not printed as UNKNOWN"; fail=1; }
python3 - "$tmp/f.json" "$tmp" <<'PY' || fail=1
import json, os, sys
doc, tmp = json.load(open(sys.argv[1]))["blocks"], sys.argv[2]
want = {"selftest_pdr": ("FAIL", "failed"), "selftest_bmc3": ("FAIL", "failed"),
        "selftest_induction": ("UNKNOWN", "unproven")}
bad = 0
for blk, (status, key) in want.items():
    r = doc.get(blk, {})
    props = [p["property"] for p in r.get(key, [])]
    trace = r.get("trace", "")
    errs = []
    if r.get("status") != status or r.get("pass") is not False:
        errs.append(f"status {r.get('status')}, want {status}")
    if props != ["count_never_6"]:
        errs.append(f"{key} {props}, want ['count_never_6']")
    if not trace.endswith(".vcd") or not os.path.exists(trace):
        errs.append(f"no trace VCD ({trace or 'none'})")
    else:
        vcd = open(trace).read()
        code = [l.split()[3] for l in vcd.splitlines() if l.startswith("$var") and l.split()[4] == "c_q"]
        last = [l.split()[0] for l in vcd.splitlines() if code and l.startswith("b") and l.split()[1:] == code]
        if status == "FAIL" and (not last or last[-1] != "b110"):
            errs.append(f"the trace does not end with the counter at 6 ({last[-1:] or 'no c_q'})")
        gtkw = os.path.join(tmp, blk + ".gtkw")
        open(gtkw, "w").write(f'[dumpfile] "{trace}"\n@28\nformal_selftest_fv.rst_ni\nformal_selftest_fv.inc_i\n'
                              "@22\nformal_selftest_fv.c_q[2:0]\n")
    for e in errs:
        print(f"FAIL: {blk}: {e}")
    bad |= bool(errs)
    if not errs:
        print(f"ok: {blk}: {status}, {key} {props}, trace {trace}")
sys.exit(bad)
PY
for g in "$tmp"/*.gtkw; do scripts/gtkw.py --check "$g" || fail=1; done
exit $fail
