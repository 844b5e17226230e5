#!/usr/bin/env python3
"""Which RISC-V instructions a kernel ELF holds: the static instructions of its
code sections by extension (RV32I, M, A, F, Zicsr, Zifencei and the F/E
load / store of sw/include/fg_fe.h on custom-0 / custom-1), with the
distinct mnemonics of each, as GNU objdump names them without aliases.
What an implementation of the SIMT core must decode to run a kernel.

Usage: isa_usage.py [--json] ELF ...
  (the kernels are built by make build into build/sw/, e.g.
   scripts/isa_usage.py build/sw/ipv4_fwd.elf build/sw/bg_bfs.elf)
An instruction of no extension above is listed as "other" and exits 1."""
import json
import re
import shutil
import subprocess
import sys

RV32I = set("""lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw lbu lhu sb sh sw addi slti
sltiu xori ori andi slli srli srai add sub sll slt sltu xor srl sra or and fence ecall ebreak""".split())
M = set("mul mulh mulhsu mulhu div divu rem remu".split())
ZICSR = set("csrrw csrrs csrrc csrrwi csrrsi csrrci".split())
FE_OPCODES = {0x0B: "fe.ld", 0x2B: "fe.st"}  # sw/include/fg_fe.h
EXTS = ("RV32I", "M", "A", "F", "Zicsr", "Zifencei", "F/E", "other")


def ext_of(mn):
    base = re.sub(r"\.(aq|rl|aqrl)$", "", mn)
    if base in RV32I:
        return "RV32I"
    if base in M:
        return "M"
    if base.startswith(("lr.", "sc.", "amo")):
        return "A"
    if base in ZICSR:
        return "Zicsr"
    if base == "fence.i":
        return "Zifencei"
    if base.startswith("f"):  # (fence and fence.i are taken above)
        return "F"
    return "other"


def usage(objdump, elf):
    out = subprocess.run([objdump, "-d", "-M", "no-aliases", elf], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"isa_usage: {objdump} -d {elf}: {out.stderr.strip() or 'failed'}")
    by = {e: {} for e in EXTS}
    for line in out.stdout.splitlines():
        f = line.split("\t")
        if len(f) < 3 or not re.match(r"^\s*[0-9a-f]+:$", f[0]):
            continue
        mn = f[2].split()[0]
        if mn == ".4byte":  # not an instruction GNU as knows: ours if custom-0 / custom-1
            word = int(f[1].split()[0], 16)  # the raw word column
            mn = FE_OPCODES.get(word & 0x7F, f".4byte(opcode 0x{word & 0x7F:02x})")
            e = "F/E" if mn in FE_OPCODES.values() else "other"
        else:
            e = ext_of(mn)
        by[e][mn] = by[e].get(mn, 0) + 1
    return by


def main():
    args = sys.argv[1:]
    as_json = bool(args) and args[0] == "--json"
    elfs = args[1:] if as_json else args
    if not elfs or any(a.startswith("-") for a in elfs):
        sys.exit(__doc__.strip())
    objdump = shutil.which("riscv64-unknown-elf-objdump")
    if not objdump:
        sys.exit("isa_usage: riscv64-unknown-elf-objdump not found (scripts/deps.sh installs it)")
    res = {}
    for elf in elfs:
        res[elf] = usage(objdump, elf)
    if as_json:
        print(json.dumps(res, indent=1, sort_keys=True))
    else:
        for elf, by in res.items():
            total = sum(sum(d.values()) for d in by.values())
            print(f"{elf}: {total} instructions")
            for e in EXTS:
                if by[e]:
                    ms = ", ".join(f"{m} {n}" for m, n in sorted(by[e].items(), key=lambda kv: (-kv[1], kv[0])))
                    print(f"  {e:<9}{sum(by[e].values()):>5}  {ms}")
    return 1 if any(by["other"] for by in res.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
