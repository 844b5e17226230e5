#!/usr/bin/env python3
"""scripts/isa_usage.py (which instructions a kernel ELF holds): TAP.
Counts a built kernel's F/E custom instructions and floating point by their
extension, and fails on a word of no extension it knows."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
TOOL = os.path.join(ROOT, "scripts", "isa_usage.py")
n = fails = 0


def check(ok, what):
    global n, fails
    n += 1
    fails += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {what}")


def run(*elfs):
    p = subprocess.run([sys.executable, TOOL, "--json", *elfs], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.stdout.strip() else {}), p.stderr


fe = os.path.join(BUILD, "sw", "t_fe_e2e.elf")
mm = os.path.join(BUILD, "sw", "bg_mm.elf")
rc, r, err = run(fe, mm)
check(rc == 0, f"the built kernels decode to known extensions (rc {rc}{': ' + err.strip() if err else ''})")
u = r.get(fe, {})
check(u.get("F/E", {}).get("fe.ld", 0) > 0 and u.get("F/E", {}).get("fe.st", 0) > 0,
      f"t_fe_e2e's F/E loads and stores found on custom-0 / custom-1: {u.get('F/E')}")
check(sum(r.get(mm, {}).get("F", {}).values()) > 0 and not r.get(mm, {}).get("other"),
      "bg_mm's floating point counted as F")
with tempfile.TemporaryDirectory() as d:
    src, elf = os.path.join(d, "x.s"), os.path.join(d, "x.elf")
    open(src, "w").write(".text\n.globl _start\n_start:\n addi a0, a0, 1\n .word 0x0000007f\n")
    a = subprocess.run(["riscv64-unknown-elf-gcc", "-march=rv32i", "-mabi=ilp32", "-nostdlib", "-o", elf, src],
                       capture_output=True, text=True)
    if a.returncode:
        check(False, f"assembling the unknown-word kernel: {a.stderr.strip()}")
    else:
        rc, r, _ = run(elf)
        check(rc == 1 and r.get(elf, {}).get("other"), f"a word of no known extension is listed and fails (rc {rc})")
print(f"1..{n}")
sys.exit(1 if fails else 0)
