#!/usr/bin/env bash
# Test: fg_run's trace opens at the event it reports itself (--wave-at fault,
# barrier:N, pc:ADDR; docs/WAVES.md), with the core it happened on first and
# open and every other place closed, and without --wave-at with the cores
# that ran the kernel first and open.  Each event is compared with what
# fg_run says by another way: the fault's core and cycle with its fault
# message and FAULT line, pc:ENTRY's cycle with the launch's first
# instruction (the GPU's first_instr callback), the barrier count with the
# kernel's (t_reduce: 9 barriers a block, 4 blocks).  Every save file must
# pass scripts/gtkw.py --check; an event kind a program does not report is
# refused when the options are read, with nothing written.
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SAXPY=(--kernel "$BUILD"/sw/saxpy.elf --entry saxpy --grid 4 --block 256 --buf x=f32:1024:ramp
       --buf y=f32:1024:fill:0.5 --buf out=f32:1024:zero --arg u32:1000 --arg f32:2.5 --arg buf:x
       --arg buf:y --arg buf:out)
REDUCE=(--kernel "$BUILD"/sw/t_race.elf --entry t_reduce --grid 4 --block 256 --buf in=u32:1024:ramp
        --buf out=u32:4 --arg buf:in --arg buf:out)
# t_overrun writes out[100..109] past its 100 elements: --check stops it at the first, in block 1
FAULT=(--kernel "$BUILD"/sw/t_diag.elf --entry t_overrun --grid 2 --block 64 --buf out=u32:100
       --buf next=u32:4 --arg u32:110 --arg buf:out --check)
run() { # name expected-exit-status fg_run-arguments...
    local name=$1 want=$2
    shift 2
    "$BUILD"/bin/fg_run "$@" --wave "$tmp/$name.fst" >"$tmp/$name.out" 2>&1
    local rc=$?
    if [ $rc != "$want" ]; then
        echo "FAIL fg_run $* --wave $tmp/$name.fst: exit $rc, not $want"; cat "$tmp/$name.out"; exit 1
    fi
}
run fault 1 "${FAULT[@]}" --wave-at fault
run barrier 0 "${REDUCE[@]}" --wave-at barrier:36
run barrier37 1 "${REDUCE[@]}" --wave-at barrier:37
run pc 0 "${SAXPY[@]}" --wave-at pc:saxpy
run kernel 0 "${SAXPY[@]}"
scripts/gtkw.py --check "$tmp"/{fault,barrier,pc,kernel}.gtkw || exit 1
# refused before anything runs: one line, exit 2, no trace
for bad in "launch_latency --point --out $tmp/ll.json --wave-at fault" "fg_run ${SAXPY[*]} --wave-at barrier" \
           "fg_run ${SAXPY[*]} --wave-at pc:no_such_function"; do
    set -- $bad
    prog=$1
    shift
    "$BUILD"/bin/$prog "$@" --wave "$tmp/bad.fst" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ $rc != 2 ] || [ "$(wc -l <"$tmp/bad.err")" != 1 ] || ls "$tmp"/bad.* 2>/dev/null | grep -q "fst\|gtkw"; then
        echo "FAIL $prog ... ${*: -1}: exit $rc (want 2), its errors:"; cat "$tmp/bad.err"; ls "$tmp"; exit 1
    fi
    echo "ok   refused: $(cat "$tmp/bad.err")"
done
python3 - "$tmp" <<'EOF' || exit 1
import os, re, sys
sys.path.insert(0, "scripts")
import gtkw

tmp = sys.argv[1]


def said(name):
    return open(os.path.join(tmp, f"{name}.out")).read()


def save(name):
    return open(os.path.join(tmp, f"{name}.gtkw")).read()


def event(name, what):
    m = re.search(rf"fg_wave: wrote .*, {re.escape(what)} at cycle (\d+) \((gpu\.core\d+)\)", said(name))
    if not m:
        sys.exit(f"FAIL {name}: fg_wave did not report the {what} with its cycle and core:\n{said(name)}")
    return int(m.group(1)), m.group(2)


def opens_at(name, cycle, place, why):
    errs = gtkw.event_view_errors(save(name), cycle, place)
    if errs:
        sys.exit(f"FAIL {name}: " + "; ".join(errs))
    print(f"ok   {name}: opens at cycle {cycle} with {place} open and first, the rest closed ({why})")


# the fault: the core its message names, the cycle of its FAULT line (a run from cycle 0)
cycle, place = event("fault", "kernel fault")
core = re.search(r"kernel fault: .*\(core (\d+) warp", said("fault"))
ran = re.search(r"FAULT after (\d+) cycles", said("fault"))
if not core or f"gpu.core{core.group(1)}" != place:
    sys.exit(f"FAIL fault: fg_wave places it in {place}, the fault message in core {core and core.group(1)}")
if not ran or int(ran.group(1)) != cycle + 1:
    sys.exit(f"FAIL fault: fg_wave puts it at cycle {cycle}, the run stopped after {ran and ran.group(1)} cycles")
opens_at("fault", cycle, place, f"the fault message's core {core.group(1)}")

# barrier:36 is the last of 4 blocks x 9; there is no 37th
cycle, place = event("barrier", "barrier release #36")
if place not in [f"gpu.core{k}" for k in range(4)]:
    sys.exit(f"FAIL barrier: released in {place}, which ran none of the 4 blocks")
if "no barrier release #37 in this run (36 seen)" not in said("barrier37"):
    sys.exit(f"FAIL barrier37: fg_wave did not count 36 barrier releases:\n{said('barrier37')}")
opens_at("barrier", cycle, place, "the last of 36 releases; #37: none, 36 seen")

# pc:saxpy, the entry: the launch's first instruction
cycle, place = event("pc", "first issue of pc saxpy")
first = re.search(r"first instruction at cycle (\d+)", said("pc"))
if not first or int(first.group(1)) != cycle:
    sys.exit(f"FAIL pc: fg_wave puts the entry's first issue at cycle {cycle}, fg_run's first instruction at "
             f"{first and first.group(1)}")
opens_at("pc", cycle, place, "the launch's first instruction")

# no event: the four cores of the four blocks, in core order, open and first
text = save("kernel")
cores = [f"gpu.core{k}" for k in range(4)]
tops = [(t, not closed) for t, _, closed in gtkw.parse_spec_text(text)[1] if t]
if tops[:4] != [(c, True) for c in cores] or any(o for _, o in tops[4:]):
    sys.exit(f"FAIL kernel: the places are {tops}, not {cores} open and first, the rest closed")
if "[*] at:" in text:
    sys.exit("FAIL kernel: a trace without --wave-at names an event to open at")
print(f"ok   kernel: {', '.join(cores)} open and first, the other {len(tops) - 4} places closed")
EOF
