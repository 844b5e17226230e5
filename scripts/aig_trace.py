#!/usr/bin/env python3
"""The counterexample of an ABC engine (`abc pdr`, `abc bmc3`) as a VCD, by
simulating the AIGER model SymbiYosys gave ABC with the inputs of ABC's
witness (docs/FORMAL.md; used by scripts/formal.py).

SymbiYosys would replay the witness through yosys-smtbmc and an SMT solver;
on these designs that took longer than the proofs (Z3 more than 15 minutes
for cm_bal_decide's 7 steps, CVC4 more than 10 for cm_bal_monitor's 41) and
failed on memories mapped to flip-flops in the proof's script.  The AIGER
model is the exact netlist ABC checked, so simulating it with the witness
reproduces the failure by construction (checked: the failing output must be
1 in the last frame, every constraint 1 in every frame).

Inputs, in a proof's SymbiYosys directory:
  model/design_aiger.aig   binary AIGER (write_aiger -I -B -zinit: the
                           assertions as bad-state outputs, assumptions as
                           constraints, uninitialised flip-flops zero-
                           initialised latches whose first value is an input)
  model/design_aiger.aim   its map: input / latch / invlatch / init / ninitff
  model/design_aiger.ywa   the assertions' names in bad-output order
  engine_N/trace.aiw       ABC's witness: the latches' initial values, then
                           one line of input values per frame
The VCD has one scope per instance, every named input and flip-flop (the
harness's and the design's registers: combinational wires are not in the
model under their names), the assertions under `asserts` (1 = failing) and
a clock, one frame = 10 time units.

  scripts/aig_trace.py WORKDIR ENGINE_DIR OUT.vcd     (prints the failing assertions)
"""
import json
import os
import re
import sys


class AigError(Exception):
    pass


def read_aig(path):
    """(I, L, latch next literals, bad literals, constraint literals, AND
    gates as (lhs, rhs0, rhs1)) of a binary AIGER file."""
    data = open(path, "rb").read()
    pos = 0

    def line():
        nonlocal pos
        end = data.index(b"\n", pos)
        text = data[pos:end].decode()
        pos = end + 1
        return text

    head = line().split()
    if head[0] != "aig":
        raise AigError(f"{path}: not a binary AIGER file")
    m, i, l, o, a = (int(x) for x in head[1:6])
    b, c, j, f = ([int(x) for x in head[6:10]] + [0, 0, 0, 0])[:4]
    latches = [int(line().split()[0]) for _ in range(l)]
    for _ in range(o):
        line()
    bad = [int(line()) for _ in range(b)]
    cons = [int(line()) for _ in range(c)]
    if j or f:
        raise AigError(f"{path}: justice / fairness properties (a liveness proof) are not replayed")
    ands = []
    lhs = 2 * (i + l)
    for _ in range(a):
        lhs += 2
        d = []
        for _ in range(2):
            x, shift = 0, 0
            while True:
                byte = data[pos]
                pos += 1
                x |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            d.append(x)
        r0 = lhs - d[0]
        ands.append((lhs, r0, r0 - d[1]))
    if m != i + l + a:
        raise AigError(f"{path}: header M {m} != I + L + A")
    return i, l, latches, bad, cons, ands


def read_map(path):
    """{kind: [(index, bit, name)]} of write_aiger's map file, and the
    not-initialised latch."""
    out, ninit = {}, None
    for ln in open(path):
        w = ln.split()
        if w[0] == "ninitff":
            ninit = int(w[1])
        elif len(w) == 4:
            out.setdefault(w[0], []).append((int(w[1]), int(w[2]), w[3]))
    return out, ninit


