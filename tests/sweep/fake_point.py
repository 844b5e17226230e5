#!/usr/bin/env python3
"""A stand-in experiment program for the runner's tests (tests/sweep/).

    fake_point.py [--set fake.KEY=VALUE]... --point --out FILE
    fake_point.py [--set fake.KEY=VALUE]... --check-config   (fake.bad=1: refused)
    fake_point.py --merge LIST --out FILE

--point writes {"values": {KEY: VALUE}, "start": t, "end": t, "pid": pid};
fake.sleep=S sleeps S seconds, fake.fail=1 prints to its log and exits 3,
fake.partial=1 writes half a result before sleeping, fake.sources=FP writes
"sources": FP as a simulator's point does (docs/RESULTS.md "Provenance").
Every --point run appends a line to $FAKE_COUNT (when set).  --merge writes
{"merged": [point, ...]} and prints "merged N points" (fake.merge_fail=1: exits 4 instead).
"""
import json
import os
import sys
import time

args, sets, out, point, merge = sys.argv[1:], {}, None, False, None
while args:
    a = args.pop(0)
    if a == "--set":
        k, v = args.pop(0).split("=", 1)
        sets[k.split(".", 1)[1]] = v
    elif a == "--out":
        out = args.pop(0)
    elif a == "--point":
        point = True
    elif a == "--check-config":  # fake.bad=1: a configuration the program refuses
        if sets.get("bad") == "1":
            sys.exit("fake_point: --set fake.bad=1: refused (as asked)")
        if os.environ.get("FAKE_COUNT"):
            with open(os.environ["FAKE_COUNT"] + ".checks", "a") as f:
                f.write(json.dumps(sets) + "\n")
        sys.exit(0)
    elif a == "--merge":
        merge = args.pop(0)
if merge:
    if sets.get("merge_fail") == "1":
        sys.exit("fake_point: --merge: refused (as asked)")
    pts = [json.load(open(line.strip())) for line in open(merge) if line.strip()]
    json.dump({"merged": pts}, open(out, "w"))
    print(f"merged {len(pts)} points")
    sys.exit(0)
if not point or not out:
    sys.exit("fake_point: expected --point --out FILE")
if os.environ.get("FAKE_COUNT"):
    with open(os.environ["FAKE_COUNT"], "a") as f:
        f.write(json.dumps(sets) + "\n")
t0 = time.time()
if sets.get("partial") == "1":  # a program killed while writing its result
    with open(out, "w") as f:
        f.write('{"values": ')
time.sleep(float(sets.get("sleep", 0)))
if sets.get("fail") == "1":
    print("fake_point: boom (as asked)")
    print("fake_point: last words", file=sys.stderr)
    sys.exit(3)
res = {"values": sets, "start": t0, "end": time.time(), "pid": os.getpid()}
if "sources" in sets:
    res["sources"] = sets["sources"]
json.dump(res, open(out, "w"))
