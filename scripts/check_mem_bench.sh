#!/usr/bin/env bash
# Test: mem_bench at its test size, TAP: the copy is right
# and moves data, the pointer chases equal the sum of the modelled stages
# (mem_bench itself fails otherwise), latency rises with load, and the JSON
# has the keys the issue names with the F/E queues as RTL.
set -u
bin=${BUILD:-build}/bin/mem_bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! "$bin" --size test --out "$out/mem_bench.json"; then
  echo "not ok 1 - mem_bench --size test failed"; exit 1
fi
python3 - "$out/mem_bench.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
def check(ok, what):
    global n
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")
    return ok
good = True
good &= check(all(k in d for k in ("peak_dram_gbps", "achieved_dram_gbps", "unloaded_latency_cycles",
                                   "latency_under_load", "blocks")), "the issue's keys are present")
good &= check(d["blocks"].get("fe_sched_queues") == "rtl", "the F/E queues ran as RTL")
good &= check(0 < d["achieved_dram_gbps"] <= d["peak_dram_gbps"], "copy bandwidth within (0, peak]")
ch = d["chase"]
good &= check(ch["l1"]["hop_cycles"] < ch["l2"]["hop_cycles"] < ch["dram"]["hop_cycles"], "l1 < l2 < dram hop")
good &= check(all(c["model_min_cycles"] <= c["hop_cycles"] <= c["model_max_cycles"]
                  for k, c in ch.items() if k != "l1"), "l2 and dram hops within the model's range")
ld = [p for p in d["latency_under_load"] if p["gap"] is not None]
good &= check(len(ld) >= 2 and ld[-1]["dram_gbps"] > ld[0]["dram_gbps"] > 0
              and ld[-1]["latency_cycles"] > d["unloaded_latency_cycles"], "more load, more bandwidth and latency")
print(f"1..{n}")
sys.exit(0 if good else 1)
PY