def read_aiw(path, n_in, n_latch):
    """The frames' input vectors of ABC's witness (the latches' line checked)."""
    lines = [ln.strip() for ln in open(path)]
    if len(lines) > 1 and lines[0] in ("0", "1", "2") and lines[1][:1] in "bj":
        lines = lines[2:]  # the AIGER 1.9 witness header (newer ABCs)
    body = []
    for ln in lines:
        done = ln.endswith("# DONE")  # this ABC ends the last frame's line with it
        ln = ln[:-6] if done else ln
        if ln == "." or (done and not ln):
            break
        if ln.startswith("#") or not ln:
            continue
        if not re.fullmatch(r"[01x]+", ln):
            raise AigError(f"{path}: unexpected line {ln[:40]!r}")
        body.append(ln)
        if done:
            break
    if not body:
        raise AigError(f"{path}: no frames")
    init, frames = body[0], body[1:]
    # (ABC's `fold` of the constraints may add latches after the model's)
    if len(init) < n_latch or "1" in init[:n_latch]:
        raise AigError(f"{path}: the latches' initial line does not fit the model ({len(init)} for {n_latch})")
    for k, fr in enumerate(frames):
        if len(fr) != n_in:
            raise AigError(f"{path}: frame {k} has {len(fr)} inputs, the model {n_in}")
    return frames


def simulate(model, frames):
    """Per frame: {literal variable: value} of inputs and latches, bad
    outputs, constraints."""
    n_in, n_latch, latches, bad, cons, ands = model
    val = bytearray(n_in + n_latch + len(ands) + 1)
    state = [0] * n_latch
    trace = []

    def lit(x):
        return val[x >> 1] ^ (x & 1)

    for fr in frames:
        for k in range(n_in):
            val[k + 1] = fr[k] == "1"
        for k in range(n_latch):
            val[n_in + 1 + k] = state[k]
        for lhs, r0, r1 in ands:
            val[lhs >> 1] = (val[r0 >> 1] ^ (r0 & 1)) & (val[r1 >> 1] ^ (r1 & 1))
        trace.append((bytes(val[1:n_in + n_latch + 1]), [lit(x) for x in bad], [lit(x) for x in cons]))
        state = [lit(x) for x in latches]
    return trace


def vcd_name(part):
    """A scope or signal name GTKWave reads as one name (no [..] suffix)."""
    return part.replace("[", "(").replace("]", ")").replace(" ", "_")


def split_path(name):
    """dut.g_tab[0].tab_q[2] -> ['dut', 'g_tab[0]', 'tab_q[2]']: dots outside brackets."""
    return [p for p in re.split(r"\.(?![^\[]*\])", name) if p]


