#!/usr/bin/env bash
# Test (make test): build/bin/cm_run end to end at a small size: H2 beside the
# STREAM triad (test size) for 20 intervals of 1024 GPU cycles; its JSON must
# hold, per interval, 14 CPU IPCs, the GPU IPC, 28 per-core GPU IPCs, stallMC,
# stallnet and 28 per-core stallGPU counts within 0..2 x 1024, the totals, the
# blocks list and every GPU run checked; a bad option must be refused.  The
# concurrency schemes: baseline limits of 48, CM-CPU's coming down beside H2
# with the monitor as RTL, --static-warps; bad scheme names / values refused.
set -u
B=${BUILD:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$B/bin/cm_run" --mix H2 --gpu stream --gpu-size test --warmup 2000 --cycles 20480 --quiet \
  --out "$out/run.json" || { echo "FAIL cm_run exited $?"; exit 1; }
/usr/bin/python3 - "$out/run.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
r, iv = d["run"], d["intervals"]
def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)
check(d["interval"] == 1024 and len(iv) == 20, f"20 intervals of 1024 cycles, got {len(iv)}")
for k, v in enumerate(iv):
    check(len(v["cpu_ipc"]) == 14 and all(0 <= x <= 3 for x in v["cpu_ipc"]), f"interval {k}: 14 CPU IPCs in [0, 3]")
    check(len(v["gpu_core_ipc"]) == 28 and len(v["stall_gpu"]) == 28, f"interval {k}: 28 GPU cores")
    check(all(0 <= x <= 2048 for x in v["stall_gpu"]), f"interval {k}: stallGPU within 0..2048")
    check(abs(sum(v["gpu_core_ipc"]) - v["gpu_ipc"]) < 1e-6, f"interval {k}: GPU IPC = sum of the cores'")
    check(0 <= v["stall_mc"] <= 8 * 1024 and 0 <= v["stall_net"] <= 8 * 1024, f"interval {k}: stallMC / stallnet")
check(sum(sum(v["stall_gpu"]) for v in iv) > 0, "stallGPU counted")
check(sum(sum(v["cpu_ipc"]) for v in iv) > 0, "the CPU cores retired instructions")
check(r["gpu_ipc"] > 0 and r["gpu_runs_checked"] >= 1 and r["gpu_runs_checked"] >= r["gpu_runs_in_window"],
      "GPU ran and every run was checked")
check(r["gpu_cycles"] == 20480 and r["cpu_requests"] > 0 and r["gpu_requests"] > 0, "window and traffic")
check(d["blocks"].get("fe_sched_queues") in ("rtl", "c", "lockstep"), "blocks: the F/E queues and their implementation")
check(d["scheme"] == "baseline" and d["blocks"].get("cm_bal_monitor") == "none", "baseline: no CM-BAL monitor")
check(all(v["warp_limit"] == [48] * 28 and len(v["issued_warps"]) == 28 for v in iv), "baseline: 48 warps per core")
print(f"ok   cm_run: 20 intervals, GPU IPC {r['gpu_ipc']:.2f}, {r['gpu_runs_checked']} GPU runs checked, "
      f"CPU IPC sum {r['ipc_sum']:.3f}")
PY
# a scheme with the monitor (RTL): its limits per interval, the blocks entry
"$B/bin/cm_run" --mix H2 --gpu stream --gpu-size test --warmup 2000 --cycles 10240 --quiet --scheme cm_cpu \
  --out "$out/cpu.json" >/dev/null || { echo "FAIL cm_run --scheme cm_cpu exited $?"; exit 1; }
"$B/bin/cm_run" --gpu stream --gpu-size test --mix none --cycles 4096 --quiet --static-warps 6 \
  --out "$out/s6.json" >/dev/null || { echo "FAIL cm_run --static-warps 6 exited $?"; exit 1; }
/usr/bin/python3 - "$out/cpu.json" "$out/s6.json" <<'PY' || exit 1
import json, sys
d, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def check(cond, what):
    if not cond:
        print("FAIL", what)
        sys.exit(1)
check(d["scheme"] == "cm_cpu" and d["blocks"]["cm_bal_monitor"] == "rtl", "cm_cpu: the monitor as RTL")
lim = [v["warp_limit"] for v in d["intervals"]]
check(all(len(l) == 28 and all(1 <= x <= 48 for x in l) for l in lim), "cm_cpu: 28 limits within 1..48")
check(lim[-1][0] < 48, f"cm_cpu: the limit came down beside H2 ({lim[-1][0]})")
check(s["scheme"] == "static" and all(v["warp_limit"] == [6] * 28 for v in s["intervals"][1:]), "static 6 warps")
print(f"ok   cm_run --scheme cm_cpu: limit {lim[0][0]:.0f} -> {lim[-1][0]:.0f}; --static-warps 6")
PY
# --after-window stop: the window's figures without finishing the run in progress (left unchecked, said)
"$B/bin/cm_run" --mix H2 --gpu mm --gpu-size test --warmup 1000 --cycles 4096 --quiet --after-window stop \
  --out "$out/stop.json" >/dev/null || { echo "FAIL cm_run --after-window stop exited $?"; exit 1; }
/usr/bin/python3 - "$out/stop.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))["run"]
if not (r["gpu_run_abandoned"] is True and r["gpu_runs_checked"] == 0 and r["gpu_cycles"] == 4096):
    print("FAIL --after-window stop: the run in progress should be left unfinished and said so", r["gpu_runs_checked"])
    sys.exit(1)
print("ok   cm_run --after-window stop: the run in progress left unchecked, gpu_run_abandoned")
PY
for bad in "--after-window later" "--scheme nonesuch" "--static-warps 0" "--static-warps 4 --scheme cm_cpu" "--set cmbal.t_high=0.3"; do
  # shellcheck disable=SC2086
  if "$B/bin/cm_run" --gpu stream --gpu-size test --mix none --cycles 1024 --quiet $bad --out "$out/bad.json" \
      >/dev/null 2>"$out/err"; then echo "FAIL $bad accepted"; exit 1; fi
  if [ -e "$out/bad.json" ] || ! grep -q "cm_run: " "$out/err"; then echo "FAIL $bad: no message or a result"; exit 1; fi
done
if "$B/bin/cm_run" --gpu nonesuch >/dev/null 2>&1; then echo "FAIL --gpu nonesuch accepted"; exit 1; fi
if "$B/bin/cm_run" --mix none --gpu none >/dev/null 2>&1; then echo "FAIL nothing to run accepted"; exit 1; fi
echo "ok   bad options refused"