def write_vcd(out, signals, frames_vals, asserts, top):
    """signals: {path tuple: [(kind, index) per bit, LSB first]}."""
    tree = {}
    for path in sorted(signals):
        node = tree
        for p in path[:-1]:
            node = node.setdefault(("scope", p), {})
        node[("var", path[-1])] = path
    ids = {}

    def ident(n):
        s = ""
        n += 1
        while n:
            n, r = divmod(n - 1, 94)
            s += chr(33 + r)
        return s

    lines = ["$version scripts/aig_trace.py (ABC's witness on the proof's AIGER model) $end", "$timescale 1ns $end"]

    def emit(node, name):
        lines.append(f"$scope module {vcd_name(name)} $end")
        for (kind, key), sub in sorted(node.items(), key=lambda kv: (kv[0][0] == "scope", kv[0][1])):
            if kind == "scope":
                emit(sub, key)
            else:
                ids[sub] = ident(len(ids))
                width = len(signals[sub])
                rng = f" [{width - 1}:0]" if width > 1 else ""
                lines.append(f"$var wire {width} {ids[sub]} {vcd_name(key)}{rng} $end")
        lines.append("$upscope $end")

    ids["clk"] = ident(0)
    lines.append(f"$var wire 1 {ids['clk']} clk $end")
    tree.setdefault(("scope", "asserts"), {})
    for k, name in enumerate(asserts):
        name = name.replace(".", "/")  # dut/u_x/label: one name, not a scope
        signals[("asserts", name)] = [("bad", k)]
        tree[("scope", "asserts")][("var", name)] = ("asserts", name)
    emit(tree, top)
    lines.append("$enddefinitions $end")
    last = {}
    for t, vals in enumerate(frames_vals):
        lines.append(f"#{10 * t}")
        lines.append(f"1{ids['clk']}")
        for path, bits in signals.items():
            v = "".join(str(vals(kind, idx)) for kind, idx in reversed(bits))
            if last.get(path) != v:
                last[path] = v
                lines.append(f"{v}{ids[path]}" if len(bits) == 1 else f"b{v} {ids[path]}")
        lines.append(f"#{10 * t + 5}")
        lines.append(f"0{ids['clk']}")
    lines.append(f"#{10 * len(frames_vals)}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def assert_names(work):
    """The assertions' names (inst.inst.label) in the order of the model's
    bad-state outputs, as ABC numbers them."""
    ywa = json.load(open(os.path.join(work, "model", "design_aiger.ywa")))
    return [".".join(p.lstrip("\\") for p in a) if isinstance(a, list) else str(a) for a in ywa["asserts"]]


def replay(work, engine_dir, out):
    """Simulate; write the VCD; return (last frame, names of the assertions
    failing in it).  AigError when the witness does not reproduce a failure."""
    md = os.path.join(work, "model")
    model = read_aig(os.path.join(md, "design_aiger.aig"))
    n_in, n_latch = model[0], model[1]
    amap, ninit = read_map(os.path.join(md, "design_aiger.aim"))
    ywa = json.load(open(os.path.join(md, "design_aiger.ywa")))
    names = assert_names(work)
    frames = read_aiw(os.path.join(engine_dir, "trace.aiw"), n_in, n_latch)
    trace = simulate(model, frames)
    for t, (_, _, cons) in enumerate(trace):
        if 0 in cons:
            raise AigError(f"the witness breaks an assumption in frame {t}: not a counterexample")
    failing = [names[k] if k < len(names) else f"output {k}" for k, v in enumerate(trace[-1][1]) if v]
    if not failing:
        raise AigError(f"no assertion fails in the witness's last frame ({len(trace) - 1})")
    clocks = {c["input"] for c in ywa.get("clocks", [])}
    init_of = {(name, bit): idx for idx, bit, name in amap.get("init", [])}
    signals = {}
    for kind in ("input", "latch", "invlatch"):
        for idx, bit, name in amap.get(kind, []):
            if kind == "input" and idx in clocks:
                continue
            bits = signals.setdefault(tuple(split_path(name)), [])
            while len(bits) <= bit:
                bits.append(("none", 0))
            if kind == "input":
                bits[bit] = ("in", idx)
            else:
                src = (kind, idx)
                bits[bit] = ("init", (init_of[(name, bit)], src)) if (name, bit) in init_of else src

    def frame_vals(t):
        vals, bad, _ = trace[t]

        def get(kind, idx):
            if kind == "in":
                return vals[idx]
            if kind in ("latch", "invlatch"):
                return vals[n_in + idx] ^ (kind == "invlatch")
            if kind == "init":  # an uninitialised flip-flop: its first value is an input
                return vals[idx[0]] if t == 0 and ninit is not None else get(*idx[1])
            if kind == "bad":
                return bad[idx]
            return "x"  # a bit of the signal the model has under no name
        return get

    top = "top"
    try:  # the harness's name, as SymbiYosys's own traces have it
        mods = json.load(open(os.path.join(md, "design.json")))["modules"]
        top = next((m["name"] for m in mods if m.get("attributes", {}).get("top")), mods[0]["name"])
    except (OSError, ValueError, KeyError, IndexError):
        pass
    write_vcd(out, signals, [frame_vals(t) for t in range(len(trace))], names, top)
    return len(trace) - 1, failing


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: aig_trace.py WORKDIR ENGINE_DIR OUT.vcd")
    try:
        frame, failing = replay(*sys.argv[1:])
    except (AigError, OSError, ValueError, KeyError) as e:
        sys.exit(f"aig_trace: {e}")
    print(f"frame {frame}: {' '.join(failing)}")


if __name__ == "__main__":
    main()
